/* SPDX-License-Identifier: MIT */
/* Inside the CDG construction (cdg.c, cdg_route.c): not for users of
 * libtorus (cdg.h is). */
#ifndef TN_CDGI_H
#define TN_CDGI_H

#include <stddef.h>
#include <stdint.h>

/* Lists by key (compressed rows) of n pairs key << 32 | value, keys below
 * nkeys, each key's values in the pairs' order: the values of key k are
 * list[off[k] .. off[k + 1]). 0 or TN_ENOMEM (then *off and *list may hold
 * memory for the caller to free). */
int tn_csr_build(uint32_t nkeys, const uint64_t *pairs, size_t n, uint32_t **off,
                 uint32_t **list);

#endif
