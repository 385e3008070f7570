/* SPDX-License-Identifier: MIT */
/* Space-time SVG of a schedule and the per-round bar chart (svg.h). */
#include "svg.h"

#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "rope.h"
#include "tn_error.h"

/* Drawing units (px): a row and its label font, the axis and legend. */
#define ROW_H 14.0
#define FONT 11.0
#define CHAR_W 6.6            /* a FONT px sans-serif glyph, wide */
#define TOP 58.0              /* title and round numbers above the rows */
#define AXIS_H 34.0           /* ticks and their labels below the rows */
#define KEY_W 54.0            /* a legend entry */
#define KEY_MAX 48            /* legend entries listed (then "and N more") */
#define HEAD UINT32_MAX       /* the message of a relay head flit */
#define WORDS (UINT32_MAX - 1) /* the message of a control packet's words */

/* One message of one stream on one link: cycles [t0, t0 + n). */
struct seg {
    uint32_t arc;             /* node * 6 + dir */
    uint64_t t0, n;
    uint32_t msg, round, idx; /* colour; tooltip */
    uint8_t relay;
};

struct segs {
    struct seg *v;
    size_t n, cap;
};

static int add(struct segs *v, struct seg x)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 1024;
        struct seg *nv = realloc(v->v, cap * sizeof *nv);
        if (!nv)
            return TN_ENOMEM;
        v->v = nv;
        v->cap = cap;
    }
    v->v[v->n++] = x;
    return 0;
}

/* The stream's messages on arc from cycle t on, message by message (a
 * relay packet's head flit first). */
static int add_stream(struct segs *v, const struct tn_sched *s, const struct tn_blk *stream,
                      struct seg x, bool relay, uint32_t words)
{
    int rc = 0;
    if (relay) {
        x.msg = HEAD;
        x.n = 1;
        rc = add(v, x);
        x.t0++;
    }
    if (words && rc == 0) {
        x.msg = WORDS;
        x.n = words;
        rc = add(v, x);
        x.t0 += words;
    }
    for (uint32_t i = 0; i < stream->n && rc == 0; i++) {
        x.msg = tn_blk_get(stream, i);
        x.n = tn_msg_len(s, x.msg);
        if (x.n)
            rc = add(v, x);
        x.t0 += x.n;
    }
    return rc;
}

/* Every message segment of s on every link, rounds' starts in rstart
 * (nrounds + 1 entries); returns the total cycles, or 0 with *rc set. */
static uint64_t collect(const struct tn_sched *s, unsigned alpha, struct segs *v,
                        uint64_t *rstart, int *rc)
{
    const struct tn_topo *t = &s->topo;
    uint32_t hcap = 0, *head = NULL, *depth = NULL, rcap = t->dim[0] + t->dim[1] + t->dim[2] + 1;
    struct tn_arc *route = malloc(rcap * sizeof *route);
    uint64_t T = 0;
    *rc = route ? 0 : TN_ENOMEM;
    for (uint32_t r = 0; r < s->nrounds && *rc == 0; r++) {
        const struct tn_round *rd = &s->rounds[r];
        uint64_t need = 0;
        rstart[r] = T;
        for (uint32_t i = 0; i < rd->ncirc && *rc == 0; i++) {
            const struct tn_circuit *c = &rd->circ[i];
            if (c->narcs > hcap) {
                hcap = c->narcs;
                free(head);
                head = malloc(2 * (size_t)hcap * sizeof *head);
                depth = head + hcap;
                if (!head) {
                    *rc = TN_ENOMEM;
                    break;
                }
            }
            uint64_t n = tn_circuit_flits(s, c);
            if (!c->stream || n == 0 || !tn_circuit_walk(s, c, head, depth, NULL, NULL))
                continue;
            for (uint32_t a = 0; a < c->narcs && *rc == 0; a++) {
                struct seg x = {c->arcs[a].node * TN_NDIRS + c->arcs[a].dir,
                                T + alpha + c->start + depth[a], 0, 0, r, i, 0};
                *rc = add_stream(v, s, c->stream, x, false, 0);
                if (c->start + depth[a] + n > need)
                    need = c->start + depth[a] + n;
            }
        }
        for (uint32_t i = 0; i < rd->nrelay && *rc == 0; i++) {
            const struct tn_relay *x = &rd->relay[i];
            uint64_t n = tn_relay_flits(s, x);
            if (!x->stream || n == 0 || x->src >= t->n || x->dst >= t->n)
                continue;
            unsigned d = tn_relay_path(t, x, route, rcap);
            for (unsigned h = 0; h < d && *rc == 0; h++) {
                struct seg g = {route[h].node * TN_NDIRS + route[h].dir,
                                T + alpha + x->start + h + 1, 0, 0, r, i, 1};
                *rc = add_stream(v, s, x->stream, g, true, x->nwords);
            }
            if (x->start + d + n > need)
                need = x->start + d + n;
        }
        T += tn_round_duration(alpha, need);
    }
    rstart[s->nrounds] = T;
    free(head);
    free(route);
    return *rc ? 0 : T;
}

