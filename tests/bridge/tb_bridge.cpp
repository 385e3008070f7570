// SPDX-License-Identifier: MIT
// Verilator testbench of tn_bridge against a bus slave model (memory plus
// global registers, random wait states, a log of every write and read).
// Frames are built with host/proto/proto.c, so host and RTL are tested against
// each other. A reference model (the host's SLIP decoder and frame checks
// plus the command semantics of docs/protocol.md) runs over every byte sent
// and predicts every response and every bus write exactly; the bridge's
// output must match it, in order, with nothing extra.
//
// usage: tb_bridge [--bytes N] [--seed S] [--bench]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vtn_bridge.h"
#include "verilated.h"

#include "proto.h"
#include "../tap.h"

#ifndef TB_MAX_WORDS
#define TB_MAX_WORDS 64
#endif
#ifndef TB_IDLE_TIMEOUT
#define TB_IDLE_TIMEOUT 3000
#endif
#ifndef TB_RESET_CYCLES
#define TB_RESET_CYCLES 5
#endif

static const size_t MAXP = 4 * TB_MAX_WORDS;          // payload bound in bytes
static const uint32_t GLOBAL = 0xFFF00000u;
static const uint32_t CTRL = GLOBAL + 0x10;
static const uint32_t INFO_REGS[7] = {0x00010002, 3 | 4 << 8 | 5 << 16, 16, 6, 1024, 16, 1};

static uint64_t rs = 0x9E3779B97F4A7C15ull;
static uint32_t rnd()
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs >> 11);
}
static uint32_t rnd_n(uint32_t n) { return n ? rnd() % n : 0; }

struct Exp {
    uint8_t type, seq;
    std::vector<uint8_t> bytes;     // ACK/NAK payload
    std::vector<uint32_t> addrs;    // DATA: bus addresses read, in order
    std::vector<uint32_t> words;    // DATA: expected words (RAM addresses)
    std::vector<bool> from_log;     // DATA: word is whatever the slave returned
    bool bridge_word = false;       // DATA: INFO's last word
};

struct Resp {
    uint8_t type, seq;
    std::vector<uint8_t> payload;
};

struct Tb {
    Vtn_bridge *top;
    uint64_t cycle = 0;

    // host side
    std::deque<uint8_t> inq;
    int gap_max = 3, gap_left = 0, out_ready_pct = 70, wait_max = 3;
    bool long_waits = false;   // now and then a request waits up to 40 cycles

    // reference model
    struct tn_slip_dec mdec;
    uint8_t mraw[4 * TB_MAX_WORDS + 8];
    bool mhunt = false;
    bool sv = false;
    uint8_t sseq = 0;
    std::unordered_map<uint32_t, uint32_t> shadow;
    std::deque<Exp> exp;
    std::deque<std::pair<uint32_t, uint32_t>> expw;
    uint64_t exp_resets = 0, model_frames = 0, model_naks = 0;

    // bus slave
    std::unordered_map<uint32_t, uint32_t> smem;
    int wait_left = -1;
    uint32_t req_addr = 0, req_wdata = 0;
    bool req_we = false, req_re = false;
    std::deque<std::pair<uint32_t, uint32_t>> rlog;

    // observations
    struct tn_slip_dec odec;
    uint8_t oraw[70000];
    std::vector<Resp> got;           // responses of the current phase
    uint64_t writes = 0, reads = 0, bad_writes = 0, bus_bad = 0, resp_bad = 0;
    uint64_t rst_cycles = 0, rst_edges = 0, naks_seen = 0, resp_seen = 0;
    uint64_t bytes_in = 0, bytes_out = 0;
    bool rst_prev = false;
    std::string err;

    Tb()
    {
        top = new Vtn_bridge;
        tn_slip_dec_init(&mdec, mraw, sizeof mraw);
        tn_slip_dec_init(&odec, oraw, sizeof oraw);
        top->clk_i = 0;
        top->rst_i = 1;
        top->in_valid_i = 0;
        top->out_ready_i = 0;
        top->bus_ready_i = 0;
        top->eval();
        for (int i = 0; i < 4; i++)
            tick();
        top->rst_i = 0;
    }
    ~Tb() { delete top; }

    void error(const std::string &s)
    {
        if (err.empty())
            err = s;
    }

