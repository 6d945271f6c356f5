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
