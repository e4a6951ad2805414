// HIGHT byte-sliced, written once for the x86 HIGHT kernels (hight_x86_avx2.cpp: 32 blocks per
// group, hight_x86_avx512_gfni.cpp: 64) over an operations class Ops: the rounds on G groups
// of eight registers (register j of a group holds byte X_j of each of its blocks, one block per
// byte lane), ECB and CTR in steps of whole groups, the last blocks as one masked step or
// through a stack buffer, and CTR's folded rounds (hight_fold.hpp has their plan).
//
// A kernel file includes this header inside its `KC_TARGET_PUSH` region, so that every
// function here is compiled for its instruction set, and supplies Ops (every function of it
// [[gnu::always_inline]]: the state must stay in registers):
//
//   vec                           the vector type, one block per byte lane
//   group_blocks, step_groups     blocks per group (the byte lanes of vec); groups per full step
//   masked                        whether a partial group uses masked loads and stores (else
//                                 it goes through a zero-padded buffer as a whole group)
//   add8, sub8, xor8              byte-wise addition, subtraction, XOR
//   unpacklo8, unpackhi8, unpacklo16, unpackhi16, unpacklo32, unpackhi32
//                                 the unpacks within each 128-bit lane
//   load_reg(p, n, r), store_reg(p, n, r, v)
//                                 register r (of sizeof(vec) bytes) of a group; with masks only
//                                 the blocks among the first n (zeros past them on a load),
//                                 without masks n is always group_blocks
//   counter_slices(base, x)       the group's counters base + slice order, byte-sliced
//   counter_low_slices(base, wk3, x)
//                                 their bytes 6 (whitened with wk3) and 7, where no counter of
//                                 the group crosses a multiple of 2^16
//   splat_be_bytes(v, c)          c[j] = byte j of v, big-endian, in every lane
//   Keys                          the kernel's key state (Kernel::set_key's layout)
//   RoundKeys, f_term<U>(x, rk)   what round r's F-terms need (made once per round), and the
//                                 F-term of update U (hight_fold.hpp's update_pairs) from the
//                                 even byte x: F0(x) + SK_{4r+3}, F1(x) ^ SK_{4r},
//                                 F0(x) + SK_{4r+1}, F1(x) ^ SK_{4r+2} for U = 0..3
//   group_keys(k, g), round_keys(k, r), whitening(k, i), unroll_all_rounds<K>
//                                 the key sources, below
//
// Key sources. Encryption is written over a key source K, not only one Keys for all groups
// (the AVX-512 kernel's CTR_DRBG bursts have a key pair and per-lane keys). Ops gives group g
// its keys as group_keys(k, g), and those give round r's RoundKeys as round_keys(.., r) and
// WK_i in every lane as whitening(.., i); ECB, decryption and CTR use them on Keys. For one
// Keys every group shares them, and the compiler loads each round's subkeys once.
// unroll_all_rounds<K>: whether rounds 8..31 are unrolled for K, where a round's keys take
// index math that only a constant round number removes (per-lane keys); one Keys keeps the
// loop, so its code stays small.
//
// The kernel's descriptor (baseline code, outside the target region) points at
// encrypt_blocks<Ops>, decrypt_blocks<Ops> and ctr_xor_blocks<Ops>; nothing here runs before
// dispatch has checked the CPU.
#pragma once
// The includes below that hold inline functions (core/wipe.hpp) or constexpr ones
// (hight/hight_fold.hpp) must come first outside the target region, in the kernel file, so
// that those functions are compiled for the baseline: an inline function with external
// linkage built for AVX-512 here could be the copy the linker keeps for every file.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/wipe.hpp"
#include "hight/hight_fold.hpp"

