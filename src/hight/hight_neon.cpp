// hight/neon: HIGHT (TTAS.KO-12.0040/R1) on ARMv8 NEON, byte-sliced: eight 16-byte registers
// hold byte X_j of 16 blocks in register j, and a step runs two such groups (32 blocks).
//
// Technique. As in the x86 kernels (hight_x86_avx2.cpp): one ADD/EOR does a byte operation of
// 16 blocks, and the round's byte rotation of the state is register renaming in the unrolled
// code (round r updates the odd bytes of the state seen as a_j = x[(j - r) mod 8] in place;
// hight_fold.hpp, plain constexpr C++ despite its name, gives the update plan). F0 and F1
// are linear over GF(2), so F(x) = F(x & 0x0f) ^ F(x & 0xf0): two one-register TBL lookups in
// 16-entry tables, one by the low nibble (AND) and one by the high nibble (USHR #4), and an
// EOR: 5 instructions, against 8 for three rotations as SHL+SRI pairs plus two EORs (and
// those 6 shifts would all go to the single shift pipe of Cortex-A76-class cores). The
// subkey that a round XORs into F1(x) is folded into F1's low-nibble table when the key is set
// (one table per subkey), so an F1 update is 6 instructions and an F0 update 7: 26 per round
// and group. A round's four key registers (the two F0 subkeys broadcast to 16 bytes, the two
// subkey-folded F1 tables) are one LD1 of four registers, shared by both groups.
//
// Transposes. Two LD4 (byte elements) of 64 bytes put bytes j and j + 4 of 8 blocks each in
// register j; UZP1/UZP2 of the two loads give X_j and X_{j+4} of 16 blocks, in block order.
// ZIP1/ZIP2 and two ST4 go back. CTR builds its counters byte-sliced in block order (no
// input transpose), XORs the message as LD4 leaves it (no transpose either), and folds the
// part of rounds 0..6 that is the same for all lanes (hight_fold.hpp: the counters of a
// step share bytes 0..5 unless it crosses a multiple of 2^16 blocks).
//
// Short inputs: whole steps of 32 blocks, then one group of 16, then the last partial group
// (fewer than 16 blocks) computed as a whole group on a zero-padded stack copy; never one
// block at a time.
//
// Constant-time: TBL reads a table held in a register, with no memory access, so a lookup by
// secret nibbles takes the same time for any index. Everything else is byte addition,
// subtraction, XOR, AND, shifts by constants and fixed permutations (LD4/ST4, UZP, ZIP). Round
// keys and tables are read at addresses fixed by the public round number; the tail copies and
// the counter branches depend on the public length and counter only; CTR's folded values are
// computed with the same vector operations and wiped before return.
#if defined(__aarch64__)
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/kernel.hpp"
#include "core/wipe.hpp"
#include "hight/hight.hpp"
#include "hight/hight_fold.hpp"

// GCC's scheduling before register allocation hoists loads far ahead and then spills state
// registers of the two groups: 8.5 more instructions per block (loads, stores, moves; GCC 12).
// Without it the rounds run in registers: 16 state, 4 table and 4 round-key registers and the
// temporaries fit NEON's 32. An out-of-order core reorders them anyway.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-schedule-insns")
#endif

