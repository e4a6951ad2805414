// hight/avx2: HIGHT (TTAS.KO-12.0040/R1) byte-sliced over 32 blocks per group of eight ymm
// registers, F0 and F1 through VPSHUFB nibble tables.
//
// Technique. As in hight_x86_avx512_gfni.cpp: the blocks are transposed so that register j
// holds byte X_j of 32 blocks, one VPADDB/VPXOR does a byte operation of all of them, and the
// round's byte rotation is register renaming in the unrolled code. F0 and F1 are linear over
// GF(2), so F(x) = F(x & 0x0f) ^ F(x & 0xf0): two 16-entry tables looked up with VPSHUFB
// inside a register, one by the low nibble and one by the high nibble. The subkey that the
// round XORs into F1(x) is folded into F1's low-nibble table when the key is set (one table
// per subkey, 1 KiB per key), which saves the XOR. One group only: sixteen ymm registers hold
// its eight state bytes, the nibble mask and the tables, and the four independent updates of
// a round give enough parallelism.
//
// Transposes. The same unpack networks as the AVX-512 kernel (four byte-unpack stages in,
// byte/word/dword unpacks out, within 128-bit lanes); CTR builds its counters byte-sliced in
// the order those leave the blocks in, so it has no input transpose. CTR also folds the part
// of rounds 0..6 that is the same for all lanes (hight_x86_fold.hpp).
//
// Short inputs: the last partial group (fewer than 32 blocks) is copied to a stack buffer,
// computed as a whole group and copied back; never one block at a time.
//
// Constant-time: VPSHUFB reads a table held in a register, with no memory access, so a
// lookup by secret nibbles takes the same time for any index. Everything else is byte
// addition, XOR, AND and shifts by constants. Round keys and tables are read at addresses
// fixed by the public round number; the tail copies and the counter branch depend on the
// public length and counter only; CTR's folded values (see below) are computed with the same
// vector operations and wiped before return. Checked under valgrind by kcipher_ct_check.
#if defined(__x86_64__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/kernel.hpp"
#include "core/wipe.hpp"
#include "hight/hight.hpp"
#include "hight/hight_x86_fold.hpp"

namespace kc {

namespace {

// The round keys of HightRoundKeys, each byte repeated four times for a VPBROADCASTD load,
// and F1's low-nibble table with the subkey of its round folded in:
// f1_low_sk[2r][i] = F1(i) ^ SK_{4r}, f1_low_sk[2r + 1][i] = F1(i) ^ SK_{4r+2}.
struct HightKeysAvx2 {
    uint32_t wk[8];
    uint32_t sk[128];
    alignas(16) uint8_t f1_low_sk[64][16];
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

// Which block of a group of 32 each byte position of a slice register holds, as the unpack
// transposes leave them: position q = 16*lane + p holds block 4*(p/2) + 2*lane + p%2.
struct SliceOrder {
    uint8_t block[32];
};

constexpr SliceOrder make_slice_order()
{
    SliceOrder s{};
    for (int q = 0; q < 32; q++)
        s.block[q] = (uint8_t)(4 * ((q & 15) >> 1) + 2 * (q >> 4) + (q & 1));
    return s;
}

alignas(32) constexpr SliceOrder slice_order = make_slice_order();

constexpr size_t group_blocks = 32;
constexpr size_t group_bytes = 8 * group_blocks;

using namespace hight_fold; // CTR's folded rounds: see hight_x86_fold.hpp

} // namespace

} // namespace kc

#pragma GCC push_options
#pragma GCC target("avx2")

namespace kc {

namespace {

using V = __m256i;

#define KC_HIGHT_INLINE [[gnu::always_inline]] inline

KC_HIGHT_INLINE V bcast(uint32_t k) { return _mm256_set1_epi32((int)k); }
KC_HIGHT_INLINE V table(const uint8_t *t)
{
    return _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)t));
}
KC_HIGHT_INLINE V add8(V a, V b) { return _mm256_add_epi8(a, b); }
KC_HIGHT_INLINE V sub8(V a, V b) { return _mm256_sub_epi8(a, b); }
KC_HIGHT_INLINE V xor8(V a, V b) { return _mm256_xor_si256(a, b); }

