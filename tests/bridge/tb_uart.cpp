// SPDX-License-Identifier: MIT
// Verilator testbench of tn_uart_tx / tn_uart_rx at bit level and of the
// whole bridge over UART, at 48 MHz with 12 Mbaud (4 clocks per bit),
// 6.857 Mbaud (7, odd) and 921600 baud (52.08, not an integer). The
// testbench drives serial lines from real-valued bit times (so baud error
// and phase are real) and samples the bridge's TX line itself; the host
// side of the bridge test is the unmodified tn_proto client of host/proto/proto.c
// over a transport that turns bytes into bit waveforms.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <unordered_map>
#include <vector>

#include "Vtb_uart_top.h"
#include "verilated.h"

#include "proto.h"
#include "tn_error.h"
#include "../tap.h"

static const double CLK_HZ = 48e6;
static const double BAUDS[3] = {12e6, 6857143, 921600};
static const uint32_t INFO_REGS[7] = {0x00010002, 7 | 7 << 8 | 7 << 16, 16, 6, 4096, 8, 1};

static uint64_t rs = 0x2545F4914F6CDD1Dull;
static uint32_t rnd()
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs >> 11);
}
static double rndf() { return (rnd() & 0xFFFFFF) / 16777216.0; }

struct Lane {
    int k;
    int div;                          // clocks per bit of the RTL
    double ratio;                     // exact clocks per bit at the nominal baud
    // tx pair
    std::deque<uint8_t> txq;
    std::vector<uint8_t> tx_rec;      // tx line per cycle while recording
    bool recording = false;
    std::vector<uint8_t> rx_got;
    uint64_t rx_errs = 0;
    // line waveforms driven by the testbench (per cycle, 1 = idle)
    std::deque<uint8_t> line, br_line;
    double line_t = 0, br_t = 0;      // fractional time carried between bits
    // sampler of the bridge's TX line
    int s_state = 0;                  // 0 idle, else cycles since the start edge + 1
    uint16_t s_bits = 0;
    std::deque<uint8_t> br_out;
    uint64_t br_frame_errs = 0, overflows = 0;
    // bus slave of the bridge
    std::unordered_map<uint32_t, uint32_t> mem;
    uint64_t writes = 0, ctrl_writes = 0, rst_cycles = 0;
    int wait = -1;
};

struct Tb {
    Vtb_uart_top *top;
    uint64_t cycle = 0;
    Lane lanes[3];

    Tb()
    {
        top = new Vtb_uart_top;
        for (int k = 0; k < 3; k++) {
            lanes[k].k = k;
            lanes[k].ratio = CLK_HZ / BAUDS[k];
            lanes[k].div = (int)std::lround(lanes[k].ratio);
        }
        top->rst_i = 1;
        top->line_i = 7;
        top->br_line_i = 7;
        top->clk_i = 0;
        top->eval();
        for (int i = 0; i < 4; i++)
            tick();
        top->rst_i = 0;
    }
    ~Tb() { delete top; }

    void tick()
    {
        top->clk_i = 1;
        top->eval();
        top->clk_i = 0;
        top->eval();
        cycle++;
    }

    // Append one bit lasting p (fractional) cycles to a waveform.
    static void bit(std::deque<uint8_t> &w, double &t, double p, int level)
    {
        t += p;
        while (t >= 0.5) {   // a cycle is on the level its centre falls in
            w.push_back((uint8_t)level);
            t -= 1.0;
        }
    }
    // One 8N1 byte; stop_level 0 makes a framing error.
    static void byte_wave(std::deque<uint8_t> &w, double &t, double p, uint8_t b, int stop_level = 1)
    {
        bit(w, t, p, 0);
        for (int i = 0; i < 8; i++)
            bit(w, t, p, (b >> i) & 1);
        bit(w, t, p, stop_level);
    }