namespace kc {
namespace {

using V = uint8x16_t;
constexpr size_t group_blocks = 16, step_groups = 2;
constexpr size_t group_bytes = 8 * group_blocks;

// The round keys of HightRoundKeys in the layout the rounds load: the four values a round's
// updates add, XOR or look up, in update order (hight_fold.hpp's update_pairs), contiguous
// so that one LD1 of four registers fetches them; F0's subkeys repeated over a register, F1's
// folded into its low-nibble table.
struct HightKeysNeon {
    uint8_t wk[8][16];       // WK_i
    uint8_t round[32][4][16]; // SK_{4r+3}, F1(i) ^ SK_{4r}, SK_{4r+1}, F1(i) ^ SK_{4r+2}
};

constexpr uint8_t rol8(unsigned x, int k) { return (uint8_t)((x << k) | (x >> (8 - k))); }
constexpr uint8_t f0_byte(unsigned x) { return (uint8_t)(rol8(x, 1) ^ rol8(x, 2) ^ rol8(x, 7)); }
constexpr uint8_t f1_byte(unsigned x) { return (uint8_t)(rol8(x, 3) ^ rol8(x, 4) ^ rol8(x, 6)); }

struct NibbleTable {
    uint8_t t[16];
};

template <uint8_t (*F)(unsigned)> constexpr NibbleTable make_table(int shift)
{
    NibbleTable n{};
    for (unsigned i = 0; i < 16; i++)
        n.t[i] = F(i << shift);
    return n;
}

alignas(16) constexpr NibbleTable f0_low = make_table<f0_byte>(0);
alignas(16) constexpr NibbleTable f0_high = make_table<f0_byte>(4);
alignas(16) constexpr NibbleTable f1_low = make_table<f1_byte>(0);
alignas(16) constexpr NibbleTable f1_high = make_table<f1_byte>(4);

// Lane q of group g holds block 16g + q of a step.
alignas(16) constexpr uint8_t lane_blocks[step_groups][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}};

using namespace hight_fold; // the update plan and CTR's folded rounds

#define KC_HIGHT_INLINE [[gnu::always_inline]] inline

// The tables every round uses, loaded into registers once per step.
struct Tables {
    V nibble, f0_low, f0_high, f1_high;
};

KC_HIGHT_INLINE Tables tables()
{
    return {vdupq_n_u8(0x0f), vld1q_u8(f0_low.t), vld1q_u8(f0_high.t), vld1q_u8(f1_high.t)};
}

// The four values of round r the updates need, in update order.
using RoundKeys = uint8x16x4_t;

KC_HIGHT_INLINE RoundKeys round_keys(const HightKeysNeon &k, int r)
{
    return vld1q_u8_x4(k.round[r][0]);
}

KC_HIGHT_INLINE V by_nibbles(V x, V low, V high, V nibble)
{
    return veorq_u8(vqtbl1q_u8(low, vandq_u8(x, nibble)), vqtbl1q_u8(high, vshrq_n_u8(x, 4)));
}

// The F-term of update U from the even byte x: F0(x) + SK_{4r+3}, F1(x) ^ SK_{4r},
// F0(x) + SK_{4r+1}, F1(x) ^ SK_{4r+2} for U = 0..3.
template <int U> KC_HIGHT_INLINE V f_term(V x, const RoundKeys &rk, const Tables &t)
{
    if constexpr (U % 2 == 0)
        return vaddq_u8(by_nibbles(x, t.f0_low, t.f0_high, t.nibble), rk.val[U]);
    else
        return by_nibbles(x, rk.val[U], t.f1_high, t.nibble);
}

// Updates 0 and 2 XOR their term into the odd byte, 1 and 3 add it (decryption: subtract).
template <int U> KC_HIGHT_INLINE V apply_term(V o, V term)
{
    return U % 2 == 0 ? veorq_u8(o, term) : vaddq_u8(o, term);
}
template <int U> KC_HIGHT_INLINE V remove_term(V o, V term)
{
    return U % 2 == 0 ? veorq_u8(o, term) : vsubq_u8(o, term);
}

// x[j][g]: byte j of the 16 blocks of group g.
template <int G> using Slices = V[8][G];

template <int R, int U, int G>
KC_HIGHT_INLINE void encrypt_update(Slices<G> &x, const RoundKeys &rk, const Tables &t)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    for (int g = 0; g < G; g++)
        x[o][g] = apply_term<U>(x[o][g], f_term<U>(x[e][g], rk, t));
}

template <int R, int U, int G>
KC_HIGHT_INLINE void decrypt_update(Slices<G> &x, const RoundKeys &rk, const Tables &t)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    for (int g = 0; g < G; g++)
        x[o][g] = remove_term<U>(x[o][g], f_term<U>(x[e][g], rk, t));
}

