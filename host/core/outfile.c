/* SPDX-License-Identifier: MIT */
/* Output files written whole or not at all (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tn_error.h"

/* Write into an open stream and close it: write's code, or TN_EIO. */
static int write_close(FILE *f, int (*write)(const void *ctx, FILE *f), const void *ctx,
                       bool close)
{
    int rc = write(ctx, f);
    if (fflush(f) != 0 && rc == 0)
        rc = TN_EIO;
    if (close && fclose(f) != 0 && rc == 0)
        rc = TN_EIO;
    return rc;
}

/* A regular file (or none yet): a temporary file beside it, renamed. */
static int write_replace(const char *path, int (*write)(const void *ctx, FILE *f),
                         const void *ctx)
{
    size_t n = strlen(path) + 8;
    char *tmp = malloc(n);
    if (!tmp)
        return TN_ENOMEM;
    snprintf(tmp, n, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *f = NULL;
    if (fd >= 0) {
        mode_t mask = umask(0);
        umask(mask);
        if (fchmod(fd, 0666 & ~mask) != 0 || (f = fdopen(fd, "w")) == NULL)
            close(fd);
    }
    int rc = f ? write_close(f, write, ctx, true) : TN_EIO;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = TN_EIO;
    if (rc != 0 && fd >= 0) {
        int e = errno;
        remove(tmp);
        errno = e;
    }
    free(tmp);
    return rc;
}

int tn_write_file(const char *path, int (*write)(const void *ctx, FILE *f), const void *ctx)
{
    struct stat st;
    if (strcmp(path, "-") == 0)
        return write_close(stdout, write, ctx, false);
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? write_replace(path, write, ctx) : TN_EIO;
    if (S_ISREG(st.st_mode))
        return write_replace(path, write, ctx);
    /* a symlink, FIFO or device: written through; our own standard output
     * (/dev/stdout) through its stream, after what is buffered there */
    struct stat to, out;
    if (stat(path, &to) == 0 && fstat(STDOUT_FILENO, &out) == 0 && to.st_dev == out.st_dev &&
        to.st_ino == out.st_ino)
        return write_close(stdout, write, ctx, false);
    FILE *f = fopen(path, "w");
    return f ? write_close(f, write, ctx, true) : TN_EIO;
}
