/*
 * retrodb.c — the command-line program's entry point: it only finds the
 * subcommand named by the first words of argv (the table below) and hands
 * it the rest. Each subcommand parses its own options from its table
 * (options.h), calls the library and turns the result into text or JSON
 * and an exit code. `retrodb help CMD` is `retrodb CMD --help`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "retrodb/version.h"

typedef struct {
    const char *word, *game;  /* "build", "dots"; game NULL for one word */
    int (*run)(int argc, char **argv);
    const rdb_tool_command *spec;
} command;

static const command commands[] = {
    {"build", "dots", rdb_cmd_build_dots, &rdb_build_dots_command},
    {"build", "cram", rdb_cmd_build_cram, &rdb_build_cram_command},
    {"query", NULL, rdb_cmd_query, &rdb_query_command},
    {"play", NULL, rdb_cmd_play, &rdb_play_command},
    {"info", NULL, rdb_cmd_info, &rdb_info_command},
    {"status", NULL, rdb_cmd_status, &rdb_status_command},
    {"verify", NULL, rdb_cmd_verify, &rdb_verify_command},
    {"export", NULL, rdb_cmd_export, &rdb_export_command},
    {"serve", NULL, rdb_cmd_serve, &rdb_serve_command},
    {"solve", "dots", rdb_cmd_solve_dots, &rdb_solve_dots_command},
    {"solve", "cram", rdb_cmd_solve_cram, &rdb_solve_cram_command},
};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

/* A command's description up to its first stop (':', ';', '.', or '('),
 * on one line, for the list: a whole clause, not a line cut short. */
static void print_summary(FILE *f, const rdb_tool_command *spec)
{
    char clause[64];
    size_t n = 0;
    const char *p = spec->about;
    for (; *p && n < sizeof clause - 1; p++) {
        if (*p == ':' || *p == ';' || *p == '(' || (*p == '.' && (p[1] == ' ' || p[1] == '\n' || !p[1])))
            break;
        clause[n++] = *p == '\n' ? ' ' : *p;
    }
    /* too long for a line: back to its last comma */
    if (n == sizeof clause - 1 && *p)
        while (n > 0 && clause[n - 1] != ',')
            n--;
    while (n > 0 && (clause[n - 1] == ' ' || clause[n - 1] == ','))
        n--;
    clause[n] = '\0';
    fprintf(f, "  %-12s %s\n", spec->name, clause);
}

static void print_usage(FILE *f)
{
    fprintf(f, "usage: retrodb COMMAND [options]   (retrodb help COMMAND: its options)\n\ncommands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        print_summary(f, commands[i].spec);
    fprintf(f, "\n  -V, --version  the version\n  -h, --help     this help\n"
               "\nExit status: 0 done, 1 a file or the system failed, 2 a wrong command line\n"
               "or position, 130/143 stopped by SIGINT/SIGTERM. See also: man retrodb\n"
               "(before make install: man man/retrodb.1)\n");
}

/* The commands whose first word is `word` (build, solve), for an unknown
 * or missing second word. */
static int game_missing(const char *word, const char *got, int help)
{
    FILE *f = help ? stdout : stderr;
    if (!help)
        fprintf(stderr, got ? "retrodb %s: unknown game '%s' (dots or cram)\n"
                            : "retrodb %s: which game? (dots or cram)\n", word, got);
    for (int i = 0, n = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].word, word) == 0) {
            if (n++)
                fprintf(f, "\n"); /* each game's usage apart */
            rdb_tool_print_usage(commands[i].spec, f);
        }
    fprintf(f, "Every option: retrodb %s dots --help, retrodb %s cram --help\n", word, word);
    return help ? 0 : 2;
}

/* Letters to change, add or remove to make a into b (Levenshtein), for a
 * mistyped command's suggestion. */
static int edits(const char *a, const char *b)
{
    int row[32], la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 30 || lb > 30)
        return 99;
    for (int j = 0; j <= lb; j++)
        row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            const int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static int is_help(const char *s)
{
    return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0 || strcmp(s, "help") == 0;
}

static int dispatch(int argc, char **argv)
{
    const char *word = argv[0];
    for (int i = 0; i < NCOMMANDS; i++) {
        const command *c = &commands[i];
        if (strcmp(c->word, word) != 0)
            continue;
        if (!c->game)
            return c->run(argc, argv);
        if (argc < 2 || argv[1][0] == '-') {
            /* "retrodb build --help" lists the games; anything else is wrong */
            return game_missing(word, argc < 2 ? NULL : argv[1], argc >= 2 && is_help(argv[1]));
        }
        for (int j = i; j < NCOMMANDS; j++)
            if (strcmp(commands[j].word, word) == 0 && strcmp(commands[j].game, argv[1]) == 0)
                return commands[j].run(argc - 1, argv + 1);
        return game_missing(word, argv[1], 0);
    }
    fprintf(stderr, "retrodb: unknown command '%s'", word);
    /* two letters off at most (a swap is two): the nearest command */
    const char *near = NULL;
    int least = 3;
    for (int i = 0; i < NCOMMANDS; i++) {
        const int d = edits(word, commands[i].word);
        if (d < least) {
            least = d;
            near = commands[i].word;
        }
    }
    if (near)
        fprintf(stderr, "; did you mean '%s'?", near);
    fprintf(stderr, "\n");
    print_usage(stderr);
    return 2;
}

int main(int argc, char **argv)
{
    /* Start-up is most of a small search's time (6x6 Cram: none at all),
     * so only a command that may run several threads restarts for the
     * passive wait, and an installed program sets the policy before it
     * runs its processor's build, which then needs no restart of its own. */
    int restart = rdb_tool_needs_threads(argc, argv) && rdb_tool_prefer_passive_wait();
    rdb_tool_run_best_variant(argv);
    if (restart)
        rdb_tool_restart(argv);
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    const char *first = argv[1];
    if (strcmp(first, "-V") == 0 || strcmp(first, "--version") == 0 ||
        strcmp(first, "version") == 0) {
        /* an installed program says which build of it runs */
        const char *variant = getenv("RETRODB_VARIANT");
        printf("retrodb %s%s%s%s\n", RETRODB_VERSION, variant ? " (" : "", variant ? variant : "",
               variant ? ")" : "");
        return 0;
    }
    if (is_help(first) && argc == 2) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(first, "help") == 0) {
        /* retrodb help build dots = retrodb build dots --help */
        char *words[4] = {argv[2], argc > 3 ? argv[3] : NULL, NULL, NULL};
        int n = argc > 3 ? 2 : 1;
        char help[] = "--help";
        words[n] = help;
        return dispatch(n + 1, words);
    }
    return dispatch(argc - 1, argv + 1);
}