    void step()
    {
        uint32_t txv = 0, txd = 0, line = 0, brl = 0;
        for (Lane &l : lanes) {
            if (!l.txq.empty()) {
                txv |= 1u << l.k;
                txd |= (uint32_t)l.txq.front() << (8 * l.k);
            }
            line |= (uint32_t)(l.line.empty() ? 1 : l.line.front()) << l.k;
            brl |= (uint32_t)(l.br_line.empty() ? 1 : l.br_line.front()) << l.k;
            if (!l.line.empty())
                l.line.pop_front();
            if (!l.br_line.empty())
                l.br_line.pop_front();
        }
        top->tx_valid_i = txv;
        top->tx_data_i = txd;
        top->line_i = line;
        top->br_line_i = brl;
        top->eval();
        // bus slaves: one wait cycle every other request
        uint32_t ready = 0;
        for (Lane &l : lanes) {
            bool we = (top->bus_we_o >> l.k) & 1, re = (top->bus_re_o >> l.k) & 1;
            if (!we && !re)
                continue;
            if (l.wait < 0)
                l.wait = (int)(rnd() % 2);
            if (l.wait-- == 0) {
                ready |= 1u << l.k;
                uint32_t a = top->bus_addr_o[l.k];
                uint32_t r = 0;
                if (we) {
                    l.writes++;
                    if (a == 0xFFF00010u)
                        l.ctrl_writes++;
                    else
                        l.mem[a] = top->bus_wdata_o[l.k];
                } else if (a >= 0xFFF00000u) {
                    r = a - 0xFFF00000u < 7 ? INFO_REGS[a - 0xFFF00000u] : 0;
                } else {
                    r = l.mem.count(a) ? l.mem[a] : 0;
                }
                top->bus_rdata_i[l.k] = r;
                l.wait = -1;
            }
        }
        top->bus_ready_i = ready;
        top->eval();
        uint32_t txr = top->tx_ready_o, txline = top->tx_line_o, rxv = top->rx_valid_o;
        uint32_t rxd = top->rx_data_o, rxe = top->rx_err_o, brout = top->br_line_o;
        uint32_t ovf = top->br_overflow_o, rst = top->rst_o;
        tick();
        for (Lane &l : lanes) {
            if (((txv & txr) >> l.k) & 1)
                l.txq.pop_front();
            if (l.recording)
                l.tx_rec.push_back((txline >> l.k) & 1);
            if ((rxv >> l.k) & 1)
                l.rx_got.push_back((uint8_t)(rxd >> (8 * l.k)));
            if ((rxe >> l.k) & 1)
                l.rx_errs++;
            if ((ovf >> l.k) & 1)
                l.overflows++;
            if ((rst >> l.k) & 1)
                l.rst_cycles++;
            sample(l, (brout >> l.k) & 1);
        }
    }

    // Receiver of the bridge's TX line: the RTL sends exactly div cycles per
    // bit, so the sampler takes the middle of each bit after the start edge.
    static void sample(Lane &l, int v)
    {
        if (l.s_state == 0) {
            if (!v)
                l.s_state = 1;
            return;
        }
        int c = l.s_state - 1;   // cycles since the start edge
        int h = l.div / 2;
        if (c >= h && (c - h) % l.div == 0) {
            int b = (c - h) / l.div;
            if (b == 0 && v) {   // start bit gone: glitch
                l.s_state = 0;
                l.br_frame_errs++;
                return;
            }
            if (b >= 1 && b <= 8)
                l.s_bits |= (uint16_t)(v << (b - 1));
            if (b == 9) {
                if (v)
                    l.br_out.push_back((uint8_t)l.s_bits);
                else
                    l.br_frame_errs++;
                l.s_bits = 0;
                l.s_state = 0;
                return;
            }
        }
        l.s_state++;
    }

    void run(uint64_t n)
    {
        for (uint64_t i = 0; i < n; i++)
            step();
    }
};

// ---- phase 1: tn_uart_tx timing and tx -> rx loopback ----
static void test_tx_loop(Tb &tb, Lane &l, const char *name)
{
    std::vector<uint8_t> data(100);
    for (auto &b : data)
        b = (uint8_t)rnd();
    data[0] = 0x00, data[1] = 0xFF, data[2] = 0x55;
    tb.top->loop_i = tb.top->loop_i | (1u << l.k);
    l.rx_got.clear();
    l.rx_errs = 0;
    l.tx_rec.clear();
    l.recording = true;
    for (uint8_t b : data)
        l.txq.push_back(b);
    tb.run((uint64_t)(data.size() + 4) * 10 * l.div);
    l.recording = false;
    tb.top->loop_i = tb.top->loop_i & ~(1u << l.k);

    // the expected waveform: back-to-back 8N1 frames of exactly div cycles per bit
    std::vector<uint8_t> want;
    for (uint8_t b : data) {
        want.insert(want.end(), l.div, 0);
        for (int i = 0; i < 8; i++)
            want.insert(want.end(), l.div, (b >> i) & 1);
        want.insert(want.end(), l.div, 1);
    }
    size_t s = 0;
    while (s < l.tx_rec.size() && l.tx_rec[s])
        s++;
    bool exact = s + want.size() <= l.tx_rec.size() &&
                 std::equal(want.begin(), want.end(), l.tx_rec.begin() + (long)s);
    for (size_t i = s + want.size(); exact && i < l.tx_rec.size(); i++)
        exact = l.tx_rec[i] == 1;
    ok(exact, "%s: tn_uart_tx sends 100 back-to-back bytes as exact 8N1, %d clocks per bit, no idle gap",
       name, l.div);
    ok(l.rx_got == data && l.rx_errs == 0, "%s: tn_uart_rx receives them in order through the loopback (%zu bytes)",
       name, l.rx_got.size());
}