// Everything below has internal linkage: each kernel file compiles its own copy for its own
// instruction set (an inline function or template instantiation with external linkage could
// be merged with another file's).
namespace kc::hight_byte_sliced {
namespace {

// Everything below works on the eight registers of each group, which must stay in registers:
// a call boundary would pass them through memory.
#define KC_HIGHT_BS_INLINE [[gnu::always_inline]] inline

using hight_fold::FoldAction;
using hight_fold::FoldStep;
using hight_fold::fold_step;
using hight_fold::folded_round_count;
using hight_fold::fold_slot;
using hight_fold::fold_slot_count;
using hight_fold::initial_varying;
using hight_fold::source_byte;
using hight_fold::updated_byte;
using hight_fold::varying_after_round;

template <class Ops> using vec = typename Ops::vec;

// Updates 0 and 2 XOR their term into the odd byte, 1 and 3 add it (decryption: subtract).
template <class Ops, int U> KC_HIGHT_BS_INLINE vec<Ops> apply_term(vec<Ops> t, vec<Ops> term)
{
    return U % 2 == 0 ? Ops::xor8(t, term) : Ops::add8(t, term);
}
template <class Ops, int U> KC_HIGHT_BS_INLINE vec<Ops> remove_term(vec<Ops> t, vec<Ops> term)
{
    return U % 2 == 0 ? Ops::xor8(t, term) : Ops::sub8(t, term);
}

template <class Ops, int R, int U, int G>
KC_HIGHT_BS_INLINE void encrypt_update(vec<Ops> (&x)[G][8], const typename Ops::RoundKeys &rk, int g)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    x[g][o] = apply_term<Ops, U>(x[g][o], Ops::template f_term<U>(x[g][e], rk));
}

template <class Ops, int R, int U, int G>
KC_HIGHT_BS_INLINE void decrypt_update(vec<Ops> (&x)[G][8], const typename Ops::RoundKeys &rk, int g)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    x[g][o] = remove_term<Ops, U>(x[g][o], Ops::template f_term<U>(x[g][e], rk));
}

// Round r (0..31) on G groups, R = r mod 8, the state seen as a_j = x[(j - r) mod 8]:
//   a_7 ^= F0(a_6) + SK_{4r+3}    a_1 += F1(a_0) ^ SK_{4r}
//   a_3 ^= F0(a_2) + SK_{4r+1}    a_5 += F1(a_4) ^ SK_{4r+2}
// which is the standard's round i = r with the byte rotation left to the next round's names:
// eight rounds bring the names back and no move is spent.
template <class Ops, int R, int G, class K>
KC_HIGHT_BS_INLINE void encrypt_round(vec<Ops> (&x)[G][8], const K &k, int r)
{
#pragma GCC unroll 2
    for (int g = 0; g < G; g++) {
        const typename Ops::RoundKeys rk = Ops::round_keys(Ops::group_keys(k, g), r);
        encrypt_update<Ops, R, 0>(x, rk, g);
        encrypt_update<Ops, R, 1>(x, rk, g);
        encrypt_update<Ops, R, 2>(x, rk, g);
        encrypt_update<Ops, R, 3>(x, rk, g);
    }
}

// The inverse of encrypt_round<R>: the even bytes are unchanged by it, so the same F-terms
// are recomputed and taken off again.
template <class Ops, int R, int G>
KC_HIGHT_BS_INLINE void decrypt_round(vec<Ops> (&x)[G][8], const typename Ops::Keys &k, int r)
{
    const typename Ops::RoundKeys rk = Ops::round_keys(k, r);
#pragma GCC unroll 2
    for (int g = 0; g < G; g++) {
        decrypt_update<Ops, R, 0>(x, rk, g);
        decrypt_update<Ops, R, 1>(x, rk, g);
        decrypt_update<Ops, R, 2>(x, rk, g);
        decrypt_update<Ops, R, 3>(x, rk, g);
    }
}

