// LEA word-sliced on x86, written once for the x86 LEA kernels (lea_x86_avx2.cpp,
// lea_x86_avx512.cpp) over an operations class Ops: the rounds, ECB in steps of whole groups
// with a masked last step, and the CTR segment with its counters built in registers. x86
// because its last step is masked loads and stores (vpmaskmovd, AVX-512 masks), where
// lea_neon.cpp pads a stack copy.
//
// A kernel file includes this header inside its `KC_TARGET_PUSH` region, so that every
// function here is compiled for its instruction set, and supplies Ops (static members, each
// inlined: a call per word operation would cost more than the operation):
//
//   vec                          the vector type (32-bit lanes)
//   Keys, KeyRow                 its round-key layout (Kernel::set_key's state); the words of
//                                one round. k.rk is the key schedule (LeaRoundKeys: the round
//                                count, and what the CTR precomputation reads)
//   enc_row(k, i), dec_row(k, i) round i's encryption words and its decryption words
//                                (lea_sliced_decrypt_words)
//   key(row, j)                  word j of a row in every lane
//   step_groups                  groups per full step (a group: one block per 32-bit lane of
//                                vec, group_blocks<Ops> below)
//   bc, vxor, vadd, vsub, rol<R>, ror<R>, bswap32 (each word's bytes reversed)
//   transpose4(r0, r1, r2, r3)   4x4 word transpose in each 128-bit lane, its own inverse
//   ctr_lane_offsets()           lane -> index of its block in a group (transpose4's order)
//   load<Masked>(p, n, j), store<Masked>(p, n, j, v)
//                                register j (of sizeof(vec) bytes) of a step; Masked: only the
//                                words of the first n blocks (zeros past them on a load)
//   tweak_a16(w[4])              optional (XTS's tweaks made in the kernel, xts_tweaked): a
//                                group's 16 tweaks, word-sliced, times alpha^16
//
// The kernel's descriptor (baseline code, outside the target region) points at
// encrypt_blocks<Ops> and decrypt_blocks<Ops>, and its CTR entry (lea_x86_ctr_entry.hpp,
// baseline) calls ctr_segment<Ops>; nothing here runs before dispatch has checked the CPU.
//
// Constant-time: ARX only (XOR, 32-bit addition and subtraction, fixed rotations, fixed
// shuffles); addresses and load/store masks depend on the (public) length alone.
#pragma once
// Must be included inside a kernel file's target region, after that file has included
// lea/lea_sliced.hpp and core/write_prefetch.hpp outside it (so that their inline functions
// are compiled for the baseline).

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/write_prefetch.hpp"
#include "lea/lea.hpp"
#include "lea/lea_sliced.hpp"

