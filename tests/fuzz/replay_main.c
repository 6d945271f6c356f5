/*
 * replay_main.c — runs a fuzz harness without libFuzzer: every file named
 * on the command line, and every file of every folder named, goes once
 * through LLVMFuzzerTestOneInput, in name order.
 *
 * This is how `make test` replays the seed corpus and the inputs that once
 * crashed (tests/fuzz/corpus/, tests/fuzz/crashes/) with the project's own
 * compiler and flags, so that a harness needs no clang to guard against a
 * bug coming back, and `make sanitize` replays them under ASan and UBSan.
 * A harness that finds something aborts, which fails the replay; the
 * driver prints the input's name first so the failure names it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"

static int replayed;

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open '%s': %s\n", path, strerror(errno));
        return 1;
    }
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: cannot read '%s'\n", path);
        free(buf);
        return 1;
    }
    fprintf(stderr, "replay: %s\n", path);
    /* an exact-size copy, so that ASan catches a read past the input */
    unsigned char *input = malloc(len ? len : 1);
    if (!input)
        abort();
    memcpy(input, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(input, len);
    free(input);
    replayed++;
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int skip_dot(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

static int replay_dir(const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, skip_dot, by_name);
    if (n < 0) {
        fprintf(stderr, "replay: cannot read folder '%s': %s\n", dir, strerror(errno));
        return 1;
    }
    int failed = 0;
    for (int i = 0; i < n; i++) {
        char path[4096];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
            failed |= replay_file(path);
        free(names[i]);
    }
    free(names);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|FOLDER...\n", argv[0]);
        return 2;
    }
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "replay: cannot open '%s': %s\n", argv[i], strerror(errno));
            failed = 1;
        } else if (S_ISDIR(sb.st_mode)) {
            failed |= replay_dir(argv[i]);
        } else {
            failed |= replay_file(argv[i]);
        }
    }
    fprintf(stderr, "replay: %d inputs, %s\n", replayed, failed ? "some unreadable" : "all passed");
    return failed;
}