// Rounds base + R .. base + 7, unrolled (base a multiple of 8).
template <class Ops, int R, int G, class K>
KC_HIGHT_BS_INLINE void encrypt_rounds_to_8(vec<Ops> (&x)[G][8], const K &k, int base = 0)
{
    if constexpr (R < 8) {
        encrypt_round<Ops, R>(x, k, base + R);
        encrypt_rounds_to_8<Ops, R + 1>(x, k, base);
    }
}

// Rounds base + R down to base, unrolled (base a multiple of 8): the inverse of
// encrypt_rounds_to_8<0> for R = 7.
template <class Ops, int R, int G>
KC_HIGHT_BS_INLINE void decrypt_rounds_down(vec<Ops> (&x)[G][8], const typename Ops::Keys &k, int base)
{
    decrypt_round<Ops, R>(x, k, base + R);
    if constexpr (R > 0)
        decrypt_rounds_down<Ops, R - 1>(x, k, base);
}

// Rounds From..7, then rounds 8..31.
template <class Ops, int From, int G, class K>
KC_HIGHT_BS_INLINE void encrypt_rounds_from(vec<Ops> (&x)[G][8], const K &k)
{
    encrypt_rounds_to_8<Ops, From>(x, k);
    if constexpr (Ops::template unroll_all_rounds<K>) {
        encrypt_rounds_to_8<Ops, 0>(x, k, 8);
        encrypt_rounds_to_8<Ops, 0>(x, k, 16);
        encrypt_rounds_to_8<Ops, 0>(x, k, 24);
        return;
    }
    for (int r = 8; r < 32; r += 8)
        encrypt_rounds_to_8<Ops, 0>(x, k, r);
}

// Four whitening keys in every lane: WK_first .. WK_first+3 (first = 0: the initial
// transformation's, 4: the final one's).
template <class Ops> struct Whitening {
    vec<Ops> w[4];
};
template <class Ops, class KG> KC_HIGHT_BS_INLINE Whitening<Ops> whitening_keys(const KG &k, int first)
{
    return {{Ops::whitening(k, first), Ops::whitening(k, first + 1), Ops::whitening(k, first + 2),
             Ops::whitening(k, first + 3)}};
}

// The whitening of the even bytes b[0], b[2], b[4], b[6]: + w0, ^ w1, + w2, ^ w3 (Inverse: the
// additions become subtractions).
template <class Ops, bool Inverse = false>
KC_HIGHT_BS_INLINE void whiten(vec<Ops> *b, const Whitening<Ops> &w)
{
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        vec<Ops> &t = b[2 * i];
        if (i % 2 == 1)
            t = Ops::xor8(t, w.w[i]);
        else
            t = Inverse ? Ops::sub8(t, w.w[i]) : Ops::add8(t, w.w[i]);
    }
}

// Final transformation: after round 31 the state X_j sits in x[(j + 1) mod 8]; on exit
// x[g][j] = C_j.
template <class Ops, int G, class K> KC_HIGHT_BS_INLINE void final_transform(const K &k, vec<Ops> (&x)[G][8])
{
    for (int g = 0; g < G; g++) {
        const Whitening<Ops> w = whitening_keys<Ops>(Ops::group_keys(k, g), 4);
        vec<Ops> s[8];
        for (int j = 0; j < 8; j++)
            s[j] = x[g][(j + 1) & 7];
        whiten<Ops>(s, w);
        for (int j = 0; j < 8; j++)
            x[g][j] = s[j];
    }
}

// Initial transformation, 32 rounds and final transformation: x[g][j] = P_j in, C_j out.
template <class Ops, int G, class K> KC_HIGHT_BS_INLINE void encrypt_slices(const K &k, vec<Ops> (&x)[G][8])
{
    for (int g = 0; g < G; g++)
        whiten<Ops>(x[g], whitening_keys<Ops>(Ops::group_keys(k, g), 0));
    encrypt_rounds_from<Ops, 0>(x, k);
    final_transform<Ops>(k, x);
}