// Everything below has internal linkage: each kernel file compiles its own copy for its own
// instruction set, and no copy built for AVX-512 can be the one the linker keeps for another
// file (an inline function or template instantiation with external linkage could be).
namespace kc::lea_x86 {
namespace {

// Blocks per group: one word of each block per 32-bit lane of the vector.
template <class Ops> constexpr size_t group_blocks = sizeof(typename Ops::vec) / 4;

// Word j of G groups: a = X[0], b = X[1], c = X[2], d = X[3].
template <class Ops, int G> struct Lanes {
    typename Ops::vec a[G], b[G], c[G], d[G];
};

// Calls f(std::integral_constant<int, R>()) for the key's round count R (24, 28 or 32): whole
// steps run with the rounds unrolled in full.
template <class F> inline void with_rounds(int rounds, F f)
{
    switch (rounds) {
    case 24: f(std::integral_constant<int, 24>()); break;
    case 28: f(std::integral_constant<int, 28>()); break;
    default: f(std::integral_constant<int, 32>()); break;
    }
}

// Calls f(std::integral_constant<int, G>()) for the G in 1..Ops::step_groups equal to groups,
// and nothing for 0: a masked last step runs as one instance per group count.
template <class Ops, int G = 1, class F> inline void with_groups(size_t groups, F f)
{
    if (groups == G)
        f(std::integral_constant<int, G>());
    else if constexpr (G < Ops::step_groups)
        with_groups<Ops, G + 1>(groups, f);
}

// One encryption round on G groups (see lea_ref.cpp for the formulas). The new X[0] goes
// where X[3] was, X[1] and X[2] stay in place, and X[0] becomes X[3]: two rounds with the
// arguments (a,b,c,d) then (d,b,c,a) bring the words back in order without a move.
template <class Ops, int G>
inline void encrypt_round(typename Ops::vec *x0, typename Ops::vec *x1, typename Ops::vec *x2,
                          typename Ops::vec *x3, const typename Ops::KeyRow &k)
{
    using vec = typename Ops::vec;
    for (int g = 0; g < G; g++) {
        vec t0 = Ops::vadd(Ops::vxor(x0[g], Ops::key(k, 0)), Ops::vxor(x1[g], Ops::key(k, 1)));
        vec t1 = Ops::vadd(Ops::vxor(x1[g], Ops::key(k, 2)), Ops::vxor(x2[g], Ops::key(k, 3)));
        vec t2 = Ops::vadd(Ops::vxor(x2[g], Ops::key(k, 4)), Ops::vxor(x3[g], Ops::key(k, 5)));
        x3[g] = Ops::template rol<9>(t0);
        x1[g] = Ops::template ror<5>(t1);
        x2[g] = Ops::template ror<3>(t2);
    }
}

// Rounds first..R-1 (R = 0: all the key's rounds, a loop). With R known the rounds are
// unrolled in full, so the word order turns in the register names and no state is moved.
template <class Ops, int G, int R>
inline void encrypt_rounds(Lanes<Ops, G> &s, const typename Ops::Keys &k, int first)
{
    if constexpr (R == 0) {
        for (int i = first; i < k.rk.rounds; i += 2) {
            encrypt_round<Ops, G>(s.a, s.b, s.c, s.d, Ops::enc_row(k, i));
            encrypt_round<Ops, G>(s.d, s.b, s.c, s.a, Ops::enc_row(k, i + 1));
        }
    } else {
#pragma GCC unroll 16
        for (int i = first; i < R; i += 2) {
            encrypt_round<Ops, G>(s.a, s.b, s.c, s.d, Ops::enc_row(k, i));
            encrypt_round<Ops, G>(s.d, s.b, s.c, s.a, Ops::enc_row(k, i + 1));
        }
    }
}

// One decryption round on G groups, with the words w of lea_sliced_decrypt_words:
//   X_i[1] = u1 ^ RK[1],  u1 = ROR9(X_{i+1}[0]) - (X_{i+1}[3] ^ RK[0])
//   X_i[2] = u2 ^ RK[3],  u2 = ROL5(X_{i+1}[1]) - (u1 ^ RK[1] ^ RK[2])
//   X_i[3] = u3 ^ RK[5],  u3 = ROL3(X_{i+1}[2]) - (u2 ^ RK[3] ^ RK[4])
// and X_i[0] = X_{i+1}[3]. The results go where X[0..2] were, so the word order turns by
// one place per round; four rounds bring it back.
template <class Ops, int G>
inline void decrypt_round(typename Ops::vec *x0, typename Ops::vec *x1, typename Ops::vec *x2,
                          typename Ops::vec *x3, const typename Ops::KeyRow &w)
{
    using vec = typename Ops::vec;
    for (int g = 0; g < G; g++) {
        vec u1 = Ops::vsub(Ops::template ror<9>(x0[g]), Ops::vxor(x3[g], Ops::key(w, 0)));
        vec u2 = Ops::vsub(Ops::template rol<5>(x1[g]), Ops::vxor(u1, Ops::key(w, 2)));
        vec u3 = Ops::vsub(Ops::template rol<3>(x2[g]), Ops::vxor(u2, Ops::key(w, 4)));
        x0[g] = Ops::vxor(u1, Ops::key(w, 1));
        x1[g] = Ops::vxor(u2, Ops::key(w, 3));
        x2[g] = Ops::vxor(u3, Ops::key(w, 5));
    }
}

template <class Ops, int G> inline void decrypt_4rounds(Lanes<Ops, G> &s, const typename Ops::Keys &k, int i)
{
    decrypt_round<Ops, G>(s.a, s.b, s.c, s.d, Ops::dec_row(k, i));     // now (d, a, b, c)
    decrypt_round<Ops, G>(s.d, s.a, s.b, s.c, Ops::dec_row(k, i - 1)); // now (c, d, a, b)
    decrypt_round<Ops, G>(s.c, s.d, s.a, s.b, Ops::dec_row(k, i - 2)); // now (b, c, d, a)
    decrypt_round<Ops, G>(s.b, s.c, s.d, s.a, Ops::dec_row(k, i - 3)); // back to (a, b, c, d)
}

// All rounds, last to first (R = 0: the key's round count, a loop; else unrolled in full).
template <class Ops, int G, int R> inline void decrypt_rounds(Lanes<Ops, G> &s, const typename Ops::Keys &k)
{
    if constexpr (R == 0) {
        for (int i = k.rk.rounds - 1; i >= 0; i -= 4)
            decrypt_4rounds<Ops, G>(s, k, i);
    } else {
#pragma GCC unroll 8
        for (int i = R - 1; i >= 0; i -= 4)
            decrypt_4rounds<Ops, G>(s, k, i);
    }
}

// Loads G groups (the first n blocks when Masked; lanes past them are zero) word-sliced.
// Whiten (XTS, kit/xts/xts_accel.hpp): each block XORed with its tweak from tw, loaded with the
// same masks, before the transpose here and after it in store_sliced.
template <class Ops, int G, bool Masked, bool Whiten = false>
inline void load_sliced(Lanes<Ops, G> &s, const uint8_t *in, size_t n, const uint8_t *tw = nullptr)
{
    auto load = [&](size_t j) {
        const typename Ops::vec v = Ops::template load<Masked>(in, n, j);
        if constexpr (Whiten)
            return Ops::vxor(v, Ops::template load<Masked>(tw, n, j));
        else
            return v;
    };
    for (int g = 0; g < G; g++) {
        s.a[g] = load(4 * g);
        s.b[g] = load(4 * g + 1);
        s.c[g] = load(4 * g + 2);
        s.d[g] = load(4 * g + 3);
        Ops::transpose4(s.a[g], s.b[g], s.c[g], s.d[g]);
    }
}

template <class Ops, int G, bool Masked, bool Whiten = false>
inline void store_sliced(Lanes<Ops, G> &s, uint8_t *out, size_t n, const uint8_t *tw = nullptr)
{
    auto store = [&](size_t j, typename Ops::vec v) {
        if constexpr (Whiten)
            v = Ops::vxor(v, Ops::template load<Masked>(tw, n, j));
        Ops::template store<Masked>(out, n, j, v);
    };
    for (int g = 0; g < G; g++) {
        Ops::transpose4(s.a[g], s.b[g], s.c[g], s.d[g]);
        store(4 * g, s.a[g]);
        store(4 * g + 1, s.b[g]);
        store(4 * g + 2, s.c[g]);
        store(4 * g + 3, s.d[g]);
    }
}

// One step of G groups, encryption or decryption, whitened with tw or not (tw then unused).
template <class Ops, bool Decrypt, bool Whiten = false> struct Step {
    static constexpr bool whiten = Whiten;
    template <int G, bool Masked, int R>
    static void run(const typename Ops::Keys &k, const uint8_t *in, uint8_t *out, size_t n, const uint8_t *tw)
    {
        Lanes<Ops, G> s;
        load_sliced<Ops, G, Masked, Whiten>(s, in, n, tw);
        if constexpr (Decrypt)
            decrypt_rounds<Ops, G, R>(s, k);
        else
            encrypt_rounds<Ops, G, R>(s, k, 0);
        store_sliced<Ops, G, Masked, Whiten>(s, out, n, tw);
    }
};

// tw advanced by `bytes` where the step reads it.
template <class S> inline const uint8_t *ahead(const uint8_t *tw, size_t bytes)
{
    return S::whiten ? tw + bytes : tw;
}

template <class Ops, class S, int R>
void whole_steps(const typename Ops::Keys &k, const uint8_t *in, uint8_t *out, size_t nsteps, const uint8_t *tw)
{
    constexpr size_t step = Ops::step_groups * group_blocks<Ops>;
    for (size_t i = 0; i < nsteps; i++)
        S::template run<Ops::step_groups, false, R>(k, in + 16 * step * i, out + 16 * step * i, step,
                                                    ahead<S>(tw, 16 * step * i));
}

// Whole steps (unrolled for the key's round count), then the last blocks (fewer than a
// step) as one masked step of just enough groups.
template <class Ops, class S>
void ecb(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks, const uint8_t *tw = nullptr)
{
    const typename Ops::Keys &k = *static_cast<const typename Ops::Keys *>(state);
    constexpr size_t step = Ops::step_groups * group_blocks<Ops>;
    size_t nsteps = nblocks / step;
    with_rounds(k.rk.rounds, [&](auto r) { whole_steps<Ops, S, decltype(r)::value>(k, in, out, nsteps, tw); });
    in += 16 * step * nsteps;
    out += 16 * step * nsteps;
    tw = ahead<S>(tw, 16 * step * nsteps);
    nblocks -= step * nsteps;
    with_groups<Ops>((nblocks + group_blocks<Ops> - 1) / group_blocks<Ops>,
                     [&](auto g) { S::template run<decltype(g)::value, true, 0>(k, in, out, nblocks, tw); });
}

// Kernel::encrypt_blocks and Kernel::decrypt_blocks.
template <class Ops> void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    ecb<Ops, Step<Ops, false>>(state, in, out, nblocks);
}

template <class Ops> void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    ecb<Ops, Step<Ops, true>>(state, in, out, nblocks);
}

