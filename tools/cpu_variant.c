/*
 * cpu_variant.c — one installed program for every x86-64. `make install`
 * puts the program built for the x86-64 baseline in bin/, which runs on
 * any x86-64, and beside it, in libexec/retrodb/, the same program built
 * for x86-64-v3 (AVX2, BMI2) and x86-64-v4 (AVX-512). Before anything
 * else the baseline program runs the best of them the processor can run,
 * with the same arguments: the whole program then takes the fast paths
 * (the slice kernel's AVX-512 loop, and pext in the quiet index and the
 * capture rules, which alone make a quiet build twice as fast), not only
 * one function. RETRODB_CPU=x86-64, x86-64-v3 or x86-64-v4 asks for one
 * (never one the processor cannot run); RETRODB_VARIANT tells the program
 * which one it is, for --version. A program run from the source tree has
 * no libexec/ beside it and runs as built.
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

void rdb_tool_run_best_variant(char **argv)
{
#if defined(__x86_64__) && !defined(__AVX2__)
    if (getenv("RETRODB_VARIANT"))
        return; /* a variant that came back here: run as built */
    const char *want = getenv("RETRODB_CPU");
    if (want && !*want)
        want = NULL;
    if (want && strcmp(want, "x86-64") == 0)
        return;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return;
    exe[n] = '\0';
    /* PREFIX/bin/retrodb -> PREFIX/libexec/retrodb/retrodb-<level> */
    char *prefix = dirname(dirname(exe));
    __builtin_cpu_init();
    static const char *const level[] = {"x86-64-v4", "x86-64-v3"};
    for (int i = 0; i < 2; i++) {
        /* __builtin_cpu_supports wants a literal */
        int can = i == 0 ? __builtin_cpu_supports("x86-64-v4") : __builtin_cpu_supports("x86-64-v3");
        if (!can || (want && strcmp(want, level[i]) != 0))
            continue;
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/libexec/retrodb/retrodb-%s", prefix, level[i]);
        if (access(path, X_OK) != 0)
            continue;
        setenv("RETRODB_VARIANT", level[i], 1);
        execv(path, argv);
        unsetenv("RETRODB_VARIANT"); /* could not run it: carry on as built */
    }
    if (want)
        fprintf(stderr, "retrodb: RETRODB_CPU=%s is not x86-64, x86-64-v3 or x86-64-v4, or this "
                        "processor cannot run it, or it is not installed: running the x86-64 "
                        "build\n", want);
#else
    (void)argv;
#endif
}
