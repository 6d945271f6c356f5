/*
 * game.h — what a game gives the engine, and the table of games.
 *
 * The engine (src/engine/) builds, probes and verifies databases of any
 * game in which every move takes bits of a universe of at most 64 (a line
 * of Dots-and-Boxes, the two cells of a Cram domino), so that a position's
 * level (bits taken) only ever rises. It knows a game only through an
 * rdb_game: this header is the one the engine includes, never a game's
 * own. A game gives
 *
 *   - its name (in PARAMS and on the command line) and its id (in every
 *     slice file's header), the number of bits a move takes, and words for
 *     reports;
 *   - its universe and symmetries for a database's parameters (open), and
 *     its rules in the bit order of the layout the engine chose (order);
 *   - a slice kernel: the values of a slice from its neighbour slices, one
 *     neighbour in memory at a time. The value type is a byte; the combine
 *     rule is the game's own (the best score for Dots-and-Boxes, the mex of
 *     the children's nimbers for Cram), applied over all neighbours between
 *     slice_begin and slice_finish, so that a game keeps its fast paths;
 *   - its positions as users write them (board positions: Dots-and-Boxes
 *     lines by line id, Cram cells by r*C + c), both ways to and from the
 *     universe's positions, their moves, the value of a move from its
 *     child's stored value (the edge rule), and how a stored byte reads as
 *     a value;
 *   - optionally, a search for positions of levels a build did not keep.
 *
 * Adding a game is one folder that fills an rdb_game, plus one line in the
 * table (game.c).
 */
#ifndef RDB_GAME_H
#define RDB_GAME_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "layout/layout.h"
#include "layout/universe.h"
#include "store/chunk_cache.h"

/* The ranges PARAMS may hold: a last-move penalty of up to 100 boxes (a
 * value's byte must hold every score) and the zstd levels the command line
 * offers. */
#define RDB_MAX_FULL_VALUE 100
#define RDB_ZSTD_LEVEL_MIN -7
#define RDB_ZSTD_LEVEL_MAX 19

/* The games' ids: rdb_params.game, and the id in every slice file (a
 * file's game is a number that never changes). */
#define RDB_GAME_DOTS 1
#define RDB_GAME_CRAM 2

/* The parameters a database is built from: everything its values depend
 * on, as its PARAMS file records them. A game checks the ones it uses and
 * refuses the ones it has no use for. */
typedef struct {
    int game;                /* rdb_game.id */
    int rows, cols;
    uint64_t start;          /* board position the database starts from */
    int full_value;          /* value of the full position (a last-move penalty),
                                within +-RDB_MAX_FULL_VALUE */
    int ngroups;             /* 0 = choose from the memory budget */
    int zstd_level;
    char variant[32];        /* "empty", "swedish", "icelandic" or "custom" */
    int loony;               /* Dots-and-Boxes: values hold the loony state */
    int chains;              /* Dots-and-Boxes: chains of the start are pseudo-lines */
    int store;               /* RDB_STORE_ALL, or RDB_STORE_QUIET(_HALF): the game's
                                own selection of positions (sparse_* below) */
    uint64_t slice_positions; /* a sparse database: the most positions of a slice
                                (0 when PARAMS does not say: one slice a level) */
} rdb_params;

/* The most positions of a sparse database's slice: a slice file's values
 * in memory while it is computed, so that --memory bounds them. */
#define RDB_SPARSE_SLICE_MAX (1ULL << 32)
/* The most a new build chooses by itself: a slice is the work a kill
 * loses, and 2^30 positions are a quarter of an hour of computing on two
 * cores (3x6: 1.0 to 1.5 M positions a second), against over an hour for
 * 2^32; more slice files cost nothing measurable. */
#define RDB_SPARSE_SLICE_DEFAULT (1ULL << 30)

/* Which positions a database stores: every one, or only those the game
 * selects (Dots-and-Boxes: the quiet ones, no box with three sides), the
 * others valued from them at lookup time. */
enum { RDB_STORE_ALL = 0, RDB_STORE_QUIET = 1, RDB_STORE_QUIET_HALF = 2 };

/* A move of a board position, as a user sees it. */
typedef struct {
    int id;            /* the game's number for it (a line id, a domino) */
    uint64_t child;    /* the board position after it */
    int bit;           /* the universe bit it takes (layout order), for the
                          edge rule; a move that takes several gives its lowest */
    int again;         /* its player moves again (Dots-and-Boxes: it completes
                          a box): a perfect game plays such a move first among
                          the best, so that a run of captures reads as one turn */
} rdb_game_move;

