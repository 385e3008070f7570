/* SPDX-License-Identifier: MIT */
/* Schedules as JSON (docs/schedule-format.md) via jansson. Import checks
 * every field and reports the line and column of the offending value;
 * nothing is returned unless the whole file loaded. */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "rope.h"
#include "sched.h"
#include "tn_error.h"

#define FORMAT_NAME "torus-schedule"
#define FORMAT_VERSION 1

static const char *coll_name(enum tn_coll c)
{
    return tn_coll_name(c);
}

/* ---- export ---- */

static int put(FILE *f, json_t *j)
{
    if (!j)
        return TN_ENOMEM;
    char *s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(j);
    if (!s)
        return TN_ENOMEM;
    int rc = fputs(s, f) < 0 ? TN_EIO : 0;
    free(s);
    return rc;
}

static json_t *circuit_json(struct tn_sched *s, const struct tn_circuit *c)
{
    json_t *o = json_object(), *arcs = json_array(), *ej = json_array(), *msgs = json_array();
    if (!o || !arcs || !ej || !msgs)
        goto out_fail;
    for (uint32_t i = 0; i < c->narcs; i++) {
        json_t *a = json_pack("[Is]", (json_int_t)c->arcs[i].node, tn_dir_name(c->arcs[i].dir));
        if (!a || json_array_append_new(arcs, a))
            goto out_fail;
    }
    for (uint32_t i = 0; i < c->nej; i++)
        if (json_array_append_new(ej, json_integer(c->eject[i])))
            goto out_fail;
    if (c->msgs) {
        for (uint32_t i = 0; i < c->nmsgs; i++)
            if (json_array_append_new(msgs, json_integer(c->msgs[i])))
                goto out_fail;
    } else if (c->stream) {
        uint32_t *ids = malloc(((size_t)c->stream->n + 1) * sizeof *ids);
        if (!ids)
            goto out_fail;
        tn_blk_read(c->stream, 0, c->stream->n, ids);
        for (uint32_t i = 0; i < c->stream->n; i++)
            if (json_array_append_new(msgs, json_integer(ids[i]))) {
                free(ids);
                goto out_fail;
            }
        free(ids);
    }
    (void)s;
    if (json_object_set_new(o, "src", json_integer(c->src)) ||
        json_object_set_new(o, "start", json_integer(c->start)) ||
        json_object_set_new(o, "arcs", arcs) || json_object_set_new(o, "eject", ej) ||
        json_object_set_new(o, "messages", msgs)) {
        json_decref(o);
        return NULL;
    }
    return o;
out_fail:
    json_decref(o);
    json_decref(arcs);
    json_decref(ej);
    json_decref(msgs);
    return NULL;
}

static json_t *msg_array(const uint32_t *msgs, uint32_t n, const struct tn_blk *stream)
{
    json_t *a = json_array();
    if (!a)
        return NULL;
    uint32_t *ids = NULL;
    if (!msgs && stream) {
        n = stream->n;
        ids = malloc(((size_t)n + 1) * sizeof *ids);
        if (!ids) {
            json_decref(a);
            return NULL;
        }
        tn_blk_read(stream, 0, n, ids);
        msgs = ids;
    } else if (!msgs) {
        n = 0;
    }
    for (uint32_t i = 0; i < n; i++)
        if (json_array_append_new(a, json_integer(msgs[i]))) {
            json_decref(a);
            a = NULL;
            break;
        }
    free(ids);
    return a;
}