// Round r (0..31), R = r mod 8, on the state seen as a_j = x[(j - r) mod 8]:
//   a_7 ^= F0(a_6) + SK_{4r+3}    a_1 += F1(a_0) ^ SK_{4r}
//   a_3 ^= F0(a_2) + SK_{4r+1}    a_5 += F1(a_4) ^ SK_{4r+2}
template <int R, int G>
KC_HIGHT_INLINE void encrypt_round(Slices<G> &x, const HightKeysNeon &k, const Tables &t, int r)
{
    const RoundKeys rk = round_keys(k, r);
    encrypt_update<R, 0, G>(x, rk, t);
    encrypt_update<R, 1, G>(x, rk, t);
    encrypt_update<R, 2, G>(x, rk, t);
    encrypt_update<R, 3, G>(x, rk, t);
}

// The inverse of encrypt_round<R>: the even bytes are unchanged by it, so the same F-terms
// are recomputed and taken off again.
template <int R, int G>
KC_HIGHT_INLINE void decrypt_round(Slices<G> &x, const HightKeysNeon &k, const Tables &t, int r)
{
    const RoundKeys rk = round_keys(k, r);
    decrypt_update<R, 0, G>(x, rk, t);
    decrypt_update<R, 1, G>(x, rk, t);
    decrypt_update<R, 2, G>(x, rk, t);
    decrypt_update<R, 3, G>(x, rk, t);
}

// Rounds From..7 unrolled, then rounds 8..31 eight at a time (the names come back every
// eight rounds).
template <int R, int G>
KC_HIGHT_INLINE void encrypt_rounds_to_8(Slices<G> &x, const HightKeysNeon &k, const Tables &t)
{
    if constexpr (R < 8) {
        encrypt_round<R, G>(x, k, t, R);
        encrypt_rounds_to_8<R + 1, G>(x, k, t);
    }
}

template <int From, int G>
KC_HIGHT_INLINE void encrypt_rounds_from(Slices<G> &x, const HightKeysNeon &k, const Tables &t)
{
    encrypt_rounds_to_8<From, G>(x, k, t);
    for (int r = 8; r < 32; r += 8) {
        encrypt_round<0, G>(x, k, t, r);
        encrypt_round<1, G>(x, k, t, r + 1);
        encrypt_round<2, G>(x, k, t, r + 2);
        encrypt_round<3, G>(x, k, t, r + 3);
        encrypt_round<4, G>(x, k, t, r + 4);
        encrypt_round<5, G>(x, k, t, r + 5);
        encrypt_round<6, G>(x, k, t, r + 6);
        encrypt_round<7, G>(x, k, t, r + 7);
    }
}

KC_HIGHT_INLINE V wk(const HightKeysNeon &k, int i) { return vld1q_u8(k.wk[i]); }

// Final transformation: after round 31 (which has no byte rotation) X_j sits in
// x[(j + 1) mod 8]; on exit x[j] = C_j.
template <int G> KC_HIGHT_INLINE void final_transform(Slices<G> &x, const HightKeysNeon &k)
{
    const V w4 = wk(k, 4), w5 = wk(k, 5), w6 = wk(k, 6), w7 = wk(k, 7);
    for (int g = 0; g < G; g++) {
        V s[8];
        for (int j = 0; j < 8; j++)
            s[j] = x[(j + 1) & 7][g];
        x[0][g] = vaddq_u8(s[0], w4);
        x[1][g] = s[1];
        x[2][g] = veorq_u8(s[2], w5);
        x[3][g] = s[3];
        x[4][g] = vaddq_u8(s[4], w6);
        x[5][g] = s[5];
        x[6][g] = veorq_u8(s[6], w7);
        x[7][g] = s[7];
    }
}

