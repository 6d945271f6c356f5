/*
 * picture.c — SVG pictures of Dots-and-Boxes and Cram positions, written
 * element by element with fprintf (picture.h has the contract).
 *
 * Every coordinate is a whole number of pixels, the board included, so
 * that the output is the same bytes on every machine (no floating point
 * is printed) and the dots, drawn lines and cells fall on whole pixels.
 * Text widths are estimated from the number of characters, generously,
 * since the font is the viewer's: a label's background is sized from that
 * estimate, and the picture is made wide enough for its caption.
 *
 * Drawing order is painting order: background, boxes, lines, dots, then
 * the labels, so that a label is never hidden under a line.
 */
#include "picture.h"

#include <assert.h>
#include <string.h>

/* Dots-and-Boxes: the distance between two dots, and the margin around
 * the board, which holds the labels of the border lines. 72 leaves room
 * on each side of a label for the line under it to show. */
enum { DOTS_STEP = 72, DOTS_MARGIN = 40, DOT_RADIUS = 5, DRAWN_WIDTH = 6 };
/* Cram: the side of a cell, and the margin around the board. */
enum { CRAM_CELL = 64, CRAM_MARGIN = 24 };
/* Labels: font size, estimated width of a character (bold digits are
 * about 0.7 em), padding on each side, height. */
enum { LABEL_FONT = 13, LABEL_CHAR = 8, LABEL_PAD = 5, LABEL_HEIGHT = 18 };
/* The caption: font size, estimated width of a character, the room it
 * takes under the board, the least room on its left and right. */
enum { CAPTION_FONT = 15, CAPTION_CHAR = 9, CAPTION_ROOM = 56, CAPTION_PAD = 24 };

#define WHITE "#ffffff"
#define OPEN_LINE "#afb8c1"      /* an open line that is not a best move */
#define NEUTRAL_TEXT "#57606a"   /* a label neither best nor worse: no best
                                    move given, a Cram move that loses */
#define NEUTRAL_EDGE "#d0d7de"
#define BEST_FILL "#dafbe1"      /* a best move's label background */
#define CELL_EDGE "#8c959f"      /* Cram: the grid between free cells */
#define COVERED "#424a53"        /* Cram: a covered cell */

/* A worse move's red: from WORSE_NEAR one box below the best to
 * WORSE_FAR at WORSE_SCALE boxes below it and beyond, so that a small
 * mistake reads as milder than a big one. */
static const int WORSE_NEAR[3] = {0xa4, 0x6e, 0x66};
static const int WORSE_FAR[3] = {0xcf, 0x22, 0x2e};
enum { WORSE_SCALE = 6 };

/* The fill and letter colours of a box taken by A, by B, by any other
 * letter. */
static const char *const BOX_FILL[3] = {"#ddf4ff", "#fff1e5", "#eaeef2"};
static const char *const BOX_TEXT[3] = {"#0969da", "#bc4c00", "#57606a"};

void rdb_picture_xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            /* XML 1.0 has no way to write these, not even as entities */
            fputc(c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '?' : c, f);
        }
    }
}

/* Generous width in pixels of the text s, each byte a character of
 * char_width pixels. */
static int text_width(const char *s, int char_width)
{
    return (int)strlen(s) * char_width;
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

/* The document's start: size, viewBox, fonts, white background. */
static void svg_begin(FILE *f, int width, int height)
{
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n"
            "<rect width=\"%d\" height=\"%d\" fill=\"" WHITE "\"/>\n",
            width, height, width, height, width, height);
}

/* The caption centred under the board, its baseline at y; then the end of
 * the document. 0, or -1 when a write failed. */
