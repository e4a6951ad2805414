// cham/avx2: revised CHAM (all three variants) on AVX2, word-sliced: 8 blocks of CHAM-128 or
// 16 blocks of CHAM-64/128 per group of four ymm registers, two groups per step.
//
// Technique. Blocks are transposed so that register j holds word j of every block of a group
// (the same layouts as cham/avx512, in 128-bit lanes: a 4x4 transpose of 32-bit words, after
// a VPSHUFB that pairs the words of two 8-byte blocks for CHAM-64/128; both kernels' moves and
// byte shuffles are cham_x86_words.hpp, the operations classes here the AVX2 rest). A round is then
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
#include "core/target_region.hpp"
#include "kit/drbg_accel.hpp"
#include "core/wipe.hpp"

KC_TARGET_PUSH("avx2")
#include "cham/cham_sliced_engine.hpp"
#include "cham/cham_x86_words.hpp"

namespace kc {

namespace {

using Y = __m256i;

// Loads and stores, broadcasts, shared by both word sizes (XOR: cham_x86_words.hpp); partial
// steps go through a stack buffer (not masked).
template <size_t BlockBytes> struct YCommon
    : cham_x86::Layout<cham_x86::Ymm, BlockBytes, 2, false> {
    static Y bcast(const uint32_t *p) { return _mm256_set1_epi32((int)*p); }
    static Y load(const uint8_t *p, size_t j)
    {
        return _mm256_loadu_si256(reinterpret_cast<const Y *>(p + 32 * j));
    }
    static void store(uint8_t *p, size_t j, Y v)
    {
        _mm256_storeu_si256(reinterpret_cast<Y *>(p + 32 * j), v);
    }
};

// Rotations of Bits-bit lanes by R not a multiple of 8. AVX2 has no vector rotate: ROL1 is
// x + x (port 0, 1 or 5, where a shift has only two) ORed with x >> (Bits - 1), the others
// two shifts and an OR.
template <unsigned Bits> struct YRot {
    template <unsigned R> static Y rol(Y x)
    {
        if constexpr (Bits == 16)
            return _mm256_or_si256(R == 1 ? _mm256_add_epi16(x, x) : _mm256_slli_epi16(x, R),
                                   _mm256_srli_epi16(x, 16 - R));
        else
            return _mm256_or_si256(R == 1 ? _mm256_add_epi32(x, x) : _mm256_slli_epi32(x, R),
                                   _mm256_srli_epi32(x, 32 - R));
    }
    template <unsigned R> static Y rol_xor(Y x, Y k) { return cham_x86::vxor(rol<R>(x), k); }
};

// CHAM-128/*: 32-bit words, 8 blocks per group.
struct YOps32 : cham_x86::Words32<YCommon<16>, YRot<32>> {
    static V add(V a, V b) { return _mm256_add_epi32(a, b); }
    static V sub(V a, V b) { return _mm256_sub_epi32(a, b); }
    static V splat(W w) { return _mm256_set1_epi32((int)w); }
    // Dword e of lane l holds block 2e + l (the transpose of registers of blocks 2q, 2q+1).
    static V lane_blocks() { return x86_words::ctr_lane_offsets_ymm(); }
};

// CHAM-64/128: 16-bit words, 16 blocks per group.
struct YOps16 : cham_x86::Words16<YCommon<8>, YRot<16>> {
    static V add(V a, V b) { return _mm256_add_epi16(a, b); }
    static V sub(V a, V b) { return _mm256_sub_epi16(a, b); }
    static V splat(W w) { return _mm256_set1_epi16((short)w); }
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

KC_TARGET_POP()

namespace kc {

// Descriptor: batch_blocks: two groups of 8 CHAM-128 blocks (or 16 CHAM-64 blocks): 256 bytes;
// constant_time: ARX only (see the file header); rank: AVX2. The entry points are baseline code
// (cham_sliced_entry.hpp) that calls Avx2Engine.
extern const Kernel cham_avx2_kernel = cham_sliced::kernel<Avx2Engine>("cham/avx2", 16, feat_avx2, 30);

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp).
extern const DrbgAccel cham_avx2_drbg = cham_sliced::drbg_accel<Avx2Engine>(&cham_avx2_kernel, feat_avx2);

} // namespace kc

#endif // __x86_64__