// ---- phase 2: receiver tolerance to baud error, phase and gaps ----
static void test_rx_skew(Tb &tb, Lane &l, const char *name, double skew)
{
    std::vector<uint8_t> data(100);
    for (auto &b : data)
        b = (uint8_t)rnd();
    double p = l.ratio * (1.0 + skew);
    l.line_t = rndf() - 0.5;
    l.rx_got.clear();
    l.rx_errs = 0;
    for (uint8_t b : data) {
        int gap = (int)(rnd() % 4);   // 0: back to back
        if (gap)
            Tb::bit(l.line, l.line_t, p * gap * rndf(), 1);
        Tb::byte_wave(l.line, l.line_t, p, b);
    }
    tb.run(l.line.size() + 20 * (uint64_t)l.div);
    ok(l.rx_got == data && l.rx_errs == 0,
       "%s: tn_uart_rx reads 100 bytes sent %+.1f%% off the nominal baud, random phase and gaps",
       name, skew * 100);
}

// ---- phase 3: false start, framing error ----
static void test_rx_errors(Tb &tb, Lane &l, const char *name)
{
    int h = l.div / 2;
    l.rx_got.clear();
    l.rx_errs = 0;
    for (int i = 0; i < 3 * l.div; i++)
        l.line.push_back(1);
    for (int i = 0; i < h - 1 || i == 0; i++)  // low for less than half a bit
        l.line.push_back(0);
    tb.run(l.line.size() + 12 * (uint64_t)l.div);
    ok(l.rx_got.empty() && l.rx_errs == 0, "%s: a %d-cycle low glitch is a false start: no byte, no error",
       name, h - 1 > 0 ? h - 1 : 1);
    l.line_t = 0;
    Tb::byte_wave(l.line, l.line_t, l.ratio, 0xA5, 0);    // stop bit low
    Tb::bit(l.line, l.line_t, l.ratio * 2, 0);             // line held low a while
    Tb::bit(l.line, l.line_t, l.ratio * 2, 1);
    Tb::byte_wave(l.line, l.line_t, l.ratio, 0x3C);
    tb.run(l.line.size() + 12 * (uint64_t)l.div);
    ok(l.rx_errs == 1 && l.rx_got.size() == 1 && l.rx_got[0] == 0x3C,
       "%s: a low stop bit is a framing error (byte dropped), the next byte is received", name);
}

// ---- phase 4: the bridge over UART with the host client ----
struct tn_transport {
    Tb *tb;
    Lane *l;
    bool flip_next;
    uint64_t latency;   // bytes reach the host only every `latency` cycles (0: at once)
};

static int uart_write(struct tn_transport *t, const uint8_t *buf, size_t len)
{
    std::vector<uint8_t> b(buf, buf + len);
    if (t->flip_next && len > 8) {
        t->flip_next = false;
        b[len / 2] ^= 0x08;   // line noise: one bit of one byte
    }
    for (uint8_t c : b)
        Tb::byte_wave(t->l->br_line, t->l->br_t, t->l->ratio, c);  // back to back
    return 0;
}

static int uart_read(struct tn_transport *t, uint8_t *buf, size_t len, int timeout_ms)
{
    uint64_t limit = (uint64_t)timeout_ms * 48000;   // 1 ms of device time
    for (uint64_t i = 0; i < limit; i++) {
        if (!t->l->br_out.empty() && (t->latency == 0 || t->tb->cycle % t->latency == 0))
            break;
        t->tb->step();
    }
    size_t n = 0;
    while (n < len && !t->l->br_out.empty()) {
        buf[n++] = t->l->br_out.front();
        t->l->br_out.pop_front();
    }
    return (int)n;
}

static const struct tn_transport_ops uart_ops = {
    "uart-sim", nullptr, uart_write, uart_read, nullptr,
};

