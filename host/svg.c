/* SPDX-License-Identifier: MIT */
/* Space-time SVG of a schedule (svg.h). */
#include "svg.h"

#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "tn_error.h"

struct band {
    uint32_t arc;             /* node * 6 + dir */
    uint64_t t0, n;           /* first cycle, cycles */
    uint32_t msg, round, idx; /* colour, tooltip */
    uint8_t relay;
};

struct bands {
    struct band *b;
    size_t n, cap;
};

static int add(struct bands *v, struct band x)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 1024;
        struct band *nb = realloc(v->b, cap * sizeof *nb);
        if (!nb)
            return TN_ENOMEM;
        v->b = nb;
        v->cap = cap;
    }
    v->b[v->n++] = x;
    return 0;
}

int tn_svg_write(struct tn_sched *s, unsigned alpha, FILE *f)
{
    if (!s->laid_out && tn_sched_layout(s))
        return TN_ENOMEM;
    const struct tn_topo *t = &s->topo;
    uint32_t N = t->n;
    struct bands v = {NULL, 0, 0};
    int32_t *row = malloc((size_t)N * TN_NDIRS * sizeof *row);
    uint64_t *rstart = calloc(s->nrounds + 1, sizeof *rstart);
    uint32_t hcap = 0, *head = NULL, *depth = NULL;
    struct tn_arc *route = malloc((t->dim[0] + t->dim[1] + t->dim[2] + 1) * sizeof *route);
    int rc = TN_ENOMEM;
    if (!row || !rstart || !route)
        goto out_free;
    uint64_t T = 0;
    for (uint32_t r = 0; r < s->nrounds; r++) {
        const struct tn_round *rd = &s->rounds[r];
        uint64_t need = 0;
        rstart[r] = T;
        for (uint32_t i = 0; i < rd->ncirc; i++) {
            const struct tn_circuit *c = &rd->circ[i];
            if (c->narcs > hcap) {
                hcap = c->narcs;
                free(head);
                head = malloc(2 * (size_t)hcap * sizeof *head);
                if (!head)
                    goto out_free;
                depth = head + hcap;
            }
            uint64_t n = tn_circuit_flits(s, c);
            if (!c->stream || n == 0 || !tn_circuit_walk(s, c, head, depth, NULL, NULL))
                continue;
            uint32_t m = tn_blk_get(c->stream, 0);
            for (uint32_t a = 0; a < c->narcs; a++) {
                struct band b = {c->arcs[a].node * TN_NDIRS + c->arcs[a].dir,
                                 T + alpha + c->start + depth[a], n, m, r, i, 0};
                if (add(&v, b))
                    goto out_free;
                if (c->start + depth[a] + n > need)
                    need = c->start + depth[a] + n;
            }
        }
        for (uint32_t i = 0; i < rd->nrelay; i++) {
            const struct tn_relay *x = &rd->relay[i];
            uint64_t n = tn_relay_flits(s, x);
            if (!x->stream || n == 0 || x->src >= N || x->dst >= N)
                continue;
            unsigned d = tn_dor_path(t, x->src, x->dst, route, t->dim[0] + t->dim[1] + t->dim[2]);
            for (unsigned h = 0; h < d; h++) {
                struct band b = {route[h].node * TN_NDIRS + route[h].dir,
                                 T + alpha + x->start + h + 1, n, tn_blk_get(x->stream, 0), r, i,
                                 1};
                if (add(&v, b))
                    goto out_free;
            }
            if (x->start + d + n > need)
                need = x->start + d + n;
        }
        T += alpha + need;
    }
    rstart[s->nrounds] = T;
    /* rows: the links used, in (node, direction) order */
    for (size_t i = 0; i < (size_t)N * TN_NDIRS; i++)
        row[i] = -1;
    for (size_t i = 0; i < v.n; i++)
        row[v.b[i].arc] = 0;
    int32_t nrows = 0;
    for (size_t i = 0; i < (size_t)N * TN_NDIRS; i++)
        if (row[i] == 0)
            row[i] = nrows++;
    double px = T ? 3000.0 / (double)T : 1;
    if (px > 12)
        px = 12;
    double rh = nrows > 400 ? 3 : nrows > 100 ? 6 : 12, left = 90, top = 40;
    double W = left + px * (double)T + 20, H = top + rh * nrows + 30;
    char dims[32];
    tn_topo_format(t, dims, sizeof dims);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" font-size=\"%.0f\">\n",
            W, H, W, H, rh > 8 ? 10.0 : rh + 1);
    fprintf(f, "<title>%s %s on %s: %u rounds, %llu cycles at alpha %u</title>\n",
            tn_coll_name(s->coll), s->algo, dims, s->nrounds, (unsigned long long)T, alpha);
    fprintf(f, "<text x=\"4\" y=\"14\" font-size=\"12\">%s %s on %s: %u rounds, %llu cycles "
               "(alpha %u); time across, links down, one colour per message</text>\n",
            tn_coll_name(s->coll), s->algo, dims, s->nrounds, (unsigned long long)T, alpha);
    for (uint32_t r = 0; r <= s->nrounds; r++)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"#999\" "
                   "stroke-width=\"0.5\"/>\n", left + px * (double)rstart[r], top - 8,
                left + px * (double)rstart[r], top + rh * nrows);
    if (rh >= 6)
        for (size_t i = 0; i < (size_t)N * TN_NDIRS; i++)
            if (row[i] >= 0)
                fprintf(f, "<text x=\"2\" y=\"%.1f\">%zu %s</text>\n",
                        top + rh * row[i] + rh - 1, i / TN_NDIRS, tn_dir_name((int)(i % TN_NDIRS)));
    for (size_t i = 0; i < v.n; i++) {
        const struct band *b = &v.b[i];
        unsigned hue = (unsigned)((b->msg * 137.508) + 0.5) % 360;
        fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
                   "fill=\"hsl(%u,70%%,55%%)\"><title>round %u %s %u, message %u, cycles "
                   "%llu..%llu</title></rect>\n",
                left + px * (double)b->t0, top + rh * row[b->arc], px * (double)b->n, rh - 1, hue,
                b->round + 1, b->relay ? "relay" : "circuit", b->idx, b->msg,
                (unsigned long long)b->t0, (unsigned long long)(b->t0 + b->n - 1));
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">0</text><text x=\"%.0f\" y=\"%.0f\" "
               "text-anchor=\"end\">%llu cycles</text>\n</svg>\n",
            left, H - 8, W - 4, H - 8, (unsigned long long)T);
    rc = ferror(f) ? TN_EIO : 0;
out_free:
    free(v.b);
    free(row);
    free(rstart);
    free(head);
    free(route);
    return rc;
}

struct sched_svg {
    struct tn_sched *s;
    unsigned alpha;
};

static int write_sched(const void *ctx, FILE *f)
{
    const struct sched_svg *x = ctx;
    return tn_svg_write(x->s, x->alpha, f);
}

int tn_svg_save(struct tn_sched *s, unsigned alpha, const char *path)
{
    struct sched_svg x = {s, alpha};
    return tn_write_file(path, write_sched, &x);
}

void tn_svg_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;"
                      : *s == '"' ? "&quot;" : *s == '\'' ? "&apos;" : NULL;
        if (e)
            fputs(e, f);
        else
            fputc(*s, f);
    }
}

