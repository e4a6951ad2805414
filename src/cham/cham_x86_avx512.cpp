// cham/avx512: revised CHAM (all three variants) on AVX-512F/BW, word-sliced: 16 blocks of
// CHAM-128 or 32 blocks of CHAM-64/128 per group of four zmm registers, four groups per step.
//
// Technique. Blocks are transposed so that register j holds word j of every block of a group
// (cham_x86_avx512_ops.hpp); a round is then five whole-register operations: XOR with the round
// number, a rotation and an XOR with the round key (both constants are EVEX broadcasts from
// the per-round tables of cham_sliced.hpp), an addition and another rotation
// (cham_sliced_engine.hpp). The spec's word rotation between rounds is register renaming in the
// four-round unrolled loop. Rotations by 8 are VPSHUFB byte shuffles (port 5); 32-bit words
// rotate by 1 with vprold (port 0). 16-bit words, in this kernel for CPUs without VBMI2
// (Skylake-SP, Cascade Lake), rotate by 1 with two shifts and an OR, or two shifts and one
// VPTERNLOGD that also applies the round key's XOR: 13 operations per two rounds instead of
// the 10 of cham/avx512-vbmi2. Four independent groups
// per step give the two vector ports enough independent work. CTR builds its counters in
// registers, word-sliced from the start, and starts from the values of rounds 0..11 that only
// depend on the counter's upper words (cham_sliced.hpp). Inputs shorter than a step run as one
// step of just enough groups with masked loads and stores, never one block at a time.
//
// Constant-time: CHAM is ARX. The only operations on key or data are XOR, additions and
// subtractions of words, rotations by constants, fixed shuffles, and loads/stores at
// addresses that depend on the public length alone; no table, no secret-dependent branch.
// Round keys are read at addresses fixed by the public round number; the masks and the CTR
// segment split depend on the public length and counter only.
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

KC_TARGET_PUSH("avx512f,avx512bw")
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() (initialised from itself) as the
// unused merge source, and -Wuninitialized reports it once inlined here (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "cham/cham_sliced_engine.hpp"
#include "cham/cham_x86_avx512_ops.hpp"

namespace kc {

namespace {

// ROL_R of 16-bit lanes without VBMI2: (x << R) | (x >> (16 - R)); with the round key's XOR,
// one VPTERNLOGD computes (a | b) ^ k (truth table 0x56).
struct Rot16 {
    template <unsigned R> static __m512i rol(__m512i x)
    {
        return _mm512_or_si512(_mm512_slli_epi16(x, R), _mm512_srli_epi16(x, 16 - R));
    }
    template <unsigned R> static __m512i rol_xor(__m512i x, __m512i k)
    {
        return _mm512_ternarylogic_epi32(_mm512_slli_epi16(x, R), _mm512_srli_epi16(x, 16 - R), k,
                                         0x56);
    }
};

// The engine over the zmm operations (cham_x86_avx512_ops.hpp) with this Rot16, compiled here,
// in this file's target region.
using Avx512Engine = cham_sliced::Engine<cham_zmm::ZOps16<Rot16>, cham_zmm::ZOps32>;

} // namespace

} // namespace kc

#pragma GCC diagnostic pop
KC_TARGET_POP()

namespace kc {

// Descriptor: batch_blocks: four groups of 16 CHAM-128 blocks (or 32 CHAM-64 blocks): 1 KiB; constant_time:
// ARX only (see the file header); requires: bw: 16-bit lanes, vpshufb zmm; rank: AVX-512. The entry
// points are baseline code (cham_sliced_entry.hpp) that calls Avx512Engine.
extern const Kernel cham_avx512_kernel =
    cham_sliced::kernel<Avx512Engine>("cham/avx512", 64, feat_avx512f | feat_avx512bw, 40);

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp).
extern const DrbgAccel cham_avx512_drbg =
    cham_sliced::drbg_accel<Avx512Engine>(&cham_avx512_kernel, feat_avx512f | feat_avx512bw);

} // namespace kc

#endif // __x86_64__
