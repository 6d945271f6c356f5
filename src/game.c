/*
 * game.c — the table of games (game.h). A new game is one folder that
 * fills an rdb_game, and one line here.
 */
#include "game.h"

#include <string.h>

#include "cram/cram.h"
#include "dots/dots.h"

static const rdb_game *const games[] = {
    &dots_game_entry,
    &cram_game_entry,
};

const rdb_game *rdb_game_named(const char *name)
{
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (strcmp(games[i]->name, name) == 0)
            return games[i];
    return NULL;
}

const rdb_game *rdb_game_with_id(int id)
{
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (games[i]->id == id)
            return games[i];
    return NULL;
}

/* The names of rdb_params.store, as PARAMS and --store give them. */
static const char *const store_names[] = {"all", "quiet", "quiet-half"};

const char *rdb_store_name(int store)
{
    return store >= 0 && store < (int)(sizeof store_names / sizeof store_names[0])
               ? store_names[store]
               : "unknown";
}

int rdb_store_named(const char *name)
{
    for (int i = 0; i < (int)(sizeof store_names / sizeof store_names[0]); i++)
        if (strcmp(store_names[i], name) == 0)
            return i;
    return -1;
}