// Initial transformation, 32 rounds, final transformation: x[j] = P_j in, C_j out.
template <int G> KC_HIGHT_INLINE void encrypt_slices(Slices<G> &x, const HightKeysNeon &k)
{
    const Tables t = tables();
    const V w0 = wk(k, 0), w1 = wk(k, 1), w2 = wk(k, 2), w3 = wk(k, 3);
    for (int g = 0; g < G; g++) {
        x[0][g] = vaddq_u8(x[0][g], w0);
        x[2][g] = veorq_u8(x[2][g], w1);
        x[4][g] = vaddq_u8(x[4][g], w2);
        x[6][g] = veorq_u8(x[6][g], w3);
    }
    encrypt_rounds_from<0, G>(x, k, t);
    final_transform<G>(x, k);
}

// The inverse of encrypt_slices: x[j] = C_j in, P_j out.
template <int G> KC_HIGHT_INLINE void decrypt_slices(Slices<G> &x, const HightKeysNeon &k)
{
    const Tables t = tables();
    const V w4 = wk(k, 4), w5 = wk(k, 5), w6 = wk(k, 6), w7 = wk(k, 7);
    for (int g = 0; g < G; g++) {
        V c[8];
        for (int j = 0; j < 8; j++)
            c[j] = x[j][g];
        c[0] = vsubq_u8(c[0], w4);
        c[2] = veorq_u8(c[2], w5);
        c[4] = vsubq_u8(c[4], w6);
        c[6] = veorq_u8(c[6], w7);
        for (int j = 0; j < 8; j++)
            x[(j + 1) & 7][g] = c[j];
    }
    for (int r = 24; r >= 0; r -= 8) {
        decrypt_round<7, G>(x, k, t, r + 7);
        decrypt_round<6, G>(x, k, t, r + 6);
        decrypt_round<5, G>(x, k, t, r + 5);
        decrypt_round<4, G>(x, k, t, r + 4);
        decrypt_round<3, G>(x, k, t, r + 3);
        decrypt_round<2, G>(x, k, t, r + 2);
        decrypt_round<1, G>(x, k, t, r + 1);
        decrypt_round<0, G>(x, k, t, r);
    }
    const V w0 = wk(k, 0), w1 = wk(k, 1), w2 = wk(k, 2), w3 = wk(k, 3);
    for (int g = 0; g < G; g++) {
        x[0][g] = vsubq_u8(x[0][g], w0);
        x[2][g] = veorq_u8(x[2][g], w1);
        x[4][g] = vsubq_u8(x[4][g], w2);
        x[6][g] = veorq_u8(x[6][g], w3);
    }
}

// 16 blocks at p -> x[j][g] = byte j of block q in lane q. LD4 register j holds bytes j and
// j + 4 of blocks 0..7 (or 8..15) alternately; UZP1 takes the first, UZP2 the second.
template <int G> KC_HIGHT_INLINE void load_group(Slices<G> &x, int g, const uint8_t *p)
{
    const uint8x16x4_t a = vld4q_u8(p), b = vld4q_u8(p + 64);
    for (int j = 0; j < 4; j++) {
        x[j][g] = vuzp1q_u8(a.val[j], b.val[j]);
        x[j + 4][g] = vuzp2q_u8(a.val[j], b.val[j]);
    }
}

// The inverse of load_group, XORed with the message at `in` (as LD4 leaves it) when Xor.
template <int G, bool Xor>
KC_HIGHT_INLINE void store_group(const Slices<G> &x, int g, const uint8_t *in, uint8_t *p)
{
    uint8x16x4_t a, b;
    for (int j = 0; j < 4; j++) {
        a.val[j] = vzip1q_u8(x[j][g], x[j + 4][g]);
        b.val[j] = vzip2q_u8(x[j][g], x[j + 4][g]);
    }
    if constexpr (Xor) {
        const uint8x16x4_t da = vld4q_u8(in), db = vld4q_u8(in + 64);
        for (int j = 0; j < 4; j++) {
            a.val[j] = veorq_u8(a.val[j], da.val[j]);
            b.val[j] = veorq_u8(b.val[j], db.val[j]);
        }
    }
    vst4q_u8(p, a);
    vst4q_u8(p + 64, b);
}