    // ---- reference model ----
    void model_byte(uint8_t c)
    {
        if (mhunt) {
            if (c == TN_SLIP_END) {
                mhunt = false;
                tn_slip_dec_init(&mdec, mraw, sizeof mraw);
            }
            return;
        }
        if (tn_slip_dec_push(&mdec, c))
            model_frame(mdec.buf, mdec.overflow ? mdec.cap : mdec.len, mdec.esc_err);
    }
    // The bridge's idle timeout fired: a frame in progress is dropped.
    void model_timeout()
    {
        if (mdec.in_frame || mdec.esc)
            mhunt = true;
        tn_slip_dec_init(&mdec, mraw, sizeof mraw);
    }
    void expect_nak(int code, const struct tn_frame &f)
    {
        Exp e;
        e.type = TN_T_NAK;
        e.seq = f.seq;
        e.bytes = {(uint8_t)code, f.type};
        exp.push_back(e);
        model_naks++;
    }
    void expect_ack(uint8_t seq)
    {
        Exp e;
        e.type = TN_T_ACK;
        e.seq = seq;
        exp.push_back(e);
    }
    void expect_reads(uint8_t seq, uint32_t addr, uint32_t n, bool bridge_word)
    {
        Exp e;
        e.type = TN_T_DATA;
        e.seq = seq;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t a = addr + i;
            e.addrs.push_back(a);
            bool g = a >= GLOBAL;
            e.from_log.push_back(g);
            e.words.push_back(g ? 0 : shadow[a]);
        }
        e.bridge_word = bridge_word;
        exp.push_back(e);
    }
    void model_frame(const uint8_t *raw, size_t n, bool esc)
    {
        struct tn_frame f;
        model_frames++;
        int code = tn_frame_check(raw, n, esc, MAXP, &f);
        if (code) {
            expect_nak(code, f);
            return;
        }
        if (f.type != TN_T_START)
            sv = false;
        code = tn_request_check(&f, MAXP);
        if (code) {
            expect_nak(code, f);
            return;
        }
        switch (f.type) {
        case TN_T_INFO:
            expect_reads(f.seq, GLOBAL, 7, true);
            break;
        case TN_T_STATUS:
            expect_reads(f.seq, GLOBAL + 0x12, 8, false);
            break;
        case TN_T_READ:
            expect_reads(f.seq, tn_get_le32(f.payload), tn_get_le32(f.payload + 4), false);
            break;
        case TN_T_WRITE: {
            uint32_t a = tn_get_le32(f.payload);
            for (unsigned i = 0; i + 1 < f.len / 4u; i++) {
                uint32_t w = tn_get_le32(f.payload + 4 + 4 * i);
                expw.push_back({a + i, w});
                shadow[a + i] = w;
            }
            expect_ack(f.seq);
            break;
        }
        case TN_T_START:
            if (!(sv && sseq == f.seq)) {
                expw.push_back({CTRL, 1});
                sv = true;
                sseq = f.seq;
            }
            expect_ack(f.seq);
            break;
        case TN_T_ABORT:
            expw.push_back({CTRL, 2});
            expect_ack(f.seq);
            break;
        case TN_T_RESET:
            exp_resets++;
            sv = false;
            expect_ack(f.seq);
            break;
        }
    }

    // ---- host side ----
    void send_raw(const uint8_t *p, size_t n)
    {
        for (size_t i = 0; i < n; i++) {
            inq.push_back(p[i]);
            model_byte(p[i]);
        }
    }
    void send(uint8_t type, uint8_t seq, const uint8_t *pl, size_t len)
    {
        std::vector<uint8_t> enc(2 * (len + 7) + 2);
        size_t n = tn_frame_encode(enc.data(), enc.size(), type, seq, pl, len);
        send_raw(enc.data(), n);
    }

    // ---- bus slave ----
    uint32_t slave_read(uint32_t a)
    {
        if (a >= GLOBAL) {
            uint32_t off = a - GLOBAL;
            if (off < 7)
                return INFO_REGS[off];
            if (off >= 0x12 && off <= 0x19)   // changing values: taken from the log
                return (uint32_t)(cycle * 2654435761u) ^ (off << 24);
            return 0;
        }
        auto it = smem.find(a);
        return it == smem.end() ? 0 : it->second;
    }
    void slave_write(uint32_t a, uint32_t d)
    {
        writes++;
        if (expw.empty()) {
            bad_writes++;
            char b[128];
            snprintf(b, sizeof b, "unexpected write 0x%08x <- 0x%08x at cycle %llu", a, d,
                     (unsigned long long)cycle);
            error(b);
        } else {
            auto w = expw.front();
            expw.pop_front();
            if (w.first != a || w.second != d) {
                bad_writes++;
                char b[160];
                snprintf(b, sizeof b, "write 0x%08x <- 0x%08x, expected 0x%08x <- 0x%08x",
                         a, d, w.first, w.second);
                error(b);
            }
        }
        if (a < GLOBAL)
            smem[a] = d;
    }

    // ---- output side ----
    void out_byte(uint8_t c)
    {
        bytes_out++;
        if (!tn_slip_dec_push(&odec, c))
            return;
        struct tn_frame f;
        int code = tn_frame_check(odec.buf, odec.overflow ? odec.cap : odec.len, odec.esc_err,
                                  65535, &f);
        if (code) {
            resp_bad++;
            error(std::string("bridge sent a malformed frame: ") + tn_nak_str(code));
            return;
        }
        resp_seen++;
        Resp r{f.type, f.seq, std::vector<uint8_t>(f.payload, f.payload + f.len)};
        got.push_back(r);
        if (f.type == TN_T_NAK)
            naks_seen++;
        check_resp(r);
    }
    void check_resp(const Resp &r)
    {
        char b[200];
        if (exp.empty()) {
            resp_bad++;
            snprintf(b, sizeof b, "unexpected response type 0x%02x seq %u", r.type, r.seq);
            error(b);
            return;
        }
        Exp e = exp.front();
        exp.pop_front();
        if (r.type != e.type || r.seq != e.seq) {
            resp_bad++;
            snprintf(b, sizeof b, "response type 0x%02x seq %u (payload %zu, first %d), expected type 0x%02x seq %u (%d %d)",
                     r.type, r.seq, r.payload.size(), r.payload.empty() ? -1 : r.payload[0],
                     e.type, e.seq, e.bytes.size() > 0 ? e.bytes[0] : -1,
                     e.bytes.size() > 1 ? e.bytes[1] : -1);
            error(b);
            return;
        }
        if (e.type != TN_T_DATA) {
            if (r.payload != e.bytes) {
                resp_bad++;
                error("ACK/NAK payload differs from the model");
            }
            return;
        }
        size_t nw = e.addrs.size() + (e.bridge_word ? 1 : 0);
        if (r.payload.size() != 4 * nw) {
            resp_bad++;
            snprintf(b, sizeof b, "DATA of %zu bytes, expected %zu", r.payload.size(), 4 * nw);
            error(b);
            return;
        }
        for (size_t i = 0; i < e.addrs.size(); i++) {
            uint32_t w = tn_get_le32(r.payload.data() + 4 * i);
            if (rlog.empty()) {
                resp_bad++;
                error("DATA word without a bus read");
                return;
            }
            auto l = rlog.front();
            rlog.pop_front();
            uint32_t want = e.from_log[i] ? l.second : e.words[i];
            if (l.first != e.addrs[i] || w != want) {
                resp_bad++;
                snprintf(b, sizeof b, "DATA word %zu: read 0x%08x got 0x%08x, expected read 0x%08x = 0x%08x",
                         i, l.first, w, e.addrs[i], want);
                error(b);
                return;
            }
        }
        if (e.bridge_word) {
            uint32_t w = tn_get_le32(r.payload.data() + 4 * e.addrs.size());
            if (w != (uint32_t)(MAXP | 1u << 16)) {
                resp_bad++;
                error("INFO bridge word wrong");
            }
        }
    }

    // ---- one clock cycle ----
    void tick()
    {
        top->clk_i = 1;
        top->eval();
        top->clk_i = 0;
        top->eval();
        cycle++;
    }
    void step(bool feed = true)
    {
        // host drives the byte input, with random gaps
        if (gap_left > 0)
            gap_left--;
        bool have = feed && !inq.empty() && gap_left == 0;
        top->in_valid_i = have;
        top->in_data_i = have ? inq.front() : 0;
        top->out_ready_i = (int)rnd_n(100) < out_ready_pct;
        top->eval();

        // bus slave: answers the request after a random number of wait cycles
        bool we = top->bus_we_o, re = top->bus_re_o;
        uint32_t a = top->bus_addr_o, d = top->bus_wdata_o;
        bool ready = false;
        uint32_t rdata = 0;
        if (we && re) {
            bus_bad++;
            error("bus: we and re together");
        }
        if (we || re) {
            if (wait_left < 0) {
                wait_left = (int)rnd_n(wait_max + 1);
                if (long_waits && rnd_n(8) == 0)
                    wait_left += (int)rnd_n(40);
                req_addr = a, req_wdata = d, req_we = we, req_re = re;
            } else if (req_addr != a || req_we != we || req_re != re || (we && req_wdata != d)) {
                bus_bad++;
                error("bus: request changed before ready");
            }
            if (wait_left == 0) {
                ready = true;
                if (re)
                    rdata = slave_read(a);
            } else {
                wait_left--;
            }
        }
        top->bus_ready_i = ready;
        top->bus_rdata_i = ready ? rdata : 0xDEADBEEF;
        top->eval();
        if (top->bus_we_o != we || top->bus_re_o != re || top->bus_addr_o != a) {
            bus_bad++;
            error("bus: request depends combinationally on ready");
        }
        bool in_fire = top->in_valid_i && top->in_ready_o;
        bool out_fire = top->out_valid_o && top->out_ready_i;
        uint8_t od = top->out_data_o;
        bool rst = top->rst_o;
        if (ready) {
            wait_left = -1;
            if (we)
                slave_write(a, d);
            else {
                reads++;
                rlog.push_back({a, rdata});
            }
        }
        if (rst) {
            rst_cycles++;
            if (!rst_prev)
                rst_edges++;
            if (we || re) {
                bus_bad++;
                error("bus: request during rst_o");
            }
        }
        rst_prev = rst;
        tick();
        if (in_fire) {
            inq.pop_front();
            bytes_in++;
            gap_left = (int)rnd_n(gap_max + 1);
        }
        if (out_fire)
            out_byte(od);
    }

    // Run until everything sent is answered (then a little more to catch
    // extra output); false if the budget runs out first (wedged).
    bool drain(uint64_t budget)
    {
        uint64_t end = cycle + budget;
        while (cycle < end) {
            step();
            if (inq.empty() && exp.empty() && wait_left < 0) {
                for (int i = 0; i < 300; i++)
                    step();
                return true;
            }
        }
        return false;
    }
    // Step until every queued byte went in.
    void flush()
    {
        while (!inq.empty())
            step();
    }
    void idle(uint64_t n)
    {
        for (uint64_t i = 0; i < n; i++)
            step(false);
    }
};

