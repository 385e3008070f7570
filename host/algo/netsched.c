/* SPDX-License-Identifier: MIT */
/* A network file's traffic in steps (netsched.h). */
#include "netsched.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"
#include "tn_error.h"

/* The end nodes of transfer i: the tail of the link no other of its links
 * enters, the head of the link no other leaves. */
static void ends(const struct tn_traffic *t, int i, int *src, int *dst)
{
    *src = *dst = -1;
    for (int a = t->off[i]; a < t->off[i + 1]; a++) {
        bool entered = false, left = false;
        for (int b = t->off[i]; b < t->off[i + 1]; b++) {
            entered |= t->lto[t->link[b]] == t->lfrom[t->link[a]];
            left |= t->lfrom[t->link[b]] == t->lto[t->link[a]];
        }
        if (!entered)
            *src = t->lfrom[t->link[a]];
        if (!left)
            *dst = t->lto[t->link[a]];
    }
}

int tn_netsched_build(struct tn_netsched *ns, const char *path, bool liquid, double seconds,
                      unsigned seed)
{
    memset(ns, 0, sizeof *ns);
    ns->path = path;
    ns->liquid = liquid;
    int rc = tn_traffic_read(&ns->t, path);
    if (rc)
        return rc;
    const struct tn_traffic *t = &ns->t;
    if (t->nx == 0 || !t->nname || !t->lname) {
        fprintf(stderr, "%s: no transfers to schedule (docs/traffic-format.md)\n", path);
        return TN_EINVAL;
    }
    ns->load = malloc((size_t)t->nlinks * sizeof *ns->load);
    ns->step_of = malloc((size_t)t->nx * sizeof *ns->step_of);
    int *rr = malloc((size_t)t->nx * sizeof *rr);
    ns->src = malloc(2 * (size_t)t->nx * sizeof *ns->src);
    if (!ns->load || !ns->step_of || !rr || !ns->src) {
        free(rr);
        return TN_ENOMEM;
    }
    ns->dst = ns->src + t->nx;
    for (int i = 0; i < t->nx; i++)
        ends(t, i, &ns->src[i], &ns->dst[i]);
    ns->lambda = tn_traffic_load(t, NULL, ns->load);
    ns->rr_steps = tn_roundrobin(t, rr);
    if (liquid) {
        struct tn_liquid_opts o;
        tn_liquid_defaults(&o);
        o.seconds = seconds;
        o.seed = seed;
        ns->steps = tn_liquid_search(t, &o, ns->step_of, &ns->st);
    } else {
        ns->steps = ns->rr_steps;
        if (ns->steps > 0)
            memcpy(ns->step_of, rr, (size_t)t->nx * sizeof *rr);
    }
    free(rr);
    if (ns->rr_steps < 0)
        return ns->rr_steps;
    return ns->steps < 0 ? ns->steps : 0;
}

void tn_netsched_free(struct tn_netsched *ns)
{
    tn_traffic_free(&ns->t);
    free(ns->load);
    free(ns->step_of);
    free(ns->src);
    memset(ns, 0, sizeof *ns);
}

void tn_netsched_print(const struct tn_netsched *ns, FILE *f)
{
    const struct tn_traffic *t = &ns->t;
    fprintf(f, "alltoall on network %s: %d nodes, %d links, %d transfers\n", ns->path,
            t->nnodes, t->nlinks, t->nx);
    fprintf(f, "Lambda %d (bottlenecks", ns->lambda);
    for (int l = 0; l < t->nlinks; l++)
        if (ns->load[l] == ns->lambda)
            fprintf(f, " %s", t->lname[l]);
    fprintf(f, "); liquid throughput %d/%d = %.2f links\n", t->nx, ns->lambda,
            (double)t->nx / ns->lambda);
    if (ns->liquid)
        fprintf(f, "liquid schedule: %d steps (%s, %.1f s), throughput %.2f; round-robin %d "
                "steps (%.2f)\n", ns->steps,
                ns->steps == ns->lambda ? "= Lambda: liquid"
                : ns->st.exhausted     ? "no liquid schedule exists"
                                       : "above Lambda, search bounded",
                ns->st.seconds, (double)t->nx / ns->steps, ns->rr_steps,
                (double)t->nx / ns->rr_steps);
    else
        fprintf(f, "round-robin schedule: %d steps, throughput %.2f\n", ns->steps,
                (double)t->nx / ns->steps);
    fprintf(f, "step  transfers (sender>receiver)\n");
    for (int k = 0; k < ns->steps; k++) {
        fprintf(f, "%4d ", k + 1);
        for (int i = 0; i < t->nx; i++)
            if (ns->step_of[i] == k)
                fprintf(f, " %s>%s", t->nname[ns->src[i]], t->nname[ns->dst[i]]);
        fprintf(f, "\n");
    }
}