template <int G, bool Decrypt>
void ecb_step(const HightKeysNeon &k, const uint8_t *in, uint8_t *out)
{
    Slices<G> x;
    for (int g = 0; g < G; g++)
        load_group<G>(x, g, in + group_bytes * g);
    if constexpr (Decrypt)
        decrypt_slices<G>(x, k);
    else
        encrypt_slices<G>(x, k);
    for (int g = 0; g < G; g++)
        store_group<G, false>(x, g, nullptr, out + group_bytes * g);
}

// Whole steps of two groups, then one group, then a partial group on a zero-padded copy.
// step(G, in, out, first_block) computes G whole groups.
template <class Step> void drive(const uint8_t *in, uint8_t *out, size_t n, Step step)
{
    constexpr size_t wide = step_groups * group_blocks;
    size_t first = 0;
    for (; n - first >= wide; first += wide)
        step(std::integral_constant<int, step_groups>{}, in + 8 * first, out + 8 * first, first);
    for (; n - first >= group_blocks; first += group_blocks)
        step(std::integral_constant<int, 1>{}, in + 8 * first, out + 8 * first, first);
    if (n == first)
        return;
    alignas(16) uint8_t buf[group_bytes] = {};
    std::memcpy(buf, in + 8 * first, 8 * (n - first));
    step(std::integral_constant<int, 1>{}, buf, buf, first);
    std::memcpy(out + 8 * first, buf, 8 * (n - first));
    secure_wipe(buf, sizeof buf);
}

template <bool Decrypt> void ecb(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    const HightKeysNeon &k = *static_cast<const HightKeysNeon *>(state);
    drive(in, out, n, [&](auto g, const uint8_t *i, uint8_t *o, size_t) {
        ecb_step<decltype(g)::value, Decrypt>(k, i, o);
    });
}

void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    ecb<false>(state, in, out, n);
}

void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    ecb<true>(state, in, out, n);
}

// Byte j of the big-endian 64-bit counter c.
constexpr uint8_t counter_byte(uint64_t c, int j) { return (uint8_t)(c >> (8 * (7 - j))); }

// Lanes whose block number in the step (lane_blocks) takes the low counter byte of `base`
// past 0xff: 0xff there. A step of 32 blocks carries out of the low byte at most once.
KC_HIGHT_INLINE V low_byte_carry(V lanes, uint64_t base)
{
    return vcgtq_u8(lanes, vdupq_n_u8((uint8_t)(0xff - (base & 0xff))));
}

// The counters base + lane_blocks, byte-sliced, for a step whose counters may differ in any
// byte: bytes 0..6 are those of base rounded down to 256, or of that plus 256 where the low
// byte wrapped.
template <int G> KC_HIGHT_INLINE void counter_slices(Slices<G> &x, uint64_t base)
{
    const uint64_t h0 = base & ~(uint64_t)0xff, h1 = h0 + 0x100;
    for (int g = 0; g < G; g++) {
        const V lanes = vld1q_u8(lane_blocks[g]);
        const V carry = low_byte_carry(lanes, base);
        for (int j = 0; j < 7; j++)
            x[j][g] = vbslq_u8(carry, vdupq_n_u8(counter_byte(h1, j)),
                               vdupq_n_u8(counter_byte(h0, j)));
        x[7][g] = vaddq_u8(vdupq_n_u8((uint8_t)base), lanes);
    }
}

// out = in XOR keystream for the 16G blocks from counter `base`.
template <int G>
void ctr_step_plain(const HightKeysNeon &k, uint64_t base, const uint8_t *in, uint8_t *out)
{
    Slices<G> x;
    counter_slices<G>(x, base);
    encrypt_slices<G>(x, k);
    for (int g = 0; g < G; g++)
        store_group<G, true>(x, g, in + group_bytes * g, out + group_bytes * g);
}

// The lane-independent vectors of the folded rounds (fold_slot) for the counters whose
// bytes 0..5 are those of high << 16.
struct CtrFold {
    uint64_t high; // ~0: none yet
    V value[fold_slot_count];
};