// The inverse of encrypt_slices: on entry x[g][j] = C_j, on exit x[g][j] = P_j.
template <class Ops, int G>
KC_HIGHT_BS_INLINE void decrypt_slices(const typename Ops::Keys &k, vec<Ops> (&x)[G][8])
{
    const Whitening<Ops> final_keys = whitening_keys<Ops>(k, 4);
    for (int g = 0; g < G; g++) {
        vec<Ops> c[8];
        for (int j = 0; j < 8; j++)
            c[j] = x[g][j];
        whiten<Ops, true>(c, final_keys);
        for (int j = 0; j < 8; j++)
            x[g][(j + 1) & 7] = c[j];
    }
    for (int r = 24; r >= 0; r -= 8)
        decrypt_rounds_down<Ops, 7>(x, k, r);
    const Whitening<Ops> initial_keys = whitening_keys<Ops>(k, 0);
    for (int g = 0; g < G; g++)
        whiten<Ops, true>(x[g], initial_keys);
}

// One unpack stage on the pairs of registers whose index differs in bit `bit`.
template <class Ops> KC_HIGHT_BS_INLINE void unpack_bytes_stage(vec<Ops> *v, int bit)
{
    for (int a = 0; a < 8; a++) {
        if (a & (1 << bit))
            continue;
        int b = a | (1 << bit);
        vec<Ops> lo = Ops::unpacklo8(v[a], v[b]), hi = Ops::unpackhi8(v[a], v[b]);
        v[a] = lo;
        v[b] = hi;
    }
}

// Byte-slices the blocks of a group, register r of v holding blocks 8r..8r+7 (load_slices
// below): x[j] = byte j of each block, blocks in the kernel's slice order. Within a 128-bit
// lane a byte's position is (block i of the lane's two, byte j); each byte-unpack stage moves
// the top bit of the position into the register index and a register-index bit into the
// bottom of the position, so after four stages the register index holds j, and the position
// holds (register, i).
template <class Ops> KC_HIGHT_BS_INLINE void slice_regs(vec<Ops> (&v)[8], vec<Ops> *x)
{
    unpack_bytes_stage<Ops>(v, 2);
    unpack_bytes_stage<Ops>(v, 1);
    unpack_bytes_stage<Ops>(v, 0);
    unpack_bytes_stage<Ops>(v, 2);
    // The stages leave byte j in register 0, 4, 1, 5, 2, 6, 3, 7 for j = 0..7.
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++)
        x[j] = v[(j >> 1) | (j & 1) << 2];
}

template <class Ops> KC_HIGHT_BS_INLINE void load_slices(const uint8_t *in, size_t n, vec<Ops> *x)
{
    vec<Ops> v[8];
    for (int r = 0; r < 8; r++)
        v[r] = Ops::load_reg(in, n, r);
    slice_regs<Ops>(v, x);
}

// The inverse of load_slices' transpose: byte, word and dword unpacks give back 8 registers
// of whole blocks, register r holding the r-th eighth of the group.
template <class Ops> KC_HIGHT_BS_INLINE void slices_to_blocks(const vec<Ops> *x, vec<Ops> *w)
{
    vec<Ops> t[8], u[8];
    for (int m = 0; m < 4; m++) {
        t[2 * m] = Ops::unpacklo8(x[2 * m], x[2 * m + 1]);
        t[2 * m + 1] = Ops::unpackhi8(x[2 * m], x[2 * m + 1]);
    }
    for (int m = 0; m < 4; m++) { // pairs (0,2) (1,3) (4,6) (5,7)
        int a = (m & 1) + 4 * (m >> 1);
        u[2 * m] = Ops::unpacklo16(t[a], t[a + 2]);
        u[2 * m + 1] = Ops::unpackhi16(t[a], t[a + 2]);
    }
    for (int i = 0; i < 4; i++) {
        w[2 * i] = Ops::unpacklo32(u[i], u[i + 4]);
        w[2 * i + 1] = Ops::unpackhi32(u[i], u[i + 4]);
    }
}

