/* SPDX-License-Identifier: MIT */
/* Relay-mode lowering (docs/hardware.md "Relay mode", docs/host.md):
 * every relay stream of the schedule is one packet, a head flit carrying
 * the destination's coordinates (x | y << 4 | z << 8, routed by DOR) or,
 * for a stream along a six tree, also 1 + the tree << 12 and the detour
 * flag << 15 (tn_tree_hop; docs/hardware.md "Route"), followed by the
 * words of its messages (a control packet: its words), the last flagged
 * tail. The routers route a head from its word at every node but the
 * source: there it takes the output its inject descriptor names (the
 * descriptor's hop, docs/hardware.md "Inject descriptor"), which the
 * lowering sets to the first arc of the packet's route (tn_relay_path).
 *
 * Memory: packets are staged at their source above the message layout
 * (from word mem_base on; the image writes their words and MEM flags), so a
 * source may send any subset of what it holds in any order; a destination
 * receives into an area above the layout. Relay-delivered words are
 * therefore not part of the message layout, and relay rounds must come
 * after every circuit round.
 *
 * Lanes, as the hardware allocates them: the packets of a source that
 * follow each other without a gap (each starts the cycle after the
 * previous one's tail) and leave by the same first hop share one inject
 * descriptor (a chain: every head of a descriptor takes its one hop), and
 * a lane sends several chains of a round one after the other (the next
 * may start the cycle after the previous one's last flit, so packets back
 * to back with different first hops are consecutive chains of a lane); a
 * destination's packets take the lowest relay eject lane free when their
 * head arrives (a lane is free from the cycle after its holder's tail;
 * heads of one cycle in input-port order), and each lane's descriptor
 * expects the total of its packets.
 *
 * Banks: a chain reads its staging area one word per cycle, and an eject
 * lane writes each packet one word per cycle from where the previous one
 * ended, so every packet's accesses have one phase (word - cycle). Each
 * staging and receive area starts after a gap of 0..banks-1 words chosen
 * so that its phases differ from those of the areas of the other lanes of
 * the node that are accessed in the same cycles (tn_plan_bank_check then
 * checks the result flit by flit). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plani.h"
#include "rope.h"
#include "tn_error.h"

struct pkt {
    uint32_t idx, src, dst;
    uint64_t start, flits, first; /* first: arrival of the head at dst */
    unsigned d, hop, inport;      /* hops, output at src (the first), input port at dst */
    unsigned lane;                /* inject lane at src, then eject lane at dst */
    uint64_t off;                 /* words before it in its eject lane's area */
};

