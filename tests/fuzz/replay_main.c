/* SPDX-License-Identifier: MIT */
/* replay_main.c - a main() for a fuzz target without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on every file in the directories (or files)
 * given as arguments, so ctest replays the seed corpus and every committed
 * regression input (tests/fuzz/regress/) in the normal and the ASan build.
 * A crash or sanitizer report fails the test; an input that no longer
 * exists is not an error, an empty set of inputs is. */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        return -1;
    }
    /* an exact-size copy, so an overread past the input is caught */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    printf("replay %s (%zu bytes)\n", path, n);
    fflush(stdout);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int count = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode)) {
            failed += replay_file(argv[i]) < 0;
            count++;
            continue;
        }
        struct dirent **names;
        int n = scandir(argv[i], &names, NULL, NULL);
        if (n < 0) {
            perror(argv[i]);
            return 1;
        }
        char **paths = calloc((size_t)n + 1, sizeof *paths);
        int np = 0;
        for (int j = 0; j < n; j++) {
            if (names[j]->d_name[0] != '.' && strcmp(names[j]->d_name, "README.md")) {
                size_t len = strlen(argv[i]) + strlen(names[j]->d_name) + 2;
                paths[np] = malloc(len);
                snprintf(paths[np++], len, "%s/%s", argv[i], names[j]->d_name);
            }
            free(names[j]);
        }
        free(names);
        qsort(paths, (size_t)np, sizeof *paths, cmp_str);
        for (int j = 0; j < np; j++) {
            failed += replay_file(paths[j]) < 0;
            count++;
            free(paths[j]);
        }
        free(paths);
    }
    printf("%d inputs replayed, %d unreadable\n", count, failed);
    if (count == 0) {
        fprintf(stderr, "no input found in the directories given\n");
        return 1;
    }
    return failed ? 1 : 0;
}