/* Is arc (node * 6 + dir) in o's selection? */
static bool selected(const struct tn_topo *t, const struct tn_svg_opts *o, uint32_t arc)
{
    int dir = (int)(arc % TN_NDIRS);
    uint32_t node = arc / TN_NDIRS;
    if (o->dim >= 0 && tn_dir_dim(dir) != o->dim)
        return false;
    return o->node < 0 || node == (uint32_t)o->node ||
           tn_neighbor(t, node, dir) == (uint32_t)o->node;
}

int tn_svg_rows_parse(const char *s, const struct tn_topo *t, struct tn_svg_opts *o)
{
    o->node = o->dim = -1;
    if (strcmp(s, "all") == 0)
        return 0;
    if (strncmp(s, "dim:", 4) == 0 && s[4] >= 'X' && s[4] <= 'Z' && s[5] == '\0' &&
        t->dim[s[4] - 'X'] > 1) {
        o->dim = s[4] - 'X';
        return 0;
    }
    char *end;
    if (strncmp(s, "node:", 5) == 0 && s[5] >= '0' && s[5] <= '9') {
        unsigned long v = strtoul(s + 5, &end, 10);
        if (*end == '\0' && v < t->n) {
            o->node = (int)v;
            return 0;
        }
    }
    return TN_EINVAL;
}

static unsigned hue(uint32_t msg)
{
    return (unsigned)((msg * 137.508) + 0.5) % 360;
}

/* A tick step of 1, 2 or 5 times a power of ten giving about n ticks. */
static uint64_t tick_step(uint64_t T, unsigned n)
{
    static const unsigned mult[] = {1, 2, 5};
    for (uint64_t p = 1;; p *= 10)
        for (int i = 0; i < 3; i++)
            if (p * mult[i] * n >= T)
                return p * mult[i];
}

/* The drawing's frame: where time and rows go. */
struct frame {
    double left, px, W, H;    /* label column, px per cycle, size */
    uint64_t T;
    int32_t nrows;
};

static double xt(const struct frame *fr, uint64_t t)
{
    return fr->left + fr->px * (double)t;
}

static void draw_rounds(FILE *f, const struct frame *fr, const uint64_t *rstart, uint32_t nr)
{
    double bottom = TOP + ROW_H * fr->nrows;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">round</text>\n", fr->left - 6,
            TOP - 8);
    for (uint32_t r = 0; r <= nr; r++) {
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#888\" "
                   "stroke-width=\"0.6\"/>\n", xt(fr, rstart[r]), TOP - 20, xt(fr, rstart[r]),
                bottom);
        /* the round's number where it fits */
        if (r < nr && fr->px * (double)(rstart[r + 1] - rstart[r]) >= CHAR_W * 4)
            fprintf(f, "<text class=\"round\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%u"
                       "</text>\n", (xt(fr, rstart[r]) + xt(fr, rstart[r + 1])) / 2, TOP - 8,
                    r + 1);
    }
}