static json_t *relay_json(const struct tn_relay *x)
{
    json_t *m = x->words ? msg_array(x->words, x->nwords, NULL)
                         : msg_array(x->msgs, x->nmsgs, x->stream);
    if (!m)
        return NULL;
    json_t *o = json_pack("{sIsIsIso}", "src", (json_int_t)x->src, "dst", (json_int_t)x->dst,
                          "start", (json_int_t)x->start, x->words ? "words" : "messages", m);
    if (o && x->tree && json_object_set_new(o, "tree", json_string(tn_dir_name(x->tree - 1)))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int tn_sched_write_json(struct tn_sched *s, FILE *f)
{
    if (!s->st->laid_out && tn_sched_layout(s))
        return TN_ENOMEM;
    int rc;
    const struct tn_topo *t = &s->topo;
    fprintf(f, "{\"format\": \"%s\", \"version\": %d,\n", FORMAT_NAME, FORMAT_VERSION);
    fprintf(f, " \"dims\": [%u, %u, %u], \"collective\": \"%s\", \"algorithm\": ", t->dim[0],
            t->dim[1], t->dim[2], coll_name(s->coll));
    if ((rc = put(f, json_string(s->algo))))
        return rc;
    fprintf(f, ",\n \"msg_flits\": %u, \"ports\": %u, \"alpha\": %u, \"root\": %u,\n",
            s->msg_flits, s->ports, s->alpha, s->root);
    if (s->coll == TN_GOSSIP && s->parts > 1)
        fprintf(f, " \"parts\": %u, \"padding\": %u,\n", s->parts, s->pad);
    if (s->msg_len) {
        uint32_t n = tn_sched_nids(s);
        fprintf(f, " \"msg_lengths\": [");
        for (uint32_t i = 0; i < n; i++)
            fprintf(f, "%s%u", i ? ", " : "", s->msg_len[i]);
        fprintf(f, "],\n");
    }
    fprintf(f, " \"rounds\": [");
    for (uint32_t r = 0; r < s->nrounds; r++) {
        const struct tn_round *rd = &s->rounds[r];
        fprintf(f, "%s\n  {\"duration\": %llu, \"circuits\": [", r ? "," : "",
                (unsigned long long)rd->duration);
        for (uint32_t i = 0; i < rd->ncirc; i++) {
            fprintf(f, "%s\n    ", i ? "," : "");
            if ((rc = put(f, circuit_json(s, &rd->circ[i]))))
                return rc;
        }
        fprintf(f, "\n  ]");
        if (rd->nrelay) {
            fprintf(f, ", \"relays\": [");
            for (uint32_t i = 0; i < rd->nrelay; i++) {
                fprintf(f, "%s\n    ", i ? "," : "");
                if ((rc = put(f, relay_json(&rd->relay[i]))))
                    return rc;
            }
            fprintf(f, "\n  ]");
        }
        fprintf(f, "}");
    }
    fprintf(f, "\n ]}\n");
    return ferror(f) ? TN_EIO : 0;
}

static int write_json(const void *ctx, FILE *f)
{
    /* the schedule is laid out on demand: not const */
    return tn_sched_write_json((struct tn_sched *)ctx, f);
}

int tn_sched_save_json(struct tn_sched *s, const char *path)
{
    return tn_write_file(path, write_json, s);
}

/* ---- locating a value in the text (jansson keeps no positions) ---- */

struct pstep {
    const char *key;   /* object member, or NULL: array index idx */
    size_t idx;
};

struct scan {
    const char *p, *end;
};

static void skip_ws(struct scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

/* Skip a string at s->p (on the quote); copy up to cap-1 raw bytes. */
static void skip_string(struct scan *s, char *buf, size_t cap)
{
    size_t n = 0;
    s->p++;
    while (s->p < s->end && *s->p != '"') {
        if (*s->p == '\\' && s->p + 1 < s->end)
            s->p++;
        if (buf && n + 1 < cap)
            buf[n++] = *s->p;
        s->p++;
    }
    if (s->p < s->end)
        s->p++;
    if (buf)
        buf[n] = '\0';
}

static void skip_value(struct scan *s)
{
    skip_ws(s);
    if (s->p >= s->end)
        return;
    char c = *s->p;
    if (c == '"') {
        skip_string(s, NULL, 0);
    } else if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        s->p++;
        for (;;) {
            skip_ws(s);
            if (s->p >= s->end)
                return;
            if (*s->p == close) {
                s->p++;
                return;
            }
            if (*s->p == ',') {
                s->p++;
                continue;
            }
            if (c == '{') {
                skip_string(s, NULL, 0);
                skip_ws(s);
                if (s->p < s->end && *s->p == ':')
                    s->p++;
            }
            skip_value(s);
        }
    } else {
        /* a number or literal; a byte that ends nothing (a NUL, which
         * jansson accepts after a number, or a stray bracket) is skipped
         * by itself so that every call moves on */
        const char *from = s->p;
        while (s->p < s->end && *s->p && !strchr(",]} \t\r\n", *s->p))
            s->p++;
        if (s->p == from)
            s->p++;
    }
}

/* Offset of the value at path (or of the deepest part found). */
static const char *locate(const char *text, size_t len, const struct pstep *path, int depth)
{
    struct scan s = {text, text + len};
    for (int d = 0; d < depth; d++) {
        skip_ws(&s);
        if (s.p >= s.end)
            break;
        const char *here = s.p;
        bool found = false;
        if (path[d].key && *s.p == '{') {
            s.p++;
            for (;;) {
                skip_ws(&s);
                if (s.p >= s.end || *s.p == '}')
                    break;
                if (*s.p == ',') {
                    s.p++;
                    continue;
                }
                char key[64];
                skip_string(&s, key, sizeof key);
                skip_ws(&s);
                if (s.p < s.end && *s.p == ':')
                    s.p++;
                skip_ws(&s);
                if (strcmp(key, path[d].key) == 0) {
                    found = true;
                    break;
                }
                skip_value(&s);
            }
        } else if (!path[d].key && *s.p == '[') {
            s.p++;
            size_t i = 0;
            for (;;) {
                skip_ws(&s);
                if (s.p >= s.end || *s.p == ']')
                    break;
                if (*s.p == ',') {
                    s.p++;
                    continue;
                }
                if (i++ == path[d].idx) {
                    found = true;
                    break;
                }
                skip_value(&s);
            }
        }
        if (!found)
            return here;
    }
    skip_ws(&s);
    return s.p;
}

/* ---- import ---- */

struct ictx {
    const char *text;
    size_t len;
    struct pstep path[8];
    int depth;
    char *err;
    size_t errlen;
};

static int ierr(struct ictx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ierr(struct ictx *x, const char *fmt, ...)
{
    const char *at = locate(x->text, x->len, x->path, x->depth);
    unsigned line = 1, col = 1;
    for (const char *p = x->text; p < at; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    char where[160] = "";
    size_t n = 0;
    for (int d = 0; d < x->depth && n < sizeof where; d++) {
        if (x->path[d].key)
            n += (size_t)snprintf(where + n, sizeof where - n, "%s%s", d ? "." : "",
                                  x->path[d].key);
        else
            n += (size_t)snprintf(where + n, sizeof where - n, "[%zu]", x->path[d].idx);
    }
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(x->err, x->errlen, "line %u, column %u: %s%s%s", line, col, where,
             x->depth ? ": " : "", msg);
    return TN_EPARSE;
}

static void push_key(struct ictx *x, const char *k)
{
    x->path[x->depth].key = k;
    x->path[x->depth++].idx = 0;
}

static void push_idx(struct ictx *x, size_t i)
{
    x->path[x->depth].key = NULL;
    x->path[x->depth++].idx = i;
}

/* Integer member/element j in [lo, hi]. */
static int get_uint(struct ictx *x, json_t *j, uint64_t lo, uint64_t hi, const char *what,
                    uint64_t *out)
{
    if (!json_is_integer(j))
        return ierr(x, "%s must be an integer", what);
    json_int_t v = json_integer_value(j);
    if (v < 0 || (uint64_t)v < lo || (uint64_t)v > hi)
        return ierr(x, "%s %lld out of range (%llu..%llu)", what, (long long)v,
                    (unsigned long long)lo, (unsigned long long)hi);
    *out = (uint64_t)v;
    return 0;
}

static int check_keys(struct ictx *x, json_t *o, const char *const *allowed)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        bool ok = false;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, k) == 0;
        if (!ok) {
            push_key(x, k);
            return ierr(x, "unknown key \"%s\"", k);
        }
    }
    return 0;
}

/* Member key of o: required unless opt; *out NULL if absent. */
static int member(struct ictx *x, json_t *o, const char *key, bool opt, json_t **out)
{
    *out = json_object_get(o, key);
    if (!*out && !opt)
        return ierr(x, "missing \"%s\"", key);
    return 0;
}

static uint32_t *u32_list(struct ictx *x, struct tn_sched *s, json_t *a, uint32_t max,
                          const char *what, uint32_t *n, int *rc)
{
    *rc = 0;
    if (!json_is_array(a)) {
        *rc = ierr(x, "%s must be an array", what);
        return NULL;
    }
    size_t cnt = json_array_size(a);
    uint32_t *v = tn_sched_alloc(s, (cnt ? cnt : 1) * sizeof *v);
    if (!v) {
        *rc = TN_ENOMEM;
        return NULL;
    }
    for (size_t i = 0; i < cnt; i++) {
        uint64_t u;
        push_idx(x, i);
        if ((*rc = get_uint(x, json_array_get(a, i), 0, max, what, &u)))
            return NULL;
        x->depth--;
        v[i] = (uint32_t)u;
    }
    *n = (uint32_t)cnt;
    return v;
}

/* Integer member key of o in [lo, hi] into *out; when opt and absent,
 * *out keeps its default. */
static int uint_member(struct ictx *x, json_t *o, const char *key, bool opt, uint64_t lo,
                       uint64_t hi, const char *what, uint64_t *out)
{
    json_t *j;
    int rc = member(x, o, key, opt, &j);
    if (rc || !j)
        return rc;
    push_key(x, key);
    if ((rc = get_uint(x, j, lo, hi, what, out)))
        return rc;
    x->depth--;
    return 0;
}

/* u32_list of a, the value of member key. */
static uint32_t *u32_member(struct ictx *x, struct tn_sched *s, json_t *a, const char *key,
                            uint32_t max, const char *what, uint32_t *n, int *rc)
{
    push_key(x, key);
    uint32_t *v = u32_list(x, s, a, max, what, n, rc);
    if (!*rc)
        x->depth--;
    return v;
}

/* One arc, [node, direction]. */
static int load_arc(struct ictx *x, const struct tn_topo *t, json_t *a, struct tn_arc *out)
{
    uint64_t node;
    int rc;
    if (!json_is_array(a) || json_array_size(a) != 2)
        return ierr(x, "an arc must be [node, direction]");
    push_idx(x, 0);
    if ((rc = get_uint(x, json_array_get(a, 0), 0, t->n - 1, "node", &node)))
        return rc;
    x->depth--;
    push_idx(x, 1);
    json_t *d = json_array_get(a, 1);
    if (!json_is_string(d))
        return ierr(x, "direction must be a string (X+, X-, Y+, Y-, Z+, Z-)");
    int dir = tn_dir_parse(json_string_value(d));
    if (dir < 0)
        return ierr(x, "unknown direction \"%s\" (use X+, X-, Y+, Y-, Z+, Z-)",
                    json_string_value(d));
    x->depth--;
    out->node = (uint32_t)node;
    out->dir = (uint8_t)dir;
    return 0;
}

/* A circuit's arcs: a new array of *n arcs in *out. */
static int load_arcs(struct ictx *x, const struct tn_topo *t, json_t *arcs, struct tn_arc **out,
                     size_t *n)
{
    push_key(x, "arcs");
    if (!json_is_array(arcs))
        return ierr(x, "arcs must be an array of [node, direction]");
    size_t na = json_array_size(arcs);
    struct tn_arc *av = malloc((na ? na : 1) * sizeof *av);
    if (!av)
        return TN_ENOMEM;
    for (size_t i = 0; i < na; i++) {
        push_idx(x, i);
        int rc = load_arc(x, t, json_array_get(arcs, i), &av[i]);
        if (rc) {
            free(av);
            return rc;
        }
        x->depth--;
    }
    x->depth--;
    *out = av;
    *n = na;
    return 0;
}

static int load_circuit(struct ictx *x, struct tn_sched *s, uint32_t r, json_t *c)
{
    static const char *const keys[] = {"src", "start", "arcs", "eject", "messages", NULL};
    const struct tn_topo *t = &s->topo;
    uint64_t src, start = 0;
    json_t *arcs, *ej, *msgs;
    int rc;
    if (!json_is_object(c))
        return ierr(x, "a circuit must be an object");
    if ((rc = check_keys(x, c, keys)) ||
        (rc = uint_member(x, c, "src", false, 0, t->n - 1, "node", &src)) ||
        (rc = uint_member(x, c, "start", true, 0, 0xFFFFFF, "start offset", &start)))
        return rc;
    if ((rc = member(x, c, "arcs", false, &arcs)) || (rc = member(x, c, "eject", false, &ej)) ||
        (rc = member(x, c, "messages", false, &msgs)))
        return rc;
    struct tn_arc *av = NULL;
    size_t na = 0;
    if ((rc = load_arcs(x, t, arcs, &av, &na)))
        return rc;
    uint32_t nej = 0, nmsg = 0, *mv = NULL;
    uint32_t *ev = u32_member(x, s, ej, "eject", t->n - 1, "node", &nej, &rc);
    if (!rc)
        mv = u32_member(x, s, msgs, "messages", tn_sched_nids(s) - 1, "message id", &nmsg, &rc);
    if (!rc && !tn_sched_add_circuit(s, r, (uint32_t)src, av, (uint32_t)na, ev, nej, 0, 0, mv,
                                     nmsg, (uint32_t)start))
        rc = TN_ENOMEM;
    free(av);
    return rc;
}

static int load_relay(struct ictx *x, struct tn_sched *s, uint32_t r, json_t *o)
{
    static const char *const keys[] = {"src", "dst", "start", "tree", "messages", "words", NULL};
    uint32_t last = s->topo.n - 1;
    uint64_t src, dst, start = 0;
    json_t *msgs, *words, *tree;
    int rc, dir = -1;
    if (!json_is_object(o))
        return ierr(x, "a relay stream must be an object");
    if ((rc = check_keys(x, o, keys)) ||
        (rc = uint_member(x, o, "src", false, 0, last, "node", &src)) ||
        (rc = uint_member(x, o, "dst", false, 0, last, "node", &dst)) ||
        (rc = uint_member(x, o, "start", true, 0, 0xFFFFFF, "start offset", &start)) ||
        (rc = member(x, o, "tree", true, &tree)) ||
        (rc = member(x, o, "messages", true, &msgs)) || (rc = member(x, o, "words", true, &words)))
        return rc;
    if (tree && (!json_is_string(tree) || (dir = tn_dir_parse(json_string_value(tree))) < 0))
        return ierr(x, "tree must name the six tree by its first arc: X+, X-, Y+, Y-, Z+ or Z-");
    if (!msgs == !words)
        return ierr(x, "a relay stream carries either messages or words (a control packet)");
    uint32_t n = 0;
    uint32_t *v = msgs ? u32_member(x, s, msgs, "messages", tn_sched_nids(s) - 1, "message id",
                                    &n, &rc)
                       : u32_member(x, s, words, "words", UINT32_MAX, "word", &n, &rc);
    if (rc)
        return rc;
    struct tn_relay *rl =
        msgs ? tn_sched_add_relay(s, r, (uint32_t)src, (uint32_t)dst, 0, 0, v, n, (uint32_t)start)
             : tn_sched_add_relay_words(s, r, (uint32_t)src, (uint32_t)dst, v, n,
                                        (uint32_t)start);
    if (!rl)
        return TN_ENOMEM;
    rl->tree = (uint8_t)(dir + 1);
    return 0;
}

/* What a schedule is made for, read before it is made. */
struct doc_head {
    struct tn_topo topo;
    enum tn_coll coll;
    const char *algo;
    uint64_t msg_flits, ports, alpha, root;
};

static int load_format(struct ictx *x, json_t *doc)
{
    json_t *j;
    uint64_t version;
    int rc = member(x, doc, "format", false, &j);
    if (rc)
        return rc;
    push_key(x, "format");
    if (!json_is_string(j) || strcmp(json_string_value(j), FORMAT_NAME) != 0)
        return ierr(x, "format must be \"%s\"", FORMAT_NAME);
    x->depth--;
    return uint_member(x, doc, "version", false, FORMAT_VERSION, FORMAT_VERSION, "version",
                       &version);
}

static int load_dims(struct ictx *x, json_t *doc, struct tn_topo *t)
{
    json_t *j;
    int rc = member(x, doc, "dims", false, &j);
    if (rc)
        return rc;
    push_key(x, "dims");
    if (!json_is_array(j) || json_array_size(j) < 1 || json_array_size(j) > 3)
        return ierr(x, "dims must be an array of 1 to 3 sizes");
    unsigned d[3] = {1, 1, 1};
    for (size_t i = 0; i < json_array_size(j); i++) {
        uint64_t v;
        push_idx(x, i);
        if ((rc = get_uint(x, json_array_get(j, i), 1, TN_DIM_MAX, "size", &v)))
            return rc;
        d[i] = (unsigned)v;
        x->depth--;
    }
    uint64_t nodes = (uint64_t)d[0] * d[1] * d[2];
    if (nodes > TN_FILE_NODES_MAX)
        return ierr(x, "a %ux%ux%u torus has %llu nodes, a schedule file may ask for at most %u",
                    d[0], d[1], d[2], (unsigned long long)nodes, TN_FILE_NODES_MAX);
    tn_topo_init(t, d[0], d[1], d[2]);
    x->depth--;
    return 0;
}

static int load_collective(struct ictx *x, json_t *doc, const struct tn_topo *t,
                           enum tn_coll *coll)
{
    json_t *j;
    int rc = member(x, doc, "collective", false, &j);
    if (rc)
        return rc;
    push_key(x, "collective");
    if (!json_is_string(j) || tn_coll_parse(json_string_value(j), coll) != 0)
        return ierr(x, "collective must be \"gossip\", \"broadcast\", \"alltoall\", \"scatter\" "
                       "or \"gather\"");
    if (*coll == TN_P2P) /* its destination is not in the file: nothing to verify against */
        return ierr(x, "p2p schedules are not read from files: torusctl run p2p builds the "
                       "transfer (docs/switching.md)");
    if (*coll == TN_PERM) /* neither is the permutation */
        return ierr(x, "perm schedules are not read from files: torusctl run perm builds "
                       "them (docs/switching.md)");
    /* every message id is built in its source's memory before any round */
    uint64_t ids = *coll == TN_ALLTOALL ? (uint64_t)t->n * t->n : t->n;
    if (ids > TN_FILE_IDS_MAX)
        return ierr(x, "%s on %u nodes has %llu messages, a schedule file may ask for at most "
                    "%u", json_string_value(j), t->n, (unsigned long long)ids, TN_FILE_IDS_MAX);
    x->depth--;
    return 0;
}

static int load_head(struct ictx *x, json_t *doc, struct doc_head *h)
{
    json_t *j;
    int rc;
    if ((rc = load_format(x, doc)) || (rc = load_dims(x, doc, &h->topo)) ||
        (rc = load_collective(x, doc, &h->topo, &h->coll)) ||
        (rc = member(x, doc, "algorithm", true, &j)))
        return rc;
    h->algo = "";
    if (j) {
        push_key(x, "algorithm");
        if (!json_is_string(j))
            return ierr(x, "algorithm must be a string");
        h->algo = json_string_value(j);
        x->depth--;
    }
    h->alpha = 1;
    h->root = 0;
    if ((rc = uint_member(x, doc, "msg_flits", false, 1, 1u << 24, "msg_flits", &h->msg_flits)) ||
        (rc = uint_member(x, doc, "ports", false, 1, 6, "ports", &h->ports)))
        return rc;
    if (h->ports != 1 && h->ports != 6) {
        push_key(x, "ports");
        return ierr(x, "ports must be 6 (all-port) or 1 (single-port)");
    }
    if ((rc = uint_member(x, doc, "alpha", true, 0, 1u << 20, "alpha", &h->alpha)))
        return rc;
    return uint_member(x, doc, "root", true, 0, h->topo.n - 1, "root", &h->root);
}

/* parts, padding and msg_lengths, on the new schedule. */
static int load_options(struct ictx *x, json_t *doc, struct tn_sched *s)
{
    json_t *j;
    int rc;
    uint64_t parts = 0, pad = s->pad;
    if ((rc = uint_member(x, doc, "parts", true, 1, 64, "parts", &parts)))
        return rc;
    if (parts && tn_sched_set_parts(s, (uint32_t)parts)) {
        push_key(x, "parts");
        return ierr(x, "parts is for gossip schedules (each node's message in parts)");
    }
    if ((rc = uint_member(x, doc, "padding", true, 0, (uint64_t)s->parts * s->msg_flits - 1,
                          "padding", &pad)))
        return rc;
    s->pad = (uint32_t)pad;
    if ((rc = member(x, doc, "msg_lengths", true, &j)) || !j)
        return rc;
    uint32_t nl = 0, want = tn_sched_nids(s);
    push_key(x, "msg_lengths");
    uint32_t *lv = u32_list(x, s, j, 1u << 24, "message length", &nl, &rc);
    if (rc)
        return rc;
    if (nl != want)
        return ierr(x, "msg_lengths must list %u lengths (one per message id), not %u", want, nl);
    if ((rc = tn_sched_set_lengths(s, lv, nl)))
        return rc;
    x->depth--;
    return 0;
}

typedef int (*load_item_fn)(struct ictx *x, struct tn_sched *s, uint32_t r, json_t *o);

/* Every element of the array a, member key of round r, by load. */
static int load_items(struct ictx *x, struct tn_sched *s, uint32_t r, json_t *a, const char *key,
                      load_item_fn load)
{
    push_key(x, key);
    if (!json_is_array(a))
        return ierr(x, "%s must be an array", key);
    for (size_t i = 0; i < json_array_size(a); i++) {
        push_idx(x, i);
        int rc = load(x, s, r, json_array_get(a, i));
        if (rc)
            return rc;
        x->depth--;
    }
    x->depth--;
    return 0;
}

static int load_round(struct ictx *x, struct tn_sched *s, json_t *rd)
{
    static const char *const keys[] = {"duration", "circuits", "relays", NULL};
    json_t *circ, *rel;
    int rc;
    if (!json_is_object(rd))
        return ierr(x, "a round must be an object");
    if ((rc = check_keys(x, rd, keys)) || (rc = member(x, rd, "circuits", false, &circ)))
        return rc;
    int ri = tn_sched_add_round(s);
    if (ri < 0)
        return TN_ENOMEM;
    if ((rc = uint_member(x, rd, "duration", true, 0, (uint64_t)1 << 47, "duration",
                          &s->rounds[ri].duration)) ||
        (rc = load_items(x, s, (uint32_t)ri, circ, "circuits", load_circuit)) ||
        (rc = member(x, rd, "relays", true, &rel)) || !rel)
        return rc;
    return load_items(x, s, (uint32_t)ri, rel, "relays", load_relay);
}

static int load_doc(struct ictx *x, json_t *doc, struct tn_sched **out)
{
    static const char *const keys[] = {"format", "version", "dims", "collective", "algorithm",
                                       "msg_flits", "ports", "alpha", "root", "parts", "padding",
                                       "msg_lengths",
                                       "rounds", NULL};
    struct doc_head h;
    json_t *rounds;
    int rc;
    if (!json_is_object(doc))
        return ierr(x, "a schedule must be a JSON object");
    if ((rc = check_keys(x, doc, keys)) || (rc = load_head(x, doc, &h)) ||
        (rc = member(x, doc, "rounds", false, &rounds)))
        return rc;
    push_key(x, "rounds");
    if (!json_is_array(rounds))
        return ierr(x, "rounds must be an array");
    x->depth--;
    struct tn_sched *s;
    if ((rc = tn_sched_new(&s, &h.topo, h.coll, h.algo, (uint32_t)h.msg_flits,
                           (unsigned)h.ports, (unsigned)h.alpha, (uint32_t)h.root)))
        return rc;
    if ((rc = load_options(x, doc, s)))
        goto out_fail;
    push_key(x, "rounds");
    for (size_t r = 0; r < json_array_size(rounds); r++) {
        push_idx(x, r);
        if ((rc = load_round(x, s, json_array_get(rounds, r))))
            goto out_fail;
        x->depth--;
    }
    if ((rc = tn_sched_layout(s)))
        goto out_fail;
    *out = s;
    return 0;
out_fail:
    tn_sched_free(s);
    return rc;
}

int tn_sched_parse_json(struct tn_sched **out, const char *text, size_t len, char *err,
                        size_t errlen)
{
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        snprintf(err, errlen, "line %d, column %d: %s", je.line, je.column, je.text);
        return TN_EPARSE;
    }
    struct ictx x = {.text = text, .len = len, .err = err, .errlen = errlen};
    struct tn_sched *s = NULL;
    int rc = load_doc(&x, doc, &s);
    json_decref(doc);
    if (rc == TN_ENOMEM)
        snprintf(err, errlen, "out of memory");
    if (rc == 0)
        *out = s;
    return rc;
}

int tn_sched_load_json(struct tn_sched **out, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return TN_EIO;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (len < cap)
            break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb) {
            free(buf);
            buf = NULL;
        } else {
            buf = nb;
        }
    }
    int rd_err = ferror(f);
    fclose(f);
    if (!buf || rd_err) {
        free(buf);
        snprintf(err, errlen, "cannot read %s", path);
        return buf ? TN_EIO : TN_ENOMEM;
    }
    int rc = tn_sched_parse_json(out, buf, len, err, errlen);
    free(buf);
    return rc;
}