// XtsAccel::whitened_blocks: ECB with each block XORed with its tweak before and after.
template <class Ops>
void xts_blocks(const void *state, bool decrypt, const uint8_t *tw, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    if (decrypt)
        ecb<Ops, Step<Ops, true, true>>(state, in, out, nblocks, tw);
    else
        ecb<Ops, Step<Ops, false, true>>(state, in, out, nblocks, tw);
}

// XTS with the tweaks made here, for an Ops that offers tweak_a16 (XtsAccel::tweaked_blocks):
// a group's 16 tweaks in the state's own word-sliced layout are four vectors, T[j] = word j,
// XORed into the sliced state after the loads' transpose and before the stores'. The next
// group's are these times alpha^16 (Ops::tweak_a16), in registers: no tweak buffer to fill
// in a pass of its own. A step's tweaks wait for its output XORs in `saved` (stores, then
// memory operands), so that the rounds keep every register.
template <class Ops> struct SlicedTweaks {
    typename Ops::vec w[4];
};

template <class Ops, bool Decrypt> struct TweakedStep {
    template <int G, bool Masked, int R>
    static void run(const typename Ops::Keys &k, const uint8_t *in, uint8_t *out, size_t n, SlicedTweaks<Ops> &t,
                    SlicedTweaks<Ops> *saved)
    {
        Lanes<Ops, G> s;
        load_sliced<Ops, G, Masked>(s, in, n);
        for (int g = 0; g < G; g++) {
            saved[g] = t;
            s.a[g] = Ops::vxor(s.a[g], t.w[0]);
            s.b[g] = Ops::vxor(s.b[g], t.w[1]);
            s.c[g] = Ops::vxor(s.c[g], t.w[2]);
            s.d[g] = Ops::vxor(s.d[g], t.w[3]);
            if (!Masked || g + 1 < G || n % group_blocks<Ops> == 0) // not past a partial last group
                Ops::tweak_a16(t.w);
        }
        __asm__ volatile("" : : "r"(saved) : "memory"); // kept in memory, not in registers
        if constexpr (Decrypt)
            decrypt_rounds<Ops, G, R>(s, k);
        else
            encrypt_rounds<Ops, G, R>(s, k, 0);
        for (int g = 0; g < G; g++) {
            s.a[g] = Ops::vxor(s.a[g], saved[g].w[0]);
            s.b[g] = Ops::vxor(s.b[g], saved[g].w[1]);
            s.c[g] = Ops::vxor(s.c[g], saved[g].w[2]);
            s.d[g] = Ops::vxor(s.d[g], saved[g].w[3]);
        }
        store_sliced<Ops, G, Masked>(s, out, n);
    }
};

