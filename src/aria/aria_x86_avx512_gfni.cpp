// aria/avx512-gfni: byte-sliced ARIA, 64 blocks per batch in 16 zmm registers (one byte
// position of 64 blocks per register), S-boxes with GFNI, diffusion with vpternlogd. The
// technique is the AVX-512 version of Yoo, Kivilinna, Cho (IEEE Access 2023); the layout,
// the key folding and the sliced CTR counters are described in aria_x86_byteslice.hpp.
//
// Inputs shorter than a batch do not fall back to one block at a time: the last partial batch
// runs the same code on the narrowest vector that holds it (xmm: 16 blocks, ymm: 32, zmm: 64,
// EVEX-encoded so that all three have vpternlogd and 32 registers), with masked loads and
// stores (lanes past the end read as zero and are not written).
//
// Constant-time: no branch and no memory address depends on key or data. The S-boxes are
// computed (gf2p8affineinvqb / gf2p8affineqb work on the register contents, with a latency
// that does not depend on them), everything else is XOR, unpack and masked moves whose masks
// depend only on the length; round keys are read at fixed addresses. The CTR code branches on
// counter bytes, which are public. (valgrind cannot run AVX-512, so ct_check skips this
// kernel; the bench tool's timing check covers it.)
//
// Instruction budget per 64-block batch (1 KiB), counted in the disassembly (GCC 12, -O3),
// ARIA-128 CTR (n = 12):
//   rounds 1..11  24 GFNI (SB1, SB2: one affineinv each; SB3, SB4: affine, then affineinv)
//                 + 38 XORs (the diffusion of aria_x86_byteslice.hpp: 32 vpternlogd and 6
//                 vpxord, the next key an embedded-broadcast operand of the last XOR of each
//                 output byte) = 62 per round, 682 in all
//   last layer    24 GFNI
//   counters      ~20 (byte 15: broadcast, add, compare into a mask, XOR with the key;
//                 byte 14: one masked blend; the broadcast table: 8 xmm vpshufb)
//   transpose     64 vpunpck[lh]bw (sliced bytes back to blocks)
//   output        16 vpternlogd (data ^ keystream ^ ek13, the data a memory operand)
//   total         ~806 vector uops. 512-bit uops issue on ports 0 and 5 only on this
//                 Sapphire Rapids-class core (p1 is fused into p0 for them); GFNI runs on p0
//                 alone, the unpacks on p5 alone, the XORs on either. Besides: ~250 register
//                 moves (vpternlogd overwrites an input; moves are eliminated at rename, a
//                 micro-benchmark here: 40 of them beside 80 vpternlogd cost ~1 cycle), and
//                 ~60 loads and stores, on other ports.
//   ceiling       ~403 cycles per KiB = 0.39 cycles/byte for ARIA-128 CTR; ECB adds the input
//                 transpose and the first key (0.42); ARIA-192 and -256 add 62 uops a round
//                 (CTR 0.45 and 0.51).
// Measured on one core (kcipher bench and an interleaved A/B harness): ARIA-128 CTR about
// 0.60-0.65 c/B at 1 KiB and 16 KiB, 60-65% of the port ceiling. The rest is latency, not
// ports: round i+1's S-boxes need round i's diffusion, which needs all 16 S-box outputs, so
// each round is a burst of 24 GFNI on p0 (p5 mostly idle) and then the diffusion's tail
// (GFNI latency 5, three XORs deep) with p0 idle. Interleaving two independent batches would
// fill those gaps, but two states do not fit in 32 registers beside the diffusion's sub-sums;
// with the states in memory between rounds it was 14% slower.
#if defined(__x86_64__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "aria/aria.hpp"
#include "aria/aria_x86_byteslice.hpp"
#include "core/kernel.hpp"
#include "core/target_region.hpp"
#include "kit/drbg_accel.hpp"
#include "kit/xts/xts_accel.hpp"
#include "core/write_prefetch.hpp"

KC_TARGET_PUSH("avx512f,avx512bw,avx512vl,gfni")
#define KC_ARIA_BYTESLICE_SIMD
#include "aria/aria_x86_byteslice.hpp"