// One update of round R on the constant bytes c of a block (the bytes that vary are never
// read): hight_fold.hpp's fold_step says what to do.
template <int R, unsigned Varying, int U>
KC_HIGHT_INLINE void fold_update(V (&c)[8], CtrFold &f, const RoundKeys &rk, const Tables &t)
{
    constexpr FoldStep s = fold_step(R, Varying, U);
    if constexpr (s.action == FoldAction::record_target)
        f.value[s.slot] = c[s.target];
    else if constexpr (s.action == FoldAction::record_term)
        f.value[s.slot] = f_term<U>(c[s.source], rk, t);
    else if constexpr (s.action == FoldAction::apply_term)
        c[s.target] = apply_term<U>(c[s.target], f_term<U>(c[s.source], rk, t));
}

template <int R, unsigned Varying>
KC_HIGHT_INLINE void fold_rounds(V (&c)[8], CtrFold &f, const HightKeysNeon &k, const Tables &t)
{
    if constexpr (R < folded_round_count) {
        const RoundKeys rk = round_keys(k, R);
        fold_update<R, Varying, 0>(c, f, rk, t);
        fold_update<R, Varying, 1>(c, f, rk, t);
        fold_update<R, Varying, 2>(c, f, rk, t);
        fold_update<R, Varying, 3>(c, f, rk, t);
        fold_rounds<R + 1, varying_after_round(R, Varying)>(c, f, k, t);
    }
}

// Once per message and per 2^16 blocks.
void fold_counter_rounds(const HightKeysNeon &k, uint64_t high, CtrFold *f)
{
    const Tables t = tables();
    V c[8];
    for (int j = 0; j < 8; j++) // c[6] and c[7] are placeholders: those bytes vary
        c[j] = vdupq_n_u8(counter_byte(high << 16, j));
    c[0] = vaddq_u8(c[0], wk(k, 0));
    c[2] = veorq_u8(c[2], wk(k, 1));
    c[4] = vaddq_u8(c[4], wk(k, 2));
    fold_rounds<0, initial_varying>(c, *f, k, t);
    f->high = high;
}

// One update of a folded round on the lanes: the full update where its F-term varies (from
// the folded value of the target byte if that did not vary yet), one operation with the
// folded F-term where only the target varies, nothing where neither does.
template <int R, unsigned Varying, int U, int G>
KC_HIGHT_INLINE void folded_update(Slices<G> &x, const CtrFold &f, const RoundKeys &rk,
                                   const Tables &t)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    constexpr bool target_varies = (Varying >> o) & 1;
    constexpr int slot = fold_slot(R, o);
    for (int g = 0; g < G; g++) {
        if constexpr ((Varying >> e) & 1) {
            V target;
            if constexpr (target_varies)
                target = x[o][g];
            else
                target = f.value[slot];
            x[o][g] = apply_term<U>(target, f_term<U>(x[e][g], rk, t));
        } else if constexpr (target_varies) {
            x[o][g] = apply_term<U>(x[o][g], f.value[slot]);
        }
    }
}

template <int R, unsigned Varying, int G>
KC_HIGHT_INLINE void folded_rounds(Slices<G> &x, const CtrFold &f, const HightKeysNeon &k,
                                   const Tables &t)
{
    if constexpr (R < folded_round_count) {
        const RoundKeys rk = round_keys(k, R);
        folded_update<R, Varying, 0, G>(x, f, rk, t);
        folded_update<R, Varying, 1, G>(x, f, rk, t);
        folded_update<R, Varying, 2, G>(x, f, rk, t);
        folded_update<R, Varying, 3, G>(x, f, rk, t);
        folded_rounds<R + 1, varying_after_round(R, Varying), G>(x, f, k, t);
    } else {
        static_assert(Varying == 0xff, "every byte varies after the folded rounds");
    }
}

