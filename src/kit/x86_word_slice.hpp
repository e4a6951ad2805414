// The word-slicing moves every x86 kernel that keeps one 32-bit word of a block per vector
// lane makes (LEA and SEED on AVX2 and AVX-512): each word's bytes reversed, the 4x4 word
// transpose inside each 128-bit lane that turns registers of whole blocks into registers of
// one word each (its own inverse), and which block of a group each lane then holds.
//
// Include it inside a `KC_TARGET_PUSH` region that enables AVX2 (the ymm overloads) or
// AVX-512F/BW (the zmm ones, under KC_X86_WORD_SLICE_ZMM): everything is in an anonymous
// namespace, so each kernel file compiles its own copy for its own instruction set.
#pragma once

#include <immintrin.h>

namespace kc::x86_words {
namespace {

inline __m256i unpack_lo32(__m256i a, __m256i b) { return _mm256_unpacklo_epi32(a, b); }
inline __m256i unpack_hi32(__m256i a, __m256i b) { return _mm256_unpackhi_epi32(a, b); }
inline __m256i unpack_lo64(__m256i a, __m256i b) { return _mm256_unpacklo_epi64(a, b); }
inline __m256i unpack_hi64(__m256i a, __m256i b) { return _mm256_unpackhi_epi64(a, b); }

inline __m256i bswap32(__m256i x)
{
    const __m128i b = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    return _mm256_shuffle_epi8(x, _mm256_broadcastsi128_si256(b));
}

// Lane p = 4l + i of a ymm group holds block 2i + l.
inline __m256i ctr_lane_offsets_ymm() { return _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7); }

#if defined(KC_X86_WORD_SLICE_ZMM)
inline __m512i unpack_lo32(__m512i a, __m512i b) { return _mm512_unpacklo_epi32(a, b); }
inline __m512i unpack_hi32(__m512i a, __m512i b) { return _mm512_unpackhi_epi32(a, b); }
inline __m512i unpack_lo64(__m512i a, __m512i b) { return _mm512_unpacklo_epi64(a, b); }
inline __m512i unpack_hi64(__m512i a, __m512i b) { return _mm512_unpackhi_epi64(a, b); }

inline __m512i bswap32(__m512i x)
{
    return _mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12)));
}

// Lane p = 4l + i of a zmm group holds block 4i + l.
inline __m512i ctr_lane_offsets_zmm() { return _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15); }
#endif

// 4x4 transpose of 32-bit words inside each 128-bit lane; its own inverse. From four
// registers r[q] of blocks (lanes/4)*q + l (l the 128-bit lane) it gives r[j] = word j of
// every block, dword i of lane l holding block (lanes/4)*i + l: ctr_lane_offsets' order.
template <class V> inline void transpose(V &r0, V &r1, V &r2, V &r3)
{
    V t0 = unpack_lo32(r0, r1), t1 = unpack_hi32(r0, r1);
    V t2 = unpack_lo32(r2, r3), t3 = unpack_hi32(r2, r3);
    r0 = unpack_lo64(t0, t2);
    r1 = unpack_hi64(t0, t2);
    r2 = unpack_lo64(t1, t3);
    r3 = unpack_hi64(t1, t3);
}

// The same as static members, for kernels that pass their vector operations as a class (a
// base class of it; the overloads pick the register width).
struct WordMoves {
    template <class V> static V bswap32(V x) { return x86_words::bswap32(x); }
    template <class V> static void transpose4(V &r0, V &r1, V &r2, V &r3) { x86_words::transpose(r0, r1, r2, r3); }
};

} // namespace
} // namespace kc::x86_words
