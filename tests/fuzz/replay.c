/* SPDX-License-Identifier: MIT */
/* Replays fuzz inputs without libFuzzer: every file named, or in a
 * directory named, goes once through the target's LLVMFuzzerTestOneInput
 * (linked in), one TAP line each. Built with the sanitizers by make test:
 * a crash, leak or broken property ends the program with an error. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int count;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("not ok %d - cannot open %s\n", ++count, path);
        return 1;
    }
    size_t cap = 1 << 12, len = 0, n;
    uint8_t *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (!buf) {
        printf("not ok %d - out of memory reading %s\n", ++count, path);
        return 1;
    }
    fflush(stdout);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    printf("ok %d - %s runs clean\n", ++count, path);
    return 0;
}

static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("not ok %d - cannot open %s\n", ++count, dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int bad = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
            if (!nn)
                abort();
            names = nn;
        }
        if (!(names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2)))
            abort();
        sprintf(names[n++], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        bad |= replay_file(names[i]);
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...: run each input through the fuzz target\n",
                argv[0]);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        bool dir = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode);
        bad |= dir ? replay_dir(argv[i]) : replay_file(argv[i]);
    }
    printf("1..%d\n", count);
    return bad;
}
