// seed/avx2-vaes: SEED word-sliced on AVX2, 8 blocks per group of four ymm registers, four
// groups (32 blocks, 512 bytes) per step, S-boxes with the 256-bit AES instruction of VAES:
// for CPUs without GFNI (AMD Zen 2 and Zen 3, Intel before Ice Lake).
//
// Technique (seed_word_sliced.hpp has the algebra, seed_sbox_aes_field.hpp the S-box maps).
// Each G: phi into the AES field as two vpshufb nibble lookups; VAESENCLAST with a zero key
// after an inverse ShiftRows (vpshufb), which leaves SubBytes(phi(x)) in place; S1's and S2's
// affine maps of it as nibble lookups; a byte blend; then the mask mixing with three
// byte-shuffle rotations, four ANDs and three XORs. About 28 vector instructions per G per 8
// blocks, against 11 per 16 blocks with GFNI (seed/avx512-gfni).
//
// Constant-time: VAESENCLAST takes the same time for every input; the nibble lookups are
// vpshufb with their 16-byte tables in registers (the data is the shuffle index, not an
// address); the rest is XOR, AND, addition and fixed shuffles. (valgrind cannot decode VAES,
// so tests/ct skips it.)
#if defined(__x86_64__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "core/kernel.hpp"
#include "core/target_region.hpp"
#include "core/wipe.hpp"
#include "seed/seed.hpp"
#include "seed/seed_key_inputs.hpp"
#include "seed/seed_sbox_aes_field.hpp"

KC_TARGET_PUSH("avx2,aes,vaes")
#include "kit/x86_word_slice.hpp"
#include "seed/seed_word_sliced.hpp"

namespace kc {
namespace {

using seed_aes_field::NibbleTables;

struct Ymm : x86_words::WordMoves {
    using vec = __m256i;
    static constexpr int W = 8;
    static vec bcast(uint32_t w) { return _mm256_set1_epi32((int)w); }
    static vec load(const uint8_t *p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)); }
    static void store(uint8_t *p, vec v) { _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), v); }
    static vec xor2(vec a, vec b) { return _mm256_xor_si256(a, b); }
    static vec add(vec a, vec b) { return _mm256_add_epi32(a, b); }
    static vec and2(vec a, vec b) { return _mm256_and_si256(a, b); }
    static vec xor_and(vec a, vec b, vec c) { return _mm256_xor_si256(a, _mm256_and_si256(b, c)); }
    static vec shuffle(vec x, int8_t a)
    { // rotate each 32-bit word right by `a` bytes
        const __m128i s = _mm_setr_epi8(a, (a + 1) & 3, (a + 2) & 3, (a + 3) & 3, 4 + a, 4 + ((a + 1) & 3),
                                        4 + ((a + 2) & 3), 4 + ((a + 3) & 3), 8 + a, 8 + ((a + 1) & 3),
                                        8 + ((a + 2) & 3), 8 + ((a + 3) & 3), 12 + a, 12 + ((a + 1) & 3),
                                        12 + ((a + 2) & 3), 12 + ((a + 3) & 3));
        return _mm256_shuffle_epi8(x, _mm256_broadcastsi128_si256(s));
    }
    static vec rotr8(vec x) { return shuffle(x, 1); }
    static vec rotr16(vec x) { return shuffle(x, 2); }
    static vec rotr24(vec x) { return shuffle(x, 3); }
    static vec lane_offsets() { return x86_words::ctr_lane_offsets_ymm(); }
    static vec table(const std::array<uint8_t, 16> &t)
    {
        return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i *>(t.data())));
    }
    // f(v) = lo[v & 15] ^ hi[v >> 4], with v's nibbles already split.
    static vec affine(vec lo_nib, vec hi_nib, const NibbleTables &t)
    {
        return _mm256_xor_si256(_mm256_shuffle_epi8(table(t.lo), lo_nib), _mm256_shuffle_epi8(table(t.hi), hi_nib));
    }
    static vec sbox_pair(vec x)
    {
        using namespace seed_aes_field;
        const vec nib = _mm256_set1_epi8(0x0f);
        // ShiftRows^-1 first, so that VAESENCLAST's ShiftRows puts every byte back in place.
        const __m128i isr = _mm_setr_epi8(0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3);
        x = _mm256_shuffle_epi8(x, _mm256_broadcastsi128_si256(isr));
        vec u = affine(_mm256_and_si256(x, nib), _mm256_and_si256(_mm256_srli_epi16(x, 4), nib), phi_nibbles);
        vec s = _mm256_aesenclast_epi128(u, _mm256_setzero_si256());
        vec lo = _mm256_and_si256(s, nib), hi = _mm256_and_si256(_mm256_srli_epi16(s, 4), nib);
        vec a = affine(lo, hi, s1_nibbles), b = affine(lo, hi, s2_nibbles);
        return _mm256_blendv_epi8(a, b, _mm256_set1_epi16((short)0xff00));
    }
};

} // namespace

// 32 blocks per batch (four groups of 8, one word per ymm lane); constant-time (AES-instruction
// S-boxes, register-table vpshufb: see the file header); rank 33, below the AVX-512 kernels.
extern const Kernel seed_avx2_vaes_kernel =
    seed_ws::kernel<Ymm>("seed/avx2-vaes", 32, feat_avx | feat_avx2 | feat_aesni | feat_vaes, 33);

} // namespace kc

KC_TARGET_POP()
#endif