// A linear map of bytes from its low- and high-nibble tables (VPSHUFB ignores bits 4..6 of
// an index and gives 0 for bit 7, so both indices are masked to four bits).
KC_HIGHT_INLINE V by_nibbles(V x, V low, V high)
{
    const V m = _mm256_set1_epi8(0x0f);
    V lo = _mm256_and_si256(x, m), hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), m);
    return xor8(_mm256_shuffle_epi8(low, lo), _mm256_shuffle_epi8(high, hi));
}

KC_HIGHT_INLINE V f0(V x) { return by_nibbles(x, table(f0_low.t), table(f0_high.t)); }

// F1(x) ^ SK from the subkey-folded low table.
KC_HIGHT_INLINE V f1_xor_sk(V x, const uint8_t *low_sk)
{
    return by_nibbles(x, table(low_sk), table(f1_high.t));
}

// The F-term of update U (hight_x86_fold.hpp's update_pairs) of round r, from the even byte
// x: F0(x) + SK_{4r+3}, F1(x) ^ SK_{4r}, F0(x) + SK_{4r+1}, F1(x) ^ SK_{4r+2} for U = 0..3.
template <int U>
KC_HIGHT_INLINE V f_term(V x, const HightKeysAvx2 &k, int r)
{
    if constexpr (U == 0)
        return add8(f0(x), bcast(k.sk[4 * r + 3]));
    else if constexpr (U == 1)
        return f1_xor_sk(x, k.f1_low_sk[2 * r]);
    else if constexpr (U == 2)
        return add8(f0(x), bcast(k.sk[4 * r + 1]));
    else
        return f1_xor_sk(x, k.f1_low_sk[2 * r + 1]);
}

// Updates 0 and 2 XOR their term into the odd byte, 1 and 3 add it (decryption: subtract).
template <int U> KC_HIGHT_INLINE V apply_term(V t, V term)
{
    return U % 2 == 0 ? xor8(t, term) : add8(t, term);
}
template <int U> KC_HIGHT_INLINE V remove_term(V t, V term)
{
    return U % 2 == 0 ? xor8(t, term) : sub8(t, term);
}

template <int R, int U>
KC_HIGHT_INLINE void encrypt_update(V (&x)[8], const HightKeysAvx2 &k, int r)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    x[o] = apply_term<U>(x[o], f_term<U>(x[e], k, r));
}

template <int R, int U>
KC_HIGHT_INLINE void decrypt_update(V (&x)[8], const HightKeysAvx2 &k, int r)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    x[o] = remove_term<U>(x[o], f_term<U>(x[e], k, r));
}

// Round r (0..31), the state seen as a_j = x[(j - r) mod 8], R = r mod 8 (see the AVX-512
// kernel and hight_x86_fold.hpp):
//   a_7 ^= F0(a_6) + SK_{4r+3}    a_1 += F1(a_0) ^ SK_{4r}
//   a_3 ^= F0(a_2) + SK_{4r+1}    a_5 += F1(a_4) ^ SK_{4r+2}
template <int R>
KC_HIGHT_INLINE void encrypt_round(V (&x)[8], const HightKeysAvx2 &k, int r)
{
    encrypt_update<R, 0>(x, k, r);
    encrypt_update<R, 1>(x, k, r);
    encrypt_update<R, 2>(x, k, r);
    encrypt_update<R, 3>(x, k, r);
}

