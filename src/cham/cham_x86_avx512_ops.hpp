// The AVX-512 word operations of the CHAM kernels cham/avx512 and cham/avx512-vbmi2, the
// operations classes of the word-sliced engine (cham_sliced_engine.hpp, which runs the rounds and
// the modes on them): ZOps32 for 32-bit words, ZOps16<Rot16> for 16-bit words. The two kernels
// differ only in Rot16, the rotation of 16-bit lanes by R (R not a multiple of 8), which each
// kernel file defines:
//
//   template <unsigned R> static __m512i rol(__m512i x);
//   template <unsigned R> static __m512i rol_xor(__m512i x, __m512i k); // ROL_R(x) ^ k
//
// Each kernel file includes this header inside its `#pragma GCC target` region (AVX-512F/BW at
// least), so that these operations are compiled for it and inline into the engine.
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

// Internal linkage: each kernel file's copy is compiled for its own target region.
namespace kc::cham_zmm {
namespace {

using Z = __m512i;

constexpr int zmm_groups = 4; // groups per full step: 1 KiB for both block sizes

inline Z zxor(Z a, Z b) { return _mm512_xor_si512(a, b); }
inline Z bytes_in_lanes(int b0, int b1, int b2, int b3, int b4, int b5, int b6, int b7, int b8,
                        int b9, int b10, int b11, int b12, int b13, int b14, int b15)
{
    return _mm512_broadcast_i32x4(_mm_setr_epi8((char)b0, (char)b1, (char)b2, (char)b3, (char)b4,
                                                (char)b5, (char)b6, (char)b7, (char)b8, (char)b9,
                                                (char)b10, (char)b11, (char)b12, (char)b13,
                                                (char)b14, (char)b15));
}

// 4x4 transpose of 32-bit words inside each 128-bit lane; its own inverse. Register q of
// four blocks-in-order registers gives dword q of every lane of each output.
inline void transpose4(Z (&r)[4])
{
    Z t0 = _mm512_unpacklo_epi32(r[0], r[1]), t1 = _mm512_unpackhi_epi32(r[0], r[1]);
    Z t2 = _mm512_unpacklo_epi32(r[2], r[3]), t3 = _mm512_unpackhi_epi32(r[2], r[3]);
    r[0] = _mm512_unpacklo_epi64(t0, t2);
    r[1] = _mm512_unpackhi_epi64(t0, t2);
    r[2] = _mm512_unpacklo_epi64(t1, t3);
    r[3] = _mm512_unpackhi_epi64(t1, t3);
}

// The qwords of register j of a step that belong to its first n blocks.
inline __mmask8 qword_mask(size_t n, size_t block_bytes, size_t j)
{
    size_t q = n * block_bytes / 8, before = 8 * j;
    size_t c = q > before ? q - before : 0;
    return (__mmask8)((1u << (c < 8 ? c : 8)) - 1);
}

// Operations shared by both word sizes: loads, stores, XOR, broadcasts.
template <size_t BlockBytes> struct ZCommon {
    using V = Z;
    static constexpr size_t block_bytes = BlockBytes, lanes = 64 / (BlockBytes / 4);
    static constexpr int groups = zmm_groups;
    static constexpr bool masked = true;

    static V bxor(V a, V b) { return zxor(a, b); }
    static V bcast(const uint32_t *p) { return _mm512_set1_epi32((int)*p); }
    static V load(const uint8_t *p, size_t j) { return _mm512_loadu_si512(p + 64 * j); }
    static void store(uint8_t *p, size_t j, V v) { _mm512_storeu_si512(p + 64 * j, v); }
    static V load_part(const uint8_t *p, size_t n, size_t j)
    {
        return _mm512_maskz_loadu_epi64(qword_mask(n, BlockBytes, j), p + 64 * j);
    }
    static void store_part(uint8_t *p, size_t n, size_t j, V v)
    {
        _mm512_mask_storeu_epi64(p + 64 * j, qword_mask(n, BlockBytes, j), v);
    }
};

// CHAM-128/*: 32-bit words, 16 blocks per group.
struct ZOps32 : ZCommon<16> {
    using W = uint32_t;
    static V add(V a, V b) { return _mm512_add_epi32(a, b); }
    static V sub(V a, V b) { return _mm512_sub_epi32(a, b); }
    static V splat(W w) { return _mm512_set1_epi32((int)w); }
    // Rotations by whole bytes are VPSHUFB (port 5), the others vprold (port 0): a round has
    // one of each, so neither port is the bottleneck.
    template <unsigned R> static V rol(V x)
    {
        if constexpr (R == 8)
            return _mm512_shuffle_epi8(x, bytes_in_lanes(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15,
                                                         12, 13, 14));
        else if constexpr (R == 24)
            return _mm512_shuffle_epi8(x, bytes_in_lanes(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13,
                                                         14, 15, 12));
        else
            return _mm512_rol_epi32(x, R);
    }
    template <unsigned R> static V rol_xor(V x, V k) { return zxor(rol<R>(x), k); }
    static V bswap(V x)
    {
        return _mm512_shuffle_epi8(x, bytes_in_lanes(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14,
                                                     13, 12));
    }
    static void to_words(V (&r)[4]) { transpose4(r); }
    static void to_blocks(V (&r)[4]) { transpose4(r); }
    // Dword e of lane l holds block 4e + l (transpose4 of registers of blocks 4q..4q+3).
    static V lane_blocks()
    {
        return _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    }
};

// CHAM-64/128: 16-bit words, 32 blocks per group; the rotations other than by 8 are Rot16 (the file header).
template <class Rot16> struct ZOps16 : ZCommon<8> {
    using W = uint16_t;
    static V add(V a, V b) { return _mm512_add_epi16(a, b); }
    static V sub(V a, V b) { return _mm512_sub_epi16(a, b); }
    static V splat(W w) { return _mm512_set1_epi16((short)w); }
    static V swap_bytes(V x)
    {
        return _mm512_shuffle_epi8(x, bytes_in_lanes(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12,
                                                     15, 14));
    }
    template <unsigned R> static V rol(V x)
    {
        if constexpr (R == 8)
            return swap_bytes(x);
        else
            return Rot16::template rol<R>(x);
    }
    template <unsigned R> static V rol_xor(V x, V k)
    {
        if constexpr (R == 8)
            return zxor(swap_bytes(x), k);
        else
            return Rot16::template rol_xor<R>(x, k);
    }
    static V bswap(V x) { return swap_bytes(x); }
    // Inside each 128-bit lane, blocks B0 and B1 (words w0..w3 each) become
    // B0w0 B1w0 B0w1 B1w1 B0w2 B1w2 B0w3 B1w3: dword e holds word e of both; transpose4 then
    // gathers dword e of the four registers.
    static void to_words(V (&r)[4])
    {
        const V pair = bytes_in_lanes(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
        for (V &v : r)
            v = _mm512_shuffle_epi8(v, pair);
        transpose4(r);
    }
    static void to_blocks(V (&r)[4])
    {
        const V unpair = bytes_in_lanes(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
        transpose4(r);
        for (V &v : r)
            v = _mm512_shuffle_epi8(v, unpair);
    }
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