// XtsAccel::tweaked_blocks: out = E(in ^ T_j) ^ T_j (D with decrypt) for the nblocks blocks
// from tweak t (T_j = t * alpha^j); t becomes t * alpha^nblocks. scratch (64-byte aligned,
// xts_scratch_bytes<Ops>) holds the first 16 tweaks in block order on entry
// (xts_first_tweaks, baseline code) and tweaks on return: the caller wipes it.
template <class Ops> constexpr size_t xts_scratch_bytes = 4 * sizeof(typename Ops::vec) * Ops::step_groups;

template <class Ops, bool Decrypt>
void xts_tweaked(const void *state, uint8_t t[16], uint8_t *scratch, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    static_assert(group_blocks<Ops> == 16, "tweak_a16 advances a group of 16 blocks");
    const typename Ops::Keys &k = *static_cast<const typename Ops::Keys *>(state);
    SlicedTweaks<Ops> tw;
    for (int j = 0; j < 4; j++)
        tw.w[j] = Ops::template load<false>(scratch, 16, j);
    Ops::transpose4(tw.w[0], tw.w[1], tw.w[2], tw.w[3]);
    auto *saved = reinterpret_cast<SlicedTweaks<Ops> *>(scratch);
    using S = TweakedStep<Ops, Decrypt>;
    constexpr size_t step = Ops::step_groups * group_blocks<Ops>;
    const size_t nsteps = nblocks / step;
    with_rounds(k.rk.rounds, [&](auto r) {
        for (size_t i = 0; i < nsteps; i++)
            S::template run<Ops::step_groups, false, decltype(r)::value>(k, in + 16 * step * i, out + 16 * step * i,
                                                                         step, tw, saved);
    });
    in += 16 * step * nsteps;
    out += 16 * step * nsteps;
    const size_t rest = nblocks - step * nsteps;
    with_groups<Ops>((rest + group_blocks<Ops> - 1) / group_blocks<Ops>,
                     [&](auto g) { S::template run<decltype(g)::value, true, 0>(k, in, out, rest, tw, saved); });
    // The tweak of block nblocks: block r of the group tw now holds (r = 0 when the last group
    // was whole and tw moved past it), read back in block order.
    const size_t r = rest % group_blocks<Ops>;
    Ops::transpose4(tw.w[0], tw.w[1], tw.w[2], tw.w[3]); // back to block order
    for (int j = 0; j < 4; j++)
        Ops::template store<false>(scratch, 16, j, tw.w[j]);
    for (int b = 0; b < 16; b++)
        t[b] = scratch[16 * r + b];
}

