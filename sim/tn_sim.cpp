// SPDX-License-Identifier: MIT
// Thin extern "C" wrapper around the Verilated torus (tn_sim_top).
#include "tn_sim.h"

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <new>

#include "Vtn_sim_top.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#define TN_STR2(x) #x
#define TN_STR(x) TN_STR2(x)

/* every plane's bit of pnet_i and ptab_i */
static const uint32_t ALL_PLANES = (1u << TN_DIM_Z) - 1u;

struct tn_sim {
    VerilatedContext *ctx;
    Vtn_sim_top *top;
    uint64_t cycles, net_cycles;
    uint64_t plane_cycles[TN_DIM_Z];
    bool free_run, eval_all;
#if VM_TRACE
    VerilatedFstC *fst;
#endif
    uint64_t tfrom, tto;
    std::deque<uint8_t> in, out; /* host bridge byte streams */
};

static void trace_dump(struct tn_sim *s, uint64_t t)
{
#if VM_TRACE
    if (s->fst && s->cycles >= s->tfrom && s->cycles <= s->tto)
        s->fst->dump(t);
#else
    (void)s;
    (void)t;
#endif
}

/* Present the front of the byte queue to the bridge (valid 0 when it is
 * empty): true if the inputs changed. */
static bool present_byte(struct tn_sim *s)
{
    Vtn_sim_top *t = s->top;
    bool valid = !s->in.empty();
    uint8_t data = valid ? s->in.front() : 0;
    if (t->byte_in_valid_i == valid && t->byte_in_data_i == data)
        return false;
    t->byte_in_valid_i = valid;
    t->byte_in_data_i = data;
    return true;
}

/* The planes and nodes whose code the model runs at the next edges (the
 * generated code is patched to test them, sim/tn_sim_build.sh): at the
 * network clock's, pnet_i and neval_i; at the bus clock's, ptab_i and
 * nteval_i. All of them with eval_all and in reset; else the planes by
 * pbusy_o and tbusy_o (tn_torus), the nodes with network work: all of
 * them (nball_o), or those of a network request (nbreq_o); with table
 * work: those of the table stages (ntab_o: two {valid, every node,
 * node} of 14 bits). Bits above the planes' and nodes' are never tested.
 * The helpers take the model's type for N bits: an integer, or VlWide. */
template <typename T> static void fill_nodes(T &v)
{
    v = static_cast<T>(~static_cast<T>(0));
}

template <std::size_t N> static void fill_nodes(VlWide<N> &v)
{
    for (std::size_t i = 0; i < N; i++)
        v.at(i) = ~static_cast<EData>(0);
}

template <typename T> static void clear_nodes(T &v)
{
    v = 0;
}

template <std::size_t N> static void clear_nodes(VlWide<N> &v)
{
    for (std::size_t i = 0; i < N; i++)
        v.at(i) = 0;
}

template <typename T> static void set_node(T &v, unsigned k)
{
    v = static_cast<T>(v | static_cast<T>(static_cast<T>(1) << k));
}

template <std::size_t N> static void set_node(VlWide<N> &v, unsigned k)
{
    v.at(k / 32) |= static_cast<EData>(1) << (k % 32);
}

static void set_eval(Vtn_sim_top *t, bool all, uint32_t net_planes)
{
    t->pnet_i = net_planes;
    t->ptab_i = all ? ALL_PLANES : t->tbusy_o;
    if (all || t->nball_o)
        fill_nodes(t->neval_i);
    else
        t->neval_i = t->nbreq_o;
    if (all) {
        fill_nodes(t->nteval_i);
        return;
    }
    clear_nodes(t->nteval_i);
    uint64_t tab = t->ntab_o;
    for (int stage = 0; stage < 2; stage++, tab >>= 14) {
        if (!(tab & (1u << 13)))
            continue;
        if (tab & (1u << 12)) {
            fill_nodes(t->nteval_i);
            return;
        }
        unsigned k = tab & 0xfffu;
        if (k < TN_DIM_X * TN_DIM_Y * TN_DIM_Z)
            set_node(t->nteval_i, k);
    }
}