// The inverse of encrypt_round<R>: the even bytes are unchanged by it, so the same F-terms
// are recomputed and taken off again.
template <int R>
KC_HIGHT_INLINE void decrypt_round(V (&x)[8], const HightKeysAvx2 &k, int r)
{
    decrypt_update<R, 0>(x, k, r);
    decrypt_update<R, 1>(x, k, r);
    decrypt_update<R, 2>(x, k, r);
    decrypt_update<R, 3>(x, k, r);
}

// Rounds From..7 of the first eight, unrolled, then rounds 8..31.
template <int R>
KC_HIGHT_INLINE void encrypt_rounds_to_8(V (&x)[8], const HightKeysAvx2 &k)
{
    if constexpr (R < 8) {
        encrypt_round<R>(x, k, R);
        encrypt_rounds_to_8<R + 1>(x, k);
    }
}

template <int From>
KC_HIGHT_INLINE void encrypt_rounds_from(V (&x)[8], const HightKeysAvx2 &k)
{
    encrypt_rounds_to_8<From>(x, k);
    for (int r = 8; r < 32; r += 8) {
        encrypt_round<0>(x, k, r);
        encrypt_round<1>(x, k, r + 1);
        encrypt_round<2>(x, k, r + 2);
        encrypt_round<3>(x, k, r + 3);
        encrypt_round<4>(x, k, r + 4);
        encrypt_round<5>(x, k, r + 5);
        encrypt_round<6>(x, k, r + 6);
        encrypt_round<7>(x, k, r + 7);
    }
}

// Final transformation: after round 31 the state X_j sits in x[(j + 1) mod 8]; on exit
// x[j] = C_j.
KC_HIGHT_INLINE void final_transform(const HightKeysAvx2 &k, V (&x)[8])
{
    V s[8];
    for (int j = 0; j < 8; j++)
        s[j] = x[(j + 1) & 7];
    x[0] = add8(s[0], bcast(k.wk[4]));
    x[1] = s[1];
    x[2] = xor8(s[2], bcast(k.wk[5]));
    x[3] = s[3];
    x[4] = add8(s[4], bcast(k.wk[6]));
    x[5] = s[5];
    x[6] = xor8(s[6], bcast(k.wk[7]));
    x[7] = s[7];
}

// Initial transformation, 32 rounds, final transformation: x[j] = P_j in, C_j out.
KC_HIGHT_INLINE void encrypt_slices(const HightKeysAvx2 &k, V (&x)[8])
{
    x[0] = add8(x[0], bcast(k.wk[0]));
    x[2] = xor8(x[2], bcast(k.wk[1]));
    x[4] = add8(x[4], bcast(k.wk[2]));
    x[6] = xor8(x[6], bcast(k.wk[3]));
    encrypt_rounds_from<0>(x, k);
    final_transform(k, x);
}

// The inverse of encrypt_slices: x[j] = C_j in, P_j out.
KC_HIGHT_INLINE void decrypt_slices(const HightKeysAvx2 &k, V (&x)[8])
{
    V c[8];
    for (int j = 0; j < 8; j++)
        c[j] = x[j];
    c[0] = sub8(c[0], bcast(k.wk[4]));
    c[2] = xor8(c[2], bcast(k.wk[5]));
    c[4] = sub8(c[4], bcast(k.wk[6]));
    c[6] = xor8(c[6], bcast(k.wk[7]));
    for (int j = 0; j < 8; j++)
        x[(j + 1) & 7] = c[j];
    for (int r = 24; r >= 0; r -= 8) {
        decrypt_round<7>(x, k, r + 7);
        decrypt_round<6>(x, k, r + 6);
        decrypt_round<5>(x, k, r + 5);
        decrypt_round<4>(x, k, r + 4);
        decrypt_round<3>(x, k, r + 3);
        decrypt_round<2>(x, k, r + 2);
        decrypt_round<1>(x, k, r + 1);
        decrypt_round<0>(x, k, r);
    }
    x[0] = sub8(x[0], bcast(k.wk[0]));
    x[2] = xor8(x[2], bcast(k.wk[1]));
    x[4] = sub8(x[4], bcast(k.wk[2]));
    x[6] = xor8(x[6], bcast(k.wk[3]));
}

