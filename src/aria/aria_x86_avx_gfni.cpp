// aria/avx-gfni: byte-sliced ARIA, 16 blocks per batch in 16 xmm registers (one byte position
// of 16 blocks per register), S-boxes with VEX-encoded GFNI (which needs AVX, not AVX2),
// diffusion with plain XORs. The AVX version of Yoo, Kivilinna, Cho (IEEE Access 2023); the
// same templates as aria/avx2-gfni and aria/avx512-gfni (aria_x86_byteslice.hpp) at 128 bits.
//
// A round is 24 GFNI + 88 XORs per batch of 16 blocks. A last batch of fewer than 16 blocks
// runs as a whole one through a zero-padded stack buffer (no masked stores without AVX-512),
// never a block at a time. With 16 xmm registers for 16 byte positions, the compiler keeps
// part of the state on the stack between the steps of a round.
//
// Constant-time: no branch and no memory address depends on key or data. The S-boxes are
// computed by gf2p8affineinvqb / gf2p8affineqb on register contents; everything else is XOR,
// unpack and broadcast loads of round keys at fixed addresses. The CTR code branches on
// counter bytes, which are public. (valgrind cannot decode GFNI, so ct_check skips it.)
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

KC_TARGET_PUSH("avx,gfni")
#define KC_ARIA_BYTESLICE_SIMD
#include "aria/aria_x86_byteslice.hpp"

namespace kc {
namespace {

using aria_bs::VexXmm;

using Entry = aria_bs::MasklessEntry<VexXmm, VexXmm, aria_bs::GfniSboxes>;

} // namespace
} // namespace kc

KC_TARGET_POP()

namespace kc {

// What the kernel runs on (the instruction sets its target pragma enables).
constexpr uint32_t needs = feat_avx | feat_gfni;

// Descriptor: batch_blocks: 16 xmm registers x 16 bytes; constant_time: GFNI S-boxes, no
// data-indexed memory; rank: AVX + GFNI, above AVX + AES-NI (20).
extern const Kernel aria_avx_gfni_kernel = {
    "aria/avx-gfni", "aria", 16, 16, true, needs, 25, sizeof(AriaSlicedKeys),
    aria_sliced_supports, aria_sliced_set_key_diffusion,
    Entry::encrypt_blocks, Entry::decrypt_blocks, Entry::ctr_xor_blocks};

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp): its encryption-only key schedule.
extern const DrbgAccel aria_avx_gfni_drbg = {&aria_avx_gfni_kernel, needs, aria_sliced_set_encrypt_key_diffusion};

// XTS's whitened ECB for the kernel above (kit/xts/xts_accel.hpp).
extern const XtsAccel aria_avx_gfni_xts = {&aria_avx_gfni_kernel, needs, Entry::xts_blocks};

} // namespace kc

#endif // __x86_64__