namespace kc {
namespace {

using aria_bs::GfniSboxes;

// Vector operations for the byte-sliced templates, one struct per width (all EVEX).
struct Zmm {
    using vec = __m512i;
    using carry = __mmask64; // also the byte mask of masked loads and stores
    static constexpr size_t blocks = 64;
    static constexpr bool ternary = true;
    static vec xor2(vec a, vec b) { return _mm512_xor_si512(a, b); }
    static vec xor3(vec a, vec b, vec c) { return _mm512_ternarylogic_epi32(a, b, c, 0x96); }
    static vec bcast32(const uint32_t *p) { return _mm512_set1_epi32((int)*p); }
    static vec bcast64(long long v) { return _mm512_set1_epi64(v); }
    static vec bcast128(const uint8_t *p)
    {
        // (the masked form: GCC 12 warns about the undefined source of the plain one)
        return _mm512_maskz_broadcast_i32x4(0xffff,
                                            _mm_load_si128(reinterpret_cast<const __m128i *>(p)));
    }
    static vec unpacklo8(vec a, vec b) { return _mm512_unpacklo_epi8(a, b); }
    static vec unpackhi8(vec a, vec b) { return _mm512_unpackhi_epi8(a, b); }
    template <int c>
    static vec affine(vec x, vec m)
    {
        return _mm512_gf2p8affine_epi64_epi8(x, m, c);
    }
    template <int c>
    static vec affineinv(vec x, vec m)
    {
        return _mm512_gf2p8affineinv_epi64_epi8(x, m, c);
    }
    static vec set1_8(uint8_t v) { return _mm512_set1_epi8((char)v); }
    static vec add8(vec a, vec b) { return _mm512_add_epi8(a, b); }
    static vec lane_offsets() { return _mm512_load_si512(aria_bs::lane_offset_table<64>.v); }
    static carry carry_of(vec sum, vec addend) { return _mm512_cmplt_epu8_mask(sum, addend); }
    static vec blend(carry m, vec a, vec b) { return _mm512_mask_blend_epi8(m, a, b); }
    static carry no_carry() { return 0; }
    static carry first_bytes(size_t n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
    static vec loadu(const uint8_t *p) { return _mm512_loadu_si512(p); }
    static vec load_masked(const uint8_t *p, carry m) { return _mm512_maskz_loadu_epi8(m, p); }
    static void storeu(uint8_t *p, vec v) { _mm512_storeu_si512(p, v); }
    static void store_masked(uint8_t *p, carry m, vec v) { _mm512_mask_storeu_epi8(p, m, v); }
};

struct Ymm {
    using vec = __m256i;
    using carry = __mmask32;
    static constexpr size_t blocks = 32;
    static constexpr bool ternary = true;
    static vec xor2(vec a, vec b) { return _mm256_xor_si256(a, b); }
    static vec xor3(vec a, vec b, vec c) { return _mm256_ternarylogic_epi32(a, b, c, 0x96); }
    static vec bcast32(const uint32_t *p) { return _mm256_set1_epi32((int)*p); }
    static vec bcast64(long long v) { return _mm256_set1_epi64x(v); }
    static vec bcast128(const uint8_t *p)
    {
        return _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i *>(p)));
    }
    static vec unpacklo8(vec a, vec b) { return _mm256_unpacklo_epi8(a, b); }
    static vec unpackhi8(vec a, vec b) { return _mm256_unpackhi_epi8(a, b); }
    template <int c>
    static vec affine(vec x, vec m)
    {
        return _mm256_gf2p8affine_epi64_epi8(x, m, c);
    }
    template <int c>
    static vec affineinv(vec x, vec m)
    {
        return _mm256_gf2p8affineinv_epi64_epi8(x, m, c);
    }
    static vec set1_8(uint8_t v) { return _mm256_set1_epi8((char)v); }
    static vec add8(vec a, vec b) { return _mm256_add_epi8(a, b); }
    static vec lane_offsets()
    {
        return _mm256_load_si256(
            reinterpret_cast<const __m256i *>(aria_bs::lane_offset_table<32>.v));
    }
    static carry carry_of(vec sum, vec addend) { return _mm256_cmplt_epu8_mask(sum, addend); }
    static vec blend(carry m, vec a, vec b) { return _mm256_mask_blend_epi8(m, a, b); }
    static carry no_carry() { return 0; }
    static carry first_bytes(size_t n) { return n >= 32 ? ~0u : (1u << n) - 1; }
    static vec loadu(const uint8_t *p)
    {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    }
    static vec load_masked(const uint8_t *p, carry m) { return _mm256_maskz_loadu_epi8(m, p); }
    static void storeu(uint8_t *p, vec v)
    {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), v);
    }
    static void store_masked(uint8_t *p, carry m, vec v) { _mm256_mask_storeu_epi8(p, m, v); }
};