// One unpack stage on the pairs of registers whose index differs in bit `bit`.
KC_HIGHT_INLINE void unpack_bytes_stage(V *v, int bit)
{
    for (int a = 0; a < 8; a++) {
        if (a & (1 << bit))
            continue;
        int b = a | (1 << bit);
        V lo = _mm256_unpacklo_epi8(v[a], v[b]), hi = _mm256_unpackhi_epi8(v[a], v[b]);
        v[a] = lo;
        v[b] = hi;
    }
}

// Loads 32 blocks and byte-slices them: x[j] = byte j of each block, in slice_order (four
// byte-unpack stages within each 128-bit lane, as in the AVX-512 kernel).
KC_HIGHT_INLINE void load_slices(const uint8_t *in, V *x)
{
    V v[8];
    for (int r = 0; r < 8; r++)
        v[r] = _mm256_loadu_si256((const __m256i *)(in + 32 * r));
    unpack_bytes_stage(v, 2);
    unpack_bytes_stage(v, 1);
    unpack_bytes_stage(v, 0);
    unpack_bytes_stage(v, 2);
    // The stages leave byte j in register 0, 4, 1, 5, 2, 6, 3, 7 for j = 0..7.
    x[0] = v[0];
    x[1] = v[4];
    x[2] = v[1];
    x[3] = v[5];
    x[4] = v[2];
    x[5] = v[6];
    x[6] = v[3];
    x[7] = v[7];
}

// The inverse transpose: byte, word and dword unpacks give 8 registers of 4 whole blocks,
// register r holding blocks 4r..4r+3.
KC_HIGHT_INLINE void slices_to_blocks(const V *x, V *w)
{
    V t[8], u[8];
    for (int m = 0; m < 4; m++) {
        t[2 * m] = _mm256_unpacklo_epi8(x[2 * m], x[2 * m + 1]);
        t[2 * m + 1] = _mm256_unpackhi_epi8(x[2 * m], x[2 * m + 1]);
    }
    for (int m = 0; m < 4; m++) { // pairs (0,2) (1,3) (4,6) (5,7)
        int a = (m & 1) + 4 * (m >> 1);
        u[2 * m] = _mm256_unpacklo_epi16(t[a], t[a + 2]);
        u[2 * m + 1] = _mm256_unpackhi_epi16(t[a], t[a + 2]);
    }
    for (int i = 0; i < 4; i++) {
        w[2 * i] = _mm256_unpacklo_epi32(u[i], u[i + 4]);
        w[2 * i + 1] = _mm256_unpackhi_epi32(u[i], u[i + 4]);
    }
}

// The counters base + slice_order[q] (mod 2^64), byte-sliced, big-endian bytes. The low
// byte is one addition; the 32 counters carry out of it at most once, so bytes 0..6 are those
// of `high` or high + 256, blended per lane where the low byte wrapped.
KC_HIGHT_INLINE void counter_slices(uint64_t base, V *x)
{
    const V order = _mm256_load_si256((const __m256i *)slice_order.block);
    const unsigned low_byte = (unsigned)(base & 0xff);
    const uint64_t high = base & ~(uint64_t)0xff;
    const V h0 = _mm256_set1_epi64x((long long)__builtin_bswap64(high));
    if (low_byte + group_blocks - 1 <= 0xff) { // public: the counter is not secret
        for (int j = 0; j < 7; j++)
            x[j] = _mm256_shuffle_epi8(h0, _mm256_set1_epi8((char)j));
    } else {
        // Lanes with order > 255 - low_byte wrapped; unsigned compare through the sign bit.
        const V bias = _mm256_set1_epi8((char)0x80);
        const V limit = _mm256_set1_epi8((char)((255 - low_byte) ^ 0x80));
        const V carry = _mm256_cmpgt_epi8(xor8(order, bias), limit);
        const V h1 = _mm256_set1_epi64x((long long)__builtin_bswap64(high + 0x100));
        for (int j = 0; j < 7; j++) {
            const V idx = _mm256_set1_epi8((char)j);
            x[j] = _mm256_blendv_epi8(_mm256_shuffle_epi8(h0, idx), _mm256_shuffle_epi8(h1, idx),
                                      carry);
        }
    }
    x[7] = add8(_mm256_set1_epi8((char)low_byte), order);
}