// ---- frame generators ----
static std::vector<uint8_t> rand_words(size_t n)
{
    std::vector<uint8_t> p(4 * n);
    for (auto &b : p)
        b = (rnd_n(8) == 0) ? (uint8_t)(rnd_n(2) ? 0xC0 : 0xDB) : (uint8_t)rnd();
    return p;
}
static uint32_t ram_addr() { return rnd_n(4) == 0 ? rnd_n(64) : (rnd_n(0x1000) << 16) | rnd_n(0x10000); }

static uint8_t seqc = 0;
static void valid_frame(Tb &tb)
{
    uint8_t pl[8];
    switch (rnd_n(10)) {
    case 0:
        tb.send(TN_T_INFO, seqc++, nullptr, 0);
        break;
    case 1:
        tb.send(TN_T_STATUS, seqc++, nullptr, 0);
        break;
    case 2: case 3: case 4: {
        size_t n = 1 + rnd_n(TB_MAX_WORDS - 1);
        std::vector<uint8_t> p = rand_words(n + 1);
        tn_put_le32(p.data(), ram_addr());
        tb.send(TN_T_WRITE, seqc++, p.data(), p.size());
        break;
    }
    case 5: case 6: {
        tn_put_le32(pl, rnd_n(3) == 0 ? GLOBAL + rnd_n(0x20) : ram_addr());
        tn_put_le32(pl + 4, 1 + rnd_n(TB_MAX_WORDS));
        tb.send(TN_T_READ, seqc++, pl, 8);
        break;
    }
    case 7: {
        uint8_t s = seqc++;
        tb.send(TN_T_START, s, nullptr, 0);
        if (rnd_n(2))  // a repeat with the same seq: acknowledged, not executed
            tb.send(TN_T_START, s, nullptr, 0);
        break;
    }
    case 8:
        tb.send(TN_T_ABORT, seqc++, nullptr, 0);
        break;
    default:
        if (rnd_n(4) == 0)
            tb.send(TN_T_RESET, seqc++, nullptr, 0);
        else
            tb.send(TN_T_STATUS, seqc++, nullptr, 0);
    }
}

