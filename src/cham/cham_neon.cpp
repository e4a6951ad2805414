// cham/neon: revised CHAM (all three variants) on ARMv8 NEON, word-sliced: a group of four
// registers holds word j of 4 CHAM-128 blocks (or 8 CHAM-64/128 blocks) in register j, and a
// step runs four groups (16 or 32 blocks).
//
// Technique. The rounds, the ECB steps and CTR (counters built in registers, the values of
// rounds 0..11 that depend only on the counter's upper words computed once per segment) are
// the word-sliced engine of cham_sliced_engine.hpp (shared with the x86 kernels), plain C++
// over an operations class per word size; this file supplies those classes for NEON. ROL8 is one byte permutation
// (REV16 for 16-bit words, a one-register TBL for 32-bit words); the other rotations are a
// shift (or x + x for ROL1) and an SRI (shift right and insert), so a round is six
// instructions per group. The word rotation between rounds is register renaming. A group's
// blocks are transposed into words by two levels of UZP (and back by ZIP): eight instructions
// per group, against 88 to 120 rounds of six.
//
// Constant-time: ARX only. XOR, additions and subtractions of words, shifts by constants,
// fixed byte permutations (TBL with a constant index), loads/stores at addresses fixed by the
// public length, round keys at addresses fixed by the public round number.
#if defined(__aarch64__)
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cham/cham_sliced.hpp"
#include "cham/cham_sliced_engine.hpp"
#include "cham/cham_sliced_entry.hpp"
#include "core/kernel.hpp"
#include "kit/drbg_accel.hpp"
#include "core/wipe.hpp"

namespace kc {
namespace {

inline uint16x8_t uzp1(uint16x8_t a, uint16x8_t b) { return vuzp1q_u16(a, b); }
inline uint16x8_t uzp2(uint16x8_t a, uint16x8_t b) { return vuzp2q_u16(a, b); }
inline uint16x8_t zip1(uint16x8_t a, uint16x8_t b) { return vzip1q_u16(a, b); }
inline uint16x8_t zip2(uint16x8_t a, uint16x8_t b) { return vzip2q_u16(a, b); }
inline uint32x4_t uzp1(uint32x4_t a, uint32x4_t b) { return vuzp1q_u32(a, b); }
inline uint32x4_t uzp2(uint32x4_t a, uint32x4_t b) { return vuzp2q_u32(a, b); }
inline uint32x4_t zip1(uint32x4_t a, uint32x4_t b) { return vzip1q_u32(a, b); }
inline uint32x4_t zip2(uint32x4_t a, uint32x4_t b) { return vzip2q_u32(a, b); }

// Registers r[q] of consecutive blocks -> r[j] = word j of every block, lane b = block b of
// the group: even/odd words apart, then again (words 0, 2 and 1, 3 split).
template <class V> inline void words_from_blocks(V (&r)[4])
{
    const V u0 = uzp1(r[0], r[1]), u1 = uzp2(r[0], r[1]);
    const V u2 = uzp1(r[2], r[3]), u3 = uzp2(r[2], r[3]);
    r[0] = uzp1(u0, u2), r[2] = uzp2(u0, u2);
    r[1] = uzp1(u1, u3), r[3] = uzp2(u1, u3);
}

template <class V> inline void blocks_from_words(V (&r)[4])
{
    const V u0 = zip1(r[0], r[2]), u2 = zip2(r[0], r[2]);
    const V u1 = zip1(r[1], r[3]), u3 = zip2(r[1], r[3]);
    r[0] = zip1(u0, u1), r[1] = zip2(u0, u1);
    r[2] = zip1(u2, u3), r[3] = zip2(u2, u3);
}

// What both word sizes share. Partial steps go through a stack buffer (masked = false).
template <class Vec, size_t BlockBytes> struct NeonCommon {
    using V = Vec;
    static constexpr size_t block_bytes = BlockBytes, lanes = 64 / BlockBytes;
    static constexpr int groups = 4;
    static constexpr bool masked = false;

    static V from_bytes(uint8x16_t b)
    {
        if constexpr (BlockBytes == 8)
            return vreinterpretq_u16_u8(b);
        else
            return vreinterpretq_u32_u8(b);
    }
    static uint8x16_t bytes(V v)
    {
        if constexpr (BlockBytes == 8)
            return vreinterpretq_u8_u16(v);
        else
            return vreinterpretq_u8_u32(v);
    }
    static V bxor(V a, V b) { return from_bytes(veorq_u8(bytes(a), bytes(b))); }
    // One ChamSlicedKeys entry (a 16-bit word is stored in both halves) in every lane.
    static V bcast(const uint32_t *p) { return from_bytes(vreinterpretq_u8_u32(vld1q_dup_u32(p))); }
    static V load(const uint8_t *p, size_t j) { return from_bytes(vld1q_u8(p + 16 * j)); }
    static void store(uint8_t *p, size_t j, V v) { vst1q_u8(p + 16 * j, bytes(v)); }
    static void to_words(V (&r)[4]) { words_from_blocks(r); }
    static void to_blocks(V (&r)[4]) { blocks_from_words(r); }
};

// CHAM-128/*: 32-bit words, 4 blocks per group.
struct NeonOps32 : NeonCommon<uint32x4_t, 16> {
    using W = uint32_t;
    static V add(V a, V b) { return vaddq_u32(a, b); }
    static V sub(V a, V b) { return vsubq_u32(a, b); }
    static V splat(W w) { return vdupq_n_u32(w); }
    static V byte_rotate(V x, const uint8_t (&index)[16])
    {
        return vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(x), vld1q_u8(index)));
    }
    template <unsigned R> static V rol(V x)
    {
        static constexpr uint8_t rol8[16] = {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14};
        static constexpr uint8_t rol24[16] = {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12};
        if constexpr (R == 8)
            return byte_rotate(x, rol8);
        else if constexpr (R == 24)
            return byte_rotate(x, rol24);
        else if constexpr (R == 1) // ADD issues on either vector pipe, a shift on one
            return vsriq_n_u32(vaddq_u32(x, x), x, 31);
        else
            return vsriq_n_u32(vshlq_n_u32(x, R), x, 32 - R);
    }
    template <unsigned R> static V rol_xor(V x, V k) { return veorq_u32(rol<R>(x), k); }
    static V bswap(V x) { return vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(x))); }
    static V lane_blocks() { return vcombine_u32(vcreate_u32(0x100000000ull), vcreate_u32(0x300000002ull)); }
};