template <bool Decrypt>
KC_HIGHT_INLINE void ecb_group(const HightKeysAvx2 &k, const uint8_t *in, uint8_t *out)
{
    V x[8], w[8];
    load_slices(in, x);
    if constexpr (Decrypt)
        decrypt_slices(k, x);
    else
        encrypt_slices(k, x);
    slices_to_blocks(x, w);
    for (int r = 0; r < 8; r++)
        _mm256_storeu_si256((__m256i *)(out + 32 * r), w[r]);
}

template <bool Decrypt>
void ecb_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const HightKeysAvx2 &k = *static_cast<const HightKeysAvx2 *>(state);
    for (; nblocks >= group_blocks; nblocks -= group_blocks) {
        ecb_group<Decrypt>(k, in, out);
        in += group_bytes;
        out += group_bytes;
    }
    if (nblocks > 0) { // the partial last group, through a buffer
        alignas(32) uint8_t buf[group_bytes] = {};
        std::memcpy(buf, in, 8 * nblocks);
        ecb_group<Decrypt>(k, buf, buf);
        std::memcpy(out, buf, 8 * nblocks);
        secure_wipe(buf, sizeof buf);
    }
}

void avx2_encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    ecb_blocks<false>(state, in, out, nblocks);
}

void avx2_decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    ecb_blocks<true>(state, in, out, nblocks);
}

// out = in XOR keystream for the 32 blocks from counter `base`.
KC_HIGHT_INLINE void ctr_group(const HightKeysAvx2 &k, uint64_t base, const uint8_t *in,
                               uint8_t *out)
{
    V x[8], w[8];
    counter_slices(base, x);
    encrypt_slices(k, x);
    slices_to_blocks(x, w);
    for (int r = 0; r < 8; r++) {
        V d = _mm256_loadu_si256((const __m256i *)(in + 32 * r));
        _mm256_storeu_si256((__m256i *)(out + 32 * r), xor8(d, w[r]));
    }
}

// The lane-independent vectors of the folded rounds (fold_slot) for the counters whose
// bytes 0..5 are those of high << 16.
struct CtrFold {
    uint64_t high; // ~0: none yet
    V value[fold_slot_count];
};

// One update of round R on the constant bytes c of a block (the bytes that vary are never
// read): constant-on-constant updates are done, and the vectors the lanes need are recorded.
template <int R, unsigned Varying, int U>
KC_HIGHT_INLINE void fold_update(V (&c)[8], CtrFold &f, const HightKeysAvx2 &k)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    constexpr bool even_varies = (Varying >> e) & 1, odd_varies = (Varying >> o) & 1;
    constexpr int slot = fold_slot(R, o);
    if constexpr (even_varies && !odd_varies) {
        f.value[slot] = c[o];
    } else if constexpr (!even_varies) {
        const V term = f_term<U>(c[e], k, R);
        if constexpr (odd_varies)
            f.value[slot] = term;
        else
            c[o] = apply_term<U>(c[o], term);
    }
}

template <int R, unsigned Varying>
KC_HIGHT_INLINE void fold_rounds(V (&c)[8], CtrFold &f, const HightKeysAvx2 &k)
{
    if constexpr (R < folded_round_count) {
        fold_update<R, Varying, 0>(c, f, k);
        fold_update<R, Varying, 1>(c, f, k);
        fold_update<R, Varying, 2>(c, f, k);
        fold_update<R, Varying, 3>(c, f, k);
        fold_rounds<R + 1, varying_after_round(R, Varying)>(c, f, k);
    }
}