// A frame that must be refused (and write nothing).
static void bad_frame(Tb &tb)
{
    std::vector<uint8_t> p = rand_words(1 + rnd_n(8));
    tn_put_le32(p.data(), ram_addr());
    std::vector<uint8_t> raw(p.size() + 7 + 4 * TB_MAX_WORDS + 64);
    size_t n = tn_frame_build(raw.data(), raw.size(), TN_T_WRITE, seqc++, p.data(), p.size());
    int kind = (int)rnd_n(7);
    auto recrc = [&](size_t m) {
        uint16_t c = tn_crc16(TN_CRC16_INIT, raw.data(), m - 2);
        raw[m - 2] = (uint8_t)(c >> 8);
        raw[m - 1] = (uint8_t)c;
    };
    switch (kind) {
    case 0:  // one bit flipped anywhere
        raw[rnd_n(n)] ^= (uint8_t)(1u << rnd_n(8));
        break;
    case 1:  // len field off, CRC right
        raw[3] = (uint8_t)(raw[3] + 1 + rnd_n(30));
        recrc(n);
        break;
    case 2:  // unknown type
        raw[1] = (uint8_t)(8 + rnd_n(0x70));
        recrc(n);
        break;
    case 3:  // bad version
        raw[0] = (uint8_t)(2 + rnd_n(200));
        recrc(n);
        break;
    case 4: {  // oversized: a real frame with too much payload
        std::vector<uint8_t> big = rand_words(TB_MAX_WORDS + 1 + rnd_n(8));
        n = tn_frame_build(raw.data(), raw.size(), TN_T_WRITE, seqc++, big.data(), big.size());
        break;
    }
    case 5:  // truncated
        n = 1 + rnd_n(n - 1);
        break;
    default:  // WRITE without data words
        n = tn_frame_build(raw.data(), raw.size(), TN_T_WRITE, seqc++, p.data(), 4);
        break;
    }
    std::vector<uint8_t> enc(2 * n + 2);
    size_t e = tn_slip_encode(enc.data(), enc.size(), raw.data(), n);
    tb.send_raw(enc.data(), e);
}