template <class Ops> KC_HIGHT_BS_INLINE void store_slices(const vec<Ops> *x, uint8_t *out, size_t n)
{
    vec<Ops> w[8];
    slices_to_blocks<Ops>(x, w);
    for (int r = 0; r < 8; r++)
        Ops::store_reg(out, n, r, w[r]);
}

// out = in XOR (the blocks in x), for the first n blocks.
template <class Ops>
KC_HIGHT_BS_INLINE void xor_store_slices(const vec<Ops> *x, const uint8_t *in, uint8_t *out, size_t n)
{
    vec<Ops> w[8];
    slices_to_blocks<Ops>(x, w);
    for (int r = 0; r < 8; r++)
        Ops::store_reg(out, n, r, Ops::xor8(Ops::load_reg(in, n, r), w[r]));
}

// The blocks of group g among the first n of a step.
template <class Ops> KC_HIGHT_BS_INLINE size_t group_count(size_t n, int g)
{
    size_t first = Ops::group_blocks * g;
    return n > first ? n - first : 0;
}

// ECB over G groups: n blocks, group_blocks * (G - 1) < n <= group_blocks * G.
template <class Ops, int G, bool Decrypt>
KC_HIGHT_BS_INLINE void ecb_groups(const typename Ops::Keys &k, const uint8_t *in, uint8_t *out, size_t n)
{
    vec<Ops> x[G][8];
    for (int g = 0; g < G; g++)
        load_slices<Ops>(in + 8 * Ops::group_blocks * g, group_count<Ops>(n, g), x[g]);
    if constexpr (Decrypt)
        decrypt_slices<Ops>(k, x);
    else
        encrypt_slices<Ops>(k, x);
    for (int g = 0; g < G; g++)
        store_slices<Ops>(x[g], out + 8 * Ops::group_blocks * g, group_count<Ops>(n, g));
}

// The last 0 < n < a step's blocks: one masked step of just enough groups, or without masks
// one group through a zero-padded stack buffer, wiped afterwards (it held data or keystream).
// Step(G, in, out, n) runs G groups.
template <class Ops, class Step>
KC_HIGHT_BS_INLINE void last_step(const uint8_t *in, uint8_t *out, size_t n, Step step)
{
    static_assert(Ops::masked ? Ops::step_groups == 2 : Ops::step_groups == 1,
                  "a masked last step is one group or two; one without masks, one group");
    if constexpr (Ops::masked) {
        if (n > Ops::group_blocks)
            step(std::integral_constant<int, 2>(), in, out, n);
        else
            step(std::integral_constant<int, 1>(), in, out, n);
    } else {
        alignas(64) uint8_t buf[8 * Ops::group_blocks] = {};
        std::memcpy(buf, in, 8 * n);
        step(std::integral_constant<int, 1>(), buf, buf, Ops::group_blocks);
        std::memcpy(out, buf, 8 * n);
        secure_wipe(buf, sizeof buf);
    }
}

template <class Ops, bool Decrypt>
void ecb_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const typename Ops::Keys &k = *static_cast<const typename Ops::Keys *>(state);
    constexpr size_t step = Ops::step_groups * Ops::group_blocks;
    for (; nblocks >= step; nblocks -= step, in += 8 * step, out += 8 * step)
        ecb_groups<Ops, Ops::step_groups, Decrypt>(k, in, out, step);
    if (nblocks > 0)
        last_step<Ops>(in, out, nblocks, [&](auto g, const uint8_t *i, uint8_t *o, size_t n) {
            ecb_groups<Ops, decltype(g)::value, Decrypt>(k, i, o, n);
        });
}

// Kernel::encrypt_blocks.
template <class Ops> void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    ecb_blocks<Ops, false>(state, in, out, nblocks);
}

// Kernel::decrypt_blocks.
template <class Ops> void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    ecb_blocks<Ops, true>(state, in, out, nblocks);
}

