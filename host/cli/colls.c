/* SPDX-License-Identifier: MIT */
/* The collectives on torusctl's command line (colls.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "colls.h"
#include "runopt.h"

int coll_parse(const char *cmd, const char *name, bool sched, enum tn_coll *c)
{
    if (tn_coll_parse(name, c) == 0) {
        if (!sched || tn_coll_schedulable(*c))
            return 0;
        fprintf(stderr, "%s: %s runs on the device: use torusctl run %s (docs/switching.md)\n",
                cmd, name, name);
        return -1;
    }
    fprintf(stderr, "%s: unknown collective '%s': use", cmd, name);
    int last = TN_COLL_COUNT - 1;
    while (sched && !tn_coll_schedulable((enum tn_coll)last))
        last--;
    for (int i = 0, k = 0; i <= last; i++)
        if (!sched || tn_coll_schedulable((enum tn_coll)i))
            fprintf(stderr, "%s %s", !k++ ? "" : i == last ? " or" : ",",
                    tn_coll_name((enum tn_coll)i));
    fprintf(stderr, "\n");
    return -1;
}

const char *coll_stray_option(enum tn_coll c, bool sched, bool file, const struct option *opts,
                              const char *given)
{
    for (const struct option *o = opts; o->name; o++)
        if (o->val > 0 && o->val < 128 && strchr(given, o->val) &&
            tn_coll_option(sched, o->name) &&
            (file || !tn_coll_reads(c, sched, o->name)))
            return o->name;
    return NULL;
}

bool coll_parse_tree(const char *cmd, const char *arg, enum tn_sg_tree *tree)
{
    static const char *const names[] = {"auto", "dor", "six"};
    for (int k = 0; k < 3; k++)
        if (strcmp(arg, names[k]) == 0) {
            *tree = (enum tn_sg_tree)k;
            return true;
        }
    fprintf(stderr, "%s: bad --tree '%s': use dor, six or auto\n", cmd, arg);
    return false;
}

bool coll_read_lengths(const char *cmd, const char *path, uint32_t *len, uint32_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot read --lengths %s: %s\n", cmd, path, strerror(errno));
        return false;
    }
    char err[160];
    int rc = tn_lengths_parse(f, len, n, err, sizeof err);
    fclose(f);
    if (rc)
        fprintf(stderr, "%s: %s: %s\n", cmd, path, err);
    return rc == 0;
}