static int svg_end(FILE *f, int width, int y, const char *caption)
{
    if (caption) {
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" "
                "fill=\"" RDB_PICTURE_INK "\">",
                width / 2, y, CAPTION_FONT);
        rdb_picture_xml_text(f, caption);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

/* The picture's width: the board's and its margins, or the caption's if
 * that is wider; even, so that a board centred in it sits on whole
 * pixels. */
static int picture_width(int board, int margin, const char *caption)
{
    int w = board + 2 * margin;
    if (caption)
        w = max_int(w, text_width(caption, CAPTION_CHAR) + 2 * CAPTION_PAD);
    return w + (w & 1);
}

/* How a label is coloured. */
typedef struct {
    char text[8], edge[8], fill[8];
    int bold;
} label_style;

static void style_set(label_style *s, const char *text, const char *edge, const char *fill,
                      int bold)
{
    snprintf(s->text, sizeof s->text, "%s", text);
    snprintf(s->edge, sizeof s->edge, "%s", edge);
    snprintf(s->fill, sizeof s->fill, "%s", fill);
    s->bold = bold;
}

/* The red of a move worth `worse` (> 0) less than the best. */
static void style_worse(label_style *s, int worse)
{
    int t = worse < WORSE_SCALE ? worse : WORSE_SCALE;
    int rgb[3];
    for (int k = 0; k < 3; k++)
        rgb[k] = WORSE_NEAR[k] + (WORSE_FAR[k] - WORSE_NEAR[k]) * (t - 1) / (WORSE_SCALE - 1);
    char colour[8];
    snprintf(colour, sizeof colour, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
    style_set(s, colour, colour, WHITE, 0);
}

/* A label centred on (x, y): a rounded box and the text in it, then the
 * mark (a loony mark, smaller) when not '\0'. */
static void label(FILE *f, int x, int y, const char *text, char mark, const label_style *s)
{
    char shown[32];
    snprintf(shown, sizeof shown, "%s%c", text, mark);
    int w = max_int(text_width(shown, LABEL_CHAR) + 2 * LABEL_PAD, LABEL_HEIGHT + 2);
    fprintf(f,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"5\" fill=\"%s\" "
            "stroke=\"%s\" stroke-width=\"1\"/>\n",
            x - w / 2, y - LABEL_HEIGHT / 2, w, LABEL_HEIGHT, s->fill, s->edge);
    /* the baseline a third of the font size under the middle centres
     * digits, whose height is about two thirds of it */
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"%d\"%s text-anchor=\"middle\" fill=\"%s\">",
            x, y + (LABEL_FONT + 1) / 3, LABEL_FONT, s->bold ? " font-weight=\"bold\"" : "",
            s->text);
    rdb_picture_xml_text(f, text);
    if (mark) {
        fprintf(f, "<tspan font-size=\"%d\">", LABEL_FONT - 2);
        rdb_picture_xml_text(f, (char[]){mark, '\0'});
        fputs("</tspan>", f);
    }
    fputs("</text>\n", f);
}

/* The two ends of a Dots-and-Boxes line, in pixels, and its name. */
typedef struct {
    int x1, y1, x2, y2;
    char name[24];
} dots_segment;

static dots_segment dots_line(const rdb_dots_picture *p, int x0, int y0, int line)
{
    dots_segment s;
    int nh = (p->rows + 1) * p->cols;
    if (line < nh) {
        int i = line / p->cols, j = line % p->cols;
        s.x1 = x0 + j * DOTS_STEP;
        s.y1 = s.y2 = y0 + i * DOTS_STEP;
        s.x2 = s.x1 + DOTS_STEP;
        snprintf(s.name, sizeof s.name, "h%d,%d", i, j);
    } else {
        int i = (line - nh) / (p->cols + 1), j = (line - nh) % (p->cols + 1);
        s.x1 = s.x2 = x0 + j * DOTS_STEP;
        s.y1 = y0 + i * DOTS_STEP;
        s.y2 = s.y1 + DOTS_STEP;
        snprintf(s.name, sizeof s.name, "v%d,%d", i, j);
    }
    return s;
}

int rdb_picture_dots_svg(FILE *f, const rdb_dots_picture *p)
{
    assert(p->rows >= 1 && p->cols >= 1);
    const int nlines = 2 * p->rows * p->cols + p->rows + p->cols;
    assert(nlines <= 64);
    const uint64_t all = nlines == 64 ? ~0ull : (1ull << nlines) - 1;
    const uint64_t open = all & ~p->drawn, best = p->best & open;

    const int bw = p->cols * DOTS_STEP, bh = p->rows * DOTS_STEP;
    const int width = picture_width(bw, DOTS_MARGIN, p->caption);
    const int height = DOTS_MARGIN + bh + (p->caption ? CAPTION_ROOM : DOTS_MARGIN);
    const int x0 = (width - bw) / 2, y0 = DOTS_MARGIN;
    svg_begin(f, width, height);

    for (int r = 0; p->owner && r < p->rows; r++)
        for (int c = 0; c < p->cols; c++) {
            char who = p->owner[r * p->cols + c];
            if (who == ' ' || who == '\0')
                continue;
            int k = who == 'A' ? 0 : who == 'B' ? 1 : 2;
            int x = x0 + c * DOTS_STEP, y = y0 + r * DOTS_STEP;
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", x, y,
                    DOTS_STEP, DOTS_STEP, BOX_FILL[k]);
            fprintf(f,
                    "<text x=\"%d\" y=\"%d\" font-size=\"28\" font-weight=\"bold\" "
                    "text-anchor=\"middle\" fill=\"%s\">",
                    x + DOTS_STEP / 2, y + DOTS_STEP / 2 + 10, BOX_TEXT[k]);
            rdb_picture_xml_text(f, (char[]){who, '\0'});
            fputs("</text>\n", f);
        }

    /* open lines first, faint, so that the drawn ones cover their ends */
    for (int l = 0; l < nlines; l++) {
        if (!(open >> l & 1))
            continue;
        dots_segment s = dots_line(p, x0, y0, l);
        if (best >> l & 1) /* dashed as every open line, or it would read as drawn */
            fprintf(f,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                    "stroke=\"" RDB_PICTURE_BEST "\" stroke-width=\"3\" stroke-dasharray=\"6 4\">",
                    s.x1, s.y1, s.x2, s.y2);
        else
            fprintf(f,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                    "stroke=\"" OPEN_LINE "\" stroke-width=\"2\" stroke-dasharray=\"4 4\">",
                    s.x1, s.y1, s.x2, s.y2);
        /* a viewer shows the title when the pointer rests on the line */
        if (p->value)
            fprintf(f, "<title>%s: %d</title>", s.name, p->value[l]);
        else
            fprintf(f, "<title>%s</title>", s.name);
        fputs("</line>\n", f);
    }
    for (int l = 0; l < nlines; l++) {
        if (!(p->drawn >> l & 1))
            continue;
        dots_segment s = dots_line(p, x0, y0, l);
        fprintf(f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                "stroke=\"" RDB_PICTURE_INK "\" stroke-width=\"%d\"><title>%s</title></line>\n",
                s.x1, s.y1, s.x2, s.y2, DRAWN_WIDTH, s.name);
    }
    for (int i = 0; i <= p->rows; i++)
        for (int j = 0; j <= p->cols; j++)
            fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"" RDB_PICTURE_INK "\"/>\n",
                    x0 + j * DOTS_STEP, y0 + i * DOTS_STEP, DOT_RADIUS);

    if (p->value) {
        /* the best moves' value, from which the others are graded */
        int top = 0, have_top = 0;
        for (int l = 0; l < nlines; l++)
            if (best >> l & 1 && (!have_top || p->value[l] > top))
                top = p->value[l], have_top = 1;
        for (int l = 0; l < nlines; l++) {
            if (!(open >> l & 1))
                continue;
            dots_segment s = dots_line(p, x0, y0, l);
            label_style style;
            if (best >> l & 1)
                style_set(&style, RDB_PICTURE_BEST, RDB_PICTURE_BEST, BEST_FILL, 1);
            else if (have_top && p->value[l] < top)
                style_worse(&style, top - p->value[l]);
            else
                style_set(&style, NEUTRAL_TEXT, NEUTRAL_EDGE, WHITE, 0);
            char text[16];
            snprintf(text, sizeof text, "%d", p->value[l]);
            label(f, (s.x1 + s.x2) / 2, (s.y1 + s.y2) / 2, text, p->mark ? p->mark[l] : '\0',
                  &style);
        }
    }
    return svg_end(f, width, y0 + bh + 38, p->caption);
}