static json_t *step_json(const struct tn_netsched *ns, int k)
{
    const struct tn_traffic *t = &ns->t;
    json_t *a = json_array();
    for (int i = 0; a && i < t->nx; i++) {
        if (ns->step_of[i] != k)
            continue;
        json_t *links = json_array();
        for (int j = t->off[i]; links && j < t->off[i + 1]; j++)
            json_array_append_new(links, json_string(t->lname[t->link[j]]));
        json_array_append_new(a, json_pack("{s:s, s:s, s:o*}", "src", t->nname[ns->src[i]],
                                           "dst", t->nname[ns->dst[i]], "links", links));
    }
    return a;
}

int tn_netsched_write_json(const struct tn_netsched *ns, FILE *f)
{
    const struct tn_traffic *t = &ns->t;
    json_t *bott = json_array(), *steps = json_array();
    for (int l = 0; bott && l < t->nlinks; l++)
        if (ns->load[l] == ns->lambda)
            json_array_append_new(bott, json_string(t->lname[l]));
    for (int k = 0; steps && k < ns->steps; k++)
        json_array_append_new(steps, step_json(ns, k));
    json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:i, s:o*, s:s, s:i, s:b, s:i, s:o*}",
                          "network", ns->path, "nodes", t->nnodes, "links", t->nlinks,
                          "transfers", t->nx, "lambda", ns->lambda, "bottlenecks", bott,
                          "schedule", ns->liquid ? "liquid" : "round-robin", "nsteps",
                          ns->steps, "liquid", ns->steps == ns->lambda, "round_robin_steps",
                          ns->rr_steps, "steps", steps);
    if (!o)
        return TN_ENOMEM;
    int rc = json_dumpf(o, f, JSON_INDENT(1)) || fputc('\n', f) == EOF ? TN_EIO : 0;
    json_decref(o);
    return rc;
}

int tn_netsched_write_svg(const struct tn_netsched *ns, FILE *f)
{
    const struct tn_traffic *t = &ns->t;
    enum { LEFT = 70, TOP = 48, CW = 64, RH = 22, CHAR = 8 };  /* CHAR: a 13 px glyph, wide */
    char title[160];
    snprintf(title, sizeof title, ": %d transfers in %d %s steps, Lambda %d (bold: bottleneck "
             "links)", t->nx, ns->steps, ns->liquid ? "liquid" : "round-robin", ns->lambda);
    int w = LEFT + CW * ns->steps + 20, h = TOP + RH * t->nlinks + 12;
    int tw = 10 + CHAR * (int)(strlen(ns->path) + strlen(title));
    w = tw > w ? tw : w;  /* the title is never clipped */
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"11\">\n", w, h);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n<text x=\"10\" y=\"18\" "
            "font-size=\"13\">", w, h);
    tn_svg_text(f, ns->path);
    fprintf(f, "%s</text>\n", title);
    for (int k = 0; k < ns->steps; k++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">step %d</text>\n",
                LEFT + CW * k + CW / 2, TOP - 8, k + 1);
    for (int l = 0; l < t->nlinks; l++) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\"%s>", LEFT - 6,
                TOP + RH * l + RH / 2 + 4, ns->load[l] == ns->lambda ? " font-weight=\"bold\"" : "");
        tn_svg_text(f, t->lname[l]);
        fprintf(f, "</text>\n<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n",
                LEFT, LEFT + CW * ns->steps, TOP + RH * (l + 1), TOP + RH * (l + 1));
    }
    for (int i = 0; i < t->nx; i++)
        for (int j = t->off[i]; j < t->off[i + 1]; j++) {
            int x = LEFT + CW * ns->step_of[i] + 2, y = TOP + RH * t->link[j] + 2;
            fprintf(f, "<g><title>");
            tn_svg_text(f, t->nname[ns->src[i]]);
            fprintf(f, " to ");
            tn_svg_text(f, t->nname[ns->dst[i]]);
            fprintf(f, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                    "fill=\"hsl(%d,60%%,75%%)\"/><text x=\"%d\" y=\"%d\" "
                    "text-anchor=\"middle\">", x, y, CW - 4, RH - 4,
                    ns->src[i] * 137 % 360, x + CW / 2 - 2, y + RH / 2 + 2);
            tn_svg_text(f, t->nname[ns->src[i]]);
            fprintf(f, "&gt;");
            tn_svg_text(f, t->nname[ns->dst[i]]);
            fprintf(f, "</text></g>\n");
        }
    fprintf(f, "</svg>\n");
    return ferror(f) ? TN_EIO : 0;
}