// CTR over G groups from counter `base`: n blocks, as for ecb_groups.
template <class Ops, int G>
KC_HIGHT_BS_INLINE void ctr_groups(const typename Ops::Keys &k, uint64_t base, const uint8_t *in, uint8_t *out,
                                   size_t n)
{
    vec<Ops> x[G][8];
    for (int g = 0; g < G; g++)
        Ops::counter_slices(base + Ops::group_blocks * g, x[g]);
    encrypt_slices<Ops>(k, x);
    for (int g = 0; g < G; g++)
        xor_store_slices<Ops>(x[g], in + 8 * Ops::group_blocks * g, out + 8 * Ops::group_blocks * g,
                              group_count<Ops>(n, g));
}

// The lane-independent vectors of the folded rounds (fold_slot) for the counters whose
// bytes 0..5 are those of high << 16.
template <class Ops> struct CtrFold {
    uint64_t high; // ~0: none yet
    vec<Ops> value[fold_slot_count];
};

// The folded rounds R.. (R < folded_round_count) over an update class: round R's four
// updates are Update::run<R, Varying, U>(args..., rk) for U = 0..3, with Varying the bytes that
// vary before the round and rk its RoundKeys. Used by fold_counter_rounds (FoldUpdate) and
// ctr_groups_folded (FoldedUpdate).
template <class Ops, class Update, int R, unsigned Varying, class... Args>
KC_HIGHT_BS_INLINE void run_folded_rounds(const typename Ops::Keys &k, Args &...args)
{
    if constexpr (R < folded_round_count) {
        const typename Ops::RoundKeys rk = Ops::round_keys(k, R);
        Update::template run<R, Varying, 0>(args..., rk);
        Update::template run<R, Varying, 1>(args..., rk);
        Update::template run<R, Varying, 2>(args..., rk);
        Update::template run<R, Varying, 3>(args..., rk);
        run_folded_rounds<Ops, Update, R + 1, varying_after_round(R, Varying)>(k, args...);
    } else {
        static_assert(Varying == 0xff, "every byte varies after the folded rounds");
    }
}

// One update of round R on the constant bytes c of a block (the bytes that vary are never
// read): hight_fold.hpp's fold_step says what to do.
template <class Ops> struct FoldUpdate {
    template <int R, unsigned Varying, int U>
    KC_HIGHT_BS_INLINE static void run(vec<Ops> (&c)[8], CtrFold<Ops> &f, const typename Ops::RoundKeys &rk)
    {
        constexpr FoldStep s = fold_step(R, Varying, U);
        if constexpr (s.action == FoldAction::record_target)
            f.value[s.slot] = c[s.target];
        else if constexpr (s.action == FoldAction::record_term)
            f.value[s.slot] = Ops::template f_term<U>(c[s.source], rk);
        else if constexpr (s.action == FoldAction::apply_term)
            c[s.target] = apply_term<Ops, U>(c[s.target], Ops::template f_term<U>(c[s.source], rk));
    }
};

// Once per message and per 2^16 blocks: about 45 vector operations.
template <class Ops> void fold_counter_rounds(const typename Ops::Keys &k, uint64_t high, CtrFold<Ops> *f)
{
    vec<Ops> c[8]; // c[6] and c[7] are placeholders: those bytes vary
    Ops::splat_be_bytes(high << 16, c);
    c[0] = Ops::add8(c[0], Ops::whitening(k, 0));
    c[2] = Ops::xor8(c[2], Ops::whitening(k, 1));
    c[4] = Ops::add8(c[4], Ops::whitening(k, 2));
    run_folded_rounds<Ops, FoldUpdate<Ops>, 0, initial_varying>(k, c, *f);
    f->high = high;
}

