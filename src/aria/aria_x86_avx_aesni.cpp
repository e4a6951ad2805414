// aria/avx-aesni: byte-sliced ARIA, 16 blocks per batch in 16 xmm registers (one byte position
// of 16 blocks per register), S-boxes with AES-NI: aesenclast and aesdeclast give SB1 and
// SB1^-1 = SB3, and one combined affine map each (two vpshufb nibble lookups) gives SB2 and
// SB4 from them (Yoo, Kivilinna, Cho, IEEE Access 2023, section IV-B). The layout, the key
// folding, the ShiftRows bookkeeping and the sliced CTR counters are in
// aria_x86_byteslice.hpp; the GFNI kernels share all of it but the S-boxes.
//
// Per round and batch of 16 blocks: 16 AES instructions (the round key is theirs), 8 affine
// maps of 6 instructions, 8 vpshufb that realign ShiftRows, 72 XORs of the diffusion. A last
// batch of fewer than 16 blocks runs as a whole one through a zero-padded stack buffer.
//
// Constant-time: no branch and no memory address depends on key or data. aesenclast and
// aesdeclast take the same time for every input; the affine maps are vpshufb lookups whose
// 16-byte tables sit in registers (the data is the shuffle index, not an address); the rest
// is XOR, unpack and round-key loads at fixed addresses. The CTR code branches on counter
// bytes, which are public. valgrind runs this kernel: ct_check aria/avx-aesni.
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

KC_TARGET_PUSH("avx,aes")
#define KC_ARIA_BYTESLICE_SIMD
#define KC_ARIA_BYTESLICE_AES
#include "aria/aria_x86_byteslice.hpp"

namespace kc {
namespace {

using aria_bs::AesXmm;

using Entry = aria_bs::MasklessEntry<AesXmm, AesXmm, aria_bs::AesniSboxes>;

} // namespace
} // namespace kc

KC_TARGET_POP()

namespace kc {

// What the kernel runs on (the instruction sets its target pragma enables).
constexpr uint32_t needs = feat_avx | feat_aesni;

// Descriptor: batch_blocks: 16 xmm registers x 16 bytes; constant_time: AES-NI S-boxes,
// register-table vpshufb; rank: AVX + AES-NI.
extern const Kernel aria_avx_aesni_kernel = {
    "aria/avx-aesni", "aria", 16, 16, true, needs, 20, sizeof(AriaSlicedKeys),
    aria_sliced_supports, aria_sliced_set_key_sbox,
    Entry::encrypt_blocks, Entry::decrypt_blocks, Entry::ctr_xor_blocks};

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp): its encryption-only key schedule.
extern const DrbgAccel aria_avx_aesni_drbg = {&aria_avx_aesni_kernel, needs, aria_sliced_set_encrypt_key_sbox};

// XTS's whitened ECB for the kernel above (kit/xts/xts_accel.hpp).
extern const XtsAccel aria_avx_aesni_xts = {&aria_avx_aesni_kernel, needs, Entry::xts_blocks};

} // namespace kc

#endif // __x86_64__
