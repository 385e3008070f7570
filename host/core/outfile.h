/* SPDX-License-Identifier: MIT */
/* Writing an output file (--svg, --json, --stats) so that nothing is left
 * half-written and nothing but a regular file is ever replaced: "-" is
 * standard output; a path that names a symlink, FIFO, device or anything
 * else that is not a regular file is written through (so --svg
 * /dev/stdout or a pipe works and /dev/stdout stays a symlink; a path that
 * is the process's own standard output goes through its stream, in order
 * with what the command prints there); a regular
 * file, or a path that does not exist, is written to a temporary file in
 * the same folder and renamed over it only when complete (permissions as
 * a new file under the umask). */
#ifndef TN_OUTFILE_H
#define TN_OUTFILE_H

#include <stdio.h>

/* write(ctx, f) writes the contents and returns 0 or a TN_E* code. Returns
 * 0, write's code, or TN_EIO (errno set) when the file cannot be written;
 * on failure a regular target is left as it was. */
int tn_write_file(const char *path, int (*write)(const void *ctx, FILE *f), const void *ctx);

#endif
