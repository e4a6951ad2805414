// aria/avx2-gfni: byte-sliced ARIA, 32 blocks per batch in 16 ymm registers (one byte position
// of 32 blocks per register), S-boxes with VEX-encoded GFNI, diffusion with plain XORs. The
// AVX2 version of Yoo, Kivilinna, Cho (IEEE Access 2023); layout, key folding and the sliced
// CTR counters are in aria_x86_byteslice.hpp, shared with aria/avx512-gfni.
//
// Without AVX-512 there are neither 3-input XORs (a round is 24 GFNI + 70 XORs: the short
// diffusion and the key) nor masks: a last batch of 17..31 blocks runs as a whole ymm batch
// through a zero-padded stack buffer, one of at most 16 blocks as an xmm batch (16 blocks), so
// short inputs cost at most one batch, never a block at a time. With 16 ymm registers for 16
// byte positions, the compiler keeps part of the state on the stack between the steps of a
// round; the round keys are whole ymm rows (AriaSlicedKeysYmm), memory operands of the XORs.
// CTR computes round 1 once per 256 counters (CtrSpan).
//
// Constant-time: no branch and no memory address depends on key or data. The S-boxes are
// computed by gf2p8affineinvqb / gf2p8affineqb on register contents; everything else is XOR,
// unpack and loads of round keys at fixed addresses. The CTR code branches on counter bytes,
// which are public. (valgrind cannot decode GFNI, so ct_check skips it.)
#if defined(__x86_64__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "aria/aria.hpp"
#include "aria/aria_x86_byteslice.hpp"
#include "core/kernel.hpp"
#include "core/target_region.hpp"
#include "kit/drbg_accel.hpp"
#include "kit/xts/xts_accel.hpp"

KC_TARGET_PUSH("avx2,gfni")
#define KC_ARIA_BYTESLICE_SIMD
#define KC_ARIA_BYTESLICE_YMM
#include "aria/aria_x86_byteslice.hpp"

namespace kc {
namespace {

using aria_bs::VexXmm;

// 256-bit VEX vectors with the round keys as ymm rows and the short diffusion (diffuse()
// says why: this kernel runs on Intel cores).
struct GfniYmm : aria_bs::VexYmm, aria_bs::YmmRowKeys {
    static constexpr bool short_diffusion = true;
};

using Entry = aria_bs::MasklessEntry<GfniYmm, VexXmm, aria_bs::GfniSboxes>;

} // namespace
} // namespace kc

KC_TARGET_POP()

namespace kc {

// What the kernel runs on (the instruction sets its target pragma enables).
constexpr uint32_t needs = feat_avx | feat_avx2 | feat_gfni;

// Descriptor: batch_blocks: 16 ymm registers x 32 bytes; constant_time: GFNI S-boxes, no
// data-indexed memory; rank: AVX2 + GFNI.
extern const Kernel aria_avx2_gfni_kernel = {
    "aria/avx2-gfni", "aria", 16, 32, true, needs, 35, sizeof(AriaSlicedKeysYmm),
    aria_sliced_supports, aria_sliced_set_key_diffusion_ymm,
    Entry::encrypt_blocks, Entry::decrypt_blocks, Entry::ctr_xor_blocks};

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp): its encryption-only key schedule.
extern const DrbgAccel aria_avx2_gfni_drbg = {&aria_avx2_gfni_kernel, needs, aria_sliced_set_encrypt_key_diffusion_ymm};

// XTS's whitened ECB for the kernel above (kit/xts/xts_accel.hpp).
extern const XtsAccel aria_avx2_gfni_xts = {&aria_avx2_gfni_kernel, needs, Entry::xts_blocks};

} // namespace kc

#endif // __x86_64__