/* One bus clock, a network clock with it when the network has work or
 * free running; at each, the planes and nodes with work for that clock are
 * evaluated. With eval_all, and in reset, every plane and node at both,
 * as on a board. Skipping changes nothing
 * (docs/hardware.md, "Clocks and reset"):
 * inputs were set by the caller; rising edges, then falling. The bridge's
 * byte input is fed from the queue (one byte per cycle at most) and its
 * output collected, always ready. The next byte goes in with the falling
 * edge (the design samples it at the rising one), so a stream of bytes
 * costs no evaluation of its own; bytes queued between two calls are
 * presented before the rising edge. */
static void tick(struct tn_sim *s)
{
    Vtn_sim_top *t = s->top;
    if (present_byte(s))
        t->eval();
    bool in_fire = t->byte_in_valid_i && t->byte_in_ready_o;
    bool out_fire = t->byte_out_valid_o;
    uint8_t out_byte = t->byte_out_data_o;
    bool all = s->eval_all || t->rst_i;
    bool net = all || s->free_run || t->net_busy_o;
    uint32_t planes = all ? ALL_PLANES : net ? t->pbusy_o : 0;
    set_eval(t, all, planes);
    t->bclk_i = 1;
    t->nclk_i = net;
    t->eval();
    trace_dump(s, 2 * s->cycles + 1);
    if (in_fire)
        s->in.pop_front();
    if (out_fire)
        s->out.push_back(out_byte);
    present_byte(s);
    t->bclk_i = 0;
    t->nclk_i = 0;
    t->eval();
    s->cycles++;
    s->net_cycles += net;
    for (unsigned z = 0; z < TN_DIM_Z; z++)
        s->plane_cycles[z] += (planes >> z) & 1u;
    trace_dump(s, 2 * s->cycles);
}

/* The model's state, one object (Verilator's symbol table: every node's
 * registers, tables and flit memory, 9 MB in a 3x3x3, 120 MB in a 7x7x7),
 * comes from here: tn_sim_build.sh gives the generated class an operator
 * new and delete that call these. It is mapped 2 MB-aligned and advised
 * into transparent huge pages (the kernel's default "madvise" mode uses
 * them only when asked). Constructing a model writes all of it: a 7x7x7
 * took 0.26 s in 4 kB pages and takes 0.09 s (the dp gossip's whole
 * command 17,000 page faults -> 840); the simulation runs as fast. With
 * huge pages off (a kernel setting) it is ordinary anonymous memory. */
static const size_t STATE_PAGE = (size_t)2 << 20;

static size_t state_len(size_t size)
{
    return (size + STATE_PAGE - 1) / STATE_PAGE * STATE_PAGE;
}

