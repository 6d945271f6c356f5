/*
 * dots_quiet_index.h — the quiet positions of a Dots-and-Boxes board,
 * numbered densely, level by level, after symmetry.
 *
 * A position is quiet when no box has exactly three sides drawn; every
 * other position is valued from quiet ones by the capture rules
 * (dots_capture.h), so a quiet database stores these alone. They are
 * 40 to 500 times fewer than all positions, and a bit per position of the
 * whole board would already cost more than their values, so they are
 * ranked directly:
 *
 *  - The *frame* is the set of open border lines (or, when the start has
 *    drawn every border line, the open lines next to the border): every
 *    symmetry of the board maps it onto itself, and it holds every class
 *    of interchangeable lines (the two outer lines of a corner box).
 *    Canonical form is decided by the frame's state alone, as Wilson
 *    decided it by one group: normalise each class (its drawn lines are
 *    its lowest ones), then apply the symmetry that makes the frame's
 *    state least. Frame states with symmetries of their own keep every
 *    image of the rest, so a few positions are stored more than once;
 *    each holds the right value.
 *  - The other open lines (the *inside*) are ranked among the quiet
 *    completions of the frame's state by a transfer matrix over the rows
 *    of boxes: a box row is scanned left to right, deciding at each step
 *    the vertical line on a box's right and the horizontal line below it,
 *    and the state between steps is the top side of every box of the row
 *    and the left side of the next (2^(W+1) states for rows of W boxes;
 *    the board is scanned along its shorter side). Tables count the
 *    completions from each step and state with each number of lines, so
 *    a rank costs one pass over the steps; a step's table is shared by
 *    the frame states that agree on the frame lines of the steps after.
 *
 * A level (open lines drawn) is the canonical frame states in increasing
 * order, each followed by its quiet completions in rank order.
 */
#ifndef RDB_DOTS_QUIET_INDEX_H
#define RDB_DOTS_QUIET_INDEX_H

#include <stdint.h>

#include "common/error.h"
#include "dots/dots_board.h"

typedef struct dots_quiet_index dots_quiet_index;

/* The index of board b from the start position `start` (its symmetries are
 * the board's transforms that map start onto itself); split: each level
 * in its two classes (dots_quiet_class), class 0's slots first. */
rdb_status dots_quiet_index_new(const dots_board *b, uint64_t start, int split,
                                dots_quiet_index **out, rdb_error *err);
void dots_quiet_index_free(dots_quiet_index *q);

/* Make the tables a rank and an enumeration read (dots_quiet_index_bytes
 * of memory): once, before dots_quiet_rank or dots_quiet_each. A new
 * index only counts, which is all a plan needs. */
rdb_status dots_quiet_index_prepare(dots_quiet_index *q, rdb_error *err);

/* The same for a few lookups (a probe's): the tables are made a frame
 * state at a time, as dots_quiet_rank first reads them, and take memory
 * only there (4x5's are 3.7 GB whole). A rank may then write the tables:
 * one thread at a time. Not for rankers (dots_quiet_rank_next), which
 * read every frame state's tables in a build. */
rdb_status dots_quiet_index_prepare_lookups(dots_quiet_index *q, rdb_error *err);

/* Lines open at the start: levels run from 0 to this. */
int dots_quiet_open_lines(const dots_quiet_index *q);

/* Whether a position (a set of lines holding the start) has no box with
 * exactly three sides. */
int dots_quiet_is_quiet(const dots_quiet_index *q, uint64_t lines);

/* The position that stands for `lines` in the index: the same value. */
uint64_t dots_quiet_canonical(const dots_quiet_index *q, uint64_t lines);

/* The canonical form in two parts, for many positions that share their
 * frame lines (the symmetry that makes a position canonical depends on
 * them alone, and maps the inside onto itself): canonical(lines) is
 * canonical(lines less its inside lines) | dots_quiet_image(q, t, its
 * inside lines), t = dots_quiet_transform(q, lines); 0 is the identity. */
int dots_quiet_transform(const dots_quiet_index *q, uint64_t lines);
uint64_t dots_quiet_image(const dots_quiet_index *q, int t, uint64_t lines);