static void test_bridge(Tb &tb, Lane &l, const char *name)
{
    struct tn_transport t = {&tb, &l, false, 0};
    struct tn_proto *p;
    struct tn_proto_opts o = {20, 2, 0};
    tn_proto_open(&p, &uart_ops, &t, &o);
    struct tn_info info;
    int rc = tn_proto_info(p, &info);
    ok(rc == 0 && info.version == INFO_REGS[0] && info.dims[0] == 7 && info.dims[2] == 7 &&
           info.mem_depth == 4096 && info.max_payload == 256,
       "%s: INFO over UART returns the registers and the 256-byte bound%s%s", name,
       rc ? ": " : "", rc ? tn_proto_errmsg(p) : "");

    std::vector<uint32_t> w(150), r(150);
    for (auto &x : w)
        x = rnd() | 0xC0C0u;
    rc = tn_proto_write(p, 0x00010000, w.data(), w.size());
    int rc2 = tn_proto_read(p, 0x00010000, r.data(), r.size());
    ok(rc == 0 && rc2 == 0 && r == w && l.writes == 150,
       "%s: 150 words written in 3 bursts and read back over UART, back-to-back bytes%s%s", name,
       rc || rc2 ? ": " : "", rc || rc2 ? tn_proto_errmsg(p) : "");

    uint64_t c0 = l.ctrl_writes, r0 = tn_proto_stats(p)->retries;
    t.flip_next = true;
    rc = tn_proto_start(p);
    ok(rc == 0 && l.ctrl_writes == c0 + 1 && tn_proto_stats(p)->retries == r0 + 1,
       "%s: a START hit by line noise is refused (NAK CRC), retried once and executed once", name);
    struct tn_status st;
    rc = tn_proto_status(p, &st);
    rc2 = tn_proto_reset(p);
    ok(rc == 0 && rc2 == 0 && l.rst_cycles == 16, "%s: STATUS and RESET (16-cycle rst_o) over UART", name);
    tn_proto_close(p);

    // eight WRITE bursts in flight: the bridge's input FIFO absorbs the
    // next frames while it executes one and sends its ACK
    o.window = 8;
    tn_proto_open(&p, &uart_ops, &t, &o);
    std::vector<uint32_t> big(600), back(600);   // 10 bursts of MAX_WORDS 64
    for (auto &x : big)
        x = rnd();
    uint64_t w0 = l.writes;
    rc = tn_proto_write(p, 0x00020000, big.data(), big.size());
    rc2 = tn_proto_read(p, 0x00020000, back.data(), back.size());
    ok(rc == 0 && rc2 == 0 && back == big && l.writes == w0 + big.size() && tn_proto_stats(p)->retries == 0,
       "%s: window of 8 WRITE bursts: 600 words arrive, each written once, no retry%s%s", name,
       rc || rc2 ? ": " : "", rc || rc2 ? tn_proto_errmsg(p) : "");
    tn_proto_close(p);
    ok(l.overflows == 0 && l.br_frame_errs == 0,
       "%s: no byte lost to a full FIFO, every byte from the bridge well framed", name);
}

// ---- phase 5: noise on the line (issue 17): random bytes, a random baud
// error per byte, framing errors, short glitches and idle gaps never make
// the bridge write or reset, and never wedge it: the next valid requests
// are answered. Bytes are biased towards SLIP END and ESC so that frames
// start, end and escape often. ----
static void line_noise(Lane &l, size_t nbytes)
{
    for (size_t i = 0; i < nbytes; i++) {
        double p = l.ratio * (1.0 + (rndf() - 0.5) * 0.2);   // +-10 % of the baud
        uint32_t r = rnd() % 100;
        uint8_t b = r < 5 ? TN_SLIP_END : r < 8 ? TN_SLIP_ESC : (uint8_t)rnd();
        if (r % 20 == 1)
            Tb::bit(l.br_line, l.br_t, p * (0.1 + 0.3 * rndf()), 0);   // glitch: under half a bit
        if (r % 10 == 2)
            Tb::bit(l.br_line, l.br_t, p * 3 * rndf(), 1);             // idle gap
        Tb::byte_wave(l.br_line, l.br_t, p, b, r % 20 == 3 ? 0 : 1);     // 5 %: stop bit low
    }
}

// Noise, then a valid INFO, WRITE and READ; true when no noise byte wrote
// or reset anything and the requests were answered.
static bool noise_then_requests(Tb &tb, Lane &l, size_t nbytes, uint64_t *naks_bytes)
{
    uint64_t w0 = l.writes, c0 = l.ctrl_writes, r0 = l.rst_cycles;
    line_noise(l, nbytes);
    tb.run(l.br_line.size() + 64 * (uint64_t)l.div);
    bool quiet = l.writes == w0 && l.ctrl_writes == c0 && l.rst_cycles == r0;
    *naks_bytes = l.br_out.size();
    l.br_out.clear();
    struct tn_transport t = {&tb, &l, false, 0};
    struct tn_proto *p;
    struct tn_proto_opts o = {20, 4, 0};
    tn_proto_open(&p, &uart_ops, &t, &o);
    struct tn_info info;
    std::vector<uint32_t> w(10), r(10);
    for (auto &x : w)
        x = rnd();
    bool answered = tn_proto_info(p, &info) == 0 && info.version == INFO_REGS[0] &&
                    tn_proto_write(p, 0x00040000, w.data(), w.size()) == 0 &&
                    tn_proto_read(p, 0x00040000, r.data(), r.size()) == 0 && r == w;
    tn_proto_close(p);
    return quiet && answered && l.writes == w0 + w.size();
}