void *tn_sim_state_alloc(size_t size)
{
    size_t len = state_len(size), map = len + STATE_PAGE;
    void *m = mmap(nullptr, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        throw std::bad_alloc();
    uintptr_t base = (uintptr_t)m, p = (base + STATE_PAGE - 1) & ~(uintptr_t)(STATE_PAGE - 1);
    if (p > base)
        munmap(m, p - base);
    if (base + map > p + len)
        munmap((void *)(p + len), base + map - (p + len));
#ifdef MADV_HUGEPAGE
    madvise((void *)p, len, MADV_HUGEPAGE); /* advice: failure leaves 4 kB pages */
#endif
    return (void *)p;
}

void tn_sim_state_free(void *p, size_t size)
{
    munmap(p, state_len(size));
}

extern "C" {

struct tn_sim *tn_sim_create(void)
{
    struct tn_sim *s = new (std::nothrow) tn_sim();
    if (!s)
        return nullptr;
    s->ctx = new (std::nothrow) VerilatedContext;
    if (!s->ctx) {
        delete s;
        return nullptr;
    }
    s->ctx->traceEverOn(true);
    try {
        s->top = new Vtn_sim_top(s->ctx, "top");
    } catch (const std::bad_alloc &) {
        s->top = nullptr;
    }
    if (!s->top) {
        delete s->ctx;
        delete s;
        return nullptr;
    }
    s->top->bclk_i = 0;
    s->top->nclk_i = 0;
    s->top->rst_i = 0;
    s->top->bus_we_i = 0;
    s->top->bus_re_i = 0;
    s->top->byte_in_valid_i = 0;
    set_eval(s->top, true, ALL_PLANES);
    s->top->eval();
    return s;
}

void tn_sim_destroy(struct tn_sim *s)
{
    if (!s)
        return;
    tn_sim_trace_close(s);
    s->top->final();
    delete s->top;
    delete s->ctx;
    delete s;
}

void tn_sim_reset(struct tn_sim *s)
{
    s->in.clear();
    s->out.clear();
    s->top->byte_in_valid_i = 0;
    s->top->bus_we_i = 0;
    s->top->bus_re_i = 0;
    s->top->rst_i = 1;
    for (int i = 0; i < 4; i++)
        tick(s);
    s->top->rst_i = 0;
    s->top->eval();
}

void tn_sim_step(struct tn_sim *s, uint64_t cycles)
{
    for (uint64_t i = 0; i < cycles; i++)
        tick(s);
}

uint64_t tn_sim_cycles(const struct tn_sim *s)
{
    return s->cycles;
}

uint64_t tn_sim_net_cycles(const struct tn_sim *s)
{
    return s->net_cycles;
}

uint64_t tn_sim_plane_cycles(const struct tn_sim *s, unsigned z)
{
    return z < TN_DIM_Z ? s->plane_cycles[z] : 0;
}

void tn_sim_free_run(struct tn_sim *s, int on)
{
    s->free_run = on != 0;
}

void tn_sim_eval_all(struct tn_sim *s, int on)
{
    s->eval_all = on != 0;
}

/* Hold the request until bus_ready_o is seen before an edge. */
static int bus_req(struct tn_sim *s, uint32_t addr, uint32_t wdata, int we, uint32_t *rdata)
{
    s->top->bus_addr_i = addr;
    s->top->bus_wdata_i = wdata;
    s->top->bus_we_i = we;
    s->top->bus_re_i = !we;
    for (int i = 0; i < 10000; i++) {
        s->top->eval();
        if (s->top->bus_ready_o) {
            if (rdata)
                *rdata = s->top->bus_rdata_o;
            tick(s);
            s->top->bus_we_i = 0;
            s->top->bus_re_i = 0;
            s->top->eval();
            return 0;
        }
        tick(s);
    }
    s->top->bus_we_i = 0;
    s->top->bus_re_i = 0;
    tick(s); /* the top's register of the request drops it too */
    return -1;
}

int tn_sim_bus_write(struct tn_sim *s, uint32_t addr, uint32_t data)
{
    return bus_req(s, addr, data, 1, nullptr);
}

int tn_sim_bus_read(struct tn_sim *s, uint32_t addr, uint32_t *data)
{
    return bus_req(s, addr, 0, 0, data);
}

int tn_sim_byte_write(struct tn_sim *s, const uint8_t *buf, size_t len)
{
    s->in.insert(s->in.end(), buf, buf + len);
    return 0;
}

size_t tn_sim_byte_read(struct tn_sim *s, uint8_t *buf, size_t len)
{
    size_t n = 0;
    while (n < len && !s->out.empty()) {
        buf[n++] = s->out.front();
        s->out.pop_front();
    }
    return n;
}

int tn_sim_trace_open(struct tn_sim *s, const char *fst_path, uint64_t from_cycle,
                      uint64_t to_cycle)
{
#if VM_TRACE
    tn_sim_trace_close(s);
    s->fst = new (std::nothrow) VerilatedFstC;
    if (!s->fst)
        return -1;
    s->top->trace(s->fst, 99);
    s->fst->open(fst_path);
    if (!s->fst->isOpen()) {
        delete s->fst;
        s->fst = nullptr;
        return -1;
    }
    s->tfrom = from_cycle;
    s->tto = to_cycle;
    return 0;
#else
    (void)s;
    (void)fst_path;
    (void)from_cycle;
    (void)to_cycle;
    return -2;
#endif
}

void tn_sim_trace_close(struct tn_sim *s)
{
#if VM_TRACE
    if (s->fst) {
        s->fst->close();
        delete s->fst;
        s->fst = nullptr;
    }
#else
    (void)s;
#endif
}

const char *tn_sim_build_info(void)
{
    return "dims=" TN_STR(TN_DIM_X) "x" TN_STR(TN_DIM_Y) "x" TN_STR(TN_DIM_Z)
           " W=" TN_STR(TN_W) " LANES=" TN_STR(TN_LANES)
           " MEM_DEPTH=" TN_STR(TN_MEM_DEPTH) " ROUNDS=" TN_STR(TN_ROUNDS)
           " RELAY=" TN_STR(TN_RELAY)
#if VM_TRACE
           " TRACE=1";
#else
           " TRACE=0";
#endif
}

} /* extern "C" */
