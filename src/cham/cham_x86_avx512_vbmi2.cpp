// cham/avx512-vbmi2: revised CHAM (all three variants) on AVX-512F/BW with VBMI2's funnel
// shift for the 16-bit rotations of CHAM-64/128 (Ice Lake and later); otherwise the same
// kernel as cham/avx512 (cham_x86_avx512.cpp, whose header describes the technique).
//
// Technique. Word-sliced like cham/avx512: register j holds word j of 16 blocks (CHAM-128) or
// 32 blocks (CHAM-64/128), four groups per step, five operations per round. For 16-bit words,
// VPSHLDW x, x, 1 is ROL1 in one instruction (port 0) and ROL8 a VPSHUFB byte swap (port 5),
// so a round is one operation on each port plus three that run on either: 10 per two rounds
// (cham/avx512 needs 13). 32-bit words are as in cham/avx512: vprold and VPSHUFB.
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

KC_TARGET_PUSH("avx512f,avx512bw,avx512vbmi2")
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

// ROL_R of 16-bit lanes: VPSHLDW of a lane with itself, a funnel shift, is a rotation.
struct Rot16 {
    template <unsigned R> static __m512i rol(__m512i x) { return _mm512_shldi_epi16(x, x, R); }
    template <unsigned R> static __m512i rol_xor(__m512i x, __m512i k)
    {
        return _mm512_xor_si512(rol<R>(x), k);
    }
};

// The engine over the zmm operations (cham_x86_avx512_ops.hpp) with this Rot16, compiled here,
// in this file's target region.
using Vbmi2Engine = cham_sliced::Engine<cham_zmm::ZOps16<Rot16>, cham_zmm::ZOps32>;

} // namespace

} // namespace kc

#pragma GCC diagnostic pop
KC_TARGET_POP()

namespace kc {

// Descriptor: batch_blocks: four groups of 16 CHAM-128 blocks (or 32 CHAM-64 blocks): 1 KiB; constant_time:
// ARX only (see the file header); requires: vbmi2: vpshldw; rank: AVX-512 + VBMI2. The entry points are
// baseline code (cham_sliced_entry.hpp) that calls Vbmi2Engine.
extern const Kernel cham_avx512_vbmi2_kernel = cham_sliced::kernel<Vbmi2Engine>(
    "cham/avx512-vbmi2", 64, feat_avx512f | feat_avx512bw | feat_avx512vbmi2, 45);

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp).
extern const DrbgAccel cham_avx512_vbmi2_drbg = cham_sliced::drbg_accel<Vbmi2Engine>(
    &cham_avx512_vbmi2_kernel, feat_avx512f | feat_avx512bw | feat_avx512vbmi2);

} // namespace kc

#endif // __x86_64__
