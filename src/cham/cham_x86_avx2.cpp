// cham/avx2: revised CHAM (all three variants) on AVX2, word-sliced: 8 blocks of CHAM-128 or
// 16 blocks of CHAM-64/128 per group of four ymm registers, two groups per step.
//
// Technique. Blocks are transposed so that register j holds word j of every block of a group
// (the same layouts as cham/avx512, in 128-bit lanes: a 4x4 transpose of 32-bit words, after
// a VPSHUFB that pairs the words of two 8-byte blocks for CHAM-64/128). A round is then
// whole-register operations (cham_sliced_engine.hpp): XOR with the round number, a rotation and
// an XOR with the round key (VEX broadcasts from the per-round tables of cham_sliced.hpp), an
// addition and another rotation. AVX2 has no vector rotate: ROL8 is a VPSHUFB byte rotation
// and ROL1 an addition, a shift and an OR, so a round is 7 operations on the three vector
// ports (AVX-512 needs 5 on two). The spec's word rotation between rounds is register
// renaming in the four-round unrolled loop. Two groups per step fill the sixteen ymm
// registers. CTR builds its counters in registers, word-sliced from the start, and starts from
// the values of rounds 0..11 that depend only on the counter's upper words (cham_sliced.hpp).
//
// Short inputs: a last partial step is copied to a stack buffer, computed as a whole step of
// one or two groups and copied back (then the buffer is wiped); never one block at a time.
//
// Constant-time: CHAM is ARX. The only operations on key or data are XOR, additions and
// subtractions of words, shifts and rotations by constants, fixed shuffles, and loads/stores
// at addresses that depend on the public length alone; no table, no secret-dependent branch.
// Round keys are read at addresses fixed by the public round number; the tail copies and the
// CTR segment split depend on the public length and counter only. Checked under valgrind by
// kcipher_ct_check.
#if defined(__x86_64__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cham/cham_sliced.hpp"
#include "cham/cham_sliced_entry.hpp"
#include "core/kernel.hpp"
#include "kit/drbg_accel.hpp"
#include "core/wipe.hpp"

#pragma GCC push_options
#pragma GCC target("avx2")
#include "cham/cham_sliced_engine.hpp"

