// The AVX-512 word operations of the CHAM kernels cham/avx512 and cham/avx512-vbmi2, the
// operations classes of the word-sliced engine (cham_sliced_engine.hpp, which runs the rounds and
// the modes on them): ZOps32 for 32-bit words, ZOps16<Rot16> for 16-bit words. The two kernels
// differ only in Rot16, the rotation of 16-bit lanes by R (R not a multiple of 8), which each
// kernel file defines:
//
//   template <unsigned R> static __m512i rol(__m512i x);
//   template <unsigned R> static __m512i rol_xor(__m512i x, __m512i k); // ROL_R(x) ^ k
//
// Each kernel file includes this header inside its `KC_TARGET_PUSH` region (AVX-512F/BW at
// least), so that these operations are compiled for it and inline into the engine. What they
// share with cham/avx2 (transposes, byte shuffles, XOR, the engine's constants) is
// cham_x86_words.hpp; the classes here state the AVX-512 rest.
//
// Layout. A step of 4 groups is 1 KiB in 16 zmm registers. CHAM-128: a register holds four
// blocks; a 4x4 transpose of 32-bit words inside each 128-bit lane turns four of them into
// X[0..3] for 16 blocks. CHAM-64/128: a register holds eight 8-byte blocks; a VPSHUFB inside
// each lane first pairs up the same word of its two blocks in one dword, then the same
// transpose gives X[0..3] for 32 blocks in 16-bit lanes. Rotations by 8 (and 24) are VPSHUFB
// byte shuffles (port 5), which leaves port 0 to the 1-bit rotations (vprold, or Rot16): each
// round has one rotation for each of the two ports and three operations that run on either.
// Partial steps use masked loads and stores (qword granularity: a block is one or two qwords),
// which never touch memory outside the first n blocks.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#define KC_X86_WORD_SLICE_ZMM
#include "cham/cham_x86_words.hpp"

// Internal linkage: each kernel file's copy is compiled for its own target region.
namespace kc::cham_zmm {
namespace {

using Z = __m512i;

constexpr int zmm_groups = 4; // groups per full step: 1 KiB for both block sizes

// The qwords of register j of a step that belong to its first n blocks.
inline __mmask8 qword_mask(size_t n, size_t block_bytes, size_t j)
{
    size_t q = n * block_bytes / 8, before = 8 * j;
    size_t c = q > before ? q - before : 0;
    return (__mmask8)((1u << (c < 8 ? c : 8)) - 1);
}

// Loads, stores and broadcasts, shared by both word sizes (XOR: cham_x86_words.hpp).
template <size_t BlockBytes> struct ZCommon
    : cham_x86::Layout<cham_x86::Zmm, BlockBytes, zmm_groups, true> {
    static Z bcast(const uint32_t *p) { return _mm512_set1_epi32((int)*p); }
    static Z load(const uint8_t *p, size_t j) { return _mm512_loadu_si512(p + 64 * j); }
    static void store(uint8_t *p, size_t j, Z v) { _mm512_storeu_si512(p + 64 * j, v); }
    static Z load_part(const uint8_t *p, size_t n, size_t j)
    {
        return _mm512_maskz_loadu_epi64(qword_mask(n, BlockBytes, j), p + 64 * j);
    }
    static void store_part(uint8_t *p, size_t n, size_t j, Z v)
    {
        _mm512_mask_storeu_epi64(p + 64 * j, qword_mask(n, BlockBytes, j), v);
    }
};

// Rotations of 32-bit lanes by R not a multiple of 8: vprold (port 0), beside the VPSHUFB of
// the byte rotations (port 5): a round has one of each, so neither port is the bottleneck.
struct Rot32 {
    template <unsigned R> static Z rol(Z x) { return _mm512_rol_epi32(x, R); }
};

// CHAM-128/*: 32-bit words, 16 blocks per group.
struct ZOps32 : cham_x86::Words32<ZCommon<16>, Rot32> {
    static V add(V a, V b) { return _mm512_add_epi32(a, b); }
    static V sub(V a, V b) { return _mm512_sub_epi32(a, b); }
    static V splat(W w) { return _mm512_set1_epi32((int)w); }
    // Dword e of lane l holds block 4e + l (the transpose of registers of blocks 4q..4q+3).
    static V lane_blocks() { return x86_words::ctr_lane_offsets_zmm(); }
};

// CHAM-64/128: 16-bit words, 32 blocks per group; the rotations other than by 8 are Rot16 (the file header).
template <class Rot16> struct ZOps16 : cham_x86::Words16<ZCommon<8>, Rot16> {
    using V = Z; // Words16's V and W, which a dependent base does not show here
    using W = uint16_t;
    static V add(V a, V b) { return _mm512_add_epi16(a, b); }
    static V sub(V a, V b) { return _mm512_sub_epi16(a, b); }
    static V splat(W w) { return _mm512_set1_epi16((short)w); }
    // Word 2e + h of lane l holds block 8e + 2l + h (register e of blocks 8e..8e+7, lane l).
    static V lane_blocks()
    {
        alignas(64) static const uint16_t order[32] = {
            0, 1, 8,  9,  16, 17, 24, 25, 2, 3, 10, 11, 18, 19, 26, 27,
            4, 5, 12, 13, 20, 21, 28, 29, 6, 7, 14, 15, 22, 23, 30, 31,
        };
        return _mm512_load_si512(order);
    }
};

} // namespace
} // namespace kc::cham_zmm