static void draw_axis(FILE *f, const struct frame *fr)
{
    double y = TOP + ROW_H * fr->nrows;
    uint64_t step = tick_step(fr->T, (unsigned)(fr->px * (double)fr->T / 70.0) + 1);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
            xt(fr, 0), y, xt(fr, fr->T), y);
    for (uint64_t t = 0; t <= fr->T; t += step)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>"
                   "<text class=\"tick\" x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%llu"
                   "</text>\n", xt(fr, t), y, xt(fr, t), y + 4, xt(fr, t), y + 15,
                (unsigned long long)t);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">cycles from T0</text>\n",
            xt(fr, fr->T), y + 29);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The legend below the axis: a swatch per message drawn (up to KEY_MAX).
 * Returns its height. */
static double legend_height(size_t nmsg, double W)
{
    unsigned per = (unsigned)((W - 10) / KEY_W);
    size_t shown = nmsg < KEY_MAX ? nmsg : KEY_MAX;
    return 22 + ROW_H * (double)((shown + per - 1) / (per ? per : 1) + (nmsg > shown));
}

static void draw_legend(FILE *f, const struct frame *fr, const uint32_t *msg, size_t nmsg,
                        bool relay)
{
    double y = TOP + ROW_H * fr->nrows + AXIS_H + 14;
    unsigned per = (unsigned)((fr->W - 10) / KEY_W);
    fprintf(f, "<text x=\"10\" y=\"%.1f\">messages (colour per message id%s):</text>\n", y,
            relay ? "; grey: a relay packet's head flit, dark grey: a control packet's words" : "");
    size_t shown = nmsg < KEY_MAX ? nmsg : KEY_MAX;
    for (size_t i = 0; i < shown; i++) {
        double x = 10 + KEY_W * (double)(i % per), yy = y + 6 + ROW_H * (double)(i / per);
        fprintf(f, "<rect class=\"key\" x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" "
                   "fill=\"hsl(%u,70%%,55%%)\"/><text x=\"%.1f\" y=\"%.1f\">%u</text>\n", x, yy,
                hue(msg[i]), x + 15, yy + 9, msg[i]);
    }
    if (nmsg > shown)
        fprintf(f, "<text x=\"10\" y=\"%.1f\">and %zu more (hue = id x 137.5 degrees)</text>\n",
                y + 15 + ROW_H * (double)((shown + per - 1) / per), nmsg - shown);
}

/* Keep the segments on selected links; number their rows (in node,
 * direction order) into row[] (-1: not drawn); the distinct messages into
 * msg[] (sorted); returns the widest row label's length. */
static size_t select_rows(const struct tn_topo *t, const struct tn_svg_opts *o, struct segs *v,
                          int32_t *row, struct frame *fr, uint32_t *msg, size_t *nmsg,
                          bool *relay)
{
    size_t kept = 0, n = 0, label = 4;
    for (size_t i = 0; i < (size_t)t->n * TN_NDIRS; i++)
        row[i] = -1;
    for (size_t i = 0; i < v->n; i++)
        if (selected(t, o, v->v[i].arc)) {
            row[v->v[i].arc] = 0;
            v->v[kept++] = v->v[i];
            *relay |= v->v[i].msg == HEAD;
            if (v->v[i].msg < WORDS)
                msg[n++] = v->v[i].msg;
        }
    v->n = kept;
    qsort(msg, n, sizeof *msg, cmp_u32);
    *nmsg = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || msg[i] != msg[i - 1])
            msg[(*nmsg)++] = msg[i];
    for (size_t i = 0; i < (size_t)t->n * TN_NDIRS; i++)
        if (row[i] == 0) {
            row[i] = fr->nrows++;
            char b[24];
            size_t l = (size_t)snprintf(b, sizeof b, "%zu %s", i / TN_NDIRS,
                                        tn_dir_name((int)(i % TN_NDIRS)));
            label = l > label ? l : label;
        }
    return label;
}