// Once per message and per 2^16 blocks.
void fold_counter_rounds(const HightKeysAvx2 &k, uint64_t high, CtrFold *f)
{
    const V h = _mm256_set1_epi64x((long long)__builtin_bswap64(high << 16));
    V c[8];
    for (int j = 0; j < 8; j++) // c[6] and c[7] are placeholders: those bytes vary
        c[j] = _mm256_shuffle_epi8(h, _mm256_set1_epi8((char)j));
    c[0] = add8(c[0], bcast(k.wk[0]));
    c[2] = xor8(c[2], bcast(k.wk[1]));
    c[4] = add8(c[4], bcast(k.wk[2]));
    fold_rounds<0, initial_varying>(c, *f, k);
    f->high = high;
}

// One update of a folded round on the lanes: the full update where its F-term varies (from
// the folded value of the target byte if that did not vary yet), one operation with the
// folded F-term where only the target varies, nothing where neither does.
template <int R, unsigned Varying, int U>
KC_HIGHT_INLINE void folded_update(V (&x)[8], const CtrFold &f, const HightKeysAvx2 &k)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    constexpr bool target_varies = (Varying >> o) & 1;
    constexpr int slot = fold_slot(R, o);
    if constexpr ((Varying >> e) & 1) {
        V t;
        if constexpr (target_varies)
            t = x[o];
        else
            t = f.value[slot];
        x[o] = apply_term<U>(t, f_term<U>(x[e], k, R));
    } else if constexpr (target_varies) {
        x[o] = apply_term<U>(x[o], f.value[slot]);
    }
}

template <int R, unsigned Varying>
KC_HIGHT_INLINE void folded_rounds(V (&x)[8], const CtrFold &f, const HightKeysAvx2 &k)
{
    if constexpr (R < folded_round_count) {
        folded_update<R, Varying, 0>(x, f, k);
        folded_update<R, Varying, 1>(x, f, k);
        folded_update<R, Varying, 2>(x, f, k);
        folded_update<R, Varying, 3>(x, f, k);
        folded_rounds<R + 1, varying_after_round(R, Varying)>(x, f, k);
    } else {
        static_assert(Varying == 0xff, "every byte varies after the folded rounds");
    }
}

// Bytes 6 and 7 of the counters base + slice_order[q], byte-sliced, byte 6 whitened; the
// caller has checked that no counter of the group crosses a multiple of 2^16.
KC_HIGHT_INLINE void counter_low_slices(uint64_t base, const HightKeysAvx2 &k, V *x)
{
    const V order = _mm256_load_si256((const __m256i *)slice_order.block);
    const unsigned low_byte = (unsigned)(base & 0xff);
    const V b6 = _mm256_set1_epi8((char)(base >> 8));
    V carry = _mm256_setzero_si256();
    if (low_byte + group_blocks - 1 > 0xff) { // public: the counter is not secret
        // Lanes with order > 255 - low_byte wrapped: -1 there; unsigned compare through the
        // sign bit.
        const V bias = _mm256_set1_epi8((char)0x80);
        const V limit = _mm256_set1_epi8((char)((255 - low_byte) ^ 0x80));
        carry = _mm256_cmpgt_epi8(xor8(order, bias), limit);
    }
    x[6] = xor8(sub8(b6, carry), bcast(k.wk[3]));
    x[7] = add8(_mm256_set1_epi8((char)low_byte), order);
}