static void test_noise(Tb &tb, Lane &l, const char *name, size_t nbytes)
{
    uint64_t out = 0, ovf0 = l.overflows;
    bool good = noise_then_requests(tb, l, nbytes, &out);
    ok(good, "%s: %zu noise bytes (+-10%% baud, 5%% framing errors, glitches, gaps) write and "
       "reset nothing; the next INFO, WRITE and READ are answered (%llu bytes of NAKs, %llu "
       "bytes lost to the full FIFO)", name, nbytes, (unsigned long long)out,
       (unsigned long long)(l.overflows - ovf0));
}

// make bench: host-to-device load rate over the 12 Mbaud UART as a fraction
// of the line rate (1.2 MB/s of 8N1 bytes), for windows and host latencies.
static int bench(Tb &tb)
{
    Lane &l = tb.lanes[0];
    const size_t nwords = 63 * 64;   // 64 full bursts of the MAX_WORDS=64 build
    printf("%-8s %-12s %10s %12s %10s %10s\n", "window", "host latency", "words", "cycles",
           "payload/s", "line rate");
    bool good = true;
    for (uint64_t lat : {0ull, 48000ull}) {
        for (int win : {1, 4, 16}) {
            struct tn_transport t = {&tb, &l, false, lat};
            struct tn_proto *p;
            struct tn_proto_opts o = {100, 2, 0, win};
            tn_proto_open(&p, &uart_ops, &t, &o);
            struct tn_info info;
            good = good && tn_proto_info(p, &info) == 0;
            std::vector<uint32_t> w(nwords);
            for (auto &x : w)
                x = rnd();
            uint64_t c0 = tb.cycle;
            good = good && tn_proto_write(p, 0x00030000, w.data(), w.size()) == 0;
            uint64_t cyc = tb.cycle - c0;
            double bps = 4.0 * nwords / (cyc / CLK_HZ);
            printf("%-8d %-12s %10zu %12llu %10.0f %9.1f%%\n", win, lat ? "1 ms" : "none", nwords,
                   (unsigned long long)cyc, bps, 100.0 * bps / (BAUDS[0] / 10));
            tn_proto_close(p);
        }
    }
    printf("# 12 Mbaud at 48 MHz, bridge MAX_WORDS=64: 252 payload bytes in 265-byte frames, at most\n"
           "# %.1f%% before SLIP escapes; host latency: replies reach the host only on 1 ms ticks\n"
           "# (as behind an FTDI latency timer); tn_proto_write, verified by the bridge's CRC\n",
           100.0 * 252 / 265);
    good = good && l.overflows == 0;
    uint64_t out = 0;
    const size_t noise = 1000000;
    bool quiet = noise_then_requests(tb, l, noise, &out);
    printf("noise: %zu random bytes at 12 Mbaud (+-10%% baud, 5%% framing errors, glitches, "
           "gaps): %s; %llu bytes of NAKs (goal: >= 1,000,000 bytes, no write, no reset, "
           "the next requests answered)\n", noise,
           quiet ? "no write, no reset, the next requests answered" : "FAILED",
           (unsigned long long)out);
    return good && quiet ? 0 : 1;
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Tb tb;
    if (argc > 1 && !strcmp(argv[1], "--bench"))
        return bench(tb);
    const char *names[3] = {"12 Mbaud (4 clk/bit)", "6.857 Mbaud (7 clk/bit)", "921600 baud (52.08 clk/bit)"};
    for (int k = 0; k < 3; k++) {
        Lane &l = tb.lanes[k];
        test_tx_loop(tb, l, names[k]);
        double sk = l.div <= 4 ? 0.01 : 0.03;
        test_rx_skew(tb, l, names[k], 0);
        test_rx_skew(tb, l, names[k], -sk);
        test_rx_skew(tb, l, names[k], +sk);
        test_rx_errors(tb, l, names[k]);
        test_bridge(tb, l, names[k]);
        test_noise(tb, l, names[k], l.div <= 7 ? 40000 : 4000);
    }
    return tap_done();
}