/* The open lines outside the frame. A stored position with one of them
 * drawn more is stored as it is (its frame state is unchanged, so is the
 * symmetry that makes it canonical): its own canonical form. */
uint64_t dots_quiet_inside_lines(const dots_quiet_index *q);

/* The open lines of `lines` whose move leads to the same position as a
 * move by a lower open line of their class (interchangeable lines, which
 * touch the same boxes: the two outer lines of a corner box): a
 * position's best move is found without them. All frame lines, so the
 * same for every position of a frame state. */
uint64_t dots_quiet_twin_moves(const dots_quiet_index *q, uint64_t lines);

/* Positions stored at a level, and in all levels. */
uint64_t dots_quiet_level_size(const dots_quiet_index *q, int level);
uint64_t dots_quiet_total(const dots_quiet_index *q);

/* The *slots* a level is cut in: the canonical frame states, in a split
 * index twice, once for each class (slot f + class x frame states). The
 * functions below that take a frame state take a slot. */
int dots_quiet_frames(const dots_quiet_index *q);

/* A position's class: the parity of the boxes it has completed. Within a
 * level (a number of lines) it is the parity of lines + boxes, which every
 * move that keeps the position quiet and every run of captures along a
 * path of boxes with two sides changes (one line and no box; n + 1 lines
 * and n boxes): so a position of one class is valued from positions of
 * the other but for cycles and knots (dots_corridors.h), and a database
 * may keep one class and value the other from it. */
int dots_quiet_split(const dots_quiet_index *q);
int dots_quiet_class(const dots_quiet_index *q, uint64_t lines);
int dots_quiet_slot_class(const dots_quiet_index *q, int slot);

/* Index within its level of a canonical quiet position. */
uint64_t dots_quiet_rank(const dots_quiet_index *q, uint64_t canonical);

#define DOTS_QUIET_MAX_STEPS 64 /* a step decides one line or two */

/* Ranking a run of positions, each from the one before. A rank sums one
 * table entry a step, and a step's entry depends only on the lines of the
 * steps up to it (those its state holds, and its own) and on how many
 * inside lines the steps after hold: two positions of one frame state
 * and level that differ only in some inside lines have the same entries
 * but in the steps from the first that decides one of those lines to the
 * last that reads one. A ranker keeps the last position it ranked and
 * its entries, so the next one costs those steps: a few when positions
 * come in the order of the index or near it (the children by one frame
 * line of a frame state's positions, in order), and a few more when they
 * differ in a stretch of steps (the same children when the symmetry that
 * makes them canonical reverses the rows). */
typedef struct {
    uint64_t lines;  /* the last position ranked; 0 for none */
    int frame, level;
    int known;       /* entry[u] and sum[u + 1] hold for u < known
                        (dots_quiet_rank_head reads the steps before a
                        cut only) */
    uint64_t first;  /* its frame state's first index at its level */
    uint32_t entry[DOTS_QUIET_MAX_STEPS]; /* its entries */
    uint64_t sum[DOTS_QUIET_MAX_STEPS + 1]; /* of steps < u, summed */
    int stale;       /* dots_quiet_rank_memo: the entries of the steps before
                        the memo's cut are not known (their sum is) */
} dots_quiet_ranker;

/* An empty ranker. */
void dots_quiet_ranker_init(dots_quiet_ranker *rk);

/* dots_quiet_rank of `canonical`, from the position rk ranked last. */
uint64_t dots_quiet_rank_next(const dots_quiet_index *q, dots_quiet_ranker *rk, uint64_t canonical);

/* Index of the first position of frame state f (0 <= f <= frames) at a
 * level: the positions of frames [f0, f1) are [first(f0), first(f1)). */
uint64_t dots_quiet_first(const dots_quiet_index *q, int level, int frame);

/* The first frame state whose positions at a level start at `index` or
 * later (frames when none does). */
int dots_quiet_frame_from(const dots_quiet_index *q, int level, uint64_t index);

/* Where a stretch of a level's positions that starts at `from` (the start
 * of a frame state's) ends when it takes whole frame states, as many as
 * hold at most `most` positions, and at least one that holds some. */