// out = in XOR keystream for the 32 blocks from counter `base`, the folded way.
KC_HIGHT_INLINE void ctr_group_folded(const HightKeysAvx2 &k, const CtrFold &f, uint64_t base,
                                      const uint8_t *in, uint8_t *out)
{
    V x[8], w[8];
    counter_low_slices(base, k, x);
    folded_rounds<0, initial_varying>(x, f, k);
    encrypt_rounds_from<folded_round_count>(x, k);
    final_transform(k, x);
    slices_to_blocks(x, w);
    for (int r = 0; r < 8; r++) {
        V d = _mm256_loadu_si256((const __m256i *)(in + 32 * r));
        _mm256_storeu_si256((__m256i *)(out + 32 * r), xor8(d, w[r]));
    }
}

// One group from counter `base`: folded when its 32 counters share counter >> 16.
KC_HIGHT_INLINE void ctr_step(const HightKeysAvx2 &k, CtrFold &f, uint64_t base, const uint8_t *in,
                              uint8_t *out)
{
    if ((base & 0xffff) <= 0x10000 - group_blocks) { // public: the counter
        if (f.high != base >> 16)
            fold_counter_rounds(k, base >> 16, &f);
        ctr_group_folded(k, f, base, in, out);
    } else {
        ctr_group(k, base, in, out);
    }
}

void avx2_ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                         size_t nblocks)
{
    const HightKeysAvx2 &k = *static_cast<const HightKeysAvx2 *>(state);
    uint64_t base;
    std::memcpy(&base, ctr, 8);
    base = __builtin_bswap64(base); // the counter is the whole block, big-endian
    CtrFold fold;
    fold.high = ~(uint64_t)0;
    for (; nblocks >= group_blocks; nblocks -= group_blocks) {
        ctr_step(k, fold, base, in, out);
        base += group_blocks;
        in += group_bytes;
        out += group_bytes;
    }
    if (nblocks > 0) {
        alignas(32) uint8_t buf[group_bytes] = {};
        std::memcpy(buf, in, 8 * nblocks);
        ctr_step(k, fold, base, buf, buf);
        std::memcpy(out, buf, 8 * nblocks);
        secure_wipe(buf, sizeof buf);
    }
    secure_wipe(&fold, sizeof fold); // round values derived from the key
}

#undef KC_HIGHT_INLINE

} // namespace

} // namespace kc

#pragma GCC pop_options

namespace kc {

namespace {

bool avx2_supports(Cipher c) { return c == Cipher::hight; }

// The family's key schedule; round-key bytes repeated over 32-bit words, and F1's low-nibble
// table XORed with the subkey each F1 output meets (SK_{4r} and SK_{4r+2}).
void avx2_set_key(void *state, Cipher, const uint8_t *key)
{
    HightRoundKeys rk;
    hight_key_schedule(key, &rk);
    HightKeysAvx2 *k = static_cast<HightKeysAvx2 *>(state);
    for (int i = 0; i < 8; i++)
        k->wk[i] = rk.wk[i] * 0x01010101u;
    for (int i = 0; i < 128; i++)
        k->sk[i] = rk.sk[i] * 0x01010101u;
    for (int r = 0; r < 32; r++) {
        for (int i = 0; i < 16; i++) {
            k->f1_low_sk[2 * r][i] = (uint8_t)(f1_low.t[i] ^ rk.sk[4 * r]);
            k->f1_low_sk[2 * r + 1][i] = (uint8_t)(f1_low.t[i] ^ rk.sk[4 * r + 2]);
        }
    }
    secure_wipe(&rk, sizeof rk);
}

} // namespace

extern const Kernel hight_avx2_kernel = {
    "hight/avx2",
    "hight",
    8,    // block_bytes
    32,   // batch_blocks: one group of 32
    true, // constant_time: byte-sliced ARX, in-register VPSHUFB tables (see the header)
    feat_avx2,
    30, // rank: AVX2
    sizeof(HightKeysAvx2),
    avx2_supports,
    avx2_set_key,
    avx2_encrypt_blocks,
    avx2_decrypt_blocks,
    avx2_ctr_xor_blocks,
};

} // namespace kc

#endif // __x86_64__