// One update of a folded round on the lanes: the full update where its F-term varies (from
// the folded value of the target byte if that did not vary yet), one operation with the
// folded F-term where only the target varies, nothing where neither does.
template <class Ops> struct FoldedUpdate {
    template <int R, unsigned Varying, int U, int G>
    KC_HIGHT_BS_INLINE static void run(vec<Ops> (&x)[G][8], const CtrFold<Ops> &f,
                                       const typename Ops::RoundKeys &rk)
    {
        constexpr int o = updated_byte(R, U), e = source_byte(R, U);
        constexpr bool target_varies = (Varying >> o) & 1;
        constexpr int slot = fold_slot(R, o);
        if constexpr ((Varying >> e) & 1) {
            for (int g = 0; g < G; g++) {
                vec<Ops> t;
                if constexpr (target_varies)
                    t = x[g][o];
                else
                    t = f.value[slot];
                x[g][o] = apply_term<Ops, U>(t, Ops::template f_term<U>(x[g][e], rk));
            }
        } else if constexpr (target_varies) {
            const vec<Ops> d = f.value[slot];
            for (int g = 0; g < G; g++)
                x[g][o] = apply_term<Ops, U>(x[g][o], d);
        }
    }
};

// CTR over G groups from counter `base`, the folded way.
template <class Ops, int G>
KC_HIGHT_BS_INLINE void ctr_groups_folded(const typename Ops::Keys &k, const CtrFold<Ops> &f, uint64_t base,
                                          const uint8_t *in, uint8_t *out, size_t n)
{
    vec<Ops> x[G][8];
    const vec<Ops> wk3 = Ops::whitening(k, 3);
    for (int g = 0; g < G; g++)
        Ops::counter_low_slices(base + Ops::group_blocks * g, wk3, x[g]);
    run_folded_rounds<Ops, FoldedUpdate<Ops>, 0, initial_varying>(k, x, f);
    encrypt_rounds_from<Ops, folded_round_count>(x, k);
    final_transform<Ops>(k, x);
    for (int g = 0; g < G; g++)
        xor_store_slices<Ops>(x[g], in + 8 * Ops::group_blocks * g, out + 8 * Ops::group_blocks * g,
                              group_count<Ops>(n, g));
}

// G groups from counter `base`: folded when their counters share counter >> 16.
template <class Ops, int G>
KC_HIGHT_BS_INLINE void ctr_step(const typename Ops::Keys &k, CtrFold<Ops> &f, uint64_t base, const uint8_t *in,
                                 uint8_t *out, size_t n)
{
    // A branch on the counter: public in CTR, V in CTR_DRBG (docs/architecture.md, constant time).
    if ((base & 0xffff) <= 0x10000 - Ops::group_blocks * G) {
        if (f.high != base >> 16)
            fold_counter_rounds<Ops>(k, base >> 16, &f);
        ctr_groups_folded<Ops, G>(k, f, base, in, out, n);
    } else {
        ctr_groups<Ops, G>(k, base, in, out, n);
    }
}

// Kernel::ctr_xor_blocks.
template <class Ops>
void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const typename Ops::Keys &k = *static_cast<const typename Ops::Keys *>(state);
    constexpr size_t step = Ops::step_groups * Ops::group_blocks;
    uint64_t base;
    std::memcpy(&base, ctr, 8);
    base = __builtin_bswap64(base); // the counter is the whole block, big-endian
    CtrFold<Ops> fold;
    fold.high = ~(uint64_t)0;
    for (; nblocks >= step; nblocks -= step, base += step, in += 8 * step, out += 8 * step)
        ctr_step<Ops, Ops::step_groups>(k, fold, base, in, out, step);
    if (nblocks > 0)
        last_step<Ops>(in, out, nblocks, [&](auto g, const uint8_t *i, uint8_t *o, size_t n) {
            ctr_step<Ops, decltype(g)::value>(k, fold, base, i, o, n);
        });
    secure_wipe(&fold, sizeof fold); // round values derived from the key
}

#undef KC_HIGHT_BS_INLINE

} // namespace
} // namespace kc::hight_byte_sliced