static void draw_bands(FILE *f, const struct frame *fr, const struct segs *v, const int32_t *row)
{
    for (size_t i = 0; i < v->n; i++) {
        const struct seg *b = &v->v[i];
        fprintf(f, "<rect class=\"band\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" ",
                xt(fr, b->t0), TOP + ROW_H * row[b->arc] + 1, fr->px * (double)b->n, ROW_H - 2);
        if (b->msg == HEAD)
            fprintf(f, "fill=\"#999\"><title>round %u relay %u, head flit, cycle %llu</title>"
                       "</rect>\n", b->round + 1, b->idx, (unsigned long long)b->t0);
        else if (b->msg == WORDS)
            fprintf(f, "fill=\"#444\"><title>round %u relay %u, control words, cycles "
                       "%llu..%llu</title></rect>\n", b->round + 1, b->idx,
                    (unsigned long long)b->t0, (unsigned long long)(b->t0 + b->n - 1));
        else
            fprintf(f, "fill=\"hsl(%u,70%%,55%%)\"><title>round %u %s %u, message %u, cycles "
                       "%llu..%llu</title></rect>\n", hue(b->msg), b->round + 1,
                    b->relay ? "relay" : "circuit", b->idx, b->msg, (unsigned long long)b->t0,
                    (unsigned long long)(b->t0 + b->n - 1));
    }
}

int tn_svg_write(struct tn_sched *s, const struct tn_svg_opts *o, FILE *f)
{
    if (!s->st->laid_out && tn_sched_layout(s))
        return TN_ENOMEM;
    const struct tn_topo *t = &s->topo;
    struct segs v = {NULL, 0, 0};
    int32_t *row = malloc((size_t)t->n * TN_NDIRS * sizeof *row);
    uint64_t *rstart = calloc(s->nrounds + 1, sizeof *rstart);
    uint32_t *msg = NULL;
    int rc = row && rstart ? 0 : TN_ENOMEM;
    struct frame fr = {0};
    if (rc == 0)
        fr.T = collect(s, o->alpha, &v, rstart, &rc);
    if (rc == 0 && !(msg = malloc((v.n + 1) * sizeof *msg)))
        rc = TN_ENOMEM;
    if (rc)
        goto out_free;
    size_t nmsg;
    bool relay = false;
    size_t label = select_rows(t, o, &v, row, &fr, msg, &nmsg, &relay);

    char dims[32], title[256], sel[48] = "";
    tn_topo_format(t, dims, sizeof dims);
    if (o->node >= 0)
        snprintf(sel, sizeof sel, "; links out of and into node %d", o->node);
    else if (o->dim >= 0)
        snprintf(sel, sizeof sel, "; links of dimension %c", 'X' + o->dim);
    snprintf(title, sizeof title, "%s %s on %s: %u rounds, %llu cycles at alpha %u%s",
             tn_coll_name(s->coll), s->algo, dims, s->nrounds, (unsigned long long)fr.T,
             o->alpha, sel);
    fr.left = CHAR_W * (double)label + 12;
    fr.px = fr.T ? 1200.0 / (double)fr.T : 1;
    fr.px = fr.px > 24 ? 24 : fr.px < 0.05 ? 0.05 : fr.px;
    fr.W = xt(&fr, fr.T) + 30;
    double tw = 20 + (CHAR_W + 0.8) * (double)strlen(title);  /* the title is 13 px */
    fr.W = tw > fr.W ? tw : fr.W;
    fr.W = fr.W < 10 + KEY_W * 6 ? 10 + KEY_W * 6 : fr.W;
    fr.H = TOP + ROW_H * fr.nrows + AXIS_H + legend_height(nmsg, fr.W) + 8;

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"%.0f\">\n"
               "<title>", fr.W, fr.H, fr.W, fr.H, FONT);
    tn_svg_text(f, title);
    fprintf(f, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"10\" y=\"18\" font-size=\"13\">");
    tn_svg_text(f, title);
    fprintf(f, "</text>\n");
    draw_rounds(f, &fr, rstart, s->nrounds);
    for (size_t i = 0; i < (size_t)t->n * TN_NDIRS; i++)
        if (row[i] >= 0)
            fprintf(f, "<text class=\"row\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%zu %s"
                       "</text>\n", fr.left - 6, TOP + ROW_H * row[i] + ROW_H - 3,
                    i / TN_NDIRS, tn_dir_name((int)(i % TN_NDIRS)));
    draw_bands(f, &fr, &v, row);
    if (fr.nrows == 0)
        fprintf(f, "<text x=\"10\" y=\"%.1f\">no link of the selection carries data</text>\n",
                TOP + 10);
    draw_axis(f, &fr);
    draw_legend(f, &fr, msg, nmsg, relay);
    fprintf(f, "</svg>\n");
    rc = ferror(f) ? TN_EIO : 0;