/* Most moves a board position of any game can have (Cram on 64 cells). */
#define RDB_GAME_MAX_MOVES 112

/* How the engine answers a search for what is stored: RDB_OK with *value
 * (the stored byte) for a canonical position of a kept level, RDB_E_MISSING
 * when its level is not stored, any other status on failure. */
typedef rdb_status (*rdb_stored_fn)(void *ctx, uint64_t canonical, int *value, rdb_error *err);

/* How the engine hands a game the stored bytes of a sparse database: the
 * byte at `index` of `level`, or a failure (a damaged file). */
typedef rdb_status (*rdb_sparse_fetch)(void *ctx, int level, uint64_t index, int *value,
                                       rdb_error *err);

/* A game's state for one database (its board and rules, `game` below) and
 * its slice kernel's tables (`kernel`) are the game's own types, opaque to
 * the engine. */

typedef struct {
    const char *name;        /* "dots": PARAMS, command line, reports */
    int id;                  /* in every slice file's header: never reused */
    int move_bits;           /* bits every move takes: the step between levels */
    int kernel_bytes;        /* working memory per position of a slice, beyond
                                its value byte, while the kernel computes it */
    const char *bits_name;   /* what the universe's bits are: "open lines" */
    const char *bit_noun;    /* what one bit is, plural: "lines" */
    const char *level_name;  /* what a level counts: "lines drawn beyond the start" */
    int impartial;           /* values are nimbers (a move to 0 wins), not scores */

    /* ---- the game of a database ---- */

    /* Check params (RDB_E_INPUT with a message naming what is wrong) and
     * set up the game: its universe in natural order, with its symmetries
     * and interchangeable bits. */
    rdb_status (*open)(const rdb_params *p, rdb_universe *u, void **game,
                       rdb_error *err);
    /* The rules in the bit order of the layout plan the engine chose. */
    rdb_status (*order)(void *game, const rdb_layout_plan *plan, rdb_error *err);
    void (*close)(void *game);
    /* The lines `info` prints about the universe ("open lines  24"). */
    void (*describe)(const void *game, FILE *out);

    /* ---- the slice kernel (rules in layout order) ---- */

    rdb_status (*kernel_new)(const void *game, const rdb_layout *lay,
                             void **kernel, rdb_error *err);
    void (*kernel_free)(void *kernel);
    /* Start slice s: values (s->size bytes) and the kernel's own working
     * memory hold "no move seen" (the full position: its value). */
    void (*slice_begin)(void *kernel, const rdb_slice *s, int8_t *values);
    /* Whether some move of some position of s leads into slice n (n is one
     * of the slices move_bits levels up whose counts are s's plus some in
     * each group); the engine reads only those neighbours. */
    int (*leads_to)(const void *kernel, const rdb_slice *s, const rdb_slice *n);
    /* Combine into s's values the moves that lead into n, whose values
     * are nvalues. Any order of neighbours gives the same result. */
    void (*slice_relax)(void *kernel, const rdb_slice *s, const rdb_slice *n,
                        const int8_t *nvalues, int8_t *values);
    /* Finish slice s once every neighbour is combined: values then hold
     * the stored bytes. Fails when a value does not fit. */
    rdb_status (*slice_finish)(void *kernel, const rdb_slice *s, int8_t *values,
                               rdb_error *err);

    /* ---- positions (rules in layout order) ---- */

    /* RDB_OK when board position b can arise in the database, else
     * RDB_E_INPUT with a message saying why not. */
    rdb_status (*check)(const void *game, uint64_t b, rdb_error *err);
    /* Universe position (layout order) of a checked board position. */
    uint64_t (*position)(const void *game, uint64_t b);
    /* The board position of a universe position (layout order): the
     * inverse of position, the start's lines included. */
    uint64_t (*board)(const void *game, uint64_t pos);
    /* Draw a universe position (layout order) as a diagram. */
    void (*print)(const void *game, FILE *out, uint64_t pos);
    /* The moves of a checked board position, in the game's order; returns
     * how many (at most RDB_GAME_MAX_MOVES). */
    int (*moves)(const void *game, uint64_t b, rdb_game_move *out);
    /* Stored byte of a move for the player to move in pos (layout order)
     * who takes `bit`, given the stored byte of the child. */
    int (*move_value)(const void *game, uint64_t pos, int bit, int child);
    /* What a stored byte says: the value for the player to move, and a
     * mark (Dots-and-Boxes: who must make the next loony move, a
     * LOONY_MARK_* of common/loony_mark.h; LOONY_MARK_NONE for games
     * without). */
    void (*decode)(const void *game, int stored, int *value, int *mark);
    /* The stored byte of pos (layout order) whose level the build did not
     * keep, by a search that asks `stored` for what is kept; NULL when the
     * game's builds keep every level. */
    rdb_status (*solve_unstored)(const void *game, const rdb_layout *lay,
                                 uint64_t pos, rdb_stored_fn stored, void *ctx, int *value,
                                 rdb_error *err);

    /* ---- a database of some positions only (optional: NULL when the
     * game stores every position) ----
     * The game numbers the positions it stores densely, level by level
     * (the engine keeps one slice file per level), and values every
     * position from them. */
    rdb_status (*sparse_open)(const void *game, void **index, rdb_error *err);
    void (*sparse_close)(void *index);
    /* What valuing and building need beyond counting (an opened index
     * only counts, which is all a plan needs): called once before
     * sparse_value or sparse_level. lookups: for a few positions'
     * sparse_value (a probe's, one at a time), which may make what they
     * need as they go; else for a build's or a verify's every one. */
    rdb_status (*sparse_prepare)(void *index, int lookups, rdb_error *err);
    uint64_t (*sparse_level_size)(const void *index, int level);
    /* Memory the numbering itself holds, in bytes. */
    uint64_t (*sparse_bytes)(const void *index);
    /* The stored byte's meaning (decode) of a checked board position,
     * from the stored bytes that fetch gives. */
    rdb_status (*sparse_value)(const void *game, const void *index, uint64_t board,
                               rdb_sparse_fetch fetch, void *ctx, int *value, rdb_error *err);
    /* A level is kept in slices of consecutive positions: where the one
     * that starts at position `from` (0, or where another ended) ends, at
     * most `most` positions on if the game can cut there, and beyond from
     * (at most the level's size). */
    uint64_t (*sparse_part_end)(const void *index, int level, uint64_t from, uint64_t most);
    /* The bytes of a level's positions [from, to) (a slice as
     * sparse_part_end cuts them) from every level above it, read through
     * `above`, with the calling OpenMP team's threads. Fails when a value
     * does not fit, when a level above cannot be read, or (RDB_E_STOPPED)
     * on a stop request. */
    rdb_status (*sparse_level)(const void *game, const void *index, int level, uint64_t from,
                               uint64_t to, rdb_chunk_cache *above, uint64_t dropped,
                               int8_t *values, rdb_error *err);
    /* A database that keeps part of each level's positions for good and
     * the rest (the *dropped* part) only while the `window` levels below
     * it are built: the window, or -1 when it keeps all; and whether the
     * slice of a level that starts at `from` is of the dropped part. The
     * builder deletes a level's dropped part once the level `window`
     * below it is built (the manifest records it), and the rest of the
     * levels' at the end; sparse_level is told which levels' are gone
     * (`dropped`, bit = level) and sparse_value never reads them. */
    int (*sparse_window)(const void *index);
    int (*sparse_dropped_part)(const void *index, int level, uint64_t from);
    /* What building a position takes on this machine: up to `most`
     * positions spread over the levels computed by `threads` threads at
     * once, with the values above read as 0; *positions and *seconds say
     * how many and how long (CPU seconds, the threads' summed), the dropped parts of dropped_at[level] (bit = level)
     * gone while a level is built, as the build would have them (plan.c's
     * drop_schedule). For a plan. */
    rdb_status (*sparse_sample)(const void *index, uint64_t most, const uint64_t *dropped_at,
                                int threads, uint64_t *positions, double *seconds,
                                rdb_error *err);
} rdb_game;

/* rdb_params.store's name ("all", "quiet", "quiet-half"), and the store
 * of a name (-1 for none). */
const char *rdb_store_name(int store);
int rdb_store_named(const char *name);

/* The game with this name or id, or NULL. */
const rdb_game *rdb_game_named(const char *name);
const rdb_game *rdb_game_with_id(int id);

#endif