// CHAM-64/128: 16-bit words, 8 blocks per group.
struct NeonOps16 : NeonCommon<uint16x8_t, 8> {
    using W = uint16_t;
    static V add(V a, V b) { return vaddq_u16(a, b); }
    static V sub(V a, V b) { return vsubq_u16(a, b); }
    static V splat(W w) { return vdupq_n_u16(w); }
    template <unsigned R> static V rol(V x)
    {
        if constexpr (R == 8)
            return vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(x)));
        else if constexpr (R == 1)
            return vsriq_n_u16(vaddq_u16(x, x), x, 15);
        else
            return vsriq_n_u16(vshlq_n_u16(x, R), x, 16 - R);
    }
    template <unsigned R> static V rol_xor(V x, V k) { return veorq_u16(rol<R>(x), k); }
    static V bswap(V x) { return rol<8>(x); }
    static V lane_blocks()
    {
        return vcombine_u16(vcreate_u16(0x0003000200010000ull), vcreate_u16(0x0007000600050004ull));
    }
};

using NeonEngine = cham_sliced::Engine<NeonOps16, NeonOps32>;

} // namespace

// Descriptor: batch_blocks: four groups of 4 CHAM-128 blocks (or 8 CHAM-64 blocks): 256 bytes;
// constant_time: ARX only (see the file header); rank: the only CHAM kernel for aarch64 besides
// cham/ref.
extern const Kernel cham_neon_kernel = cham_sliced::kernel<NeonEngine>("cham/neon", 16, feat_neon, 30);

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp).
extern const DrbgAccel cham_neon_drbg = cham_sliced::drbg_accel<NeonEngine>(&cham_neon_kernel, feat_neon);

} // namespace kc

#endif // __aarch64__