// CTR: rounds 0..3 of G groups from the segment's constants h and the counters' low 32
// bits (lane p of group g holds low + group_blocks * g + offset(p); see lea_sliced.hpp for the
// formulas), then rounds 4.. as usual.
template <class Ops, int G>
inline void ctr_head(Lanes<Ops, G> &s, const typename Ops::Keys &k, const LeaCtrHead &h, typename Ops::vec low)
{
    using vec = typename Ops::vec;
    const auto &k0 = Ops::enc_row(k, 0), &k1 = Ops::enc_row(k, 1), &k2 = Ops::enc_row(k, 2),
               &k3 = Ops::enc_row(k, 3);
    for (int g = 0; g < G; g++) {
        // X[3] = load_le32 of the big-endian low word.
        vec x3 = Ops::bswap32(Ops::vadd(low, Ops::bc(group_blocks<Ops> * g)));
        // Round 0: X1[2].
        vec r0c = Ops::template ror<3>(Ops::vadd(Ops::vxor(x3, Ops::key(k0, 5)), Ops::bc(h.c[0])));
        // Round 1: X2[1], X2[2].
        vec r1b = Ops::template ror<5>(Ops::vadd(Ops::bc(h.c[1]), Ops::vxor(r0c, Ops::key(k1, 3))));
        vec r1c = Ops::template ror<3>(Ops::vadd(Ops::vxor(r0c, Ops::key(k1, 4)), Ops::bc(h.c[2])));
        // Round 2: X3[0], X3[1], X3[2].
        vec r2a = Ops::template rol<9>(Ops::vadd(Ops::bc(h.c[3]), Ops::vxor(r1b, Ops::key(k2, 1))));
        vec r2b = Ops::template ror<5>(
            Ops::vadd(Ops::vxor(r1b, Ops::key(k2, 2)), Ops::vxor(r1c, Ops::key(k2, 3))));
        vec r2c = Ops::template ror<3>(Ops::vadd(Ops::vxor(r1c, Ops::key(k2, 4)), Ops::bc(h.c[4])));
        // Round 3: X4 (X4[3] = X3[0]).
        s.a[g] = Ops::template rol<9>(
            Ops::vadd(Ops::vxor(r2a, Ops::key(k3, 0)), Ops::vxor(r2b, Ops::key(k3, 1))));
        s.b[g] = Ops::template ror<5>(
            Ops::vadd(Ops::vxor(r2b, Ops::key(k3, 2)), Ops::vxor(r2c, Ops::key(k3, 3))));
        s.c[g] = Ops::template ror<3>(Ops::vadd(Ops::vxor(r2c, Ops::key(k3, 4)), Ops::bc(h.c[5])));
        s.d[g] = r2a;
    }
}

