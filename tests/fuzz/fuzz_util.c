/*
 * fuzz_util.c — helpers shared by the fuzz harnesses; see fuzz_util.h.
 */
#define _GNU_SOURCE
#include "fuzz_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char temp_dir[256];

/* Remove the temporary folder and the files a harness left in it (a crash
 * in the middle of an input leaves its file; the next run makes a fresh
 * folder anyway). Only one level: the harnesses make no subfolders. */
static void remove_temp_dir(void)
{
    DIR *d = opendir(temp_dir);
    if (d) {
        struct dirent *e;
        char path[512];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", temp_dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(temp_dir);
}

const char *fuzz_temp_dir(void)
{
    if (temp_dir[0])
        return temp_dir;
    const char *base = getenv("TMPDIR");
    snprintf(temp_dir, sizeof temp_dir, "%s/rdbfuzz.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(temp_dir)) {
        perror("fuzz: cannot make a temporary folder");
        abort();
    }
    atexit(remove_temp_dir);
    return temp_dir;
}

void fuzz_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    if (memchr(data, '\0', size))
        return NULL;
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* The checksum put in place (fuzz_write_sealed_table). */
static void seal_table(unsigned char *buf, size_t size, size_t head, size_t record)
{
    if (size < head + 8)
        return;
    uint64_t count = 0;
    for (int i = 0; i < 8; i++)
        count |= (uint64_t)buf[head - 8 + i] << (8 * i);
    if (count > (size - head - 8) / record)
        return;
    const size_t end = head + (size_t)count * record;
    uint64_t sum = 0xcbf29ce484222325ULL; /* FNV-1a, written here again: the harness checks it */
    for (size_t i = 0; i < end; i++) {
        sum ^= buf[i];
        sum *= 0x100000001b3ULL;
    }
    for (int i = 0; i < 8; i++)
        buf[end + i] = (unsigned char)(sum >> (8 * i));
}

void fuzz_write_sealed_table(char *path, size_t path_size, const char *name, const uint8_t *data,
                             size_t size, size_t head, size_t record)
{
    unsigned char *sealed = malloc(size ? size : 1);
    if (!sealed)
        abort();
    memcpy(sealed, data, size);
    seal_table(sealed, size, head, record);
    snprintf(path, path_size, "%s/%s", fuzz_temp_dir(), name);
    fuzz_write_file(path, sealed, size);
    free(sealed);
}
