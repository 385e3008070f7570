/* SPDX-License-Identifier: MIT */
/* --lengths and --fault values (runopt.h). */
#include "runopt.h"

#include <ctype.h>
#include <string.h>

#include "tn_error.h"

/* A decimal number of at most 10 digits, no sign, in 0..max. */
static bool parse_dec(const char *s, size_t n, uint64_t max, uint32_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 10)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v > max)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* Longest word kept for a message (a valid length has at most 8 digits). */
#define WORD_MAX 24

int tn_lengths_parse(FILE *f, uint32_t *len, uint32_t n, char *err, size_t errlen)
{
    uint32_t k = 0, line = 1;
    int c = fgetc(f);
    while (c != EOF) {
        if (c == '#') {
            while (c != EOF && c != '\n')
                c = fgetc(f);
            continue;
        }
        if (isspace(c)) {
            line += c == '\n';
            c = fgetc(f);
            continue;
        }
        char word[WORD_MAX + 1];
        size_t w = 0;
        for (; c != EOF && c != '#' && !isspace(c); c = fgetc(f))
            if (w < WORD_MAX + 1)
                word[w++] = (char)c;
        uint32_t v;
        if (w > WORD_MAX)
            return tn_errf(err, errlen, TN_EPARSE, "line %u: a word of more than %u "
                           "characters: use lengths 0..%u", line, WORD_MAX, TN_LENGTH_MAX);
        word[w] = '\0';
        if (!parse_dec(word, w, TN_LENGTH_MAX, &v))
            return tn_errf(err, errlen, TN_EPARSE, "line %u: bad length '%s': use 0..%u",
                           line, word, TN_LENGTH_MAX);
        if (k == n)
            return tn_errf(err, errlen, TN_EPARSE, "line %u: more than %u lengths (one per "
                           "node)", line, n);
        len[k++] = v;
    }
    if (k != n)
        return tn_errf(err, errlen, TN_EPARSE, "%u lengths, the torus has %u nodes", k, n);
    return 0;
}

void tn_lengths_fill(uint32_t *len, uint32_t n, uint32_t L, bool random, uint64_t seed)
{
    for (uint32_t u = 0; u < n; u++)
        len[u] = random ? tn_payload(seed, 0xFFFFFFFFu, u, 32) % (L + 1) : L;
}

int tn_fault_parse(const char *s, struct tn_fault *f)
{
    static const struct {
        const char *name;
        int kind;
    } kinds[] = {{"payload", TN_FAULT_PAYLOAD},
                 {"duration", TN_FAULT_DURATION},
                 {"rounds", TN_FAULT_ROUNDS}};
    f->kind = TN_FAULT_NONE;
    if (strncmp(s, "link:", 5) == 0) {
        if (tn_link_fault_parse(s + 5, &f->link) != 0)
            return TN_EINVAL;
        f->kind = TN_FAULT_LINK;
        return 0;
    }
    const char *c = strchr(s, ':');
    if (c == NULL || !parse_dec(c + 1, strlen(c + 1), UINT32_MAX, &f->arg))
        return TN_EINVAL;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if ((size_t)(c - s) == strlen(kinds[k].name) && strncmp(s, kinds[k].name, c - s) == 0)
            f->kind = kinds[k].kind;
    return f->kind == TN_FAULT_NONE ? TN_EINVAL : 0;
}

int tn_fault_apply(struct tn_image *img, const struct tn_fault *f, const struct tn_plan *p)
{
    /* a node id past the torus would alias a lower node's address */
    if (f->kind == TN_FAULT_PAYLOAD && f->arg >= p->topo.n)
        return TN_EINVAL;
    for (size_t i = 0; i < img->nbursts; i++) {
        struct tn_image_burst *b = &img->bursts[i];
        if (f->kind == TN_FAULT_PAYLOAD && b->addr == TN_ADDR_NODE(f->arg, TN_REGION_MEM, 0)) {
            img->words[b->off] ^= 1;
            return 0;
        }
        if (f->kind == TN_FAULT_DURATION && b->addr == TN_G_DURATION(0) && f->arg >= 1 &&
            f->arg <= p->nrounds) {
            uint32_t *d = &img->words[b->off + f->arg - 1];  /* rounds count from 1 */
            if (*d <= TN_ROUND_MIN)
                return TN_ENOTSUP;
            *d -= 1;
            return 0;
        }
        if (f->kind == TN_FAULT_ROUNDS && b->addr == TN_G_NROUNDS && f->arg >= 1 &&
            f->arg < p->nrounds) {
            img->words[b->off] = f->arg;
            return 0;
        }
    }
    return TN_EINVAL;
}