int rdb_picture_cram_svg(FILE *f, const rdb_cram_picture *p)
{
    assert(p->rows >= 1 && p->cols >= 1 && p->rows * p->cols <= 64);
    const int bw = p->cols * CRAM_CELL, bh = p->rows * CRAM_CELL;
    const int width = picture_width(bw, CRAM_MARGIN, p->caption);
    const int height = CRAM_MARGIN + bh + (p->caption ? CAPTION_ROOM : CRAM_MARGIN);
    const int x0 = (width - bw) / 2, y0 = CRAM_MARGIN;
    svg_begin(f, width, height);

    for (int r = 0; r < p->rows; r++)
        for (int c = 0; c < p->cols; c++) {
            int covered = (int)(p->covered >> (r * p->cols + c) & 1);
            fprintf(f,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                    "stroke=\"" CELL_EDGE "\" stroke-width=\"1\"/>\n",
                    x0 + c * CRAM_CELL, y0 + r * CRAM_CELL, CRAM_CELL, CRAM_CELL,
                    covered ? COVERED : WHITE);
        }
    fprintf(f,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            "stroke=\"" RDB_PICTURE_INK "\" stroke-width=\"2\"/>\n",
            x0, y0, bw, bh);

    /* a move's place: the middle of the edge between its two cells; a
     * winning move also colours that edge, short of the corners, which
     * its neighbours share */
    for (int pass = 0; p->nimber && pass < 2; pass++)
        for (int m = 0; m < p->nmoves; m++) {
            const int(*cell)[2] = p->cell[m];
            int across = cell[0][0] == cell[1][0]; /* horizontal domino: a vertical edge */
            int x = across ? x0 + (cell[0][1] + 1) * CRAM_CELL
                           : x0 + cell[0][1] * CRAM_CELL + CRAM_CELL / 2;
            int y = across ? y0 + cell[0][0] * CRAM_CELL + CRAM_CELL / 2
                           : y0 + (cell[0][0] + 1) * CRAM_CELL;
            int half = CRAM_CELL / 2 - 6, wins = p->nimber[m] == 0;
            if (pass == 0 && wins) {
                fprintf(f,
                        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                        "stroke=\"" RDB_PICTURE_BEST "\" stroke-width=\"4\">"
                        "<title>(%d,%d)-(%d,%d): 0</title></line>\n",
                        across ? x : x - half, across ? y - half : y, across ? x : x + half,
                        across ? y + half : y, cell[0][0], cell[0][1], cell[1][0], cell[1][1]);
            } else if (pass == 1) {
                label_style style;
                if (wins)
                    style_set(&style, RDB_PICTURE_BEST, RDB_PICTURE_BEST, BEST_FILL, 1);
                else
                    style_set(&style, NEUTRAL_TEXT, NEUTRAL_EDGE, WHITE, 0);
                char text[16];
                snprintf(text, sizeof text, "%d", p->nimber[m]);
                label(f, x, y, text, '\0', &style);
            }
        }
    return svg_end(f, width, y0 + bh + 38, p->caption);
}
