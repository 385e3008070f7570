/* SPDX-License-Identifier: MIT */
/* The network of a CDG as SVG, the cycle's links in red (cdg.h). A torus
 * is drawn as its Z slices side by side, X across and Y down, a wrap link
 * as a short stub leaving its node; any other network as a grid of nodes
 * in id order. A link is a curve bent to its left, so the two directions
 * of a cable are apart. */
#include "cdg.h"

#include <stdlib.h>

#include "outfile.h"
#include "svg.h"
#include "tn_error.h"

#define STEP 60 /* pixels between nodes */
#define MARGIN 40

static void node_xy(const struct tn_cdg *g, uint32_t v, uint32_t cols, long *x, long *y)
{
    if (g->net) {
        *x = MARGIN + (long)(v % cols) * STEP;
        *y = MARGIN + (long)(v / cols) * STEP;
        return;
    }
    unsigned c[3];
    tn_coords(&g->topo, v, c);
    *x = MARGIN + (long)(c[2] * (g->topo.dim[0] + 1) + c[0]) * STEP;
    *y = MARGIN + (long)c[1] * STEP;
}

/* The link's end nodes; false for an id that is no link. A torus wrap
 * link is reported with wrap set. */
static bool link_ends(const struct tn_cdg *g, uint32_t l, uint32_t *u, uint32_t *v, bool *wrap)
{
    *wrap = false;
    if (g->net) {
        if (g->net->from[l] < 0)
            return false;
        *u = (uint32_t)g->net->from[l], *v = (uint32_t)g->net->to[l];
        return true;
    }
    int dir = (int)(l % 6);
    if (!tn_dir_exists(&g->topo, dir))
        return false;
    unsigned c[3], dim = (unsigned)tn_dir_dim(dir);
    *u = l / 6;
    *v = tn_neighbor(&g->topo, *u, dir);
    tn_coords(&g->topo, *u, c);
    *wrap = (dir & 1) ? c[dim] == 0 : c[dim] == g->topo.dim[dim] - 1;
    return !(*wrap && g->mesh);
}

static void draw_link(const struct tn_cdg *g, FILE *f, uint32_t l, uint32_t cols, bool hot)
{
    uint32_t u, v;
    bool wrap;
    if (!link_ends(g, l, &u, &v, &wrap))
        return;
    long x1, y1, x2, y2;
    node_xy(g, u, cols, &x1, &y1);
    node_xy(g, v, cols, &x2, &y2);
    if (wrap) { /* a stub a third of the way out of the grid */
        int dir = (int)(l % 6), sign = (dir & 1) ? -1 : 1;
        x2 = x1 + (dir < 2 ? sign * STEP / 3 : dir >= 4 ? sign * STEP / 5 : 0);
        y2 = y1 + (dir >= 2 && dir < 4 ? sign * STEP / 3 : dir >= 4 ? -STEP / 5 : 0);
    }
    long dx = x2 - x1, dy = y2 - y1, norm = labs(dx) + labs(dy);
    long bend = norm > 0 ? 10 : 0;
    long cx = (x1 + x2) / 2 + (norm ? dy * bend / norm : 0);
    long cy = (y1 + y2) / 2 - (norm ? dx * bend / norm : 0);
    fprintf(f, "<path d=\"M%ld %ld Q%ld %ld %ld %ld\" fill=\"none\" stroke=\"%s\" "
               "stroke-width=\"%s\" marker-end=\"url(#%s)\"/>\n",
            x1, y1, cx, cy, x2, y2, hot ? "#d62728" : "#bbb", hot ? "3" : "1",
            hot ? "hot" : "cold");
}

static int svg_write(const void *ctx, FILE *f)
{
    const struct tn_cdg *g = ctx;
    uint32_t nodes = g->net ? g->net->nnodes : g->topo.n, nlinks = g->nch / g->classes, cols = 1;
    while (cols * cols < nodes)
        cols++;
    long w, h;
    node_xy(g, nodes ? nodes - 1 : 0, cols, &w, &h); /* the last node is lowest, rightmost */
    if (g->net)
        w = MARGIN + (long)(cols - 1) * STEP;
    uint8_t *hot = calloc(nlinks ? nlinks : 1, 1);
    if (!hot)
        return TN_ENOMEM;
    for (uint32_t i = 0; i < g->ncycle; i++)
        hot[g->cycle[i] / g->classes] = 1;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%ld\" height=\"%ld\" "
               "font-family=\"sans-serif\" font-size=\"10\">\n<defs>\n",
            w + 2 * MARGIN, h + 2 * MARGIN + 20);
    fprintf(f, "<marker id=\"cold\" viewBox=\"0 0 10 10\" refX=\"14\" refY=\"5\" markerWidth=\"4\" "
               "markerHeight=\"4\" orient=\"auto\"><path d=\"M0 0L10 5L0 10z\" fill=\"#bbb\"/>"
               "</marker>\n<marker id=\"hot\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
               "markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\"><path d=\"M0 0L10 5L0 10z\" "
               "fill=\"#d62728\"/></marker>\n</defs>\n");
    for (int pass = 0; pass < 2; pass++) /* the cycle on top */
        for (uint32_t l = 0; l < nlinks; l++)
            if (hot[l] == pass)
                draw_link(g, f, l, cols, pass);
    for (uint32_t v = 0; v < nodes; v++) {
        long x, y;
        node_xy(g, v, cols, &x, &y);
        fprintf(f, "<circle cx=\"%ld\" cy=\"%ld\" r=\"7\" fill=\"#fff\" stroke=\"#333\"/>\n", x, y);
        if (g->net && g->net->node_name) {
            fprintf(f, "<text x=\"%ld\" y=\"%ld\">", x + 8, y - 8);
            tn_svg_text(f, g->net->node_name[v]);
            fprintf(f, "</text>\n");
        } else
            fprintf(f, "<text x=\"%ld\" y=\"%ld\">%u</text>\n", x + 8, y - 8, v);
    }
    fprintf(f, "<text x=\"%d\" y=\"%ld\">%s: %u channels, %llu dependencies, %s%s</text>\n</svg>\n",
            MARGIN, h + 2 * MARGIN, tn_cdg_acyclic(g) ? "acyclic" : "cyclic", g->channels,
            (unsigned long long)g->deps, tn_cdg_acyclic(g) ? "no cycle" : "cycle in red",
            g->net ? "" : " (Z slices left to right)");
    free(hot);
    return ferror(f) ? TN_EIO : 0;
}

int tn_cdg_svg_save(const struct tn_cdg *g, const char *path)
{
    return tn_write_file(path, svg_write, g);
}