static size_t garbage(Tb &tb, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t r = rnd_n(100);
        uint8_t c = r < 8 ? 0xC0 : r < 14 ? 0xDB : r < 17 ? 0xDC : r < 20 ? 0xDD
                  : r < 24 ? 0x01 : (uint8_t)rnd();
        tb.send_raw(&c, 1);
    }
    return n;
}

static std::string verdict(const Tb &tb)
{
    return tb.err.empty() ? std::string("") : " [" + tb.err + "]";
}

#define TOSTR2(x) #x
#define TOSTR(x) TOSTR2(x)

// Throughput of full bursts with no stalls anywhere (1 byte per cycle in,
// output always ready, zero-wait bus).
static bool bench_burst(bool write, int frames)
{
    Tb tb;
    tb.gap_max = 0;
    tb.out_ready_pct = 100;
    tb.wait_max = 0;
    uint8_t pl[8];
    for (int i = 0; i < frames; i++) {
        if (write) {
            std::vector<uint8_t> p(4 * TB_MAX_WORDS);
            for (auto &b : p)
                b = (uint8_t)(rnd() & 0x7F);   // no escapes
            tn_put_le32(p.data(), 0x1000);
            tb.send(TN_T_WRITE, (uint8_t)i, p.data(), p.size());
        } else {
            tn_put_le32(pl, 0x1000);
            tn_put_le32(pl + 4, TB_MAX_WORDS);
            tb.send(TN_T_READ, (uint8_t)i, pl, 8);
        }
    }
    uint64_t c0 = tb.cycle;
    auto t0 = std::chrono::steady_clock::now();
    bool good = tb.drain(100000000) && tb.err.empty();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t cyc = tb.cycle - c0 - 300;   // drain() idles 300 cycles at the end
    double words = (double)frames * (write ? TB_MAX_WORDS - 1 : TB_MAX_WORDS);
    printf("%-34s %10llu %8d %10llu %8.3f %9.2f %8.3f\n",
           write ? "WRITE bursts, no stalls" : "READ bursts, no stalls",
           (unsigned long long)tb.bytes_in, frames, (unsigned long long)cyc, secs,
           cyc / secs / 1e6, (double)tb.bytes_in / cyc);
    printf("# %s: %.3f payload words per cycle, %.1f cycles per frame, %llu bytes out%s\n",
           write ? "write" : "read", words / cyc, (double)cyc / frames,
           (unsigned long long)tb.bytes_out, good ? "" : ": FAILED");
    return good;
}