out_free:
    free(v.v);
    free(row);
    free(rstart);
    free(msg);
    return rc;
}

struct sched_svg {
    struct tn_sched *s;
    const struct tn_svg_opts *o;
};

static int write_sched(const void *ctx, FILE *f)
{
    const struct sched_svg *x = ctx;
    return tn_svg_write(x->s, x->o, f);
}

int tn_svg_save(struct tn_sched *s, const struct tn_svg_opts *o, const char *path)
{
    struct sched_svg x = {s, o};
    return tn_write_file(path, write_sched, &x);
}

/* ---- measured against model per round ---- */

struct rounds_svg {
    const char *title;
    uint32_t n;
    const uint64_t *measured, *model;
};

static int write_rounds(const void *ctx, FILE *f)
{
    const struct rounds_svg *x = ctx;
    enum { LEFT = 60, PLOT_H = 220 };
    /* a slot per round (two bars and a gap): about 520 px in all */
    double slot = x->n ? 520.0 / x->n : 520;
    slot = slot > 80 ? 80 : slot < 14 ? 14 : slot;
    double BAR = slot * 0.36, GAP = slot - 2 * BAR;
    uint64_t top = 1;
    for (uint32_t r = 0; r < x->n; r++) {
        top = x->measured[r] > top ? x->measured[r] : top;
        top = x->model[r] > top ? x->model[r] : top;
    }
    uint64_t step = tick_step(top, 5);
    top = (top + step - 1) / step * step;
    double W = LEFT + (2 * BAR + GAP) * (double)x->n + 30, H = 40 + PLOT_H + 60;
    double tw = 20 + 7.6 * (double)strlen(x->title);
    W = tw > W ? tw : W;
    W = W < 340 ? 340 : W;
    double y0 = 40 + PLOT_H, sc = PLOT_H / (double)top;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%%\" "
               "height=\"100%%\" fill=\"white\"/>\n<text x=\"10\" y=\"18\" font-size=\"13\">",
            W, H);
    tn_svg_text(f, x->title);
    fprintf(f, "</text>\n");
    for (uint64_t v = 0; v <= top; v += step)
        fprintf(f, "<line x1=\"%d\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                   "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%llu</text>\n",
                LEFT, W - 20, y0 - sc * (double)v, y0 - sc * (double)v, LEFT - 4,
                y0 - sc * (double)v + 4, (unsigned long long)v);
    for (uint32_t r = 0; r < x->n; r++) {
        double bx = LEFT + 4 + (2 * BAR + GAP) * (double)r;
        const uint64_t *v[2] = {x->measured, x->model};
        for (int k = 0; k < 2; k++)
            fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                       "fill=\"%s\"><title>round %u %s: %llu cycles</title></rect>\n",
                    bx + BAR * k, y0 - sc * (double)v[k][r], BAR, sc * (double)v[k][r],
                    k ? "#9ab" : "#d62", r + 1, k ? "model" : "measured",
                    (unsigned long long)v[k][r]);
        if (x->n <= 40 || r % ((x->n + 39) / 40) == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%u</text>\n",
                    bx + BAR, y0 + 14, r + 1);
    }
    fprintf(f, "<text x=\"%d\" y=\"%.1f\">round</text><text x=\"10\" y=\"34\">cycles</text>\n"
               "<rect x=\"%d\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"#d62\"/>"
               "<text x=\"%d\" y=\"%.1f\">measured</text><rect x=\"%d\" y=\"%.1f\" width=\"10\" "
               "height=\"10\" fill=\"#9ab\"/><text x=\"%d\" y=\"%.1f\">model</text>\n</svg>\n",
            LEFT, y0 + 30, LEFT, y0 + 40, LEFT + 14, y0 + 49, LEFT + 90, y0 + 40, LEFT + 104,
            y0 + 49);
    return ferror(f) ? TN_EIO : 0;
}

int tn_svg_rounds_save(const char *path, const char *title, uint32_t nrounds,
                       const uint64_t *measured, const uint64_t *model)
{
    struct rounds_svg x = {title, nrounds, measured, model};
    return tn_write_file(path, write_rounds, &x);
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