uint64_t dots_quiet_part_end(const dots_quiet_index *q, int level, uint64_t from, uint64_t most);

/* Where an enumeration stands: what the ranks of the visited position's
 * descendants by inside lines need (dots_quiet_inside_rank). */
typedef struct dots_quiet_path dots_quiet_path;

/* Call visit(ctx, index, lines, path) for every stored position of the
 * level whose frame state is f, in index order. */
typedef void (*dots_quiet_visit_fn)(void *ctx, uint64_t index, uint64_t lines,
                                    const dots_quiet_path *path);
void dots_quiet_each(const dots_quiet_index *q, int level, int frame, dots_quiet_visit_fn visit,
                     void *ctx);

/* Index at its level of the position being visited (`lines`, at `path`)
 * with some of its open inside lines `added`, when that position is
 * stored (quiet): a child by one line, or where a run of captures ends.
 * It keeps the frame state, and so its canonical form; its slot (the
 * class changes with the parity of the boxes the lines complete) goes to
 * *slot. Its table entries are the position's but in the steps from the
 * first added line's to the last that reads one, with more lines to place
 * before those: a few table reads (a child by one line: the walk sums its
 * entries before as it goes), where a rank reads one a step. */
uint64_t dots_quiet_inside_rank(const dots_quiet_index *q, const dots_quiet_path *path,
                                uint64_t lines, uint64_t added, int *slot);

/* The same for the commonest such position, the quiet child by one open
 * inside line `line` of the position being visited (`lines`): no table
 * read, its entries all summed by the walk. */
uint64_t dots_quiet_inside_child(const dots_quiet_index *q, const dots_quiet_path *path,
                                 uint64_t lines, int line);

/* A stored position that holds every line of the position being visited
 * and some more (`added`: frame lines, inside lines, or both; in another
 * frame state, then): its table entries of the steps after the last that
 * reads an added line are the visited position's. Those steps decide the
 * same lines (the added are decided before), and their tables count the
 * completions of the frame lines they decide, which are the same; the
 * state before each is the same (no added line is held in it), so are
 * the inside lines still to place and the parity of the boxes still to
 * complete (a box an added line completes is completed at a step that
 * reads that line). So its rank is its entries of the steps before
 * dots_quiet_cut(q, added), ranked by a ranker from the position it
 * ranked last, and dots_quiet_path_tail(q, path, cut), the visited
 * position's entries of the steps from the cut on: dots_quiet_rank_head.
 * (The tail may be kept for later: it is a number.) */
int dots_quiet_cut(const dots_quiet_index *q, uint64_t added);
uint64_t dots_quiet_path_tail(const dots_quiet_index *q, const dots_quiet_path *path, int cut);
/* The tails of the n cuts cut[0..n-1] at once, into tail[]. */
void dots_quiet_path_tails(const dots_quiet_index *q, const dots_quiet_path *path, const int *cut,
                           int n, uint64_t *tail);
uint64_t dots_quiet_rank_head(const dots_quiet_index *q, dots_quiet_ranker *rk, uint64_t canonical,
                              int cut, uint64_t tail);

/* The commonest such position, the quiet child by one frame line canonical
 * as it is (the identity makes its frame state canonical, the inside
 * lines as they are), ranked from the visited position's entries alone,
 * without a ranker: before the line's step its entries are the position's
 * at the same place of the child's frame state's block (the same state,
 * the same inside lines to place); at the line's step, the choice that
 * draws it; after, up to the line's last read, the row of the state with
 * the line's bit set; after that the position's own, its tail at
 * dots_quiet_cut(q, 1 << line).
 *
 * dots_quiet_frame_child_steps fills what the children by `line` of the
 * positions of slot `slot` share, their slot being `child_slot`, and
 * returns the line's last read. dots_quiet_path_entries copies the
 * visited position's entries (one a step, at most DOTS_QUIET_MAX_STEPS), to be used after
 * the walk has moved on, and returns the first step whose entry differs
 * from the position visited before's. dots_quiet_frame_children_rank
 * ranks n such children by one line: the k-th that of the position whose
 * lines are lines[who[k]] and entries entry[who[k]], its tail tail[k],
 * into rank[k]. It sums their entries into sum[1..last + 1] (sum[0] = 0),
 * the k-th's from step from[k] on: the steps before hold the sums of the
 * child it ranked before (in this call or the one before with that sum),
 * when none of those steps' entries changed since (the positions of a
 * frame state come in the walk's order, and differ mostly in their last
 * steps). */
