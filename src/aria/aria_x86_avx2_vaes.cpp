// aria/avx2-vaes: byte-sliced ARIA, 32 blocks per batch in 16 ymm registers, S-boxes with the
// 256-bit AES instructions of VAES (one vaesenclast or vaesdeclast per ymm vector, where
// aria/avx2-aesni needs two AES-NI instructions and a lane extract and insert). Otherwise the
// same as aria/avx2-aesni (aria_x86_byteslice.hpp: AesniSboxes says how the S-boxes are
// computed), except that the round keys are whole ymm rows (AriaSlicedKeysYmm), memory
// operands of vaesenclast / vaesdeclast, and CTR computes round 1 once per 256 counters
// (CtrSpan).
//
// A last batch of 17..31 blocks runs as a whole ymm batch through a zero-padded stack buffer,
// one of at most 16 blocks as an xmm batch (AES-NI), never a block at a time.
//
// Constant-time: no branch and no memory address depends on key or data. vaesenclast and
// vaesdeclast take the same time for every input; the affine maps are vpshufb lookups whose
// 16-byte tables sit in registers (the data is the shuffle index, not an address); the rest
// is XOR, unpack and round-key loads at fixed addresses. The CTR code branches on counter
// bytes, which are public. (valgrind cannot decode VAES, so ct_check skips it.)
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

KC_TARGET_PUSH("avx2,aes,vaes")
#define KC_ARIA_BYTESLICE_SIMD
#define KC_ARIA_BYTESLICE_AES
#define KC_ARIA_BYTESLICE_YMM
#include "aria/aria_x86_byteslice.hpp"

namespace kc {
namespace {

using aria_bs::AesXmm;

// 256-bit vectors with VAES: aesenclast and aesdeclast on both 128-bit lanes at once.
struct VaesYmm : aria_bs::VexYmm, aria_bs::YmmRowKeys {
    static vec aesenclast(vec x, vec r) { return _mm256_aesenclast_epi128(x, r); }
    static vec aesdeclast(vec x, vec r) { return _mm256_aesdeclast_epi128(x, r); }
    static vec pshufb(vec table, vec index) { return _mm256_shuffle_epi8(table, index); }
    static vec and2(vec a, vec b) { return _mm256_and_si256(a, b); }
    static vec shift_nibbles(vec x) { return _mm256_srli_epi16(x, 4); }
    static constexpr bool short_diffusion = true; // see diffuse()
};

using Entry = aria_bs::MasklessEntry<VaesYmm, AesXmm, aria_bs::AesniSboxes>;

} // namespace
} // namespace kc

KC_TARGET_POP()

namespace kc {

// What the kernel runs on (the instruction sets its target pragma enables).
constexpr uint32_t needs = feat_avx | feat_avx2 | feat_aesni | feat_vaes;

// Descriptor: batch_blocks: 16 ymm registers x 32 bytes; constant_time: AES-NI S-boxes,
// register-table vpshufb.
extern const Kernel aria_avx2_vaes_kernel = {
    "aria/avx2-vaes", "aria", 16, 32, true, needs, 33, sizeof(AriaSlicedKeysYmm),
    aria_sliced_supports, aria_sliced_set_key_sbox_ymm,
    Entry::encrypt_blocks, Entry::decrypt_blocks, Entry::ctr_xor_blocks};

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp): its encryption-only key schedule.
extern const DrbgAccel aria_avx2_vaes_drbg = {&aria_avx2_vaes_kernel, needs, aria_sliced_set_encrypt_key_sbox_ymm};

// XTS's whitened ECB for the kernel above (kit/xts/xts_accel.hpp).
extern const XtsAccel aria_avx2_vaes_xts = {&aria_avx2_vaes_kernel, needs, Entry::xts_blocks};

} // namespace kc

#endif // __x86_64__
