/* SPDX-License-Identifier: MIT */
/* Name tables of the small enums (switching techniques, routing
 * functions, permutations): value = index in the table. */
#ifndef TN_NAMES_H
#define TN_NAMES_H

#include <string.h>

/* Index of s in names[0..n), or -1. */
static inline int tn_name_index(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

#endif