struct Xmm {
    using vec = __m128i;
    using carry = __mmask16;
    static constexpr size_t blocks = 16;
    static constexpr bool ternary = true;
    static vec xor2(vec a, vec b) { return _mm_xor_si128(a, b); }
    static vec xor3(vec a, vec b, vec c) { return _mm_ternarylogic_epi32(a, b, c, 0x96); }
    static vec bcast32(const uint32_t *p) { return _mm_set1_epi32((int)*p); }
    static vec bcast64(long long v) { return _mm_set1_epi64x(v); }
    static vec bcast128(const uint8_t *p)
    {
        return _mm_load_si128(reinterpret_cast<const __m128i *>(p));
    }
    static vec unpacklo8(vec a, vec b) { return _mm_unpacklo_epi8(a, b); }
    static vec unpackhi8(vec a, vec b) { return _mm_unpackhi_epi8(a, b); }
    template <int c>
    static vec affine(vec x, vec m)
    {
        return _mm_gf2p8affine_epi64_epi8(x, m, c);
    }
    template <int c>
    static vec affineinv(vec x, vec m)
    {
        return _mm_gf2p8affineinv_epi64_epi8(x, m, c);
    }
    static vec set1_8(uint8_t v) { return _mm_set1_epi8((char)v); }
    static vec add8(vec a, vec b) { return _mm_add_epi8(a, b); }
    static vec lane_offsets()
    {
        return _mm_load_si128(reinterpret_cast<const __m128i *>(aria_bs::lane_offset_table<16>.v));
    }
    static carry carry_of(vec sum, vec addend) { return _mm_cmplt_epu8_mask(sum, addend); }
    static vec blend(carry m, vec a, vec b) { return _mm_mask_blend_epi8(m, a, b); }
    static carry no_carry() { return 0; }
    static carry first_bytes(size_t n) { return (carry)(n >= 16 ? 0xffffu : (1u << n) - 1); }
    static vec loadu(const uint8_t *p)
    {
        return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    }
    static vec load_masked(const uint8_t *p, carry m) { return _mm_maskz_loadu_epi8(m, p); }
    static void storeu(uint8_t *p, vec v) { _mm_storeu_si128(reinterpret_cast<__m128i *>(p), v); }
    static void store_masked(uint8_t *p, carry m, vec v) { _mm_mask_storeu_epi8(p, m, v); }
};

// Loads and stores of a batch in block order: vector i = bytes [i*W, (i+1)*W). A partial
// batch (nblocks < V::blocks) uses byte masks; the lanes past the end compute on zeros.
template <class V, bool full>
struct BatchIo {
    using vec = typename V::vec;
    static constexpr size_t width = sizeof(vec);

    static typename V::carry mask(size_t nbytes, size_t i)
    {
        return V::first_bytes(nbytes > i * width ? nbytes - i * width : 0);
    }
    static void load(vec x[16], const uint8_t *p, size_t nblocks)
    {
#pragma GCC unroll 16
        for (size_t i = 0; i < 16; i++)
            x[i] = full ? V::loadu(p + i * width)
                        : V::load_masked(p + i * width, mask(16 * nblocks, i));
    }
    static void store(uint8_t *p, const vec x[16], size_t nblocks)
    {
#pragma GCC unroll 16
        for (size_t i = 0; i < 16; i++) {
            if (full)
                V::storeu(p + i * width, x[i]);
            else
                V::store_masked(p + i * width, mask(16 * nblocks, i), x[i]);
        }
    }
};

// One batch of V::blocks blocks (full) or fewer, ECB.
template <class V, bool full>
inline void ecb_batch(const uint32_t (*k)[16], int rounds, const uint8_t *in, uint8_t *out,
                      size_t nblocks)
{
    using vec = typename V::vec;
    aria_bs::ecb_batch<V, GfniSboxes<V>>(
        k, rounds, [&](vec x[16]) { BatchIo<V, full>::load(x, in, nblocks); },
        [&](const vec x[16]) { BatchIo<V, full>::store(out, x, nblocks); });
}

// The same with XTS's whitening (kit/xts/xts_accel.hpp): the tweaks, loaded with the same
// masks, XORed into the blocks after the load and before the store.
template <class V, bool full>
inline void xts_batch(const uint32_t (*k)[16], int rounds, const uint8_t *tw, const uint8_t *in,
                      uint8_t *out, size_t nblocks)
{
    using vec = typename V::vec;
    aria_bs::ecb_batch<V, GfniSboxes<V>>(
        k, rounds,
        [&](vec x[16]) {
            vec t[16];
            BatchIo<V, full>::load(x, in, nblocks);
            BatchIo<V, full>::load(t, tw, nblocks);
            for (int i = 0; i < 16; i++)
                x[i] = V::xor2(x[i], t[i]);
        },
        [&](const vec x[16]) {
            vec y[16];
            BatchIo<V, full>::load(y, tw, nblocks);
            for (int i = 0; i < 16; i++)
                y[i] = V::xor2(x[i], y[i]);
            BatchIo<V, full>::store(out, y, nblocks);
        });
}

// One batch of V::blocks blocks (full) or fewer, CTR from counter ctr; Ks: the keystream
// itself (XORed into zeros, in unused).
template <class V, bool full, bool Ks = false>
inline void ctr_batch(const AriaSlicedKeys &ks, const uint8_t ctr[16], const uint8_t *in,
                      uint8_t *out, size_t nblocks)
{
    using vec = typename V::vec;
    aria_bs::ctr_batch<V, GfniSboxes<V>>(
        ks, ctr,
        [&](vec x[16]) {
            if constexpr (Ks) {
                for (int i = 0; i < 16; i++)
                    x[i] = V::set1_8(0);
            } else {
                BatchIo<V, full>::load(x, in, nblocks);
            }
        },
        [&](const vec x[16]) { BatchIo<V, full>::store(out, x, nblocks); });
}

