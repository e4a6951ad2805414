// What the word-sliced CHAM kernels on x86 (cham/avx2 on ymm, cham/avx512 and cham/avx512-vbmi2
// on zmm) do the same way on either register width: the moves between blocks and words, the
// byte shuffles (byte swaps, rotations by whole bytes) and XOR. Each kernel's operations class
// for cham_sliced_engine.hpp derives from Words32 or Words16 over a Layout with its loads and
// stores, and states only what its instruction set does its own way: additions,
// broadcasts, loads and stores, lane_blocks() and Rot, the rotations by R not a multiple of 8:
//
//   template <unsigned R> static V rol(V x);
//   template <unsigned R> static V rol_xor(V x, V k); // ROL_R(x) ^ k; Words16 only
//
// Include it inside a `KC_TARGET_PUSH` region that enables AVX2 (the ymm overloads) or
// AVX-512F/BW (the zmm ones too, with KC_X86_WORD_SLICE_ZMM defined, as for
// kit/x86_word_slice.hpp): everything is in an anonymous namespace, so each kernel file
// compiles its own copy for its own instruction set.
//
// Layout of a group of four registers. CHAM-128: a register holds blocks whole; the in-lane 4x4
// transpose of 32-bit words (kit/x86_word_slice.hpp) turns four of them into X[0..3]. CHAM-64/128:
// a VPSHUFB inside each 128-bit lane first pairs up the same word of its two 8-byte blocks in one
// dword, then the same transpose gives X[0..3] in 16-bit lanes.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kit/x86_word_slice.hpp"

namespace kc::cham_x86 {
namespace {

// The register widths (as tags: a vector type as a class template's argument loses its
// attributes, -Wignored-attributes).
struct Ymm {
    using V = __m256i;
};

// VPSHUFB's byte indices, the same for each 128-bit lane. in_lanes(p, InLane<...>{}) is them in
// a register of p's width (p only picks the overload).
template <char... B> struct InLane {};

inline __m256i vxor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
inline __m256i shuffle(__m256i x, __m256i p) { return _mm256_shuffle_epi8(x, p); }
template <char... B> inline __m256i in_lanes(const __m256i *, InLane<B...>)
{
    return _mm256_setr_epi8(B..., B...);
}

#if defined(KC_X86_WORD_SLICE_ZMM)
struct Zmm {
    using V = __m512i;
};
inline __m512i vxor(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
inline __m512i shuffle(__m512i x, __m512i p) { return _mm512_shuffle_epi8(x, p); }
template <char... B> inline __m512i in_lanes(const __m512i *, InLane<B...>)
{
    return _mm512_broadcast_i32x4(_mm_setr_epi8(B...));
}
#endif

// 4x4 transpose of 32-bit words inside each 128-bit lane, its own inverse: register q of four
// registers of whole blocks gives dword q of every lane of each output. The same as
// x86_words::transpose, but on the array: through four references GCC inlines and unrolls the
// engine's AVX-512 steps differently (other code, not just other registers).
template <class V> inline void transpose4(V (&r)[4])
{
    V t0 = x86_words::unpack_lo32(r[0], r[1]), t1 = x86_words::unpack_hi32(r[0], r[1]);
    V t2 = x86_words::unpack_lo32(r[2], r[3]), t3 = x86_words::unpack_hi32(r[2], r[3]);
    r[0] = x86_words::unpack_lo64(t0, t2);
    r[1] = x86_words::unpack_hi64(t0, t2);
    r[2] = x86_words::unpack_lo64(t1, t3);
    r[3] = x86_words::unpack_hi64(t1, t3);
}

// x with the bytes of each 128-bit lane permuted by P (an InLane).
template <class P, class V> inline V shuffle_in_lanes(V x) { return shuffle(x, in_lanes(&x, P{})); }

// The byte moves: ROL8, ROL24 and the byte swap of 32-bit words; the byte swap (ROL8) of 16-bit
// words; the pairing of the words of two 8-byte blocks (Words16::to_words) and its inverse.
using Rol8x32 = InLane<3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14>;
using Rol24x32 = InLane<1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12>;
using Bswap32 = InLane<3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12>;
using Bswap16 = InLane<1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14>;
using Pair16 = InLane<0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15>;
using Unpair16 = InLane<0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15>;

// The engine's constants for one register width and block size, and XOR, shared by both word
// sizes; Groups groups per full step; Masked: partial steps use masked loads and stores.
template <class Width, size_t BlockBytes, int Groups, bool Masked> struct Layout {
    using V = typename Width::V;
    static constexpr size_t block_bytes = BlockBytes, lanes = sizeof(V) / (BlockBytes / 4);
    static constexpr int groups = Groups;
    static constexpr bool masked = Masked;

    static V bxor(V a, V b) { return vxor(a, b); }
};

// CHAM-128/*: 32-bit words, over Base (a Layout with loads and stores). Rotations by whole
// bytes are VPSHUFB (port 5), the others Rot's.
template <class Base, class Rot> struct Words32 : Base {
    using V = typename Base::V;
    using W = uint32_t;
    template <unsigned R> static V rol(V x)
    {
        if constexpr (R == 8)
            return shuffle_in_lanes<Rol8x32>(x);
        else if constexpr (R == 24)
            return shuffle_in_lanes<Rol24x32>(x);
        else
            return Rot::template rol<R>(x);
    }
    template <unsigned R> static V rol_xor(V x, V k) { return vxor(rol<R>(x), k); }
    static V bswap(V x)
    {
        return shuffle_in_lanes<Bswap32>(x);
    }
    static void to_words(V (&r)[4]) { transpose4(r); }
    static void to_blocks(V (&r)[4]) { transpose4(r); }
};

// CHAM-64/128: 16-bit words, over Base as Words32. ROL8 is the byte swap (VPSHUFB, port 5), the
// others Rot's.
template <class Base, class Rot> struct Words16 : Base {
    using V = typename Base::V;
    using W = uint16_t;
    template <unsigned R> static V rol(V x)
    {
        if constexpr (R == 8)
            return bswap(x);
        else
            return Rot::template rol<R>(x);
    }
    template <unsigned R> static V rol_xor(V x, V k)
    {
        if constexpr (R == 8)
            return vxor(bswap(x), k);
        else
            return Rot::template rol_xor<R>(x, k);
    }
    static V bswap(V x)
    {
        return shuffle_in_lanes<Bswap16>(x);
    }
    // Inside each 128-bit lane, blocks B0 and B1 (words w0..w3 each) become
    // B0w0 B1w0 B0w1 B1w1 B0w2 B1w2 B0w3 B1w3: dword e holds word e of both; the transpose then
    // gathers dword e of the four registers.
    static void to_words(V (&r)[4])
    {
        const V pair = in_lanes(r, Pair16{});
        for (V &v : r)
            v = shuffle(v, pair);
        transpose4(r);
    }
    static void to_blocks(V (&r)[4])
    {
        const V unpair = in_lanes(r, Unpair16{});
        transpose4(r);
        for (V &v : r)
            v = shuffle(v, unpair);
    }
};

} // namespace
} // namespace kc::cham_x86