typedef struct {
    int last;            /* the line's last read: the entries of steps 0..last move */
    int child_slot;
    uint64_t frame_part; /* the child's frame lines; its inside lines are the position's */
    int64_t off[DOTS_QUIET_MAX_STEPS]; /* how far each of those entries moves */
} dots_quiet_frame_child;
int dots_quiet_frame_child_steps(const dots_quiet_index *q, int slot, int child_slot, int line,
                                 dots_quiet_frame_child *fc);
int dots_quiet_path_entries(const dots_quiet_index *q, const dots_quiet_path *path,
                            uint32_t *entry);
void dots_quiet_frame_children_rank(const dots_quiet_index *q, const dots_quiet_frame_child *fc,
                                    int level, uint64_t *sum, int n, const int16_t *who,
                                    const int8_t *from,
                                    const uint32_t (*entry)[DOTS_QUIET_MAX_STEPS],
                                    const uint64_t *lines, const uint64_t *tail, uint64_t *rank);

/* The slot of a canonical position's frame state in class `class` (0 in
 * an index not split). */
int dots_quiet_frame_slot(const dots_quiet_index *q, uint64_t canonical, int class);

/* dots_quiet_rank_head (cut >= 0) or dots_quiet_rank_next (cut < 0) of a
 * position whose slot and level the caller knows, so that they are not
 * found again for each: the children by one frame line of a frame
 * state's positions share theirs. Its completed boxes are counted only
 * when a step is read. */
uint64_t dots_quiet_rank_at(const dots_quiet_index *q, dots_quiet_ranker *rk, uint64_t canonical,
                            int cut, uint64_t tail, int slot, int level);

/* Sums of the first rows' entries, remembered. A ranker reads every step
 * from the first to the last where a position differs from the one it
 * ranked before. Positions that differ in their first rows come often:
 * the children by a frame line whose frame state is canonical under a
 * symmetry that reverses the rows have the position's last rows as their
 * first, and the positions of a frame state come in index order, so
 * differ mostly in their last rows; likewise the positions corridors lead
 * to in other frame states. But the entries of the steps before a cut at
 * a row's end depend only on the slot, the level and the inside lines of
 * those steps, which a frame state's positions repeat again and again: a
 * memo keyed by them gives their sum, and the ranker reads the steps from
 * the cut to the last that differs. On 4x5's level 22, with the first
 * two rows' 14 lines as the key, 99% of the lookups find their sum; the
 * children of another symmetry read 2.0 steps instead of 7.5, the
 * leaves ranked whole 3.9 instead of 7.7. A memo may hold entries of any
 * slot and level of one index: its key is all a sum depends on. */
#define DOTS_QUIET_MEMO_LOG2 14
typedef struct {
    uint64_t key; /* 0: empty */
    uint64_t sum;
} dots_quiet_memo_entry;
typedef struct {
    dots_quiet_memo_entry entry[1 << DOTS_QUIET_MEMO_LOG2];
} dots_quiet_memo;

/* An empty memo. */
void dots_quiet_memo_init(dots_quiet_memo *memo);

/* dots_quiet_rank_at of a position ranked whole (cut < 0), the sum of
 * the steps before the memo's cut taken from the memo when the position
 * differs from the one rk ranked last before the cut. */
uint64_t dots_quiet_rank_memo(const dots_quiet_index *q, dots_quiet_ranker *rk,
                              dots_quiet_memo *memo, uint64_t canonical, int slot, int level);

/* The same for a position whose slot and level are not known: what
 * dots_quiet_rank_next gives. */
uint64_t dots_quiet_rank_next_memo(const dots_quiet_index *q, dots_quiet_ranker *rk,
                                   dots_quiet_memo *memo, uint64_t canonical);

/* Bytes the index takes once prepared. */
uint64_t dots_quiet_index_bytes(const dots_quiet_index *q);

#endif