static int directed()
{
    Tb tb;
    uint8_t pl[64];

    tb.send(TN_T_INFO, 1, nullptr, 0);
    ok(tb.drain(5000) && tb.err.empty() && tb.got.size() == 1, "INFO answered with one DATA frame%s",
       verdict(tb).c_str());
    bool info_ok = tb.got.size() == 1 && tb.got[0].payload.size() == 32;
    for (int i = 0; info_ok && i < 7; i++)
        info_ok = tn_get_le32(tb.got[0].payload.data() + 4 * i) == INFO_REGS[i];
    ok(info_ok && tn_get_le32(tb.got[0].payload.data() + 28) == (MAXP | 1u << 16),
       "INFO returns VERSION..ALPHA of the global registers and the bridge word (max payload %zu, version 1)", MAXP);

    tb.got.clear();
    // payload starts with END (address byte 0) and ends with END (top byte
    // of the last word); seq 0xDB needs an escape in the header
    tn_put_le32(pl, 0x000201C0);
    for (int i = 0; i < 5; i++)
        tn_put_le32(pl + 4 + 4 * i, 0xC0DB0000u + (uint32_t)i);
    tb.send(TN_T_WRITE, 0xDB, pl, 24);
    tn_put_le32(pl + 4, 5);
    tb.send(TN_T_READ, 0xC0, pl, 8);
    ok(tb.drain(5000) && tb.err.empty() && tb.writes == 5,
       "WRITE burst of 5 words (END first and last in the payload, seq ESC): 5 bus writes at incrementing addresses%s",
       verdict(tb).c_str());
    bool rd = tb.got.size() == 2 && tb.got[0].type == TN_T_ACK && tb.got[1].type == TN_T_DATA &&
              tb.got[1].payload.size() == 20;
    for (int i = 0; rd && i < 5; i++)
        rd = tn_get_le32(tb.got[1].payload.data() + 4 * i) == 0xC0DB0000u + (uint32_t)i;
    ok(rd && tb.got[0].seq == 0xDB && tb.got[1].seq == 0xC0,
       "READ burst (seq END) returns the 5 words written, END/ESC bytes survive both ways");

    uint64_t w0 = tb.writes;
    tb.send(TN_T_START, 9, nullptr, 0);
    tb.send(TN_T_START, 9, nullptr, 0);
    tb.send(TN_T_START, 9, nullptr, 0);
    ok(tb.drain(5000) && tb.err.empty() && tb.writes == w0 + 1,
       "START seq 9 three times: three ACKs, CTRL written once%s", verdict(tb).c_str());
    tb.send(TN_T_START, 10, nullptr, 0);
    tb.send(TN_T_STATUS, 11, nullptr, 0);
    tb.send(TN_T_START, 11, nullptr, 0);
    ok(tb.drain(5000) && tb.err.empty() && tb.writes == w0 + 3,
       "START with a new seq writes CTRL again, also after another command%s", verdict(tb).c_str());
    tb.send(TN_T_START, 11, nullptr, 0);
    garbage(tb, 40);
    tb.send_raw((const uint8_t *)"\xC0\x01\x02\xC0", 4);
    tb.send(TN_T_START, 11, nullptr, 0);
    ok(tb.drain(5000) && tb.err.empty() && tb.writes == w0 + 3,
       "START repeats stay deduplicated across refused garbage frames%s", verdict(tb).c_str());

    tb.got.clear();
    tb.send(TN_T_ABORT, 12, nullptr, 0);
    tb.send(TN_T_STATUS, 13, nullptr, 0);
    ok(tb.drain(5000) && tb.err.empty() && tb.got.size() == 2 && tb.got[1].payload.size() == 32,
       "ABORT writes CTRL=2; STATUS reads STATUS..END_CYCLE (8 words, in order)%s", verdict(tb).c_str());

    tb.send(TN_T_RESET, 14, nullptr, 0);
    ok(tb.drain(5000) && tb.err.empty() && tb.rst_edges == 1 && tb.rst_cycles == TB_RESET_CYCLES,
       "RESET pulses rst_o once for %d cycles and is acknowledged%s", TB_RESET_CYCLES, verdict(tb).c_str());
    w0 = tb.writes;
    tb.send(TN_T_START, 11, nullptr, 0);
    ok(tb.drain(5000) && tb.err.empty() && tb.writes == w0 + 1,
       "RESET clears the START memory: START with the old seq runs again%s", verdict(tb).c_str());

    // every refusal, one by one
    struct { const char *what; int code; } cases[] = {
        {"bad CRC", TN_NAK_CRC}, {"bad length", TN_NAK_LENGTH}, {"oversized len", TN_NAK_OVERSIZE},
        {"unknown type", TN_NAK_TYPE}, {"bad version", TN_NAK_VERSION}, {"bad escape", TN_NAK_ESCAPE},
        {"READ count 0", TN_NAK_ARG}, {"oversized frame", TN_NAK_OVERSIZE}, {"short frame", TN_NAK_LENGTH},
    };
    for (int k = 0; k < 9; k++) {
        tb.got.clear();
        w0 = tb.writes;
        uint8_t raw[4 * TB_MAX_WORDS + 64];
        tn_put_le32(pl, 0x100);
        tn_put_le32(pl + 4, 0x12345678);
        size_t n = tn_frame_build(raw, sizeof raw, TN_T_WRITE, 0x40, pl, 8);
        auto recrc = [&]() {
            uint16_t c = tn_crc16(TN_CRC16_INIT, raw, n - 2);
            raw[n - 2] = (uint8_t)(c >> 8), raw[n - 1] = (uint8_t)c;
        };
        std::vector<uint8_t> enc(2 * sizeof raw + 2);
        size_t e;
        switch (k) {
        case 0: raw[7] ^= 0x04; break;
        case 1: raw[3] = 4; recrc(); break;
        case 2: raw[3] = (uint8_t)(MAXP + 4), raw[4] = (uint8_t)((MAXP + 4) >> 8); recrc(); break;
        case 3: raw[1] = 0x55; recrc(); break;
        case 4: raw[0] = 0; recrc(); break;
        case 6: tn_put_le32(pl + 4, 0); n = tn_frame_build(raw, sizeof raw, TN_T_READ, 0x40, pl, 8); break;
        case 7: { uint8_t big[4 * TB_MAX_WORDS + 4] = {0};
                  n = tn_frame_build(raw, sizeof raw, TN_T_WRITE, 0x40, big, sizeof big); break; }
        case 8: n = 4; break;
        }
        e = tn_slip_encode(enc.data(), enc.size(), raw, n);
        if (k == 5) {  // ESC followed by a plain byte in the middle
            memmove(&enc[6], &enc[5], e - 5);
            enc[5] = 0xDB;
            e++;
        }
        tb.send_raw(enc.data(), e);
        bool d = tb.drain(5000);
        bool nk = tb.got.size() == 1 && tb.got[0].type == TN_T_NAK && tb.got[0].payload.size() == 2 &&
                  tb.got[0].payload[0] == cases[k].code;
        ok(d && tb.err.empty() && nk && tb.writes == w0, "%s: NAK code %d, nothing written%s",
           cases[k].what, cases[k].code, verdict(tb).c_str());
    }

    // idle timeout
    tb.got.clear();
    w0 = tb.writes;
    tn_put_le32(pl, 0x300);
    tn_put_le32(pl + 4, 0xAAAA5555);
    uint8_t enc[64];
    size_t e = tn_frame_encode(enc, sizeof enc, TN_T_WRITE, 0x50, pl, 8);
    tb.send_raw(enc, 8);
    tb.flush();
    tb.idle(TB_IDLE_TIMEOUT + 20);
    tb.model_timeout();
    tb.send_raw(enc + 8, e - 8);
    tb.send(TN_T_INFO, 0x51, nullptr, 0);
    ok(tb.drain(5000) && tb.err.empty() && tb.writes == w0 && tb.got.size() == 1 && tb.got[0].seq == 0x51,
       "idle timeout: a frame paused %d cycles is dropped silently, its tail hunted away, the next frame answered%s",
       TB_IDLE_TIMEOUT + 20, verdict(tb).c_str());
    tb.got.clear();
    tb.send_raw(enc, 8);
    tb.flush();
    tb.idle(TB_IDLE_TIMEOUT - 50);
    tb.send_raw(enc + 8, e - 8);
    ok(tb.drain(5000) && tb.err.empty() && tb.writes == w0 + 1 && tb.got.size() == 1 && tb.got[0].type == TN_T_ACK,
       "idle timeout: a frame paused %d cycles (below the timeout) completes%s",
       TB_IDLE_TIMEOUT - 50, verdict(tb).c_str());
    tb.got.clear();
    tb.idle(3 * TB_IDLE_TIMEOUT);
    tb.send(TN_T_INFO, 0x52, nullptr, 0);
    ok(tb.drain(5000) && tb.err.empty() && tb.got.size() == 1,
       "a long silence between frames drops nothing%s", verdict(tb).c_str());

    ok(tb.bus_bad == 0, "bus: requests held stable until ready, never we with re, never during rst_o");
    return 0;
}