// out = in XOR keystream for the 16G blocks from counter `base`, the folded way; the caller
// has checked that no counter of the step crosses a multiple of 2^16. Only bytes 6 and 7 of
// the counters are built (byte 6 whitened); the folded rounds read the rest from f.
template <int G>
void ctr_step_folded(const HightKeysNeon &k, const CtrFold &f, uint64_t base, const uint8_t *in,
                     uint8_t *out)
{
    const Tables t = tables();
    Slices<G> x;
    const V b6 = vdupq_n_u8((uint8_t)(base >> 8)), w3 = wk(k, 3);
    for (int g = 0; g < G; g++) {
        const V lanes = vld1q_u8(lane_blocks[g]);
        x[6][g] = veorq_u8(vsubq_u8(b6, low_byte_carry(lanes, base)), w3); // carry is 0 or -1
        x[7][g] = vaddq_u8(vdupq_n_u8((uint8_t)base), lanes);
    }
    folded_rounds<0, initial_varying, G>(x, f, k, t);
    encrypt_rounds_from<folded_round_count, G>(x, k, t);
    final_transform<G>(x, k);
    for (int g = 0; g < G; g++)
        store_group<G, true>(x, g, in + group_bytes * g, out + group_bytes * g);
}

// One step from counter `base`: folded when its counters share counter >> 16 (the counter is
// public, so are these branches).
template <int G>
void ctr_step(const HightKeysNeon &k, CtrFold &f, uint64_t base, const uint8_t *in, uint8_t *out)
{
    if ((base & 0xffff) <= 0x10000 - group_blocks * G) {
        if (f.high != base >> 16)
            fold_counter_rounds(k, base >> 16, &f);
        ctr_step_folded<G>(k, f, base, in, out);
    } else {
        ctr_step_plain<G>(k, base, in, out);
    }
}

// The counter is the whole block, one big-endian 64-bit integer wrapping at 2^64.
void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                    size_t nblocks)
{
    const HightKeysNeon &k = *static_cast<const HightKeysNeon *>(state);
    uint64_t base = 0;
    for (int j = 0; j < 8; j++)
        base = base << 8 | ctr[j];
    CtrFold fold;
    fold.high = ~(uint64_t)0;
    drive(in, out, nblocks, [&](auto g, const uint8_t *i, uint8_t *o, size_t first) {
        ctr_step<decltype(g)::value>(k, fold, base + first, i, o);
    });
    secure_wipe(&fold, sizeof fold); // round values derived from the key
}

#undef KC_HIGHT_INLINE

bool supports(Cipher c) { return c == Cipher::hight; }

// The family's key schedule; round-key bytes repeated over 16 bytes, and F1's low-nibble
// table XORed with the subkey each F1 output meets (SK_{4r} and SK_{4r+2}).
void set_key(void *state, Cipher, const uint8_t *key)
{
    HightRoundKeys rk;
    hight_key_schedule(key, &rk);
    HightKeysNeon &k = *static_cast<HightKeysNeon *>(state);
    for (int i = 0; i < 8; i++)
        std::memset(k.wk[i], rk.wk[i], 16);
    for (int r = 0; r < 32; r++) {
        std::memset(k.round[r][0], rk.sk[4 * r + 3], 16);
        std::memset(k.round[r][2], rk.sk[4 * r + 1], 16);
        for (int i = 0; i < 16; i++) {
            k.round[r][1][i] = (uint8_t)(f1_low.t[i] ^ rk.sk[4 * r]);
            k.round[r][3][i] = (uint8_t)(f1_low.t[i] ^ rk.sk[4 * r + 2]);
        }
    }
    secure_wipe(&rk, sizeof rk);
}

} // namespace

// Descriptor: batch_blocks: two groups of 16; constant_time: byte-sliced ARX, in-register TBL
// tables (see the file header); rank: the only HIGHT kernel for aarch64 besides hight/ref.
extern const Kernel hight_neon_kernel = {
    "hight/neon", "hight", 8, 32, true, feat_neon, 30, sizeof(HightKeysNeon),
    supports, set_key, encrypt_blocks, decrypt_blocks, ctr_xor_blocks};

} // namespace kc

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

#endif // __aarch64__