void crypt(const uint32_t (*k)[16], int rounds, const uint8_t *in, uint8_t *out, size_t n)
{
    for (; n >= 64; n -= 64, in += 1024, out += 1024)
        ecb_batch<Zmm, true>(k, rounds, in, out, 64);
    if (n > 32)
        ecb_batch<Zmm, false>(k, rounds, in, out, n);
    else if (n > 16)
        ecb_batch<Ymm, false>(k, rounds, in, out, n);
    else if (n > 0)
        ecb_batch<Xmm, false>(k, rounds, in, out, n);
}

void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const auto *ks = static_cast<const AriaSlicedKeys *>(state);
    crypt(ks->enc, ks->rounds, in, out, nblocks);
}

void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const auto *ks = static_cast<const AriaSlicedKeys *>(state);
    crypt(ks->dec, ks->rounds, in, out, nblocks);
}

// XtsAccel::whitened_blocks.
void xts_blocks(const void *state, bool decrypt, const uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n)
{
    const auto *ks = static_cast<const AriaSlicedKeys *>(state);
    const uint32_t(*k)[16] = decrypt ? ks->dec : ks->enc;
    for (; n >= 64; n -= 64, in += 1024, out += 1024, tw += 1024)
        xts_batch<Zmm, true>(k, ks->rounds, tw, in, out, 64);
    if (n > 32)
        xts_batch<Zmm, false>(k, ks->rounds, tw, in, out, n);
    else if (n > 16)
        xts_batch<Ymm, false>(k, ks->rounds, tw, in, out, n);
    else if (n > 0)
        xts_batch<Xmm, false>(k, ks->rounds, tw, in, out, n);
}

// CTR over n blocks; Ks: the keystream itself, each line asked for write_prefetch_ahead
// bytes before its store.
template <bool Ks>
void ctr_blocks(const AriaSlicedKeys &ks, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t n)
{
    alignas(16) uint8_t c[16];
    std::memcpy(c, ctr, 16);
    for (; n >= 64; n -= 64, in += Ks ? 0 : 1024, out += 1024) {
        if constexpr (Ks)
            if (n >= 64 + write_prefetch_ahead / 16)
                prefetch_for_write(out + write_prefetch_ahead, 1024);
        ctr_batch<Zmm, true, Ks>(ks, c, in, out, 64);
        aria_bs::advance_counter(c, 64);
    }
    if (n > 32)
        ctr_batch<Zmm, false, Ks>(ks, c, in, out, n);
    else if (n > 16)
        ctr_batch<Ymm, false, Ks>(ks, c, in, out, n);
    else if (n > 0)
        ctr_batch<Xmm, false, Ks>(ks, c, in, out, n);
}

void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                    size_t n)
{
    ctr_blocks<false>(*static_cast<const AriaSlicedKeys *>(state), ctr, in, out, n);
}

// DrbgAccel::keystream_blocks (CTR_DRBG's output).
void keystream_blocks(const void *state, const uint8_t *ctr, uint8_t *out, size_t n)
{
    ctr_blocks<true>(*static_cast<const AriaSlicedKeys *>(state), ctr, nullptr, out, n);
}

} // namespace
} // namespace kc

KC_TARGET_POP()

namespace kc {

// What the kernel runs on (the instruction sets its target pragma enables).
constexpr uint32_t needs = feat_avx512f | feat_avx512bw | feat_avx512vl | feat_gfni;

// Descriptor: batch_blocks: 16 zmm registers x 64 bytes; constant_time: GFNI S-boxes, no
// data-indexed memory; rank: AVX-512 + GFNI.
extern const Kernel aria_avx512_gfni_kernel = {
    "aria/avx512-gfni", "aria", 16, 64, true, needs, 45, sizeof(AriaSlicedKeys),
    aria_sliced_supports, aria_sliced_set_key_diffusion, encrypt_blocks, decrypt_blocks, ctr_xor_blocks};

// XTS's whitened ECB for the kernel above (kit/xts/xts_accel.hpp).
extern const XtsAccel aria_avx512_gfni_xts = {&aria_avx512_gfni_kernel, needs, xts_blocks};

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp): its encryption-only key schedule
// and its keystream.
extern const DrbgAccel aria_avx512_gfni_drbg = {&aria_avx512_gfni_kernel, needs,
                                                aria_sliced_set_encrypt_key_diffusion, keystream_blocks};

} // namespace kc

#endif // __x86_64__
