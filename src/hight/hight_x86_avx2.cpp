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
// of rounds 0..6 that is the same for all lanes (hight_fold.hpp).
//
// Short inputs: the last partial group (fewer than 32 blocks) is copied to a stack buffer,
// computed as a whole group and copied back; never one block at a time.
//
// The rounds, the transposes, the folded CTR rounds and the ECB and CTR steps are
// hight_x86_byte_sliced.hpp, shared with hight/avx512-gfni; this file holds their operations on
// ymm registers (Ymm: the F-terms, the unpacks, the loads and stores, the counters) and the key
// layout.
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
#include <type_traits>

#include "core/kernel.hpp"
#include "core/target_region.hpp"
#include "core/wipe.hpp"
#include "hight/hight.hpp"
#include "hight/hight_fold.hpp"

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

} // namespace

} // namespace kc

KC_TARGET_PUSH("avx2")
#include "hight/hight_x86_byte_sliced.hpp"

namespace kc {

namespace {

#define KC_HIGHT_INLINE [[gnu::always_inline]] inline

// The byte-sliced code's operations (hight_x86_byte_sliced.hpp lists them) on ymm registers.
struct Ymm {
    using vec = __m256i;
    using V = vec;
    using Keys = HightKeysAvx2;

    static constexpr size_t group_blocks = 32;
    static constexpr int step_groups = 1; // sixteen ymm registers hold one group and its tables
    static constexpr bool masked = false; // a partial group goes through a buffer
    template <class K> static constexpr bool unroll_all_rounds = false;

    KC_HIGHT_INLINE static V bcast(uint32_t k) { return _mm256_set1_epi32((int)k); }
    KC_HIGHT_INLINE static V table(const uint8_t *t)
    {
        return _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)t));
    }
    KC_HIGHT_INLINE static V add8(V a, V b) { return _mm256_add_epi8(a, b); }
    KC_HIGHT_INLINE static V sub8(V a, V b) { return _mm256_sub_epi8(a, b); }
    KC_HIGHT_INLINE static V xor8(V a, V b) { return _mm256_xor_si256(a, b); }

    // A linear map of bytes from its low- and high-nibble tables (VPSHUFB ignores bits 4..6 of
    // an index and gives 0 for bit 7, so both indices are masked to four bits).
    KC_HIGHT_INLINE static V by_nibbles(V x, V low, V high)
    {
        const V m = _mm256_set1_epi8(0x0f);
        V lo = _mm256_and_si256(x, m), hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), m);
        return xor8(_mm256_shuffle_epi8(low, lo), _mm256_shuffle_epi8(high, hi));
    }

    KC_HIGHT_INLINE static V f0(V x) { return by_nibbles(x, table(f0_low.t), table(f0_high.t)); }

    // F1(x) ^ SK from the subkey-folded low table.
    KC_HIGHT_INLINE static V f1_xor_sk(V x, const uint8_t *low_sk)
    {
        return by_nibbles(x, table(low_sk), table(f1_high.t));
    }

    // One Keys serves every group; WK_i is a word of four copies of the byte.
    KC_HIGHT_INLINE static const Keys &group_keys(const Keys &k, int) { return k; }
    KC_HIGHT_INLINE static V whitening(const Keys &k, int i) { return bcast(k.wk[i]); }

    // Round r's subkeys and subkey-folded tables, read where an update uses them.
    struct RoundKeys {
        const HightKeysAvx2 &k;
        int r;
    };

    KC_HIGHT_INLINE static RoundKeys round_keys(const HightKeysAvx2 &k, int r) { return {k, r}; }

    // The F-term of update U (hight_fold.hpp's update_pairs) of round r, from the even byte
    // x: F0(x) + SK_{4r+3}, F1(x) ^ SK_{4r}, F0(x) + SK_{4r+1}, F1(x) ^ SK_{4r+2} for U = 0..3.
    template <int U> KC_HIGHT_INLINE static V f_term(V x, const RoundKeys &rk)
    {
        if constexpr (U == 0)
            return add8(f0(x), bcast(rk.k.sk[4 * rk.r + 3]));
        else if constexpr (U == 1)
            return f1_xor_sk(x, rk.k.f1_low_sk[2 * rk.r]);
        else if constexpr (U == 2)
            return add8(f0(x), bcast(rk.k.sk[4 * rk.r + 1]));
        else
            return f1_xor_sk(x, rk.k.f1_low_sk[2 * rk.r + 1]);
    }

    KC_HIGHT_INLINE static V unpacklo8(V a, V b) { return _mm256_unpacklo_epi8(a, b); }
    KC_HIGHT_INLINE static V unpackhi8(V a, V b) { return _mm256_unpackhi_epi8(a, b); }
    KC_HIGHT_INLINE static V unpacklo16(V a, V b) { return _mm256_unpacklo_epi16(a, b); }
    KC_HIGHT_INLINE static V unpackhi16(V a, V b) { return _mm256_unpackhi_epi16(a, b); }
    KC_HIGHT_INLINE static V unpacklo32(V a, V b) { return _mm256_unpacklo_epi32(a, b); }
    KC_HIGHT_INLINE static V unpackhi32(V a, V b) { return _mm256_unpackhi_epi32(a, b); }

    // Register r of a group: blocks 4r..4r+3 (no masks: a group is always whole).
    KC_HIGHT_INLINE static V load_reg(const uint8_t *p, size_t, int r)
    {
        return _mm256_loadu_si256((const __m256i *)(p + 32 * r));
    }
    KC_HIGHT_INLINE static void store_reg(uint8_t *p, size_t, int r, V v)
    {
        _mm256_storeu_si256((__m256i *)(p + 32 * r), v);
    }

    // c[j] = byte j of v, big-endian, in every lane.
    KC_HIGHT_INLINE static void splat_be_bytes(uint64_t v, V (&c)[8])
    {
        const V h = _mm256_set1_epi64x((long long)__builtin_bswap64(v));
        for (int j = 0; j < 8; j++)
            c[j] = _mm256_shuffle_epi8(h, _mm256_set1_epi8((char)j));
    }

    // The counters base + slice_order[q] (mod 2^64), byte-sliced, big-endian bytes. The low
    // byte is one addition; the 32 counters carry out of it at most once, so bytes 0..6 are
    // those of `high` or high + 256, blended per lane where the low byte wrapped.
    KC_HIGHT_INLINE static void counter_slices(uint64_t base, V *x)
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

    // Bytes 6 and 7 of the counters base + slice_order[q], byte-sliced, byte 6 whitened; the
    // caller has checked that no counter of the group crosses a multiple of 2^16.
    KC_HIGHT_INLINE static void counter_low_slices(uint64_t base, V wk3, V *x)
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
        x[6] = xor8(sub8(b6, carry), wk3);
        x[7] = add8(_mm256_set1_epi8((char)low_byte), order);
    }
};

#undef KC_HIGHT_INLINE

} // namespace

} // namespace kc

KC_TARGET_POP()

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

// Descriptor: batch_blocks: one group of 32; constant_time: byte-sliced ARX, in-register VPSHUFB
// tables (see the header); rank: AVX2.
extern const Kernel hight_avx2_kernel = {
    "hight/avx2", "hight", 8, 32, true, feat_avx2, 30, sizeof(HightKeysAvx2),
    avx2_supports, avx2_set_key, hight_byte_sliced::encrypt_blocks<Ymm>, hight_byte_sliced::decrypt_blocks<Ymm>,
    hight_byte_sliced::ctr_xor_blocks<Ymm>};

} // namespace kc

#endif // __x86_64__
