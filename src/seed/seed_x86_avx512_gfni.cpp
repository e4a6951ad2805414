// seed/avx512-gfni: SEED word-sliced on AVX-512, 16 blocks per group of four zmm registers,
// four groups (64 blocks, 1 KiB) per step, S-boxes with GFNI.
//
// Technique (seed_word_sliced.hpp has the algebra). Each G is: one GF2P8AFFINEQB (SEED's
// field into AES's), two GF2P8AFFINEINVQB (S1's and S2's affine maps of the inverse,
// seed_sbox_aes_field.hpp), one byte blend (S1 on even bytes, S2 on odd), three native
// rotations and four mask-and-XORs as one AND and three vpternlogd. An F function is three
// G, three additions and three XORs; the key words are broadcast from memory.
//
// Constant-time: GFNI instructions take the same time for every operand; the rest is XOR,
// AND, 32-bit addition, fixed rotations and shuffles; no table, no secret-dependent branch or
// address (tests/ct checks it under valgrind where valgrind decodes the instructions).
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

KC_TARGET_PUSH("avx512f,avx512bw,gfni")
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() as the unused merge source, and
// -Wuninitialized reports it once inlined (GCC bug 105593); nothing after the region needs it.
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define KC_X86_WORD_SLICE_ZMM
#include "kit/x86_word_slice.hpp"
#include "seed/seed_word_sliced.hpp"

namespace kc {
namespace {

struct Zmm : x86_words::WordMoves {
    using vec = __m512i;
    static constexpr int W = 16;
    static vec bcast(uint32_t w) { return _mm512_set1_epi32((int)w); }
    static vec load(const uint8_t *p) { return _mm512_loadu_si512(p); }
    static void store(uint8_t *p, vec v) { _mm512_storeu_si512(p, v); }
    static vec xor2(vec a, vec b) { return _mm512_xor_si512(a, b); }
    static vec add(vec a, vec b) { return _mm512_add_epi32(a, b); }
    static vec and2(vec a, vec b) { return _mm512_and_si512(a, b); }
    static vec xor_and(vec a, vec b, vec c) { return _mm512_ternarylogic_epi32(a, b, c, 0x78); }
    static vec rotr8(vec x) { return _mm512_ror_epi32(x, 8); }
    static vec rotr16(vec x) { return _mm512_ror_epi32(x, 16); }
    static vec rotr24(vec x) { return _mm512_ror_epi32(x, 24); }
    static vec lane_offsets() { return x86_words::ctr_lane_offsets_zmm(); }
    static vec sbox_pair(vec x)
    {
        using namespace seed_aes_field;
        vec t = _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)phi_matrix), 0);
        vec a = _mm512_gf2p8affineinv_epi64_epi8(t, _mm512_set1_epi64((long long)s1_matrix), s1_constant);
        vec b = _mm512_gf2p8affineinv_epi64_epi8(t, _mm512_set1_epi64((long long)s2_matrix), s2_constant);
        return _mm512_mask_blend_epi8(0xaaaaaaaaaaaaaaaaull, a, b);
    }
};

} // namespace

// 64 blocks per batch (four groups of 16, one word per zmm lane); constant-time (GFNI S-boxes,
// no table: see the file header); rank 40, as the other AVX-512 kernels.
extern const Kernel seed_avx512_gfni_kernel =
    seed_ws::kernel<Zmm>("seed/avx512-gfni", 64, feat_avx512f | feat_avx512bw | feat_gfni, 40);

} // namespace kc

KC_TARGET_POP()
#endif