namespace kc {

namespace {

using Y = __m256i;

inline Y yxor(Y a, Y b) { return _mm256_xor_si256(a, b); }
inline Y bytes_in_lanes(int b0, int b1, int b2, int b3, int b4, int b5, int b6, int b7, int b8,
                        int b9, int b10, int b11, int b12, int b13, int b14, int b15)
{
    return _mm256_setr_epi8((char)b0, (char)b1, (char)b2, (char)b3, (char)b4, (char)b5, (char)b6,
                            (char)b7, (char)b8, (char)b9, (char)b10, (char)b11, (char)b12,
                            (char)b13, (char)b14, (char)b15, (char)b0, (char)b1, (char)b2,
                            (char)b3, (char)b4, (char)b5, (char)b6, (char)b7, (char)b8, (char)b9,
                            (char)b10, (char)b11, (char)b12, (char)b13, (char)b14, (char)b15);
}

// 4x4 transpose of 32-bit words inside each 128-bit lane; its own inverse.
inline void transpose4(Y (&r)[4])
{
    Y t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    Y t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    r[0] = _mm256_unpacklo_epi64(t0, t2);
    r[1] = _mm256_unpackhi_epi64(t0, t2);
    r[2] = _mm256_unpacklo_epi64(t1, t3);
    r[3] = _mm256_unpackhi_epi64(t1, t3);
}

// Operations shared by both word sizes: loads, stores, XOR, broadcasts.
template <size_t BlockBytes> struct YCommon {
    using V = Y;
    static constexpr size_t block_bytes = BlockBytes, lanes = 32 / (BlockBytes / 4);
    static constexpr int groups = 2;
    static constexpr bool masked = false; // partial steps go through a stack buffer

    static V bxor(V a, V b) { return yxor(a, b); }
    static V bcast(const uint32_t *p) { return _mm256_set1_epi32((int)*p); }
    static V load(const uint8_t *p, size_t j)
    {
        return _mm256_loadu_si256(reinterpret_cast<const Y *>(p + 32 * j));
    }
    static void store(uint8_t *p, size_t j, V v)
    {
        _mm256_storeu_si256(reinterpret_cast<Y *>(p + 32 * j), v);
    }
};

// CHAM-128/*: 32-bit words, 8 blocks per group.
struct YOps32 : YCommon<16> {
    using W = uint32_t;
    static V add(V a, V b) { return _mm256_add_epi32(a, b); }
    static V sub(V a, V b) { return _mm256_sub_epi32(a, b); }
    static V splat(W w) { return _mm256_set1_epi32((int)w); }
    // Rotations by whole bytes are one VPSHUFB; ROL1 is x + x (port 0, 1 or 5, where a shift
    // has only two) ORed with x >> 31.
    template <unsigned R> static V rol(V x)
    {
        if constexpr (R == 8)
            return _mm256_shuffle_epi8(x, bytes_in_lanes(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15,
                                                         12, 13, 14));
        else if constexpr (R == 24)
            return _mm256_shuffle_epi8(x, bytes_in_lanes(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13,
                                                         14, 15, 12));
        else if constexpr (R == 1)
            return _mm256_or_si256(_mm256_add_epi32(x, x), _mm256_srli_epi32(x, 31));
        else
            return _mm256_or_si256(_mm256_slli_epi32(x, R), _mm256_srli_epi32(x, 32 - R));
    }
    template <unsigned R> static V rol_xor(V x, V k) { return yxor(rol<R>(x), k); }
    static V bswap(V x)
    {
        return _mm256_shuffle_epi8(x, bytes_in_lanes(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14,
                                                     13, 12));
    }
    static void to_words(V (&r)[4]) { transpose4(r); }
    static void to_blocks(V (&r)[4]) { transpose4(r); }
    // Dword e of lane l holds block 2e + l (transpose4 of registers of blocks 2q, 2q+1).
    static V lane_blocks() { return _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7); }
};

// CHAM-64/128: 16-bit words, 16 blocks per group.
struct YOps16 : YCommon<8> {
    using W = uint16_t;
    static V add(V a, V b) { return _mm256_add_epi16(a, b); }
    static V sub(V a, V b) { return _mm256_sub_epi16(a, b); }
    static V splat(W w) { return _mm256_set1_epi16((short)w); }
    template <unsigned R> static V rol(V x)
    {
        if constexpr (R == 8)
            return bswap(x);
        else if constexpr (R == 1)
            return _mm256_or_si256(_mm256_add_epi16(x, x), _mm256_srli_epi16(x, 15));
        else
            return _mm256_or_si256(_mm256_slli_epi16(x, R), _mm256_srli_epi16(x, 16 - R));
    }
    template <unsigned R> static V rol_xor(V x, V k) { return yxor(rol<R>(x), k); }
    static V bswap(V x)
    {
        return _mm256_shuffle_epi8(x, bytes_in_lanes(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12,
                                                     15, 14));
    }
    // Inside each 128-bit lane, blocks B0 and B1 become B0w0 B1w0 B0w1 B1w1 ... (dword e holds
    // word e of both); transpose4 then gathers dword e of the four registers.
    static void to_words(V (&r)[4])
    {
        const V pair = bytes_in_lanes(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
        for (V &v : r)
            v = _mm256_shuffle_epi8(v, pair);
        transpose4(r);
    }
    static void to_blocks(V (&r)[4])
    {
        const V unpair = bytes_in_lanes(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
        transpose4(r);
        for (V &v : r)
            v = _mm256_shuffle_epi8(v, unpair);
    }
    // Word 2e + h of lane l holds block 4e + 2l + h (register e of blocks 4e..4e+3, lane l).
    static V lane_blocks()
    {
        return _mm256_setr_epi16(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
    }
};

// The engine over these, compiled here, in the AVX2 region.
using Avx2Engine = cham_sliced::Engine<YOps16, YOps32>;

} // namespace

} // namespace kc

#pragma GCC pop_options

namespace kc {

// Descriptor: batch_blocks: two groups of 8 CHAM-128 blocks (or 16 CHAM-64 blocks): 256 bytes;
// constant_time: ARX only (see the file header); rank: AVX2. The entry points are baseline code
// (cham_sliced_entry.hpp) that calls Avx2Engine.
extern const Kernel cham_avx2_kernel = cham_sliced::kernel<Avx2Engine>("cham/avx2", 16, feat_avx2, 30);

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp).
extern const DrbgAccel cham_avx2_drbg = cham_sliced::drbg_accel<Avx2Engine>(&cham_avx2_kernel, feat_avx2);

} // namespace kc

#endif // __x86_64__