static int cmp_src(const void *a, const void *b)
{
    const struct pkt *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_dst(const void *a, const void *b)
{
    const struct pkt *x = a, *y = b;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    if (x->inport != y->inport)
        return x->inport < y->inport ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The relay lowering of one plan. */
struct relay {
    struct tn_plan *p;
    char *err;
    size_t errlen;
    uint64_t *top;            /* per node: first free word above the layout */
    struct tn_arc *route;
    unsigned rcap;
    struct pkt *pk;
    uint32_t np, scap;
};

static int check_relay_rounds(const struct tn_plan *p, char *err, size_t errlen, bool *any,
                              bool *circuits)
{
    const struct tn_sched *s = p->sched;
    uint32_t last_circ = 0, first_relay = UINT32_MAX;
    bool trees = false;
    for (uint32_t r = 0; r < s->nrounds; r++) {
        if (s->rounds[r].ncirc)
            last_circ = r + 1;
        if (s->rounds[r].nrelay && first_relay == UINT32_MAX)
            first_relay = r;
        for (uint32_t i = 0; i < s->rounds[r].nrelay; i++)
            trees |= s->rounds[r].relay[i].tree != 0;
    }
    *any = first_relay != UINT32_MAX;
    *circuits = last_circ > 0;
    if (!*any)
        return 0;
    if (first_relay < last_circ)
        return tn_errf(err, errlen, TN_ENOTSUP,
                       "round %u has relay streams before a circuit round: relay-delivered words "
                       "live outside the message layout, so relay rounds must come last",
                       first_relay + 1);
    if (p->par.width < 12)
        return tn_errf(err, errlen, TN_ENOTSUP,
                       "relay heads carry x | y << 4 | z << 8: they need W >= 12 (W is %u)",
                       p->par.width);
    if (trees && p->par.width < 16)
        return tn_errf(err, errlen, TN_ENOTSUP,
                       "heads along a six tree carry the tree in bits 12-15: they need W >= 16 "
                       "(W is %u)", p->par.width);
    for (int k = 0; k < 3; k++)
        if (p->topo.dim[k] > 15)
            return tn_errf(err, errlen, TN_ENOTSUP, "relay heads carry 4-bit coordinates: "
                           "dimension %d has %u nodes", k, p->topo.dim[k]);
    return 0;
}

/* The packets of round r (null ones dropped), their routes' relay selects
 * and the round's duration. */
static int collect_packets(struct relay *rl, uint32_t r)
{
    const struct tn_sched *s = rl->p->sched;
    const struct tn_round *rd = &s->rounds[r];
    struct tn_plan_round *pr = &rl->p->rounds[r];
    uint32_t N = rl->p->topo.n;
    uint64_t need = 0;
    free(rl->pk);
    rl->np = 0;
    rl->pk = calloc(rd->nrelay ? rd->nrelay : 1, sizeof *rl->pk);
    if (!rl->pk)
        return TN_ENOMEM;
    for (uint32_t i = 0; i < rd->nrelay; i++) {
        const struct tn_relay *x = &rd->relay[i];
        if (x->src >= N || x->dst >= N || x->src == x->dst || !x->stream || x->msg_bad != -1 ||
            x->msg_noncontig || x->tree > TN_NDIRS)
            return tn_errf(rl->err, rl->errlen, TN_EVERIFY,
                           "round %u relay stream %u is broken: run torusctl verify", r + 1, i);
        uint64_t flits = tn_relay_flits(s, x);
        if (flits == 0)
            continue; /* null messages only: nothing is sent */
        struct pkt *q = &rl->pk[rl->np++];
        q->idx = i;
        q->src = x->src;
        q->dst = x->dst;
        q->start = x->start;
        q->flits = flits;
        q->d = tn_relay_path(&rl->p->topo, x, rl->route, rl->rcap);
        q->first = rl->p->par.alpha + x->start + q->d;
        q->hop = rl->route[0].dir;  /* the route from src: arc 0 leaves src */
        q->inport = rl->route[q->d - 1].dir;
        for (unsigned h = 0; h < q->d; h++)
            pr->xbar[(size_t)rl->route[h].node * 12 + rl->route[h].dir] = TN_SEL_RELAY;
        if (x->start + q->d + flits > need)
            need = x->start + q->d + flits;
    }
    pr->mode = TN_MODE_RELAY;
    pr->duration = tn_round_duration(rl->p->par.alpha, need);
    struct tn_inject *ni = realloc(pr->inj, ((size_t)pr->ninj + rl->np + 1) * sizeof *ni);
    if (ni)
        pr->inj = ni;
    struct tn_eject *ne = realloc(pr->ej, ((size_t)pr->nej + rl->np + 1) * sizeof *ne);
    if (ne)
        pr->ej = ne;
    return ni && ne ? 0 : TN_ENOMEM;
}

/* The smallest gap (0..banks-1 words) before an area at top that clash()
 * accepts as the area's base. */
static unsigned free_gap(const struct tn_plan *p, uint64_t top, bool (*clash)(const void *ctx,
                         uint64_t base), const void *ctx)
{
    for (unsigned g = 0; g < p->par.banks; g++)
        if (!clash(ctx, top + g))
            return g;
    return 0; /* nothing avoids it: tn_plan_bank_check says where */
}

/* A source's chains (packets back to back with one first hop, one inject
 * descriptor each): chain c's staging area is read from cycle alpha - 1 +
 * start[c] on, and its heads leave by output hop[c]. */
struct chains {
    uint64_t *base, *start, *len;
    uint8_t *hop;
    unsigned n, cur;
    uint64_t mask;
};

static bool chain_clash(const void *ctx, uint64_t base)
{
    const struct chains *c = ctx;
    unsigned l = c->cur;
    for (unsigned m = 0; m < l; m++)
        if (c->start[m] < c->start[l] + c->len[l] && c->start[l] < c->start[m] + c->len[m] &&
            ((base - c->start[l] - (c->base[m] - c->start[m])) & c->mask) == 0)
            return true;
    return false;
}

static int add_stage(struct relay *rl, uint32_t v, uint32_t r, const struct pkt *q)
{
    struct tn_plan *p = rl->p;
    if (p->nstage == rl->scap) {
        rl->scap = rl->scap ? 2 * rl->scap : 64;
        struct tn_plan_stage *ns = realloc(p->stage, rl->scap * sizeof *ns);
        if (!ns)
            return TN_ENOMEM;
        p->stage = ns;
    }
    p->stage[p->nstage++] = (struct tn_plan_stage){v, (uint32_t)rl->top[v], r, q->idx, q->dst};
    rl->top[v] += q->flits;
    return 0;
}

/* The chains of source v's packets [a, b) (by start): a packet that
 * starts the cycle after a chain's last flit and leaves by the same first
 * hop continues it (the device takes one hop per descriptor), provided
 * the chain is still the last on its lane; else it opens a chain on the
 * lowest lane whose chains have ended (a lane works through its
 * descriptors in order, the next may start the cycle after the previous
 * one's last flit). Sets each packet's lane, *chain_of its chain (from 0)
 * and ch's starts, lengths and hops; TN_ECAPACITY when more chains than
 * lanes run at once. */
static int assign_chains(struct relay *rl, uint32_t r, uint32_t a, uint32_t b, struct chains *ch,
                         unsigned *lane_of, uint32_t *chain_of)
{
    const struct tn_plan *p = rl->p;
    uint64_t lane_end[TN_NDIRS + 1] = {0};
    for (uint32_t k = a; k < b; k++) {
        const struct pkt *q = &rl->pk[k];
        unsigned c = 0, l = 0;
        while (c < ch->n && (ch->start[c] + ch->len[c] != q->start || ch->hop[c] != q->hop ||
                             lane_end[lane_of[c]] != q->start))
            c++;
        if (c == ch->n) {
            while (l < p->par.lanes && lane_end[l] > q->start)
                l++;
            if (l == p->par.lanes)
                return tn_errf(rl->err, rl->errlen, TN_ECAPACITY,
                               "round %u: node %u injects more than %u chains of relay packets "
                               "at once (the device has %u lane%s)", r + 1, q->src,
                               p->par.lanes, p->par.lanes, p->par.lanes == 1 ? "" : "s");
            ch->start[c] = q->start;
            ch->len[c] = 0;
            ch->hop[c] = (uint8_t)q->hop;
            lane_of[c] = l;
            ch->n++;
        }
        ch->len[c] += q->flits;
        lane_end[lane_of[c]] = ch->start[c] + ch->len[c];
        rl->pk[k].lane = lane_of[c];
        chain_of[k - a] = c;
    }
    return 0;
}

/* Injection of source v (packets [a, b) by start): one inject descriptor
 * per chain, with the chain's first hop; each chain is staged where its
 * lane's reads use other banks than the chains running beside it. */
static int inject_chains(struct relay *rl, uint32_t r, uint32_t a, uint32_t b)
{
    struct tn_plan *p = rl->p;
    struct tn_plan_round *pr = &p->rounds[r];
    uint32_t v = rl->pk[a].src, np = b - a;
    struct chains ch = {malloc(np * sizeof *ch.base), malloc(np * sizeof *ch.start),
                        malloc(np * sizeof *ch.len), malloc(np * sizeof *ch.hop), 0, 0,
                        p->par.banks - 1};
    unsigned *lane_of = malloc(np * sizeof *lane_of);
    uint32_t *chain_of = malloc(np * sizeof *chain_of);
    int rc = ch.base && ch.start && ch.len && ch.hop && lane_of && chain_of
                 ? assign_chains(rl, r, a, b, &ch, lane_of, chain_of) : TN_ENOMEM;
    for (unsigned c = 0; c < ch.n && !rc; c++) {
        ch.start[c] += p->par.alpha; /* its reads: from alpha - 1 + start */
        ch.cur = c;
        rl->top[v] += free_gap(p, rl->top[v], chain_clash, &ch);
        ch.base[c] = rl->top[v];
        struct tn_inject *in = &pr->inj[pr->ninj++];
        *in = (struct tn_inject){.node = v, .lane = (uint8_t)lane_of[c],
                                 .addr = (uint32_t)rl->top[v], .circuit = UINT32_MAX,
                                 .relay = 1, .hop = ch.hop[c]};
        for (uint32_t k = a; k < b && !rc; k++) {
            if (chain_of[k - a] != c)
                continue;
            if (in->circuit == UINT32_MAX) {
                in->circuit = rl->pk[k].idx;
                in->start = (uint32_t)rl->pk[k].start;
            }
            in->len += (uint32_t)rl->pk[k].flits;
            rc = add_stage(rl, v, r, &rl->pk[k]);
        }
        if (!rc && rl->top[v] > UINT32_MAX)
            rc = tn_errf(rl->err, rl->errlen, TN_ECAPACITY, "node %u needs more than 2^32 words",
                         v);
    }
    free(ch.base);
    free(ch.start);
    free(ch.len);
    free(ch.hop);
    free(lane_of);
    free(chain_of);
    return rc;
}

/* A destination's relay eject lanes: packets [a, b) in arrival order with
 * their lanes and offsets; lane cur's area is being placed. */
struct areas {
    const struct pkt *pk;
    uint32_t a, b;
    uint64_t base[TN_NDIRS + 1];
    unsigned cur;
    uint64_t mask;
};

static bool area_clash(const void *ctx, uint64_t base)
{
    const struct areas *ar = ctx;
    for (uint32_t i = ar->a; i < ar->b; i++) {
        const struct pkt *x = &ar->pk[i];
        if (x->lane != ar->cur)
            continue;
        for (uint32_t j = ar->a; j < ar->b; j++) {
            const struct pkt *y = &ar->pk[j];
            uint64_t px = base + x->off - x->first, py = ar->base[y->lane] + y->off - y->first;
            if (y->lane < ar->cur && x->first < y->first + y->flits &&
                y->first < x->first + x->flits && ((px - py) & ar->mask) == 0)
                return true;
        }
    }
    return false;
}

/* Ejection at destination v (packets [a, b) by arrival): each head takes
 * the lowest relay eject lane free when it arrives, as the router does;
 * each lane's area is placed where its writes use other banks than the
 * lanes writing beside it. */
static int eject_lanes(struct relay *rl, uint32_t r, uint32_t a, uint32_t b)
{
    struct tn_plan *p = rl->p;
    struct tn_plan_round *pr = &p->rounds[r];
    uint32_t v = rl->pk[a].dst;
    uint64_t busy[TN_NDIRS + 1], total[TN_NDIRS + 1];
    uint32_t firstidx[TN_NDIRS + 1];
    unsigned nl = 0;
    for (uint32_t k = a; k < b; k++) {
        unsigned l = tn_relay_free_lane(busy, nl, rl->pk[k].first);
        if (l == nl) {
            if (nl >= p->par.lanes)
                return tn_errf(rl->err, rl->errlen, TN_ECAPACITY,
                               "round %u: node %u receives more than %u relay packets at once "
                               "(the device has %u lane%s)", r + 1, v, p->par.lanes, p->par.lanes,
                               p->par.lanes == 1 ? "" : "s");
            total[nl] = 0;
            firstidx[nl++] = rl->pk[k].idx;
        }
        rl->pk[k].lane = l;
        rl->pk[k].off = total[l];
        busy[l] = rl->pk[k].first + rl->pk[k].flits - 1;
        total[l] += rl->pk[k].flits;
    }
    struct areas ar = {rl->pk, a, b, {0}, 0, p->par.banks - 1};
    for (unsigned l = 0; l < nl; l++) {
        ar.cur = l;
        rl->top[v] += free_gap(p, rl->top[v], area_clash, &ar);
        ar.base[l] = rl->top[v];
        pr->ej[pr->nej++] = (struct tn_eject){v, (uint8_t)l, TN_PORT_RELAY, (uint32_t)rl->top[v],
                                              (uint32_t)total[l], firstidx[l]};
        pr->xbar[(size_t)v * 12 + 6 + l] = TN_SEL_RELAY;
        rl->top[v] += total[l];
        if (rl->top[v] > UINT32_MAX)
            return tn_errf(rl->err, rl->errlen, TN_ECAPACITY,
                           "node %u needs more than 2^32 words", v);
    }
    return 0;
}

static int lower_relay_round(struct relay *rl, uint32_t r)
{
    struct tn_plan_round *pr = &rl->p->rounds[r];
    int rc = collect_packets(rl, r);
    if (rc == 0 && rl->np)
        qsort(rl->pk, rl->np, sizeof *rl->pk, cmp_src);
    for (uint32_t a = 0, b; rc == 0 && a < rl->np; a = b) {
        for (b = a; b < rl->np && rl->pk[b].src == rl->pk[a].src; b++)
            ;
        rc = inject_chains(rl, r, a, b);
    }
    if (rc == 0 && rl->np)
        qsort(rl->pk, rl->np, sizeof *rl->pk, cmp_dst);
    for (uint32_t a = 0, b; rc == 0 && a < rl->np; a = b) {
        for (b = a; b < rl->np && rl->pk[b].dst == rl->pk[a].dst; b++)
            ;
        rc = eject_lanes(rl, r, a, b);
    }
    if (rc == 0 && pr->ninj)
        qsort(pr->inj, pr->ninj, sizeof *pr->inj, tn_plan_cmp_inj);
    if (rc == 0 && pr->nej)
        qsort(pr->ej, pr->nej, sizeof *pr->ej, tn_plan_cmp_ej);
    return rc;
}

int tn_plan_lower_relay(struct tn_plan *p, char *err, size_t errlen)
{
    bool any, circuits;
    int rc = check_relay_rounds(p, err, errlen, &any, &circuits);
    if (rc || !any)
        return rc;
    uint32_t N = p->topo.n;
    struct relay rl = {p, err, errlen, malloc((size_t)N * sizeof *rl.top), NULL, 0, NULL, 0,
                       p->nstage};
    rl.rcap = p->topo.dim[0] + p->topo.dim[1] + p->topo.dim[2] + 1;
    rl.route = malloc(rl.rcap * sizeof *rl.route);
    rc = rl.top && rl.route ? 0 : TN_ENOMEM;
    if (!circuits) {
        /* no circuit reads the message layout: it is not loaded, the
         * packets carry everything from word 0 */
        p->mem_base = 0;
        p->mem_max = 0;
    }
    for (uint32_t v = 0; rc == 0 && v < N; v++)
        rl.top[v] = p->mem_base;
    for (uint32_t r = 0; rc == 0 && r < p->nrounds; r++)
        if (p->sched->rounds[r].nrelay)
            rc = lower_relay_round(&rl, r);
    p->total = 0;
    for (uint32_t r = 0; r < p->nrounds; r++) {
        p->rounds[r].t0 = p->total;
        p->total += p->rounds[r].duration;
    }
    for (uint32_t v = 0; rc == 0 && v < N; v++)
        if (rl.top[v] > p->mem_max)
            p->mem_max = rl.top[v];
    if (rc == TN_ENOMEM)
        tn_errf(err, errlen, rc, "out of memory");
    free(rl.top);
    free(rl.route);
    free(rl.pk);
    return rc;
}

uint32_t tn_plan_stage_words(const struct tn_plan *p, uint32_t i, uint64_t seed, uint32_t *data,
                             uint8_t *flags, uint32_t cap)
{
    const struct tn_plan_stage *st = &p->stage[i];
    const struct tn_sched *s = p->sched;
    const struct tn_relay *x = &s->rounds[st->round].relay[st->relay];
    unsigned c[3];
    tn_coords(&p->topo, st->dst, c);
    uint32_t w = 0;
    if (cap > 0) {
        data[0] = c[0] | c[1] << 4 | c[2] << 8;
        if (x->tree)
            data[0] |= (uint32_t)x->tree << 12 |
                       (uint32_t)tn_tree_detour(&p->topo, x->src, x->dst, x->tree - 1) << 15;
        flags[0] = 1;
    }
    w = 1;
    for (uint32_t j = 0; j < x->nwords; j++, w++)
        if (w < cap) {
            data[w] = p->par.width < 32 ? x->words[j] & ((1u << p->par.width) - 1) : x->words[j];
            flags[w] = 0;
        }
    for (uint32_t j = 0; j < x->stream->n; j++) {
        uint32_t m = tn_blk_get(x->stream, j), len = tn_msg_len(s, m);
        for (uint32_t k = 0; k < len; k++, w++)
            if (w < cap) {
                data[w] = tn_payload(seed, m, k, p->par.width);
                flags[w] = 0;
            }
    }
    if (w - 1 < cap)
        flags[w - 1] |= 2;
    return w;
}