// Word j of a step's output: the keystream XOR the input, or (Ks) the keystream alone.
template <class Ops, bool Ks, bool Masked>
inline typename Ops::vec with_input(typename Ops::vec ks, const uint8_t *in, size_t n, size_t j)
{
    if constexpr (Ks)
        return ks;
    else
        return Ops::vxor(ks, Ops::template load<Masked>(in, n, j));
}

template <class Ops, bool Ks, int G, bool Masked, int R>
void ctr_step(const typename Ops::Keys &k, const LeaCtrHead &h, typename Ops::vec low, const uint8_t *in,
              uint8_t *out, size_t n)
{
    Lanes<Ops, G> s;
    ctr_head<Ops, G>(s, k, h, low);
    encrypt_rounds<Ops, G, R>(s, k, 4);
    for (int g = 0; g < G; g++) {
        Ops::transpose4(s.a[g], s.b[g], s.c[g], s.d[g]);
        Ops::template store<Masked>(out, n, 4 * g, with_input<Ops, Ks, Masked>(s.a[g], in, n, 4 * g));
        Ops::template store<Masked>(out, n, 4 * g + 1, with_input<Ops, Ks, Masked>(s.b[g], in, n, 4 * g + 1));
        Ops::template store<Masked>(out, n, 4 * g + 2, with_input<Ops, Ks, Masked>(s.c[g], in, n, 4 * g + 2));
        Ops::template store<Masked>(out, n, 4 * g + 3, with_input<Ops, Ks, Masked>(s.d[g], in, n, 4 * g + 3));
    }
}

// Whole steps of one segment; returns the counters' low words after them. The keystream
// (Ks, no input) asks for its lines write_prefetch_ahead bytes before it stores them.
template <class Ops, bool Ks, int R>
typename Ops::vec ctr_whole_steps(const typename Ops::Keys &k, const LeaCtrHead &h, typename Ops::vec low,
                                  const uint8_t *in, uint8_t *out, size_t nsteps)
{
    constexpr size_t step = Ops::step_groups * group_blocks<Ops>, ahead = write_prefetch_ahead / (16 * step);
    for (size_t i = 0; i < nsteps; i++) {
        if constexpr (Ks)
            if (i + ahead < nsteps)
                prefetch_for_write(out + 16 * step * (i + ahead), 16 * step);
        ctr_step<Ops, Ks, Ops::step_groups, false, R>(k, h, low, in + (Ks ? 0 : 16 * step * i),
                                                      out + 16 * step * i, step);
        low = Ops::vadd(low, Ops::bc(step));
    }
    return low;
}

// n blocks of one segment: counters whose low 32 bits run from h.low up without wrapping.
// Ks: the keystream itself (in unused).
template <class Ops, bool Ks>
void ctr_segment_as(const typename Ops::Keys &k, const LeaCtrHead &h, const uint8_t *in, uint8_t *out, size_t n)
{
    constexpr size_t step = Ops::step_groups * group_blocks<Ops>;
    typename Ops::vec low = Ops::vadd(Ops::bc(h.low), Ops::ctr_lane_offsets());
    size_t nsteps = n / step;
    with_rounds(k.rk.rounds,
                [&](auto r) { low = ctr_whole_steps<Ops, Ks, decltype(r)::value>(k, h, low, in, out, nsteps); });
    if constexpr (!Ks)
        in += 16 * step * nsteps;
    out += 16 * step * nsteps;
    n -= step * nsteps;
    with_groups<Ops>((n + group_blocks<Ops> - 1) / group_blocks<Ops>,
                     [&](auto g) { ctr_step<Ops, Ks, decltype(g)::value, true, 0>(k, h, low, in, out, n); });
}

// One CTR segment (lea_x86_ctr_entry.hpp splits a call into them); in == nullptr: the
// keystream itself.
template <class Ops>
void ctr_segment(const typename Ops::Keys &k, const LeaCtrHead &h, const uint8_t *in, uint8_t *out, size_t n)
{
    if (in == nullptr)
        ctr_segment_as<Ops, true>(k, h, in, out, n);
    else
        ctr_segment_as<Ops, false>(k, h, in, out, n);
}

} // namespace
} // namespace kc::lea_x86