static int random_run(size_t target, bool bench)
{
    Tb tb;
    size_t garbage_bytes = 0, valid = 0, bad = 0;
    auto t0 = std::chrono::steady_clock::now();
    bool alive = true;
    // feed in batches so that queues stay small
    while (garbage_bytes < target && alive) {
        for (int i = 0; i < 50; i++) {
            uint32_t r = rnd_n(10);
            if (r < 4) {
                valid_frame(tb);
                valid++;
            } else if (r < 6) {
                bad_frame(tb);
                bad++;
            } else {
                garbage_bytes += garbage(tb, 1 + rnd_n(rnd_n(4) == 0 ? 300 : 40));
            }
            if (rnd_n(3) == 0) {  // the next frame must be answered after anything
                valid_frame(tb);
                valid++;
            }
        }
        tb.gap_max = (int)rnd_n(4);
        tb.out_ready_pct = 40 + (int)rnd_n(61);
        tb.wait_max = (int)rnd_n(4);
        tb.long_waits = rnd_n(2);
        alive = tb.drain(2000000) && tb.err.empty();
    }
    tb.send(TN_T_INFO, 0xEE, nullptr, 0);
    valid++;
    bool last = tb.drain(100000);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    if (bench) {
        bool good = alive && last && tb.err.empty();
        printf("%-34s %10s %8s %10s %8s %9s %8s\n", "run (MAX_WORDS=" TOSTR(TB_MAX_WORDS) ")", "bytes in",
               "frames", "cycles", "wall s", "Mcycle/s", "B/cycle");
        printf("%-34s %10llu %8zu %10llu %8.3f %9.2f %8.3f\n", "random stress (garbage+frames)",
               (unsigned long long)tb.bytes_in, valid + bad, (unsigned long long)tb.cycle, secs,
               tb.cycle / secs / 1e6, (double)tb.bytes_in / tb.cycle);
        printf("# stress: %zu garbage bytes, %zu valid + %zu malformed frames, %llu responses "
               "(%llu NAK), %llu bus writes, %llu reads, %llu bytes out: %s\n",
               garbage_bytes, valid, bad, (unsigned long long)tb.resp_seen,
               (unsigned long long)tb.naks_seen, (unsigned long long)tb.writes,
               (unsigned long long)tb.reads, (unsigned long long)tb.bytes_out,
               good ? "all as the model predicted" : "FAILED");
        if (!tb.err.empty())
            fprintf(stderr, "bench: %s\n", tb.err.c_str());
        return good ? 0 : 1;
    }
    diag("%zu garbage bytes, %zu valid and %zu malformed frames, %llu bytes in, %llu responses (%llu NAK), "
         "%llu writes, %llu cycles, %.2f s", garbage_bytes, valid, bad, (unsigned long long)tb.bytes_in,
         (unsigned long long)tb.resp_seen, (unsigned long long)tb.naks_seen,
         (unsigned long long)tb.writes, (unsigned long long)tb.cycle, secs);
    ok(alive && last, "random stream of %zu garbage bytes (END/ESC-rich) and %zu frames: never wedged, "
       "the final INFO was answered%s", garbage_bytes, valid + bad, verdict(tb).c_str());
    ok(tb.err.empty() && tb.resp_bad == 0 && tb.exp.empty() && tb.resp_seen == tb.model_frames,
       "every frame got exactly the model's response, in order (%llu responses, %llu NAKs)",
       (unsigned long long)tb.resp_seen, (unsigned long long)tb.naks_seen);
    ok(tb.bad_writes == 0 && tb.expw.empty() && tb.writes > 1000,
       "the write log holds exactly the writes of valid frames (%llu writes, none from a refused frame)",
       (unsigned long long)tb.writes);
    ok(tb.rlog.empty() && tb.reads > 1000, "every bus read went into a DATA response (%llu reads)",
       (unsigned long long)tb.reads);
    ok(tb.rst_edges == tb.exp_resets && tb.rst_cycles == tb.exp_resets * TB_RESET_CYCLES,
       "rst_o pulsed once per RESET (%llu) for %d cycles each", (unsigned long long)tb.exp_resets,
       TB_RESET_CYCLES);
    ok(tb.bus_bad == 0, "bus protocol held throughout the random run");
    return 0;
}

int main(int argc, char **argv)
{
    size_t bytes = 100000;
    bool bench = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bytes") && i + 1 < argc)
            bytes = strtoull(argv[++i], nullptr, 0);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            rs = strtoull(argv[++i], nullptr, 0) | 1;
        else if (!strcmp(argv[i], "--bench"))
            bench = true;
        else {
            fprintf(stderr, "usage: tb_bridge [--bytes N] [--seed S] [--bench]\n");
            return 1;
        }
    }
    Verilated::commandArgs(argc, argv);
    if (bench) {
        int rc = random_run(bytes, true);
        bool good = bench_burst(true, 2000) && bench_burst(false, 2000);
        return rc || !good;
    }
    directed();
    random_run(bytes, false);
    return tap_done();
}
