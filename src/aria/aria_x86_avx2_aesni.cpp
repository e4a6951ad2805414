// aria/avx2-aesni: byte-sliced ARIA, 32 blocks per batch in 16 ymm registers, S-boxes with
// AES-NI. AES-NI works on 128 bits only, so each AES step of a ymm vector is two aesenclast or
// aesdeclast on its halves (plus the extract and insert); the rest (affine nibble maps,
// ShiftRows realignment, diffusion) works on all 32 blocks at once. The AVX2 + AES-NI version
// of Yoo, Kivilinna, Cho (IEEE Access 2023); everything but the vector width is shared with
// aria/avx-aesni (aria_x86_byteslice.hpp: AesniSboxes says how the S-boxes are computed).
//
// A last batch of 17..31 blocks runs as a whole ymm batch through a zero-padded stack buffer,
// one of at most 16 blocks as an xmm batch, never a block at a time.
//
// Constant-time: no branch and no memory address depends on key or data. aesenclast and
// aesdeclast take the same time for every input; the affine maps are vpshufb lookups whose
// 16-byte tables sit in registers (the data is the shuffle index, not an address); the rest
// is XOR, unpack and round-key loads at fixed addresses. The CTR code branches on counter
// bytes, which are public. valgrind runs this kernel: ct_check aria/avx2-aesni.
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

KC_TARGET_PUSH("avx2,aes")
#define KC_ARIA_BYTESLICE_SIMD
#define KC_ARIA_BYTESLICE_AES
#define KC_ARIA_BYTESLICE_YMM
#include "aria/aria_x86_byteslice.hpp"

namespace kc {
namespace {

using aria_bs::AesXmm;

// 256-bit vectors whose AES steps run as two 128-bit AES-NI instructions, one per lane (AES-NI
// has no 256-bit form; that is VAES, aria/avx2-vaes).
struct AesYmm : aria_bs::VexYmm {
    static vec aesenclast(vec x, vec r)
    {
        const __m128i k = _mm256_castsi256_si128(r); // r is a broadcast: both lanes alike
        const __m128i lo = _mm_aesenclast_si128(_mm256_castsi256_si128(x), k);
        const __m128i hi = _mm_aesenclast_si128(_mm256_extracti128_si256(x, 1), k);
        return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    }
    static vec aesdeclast(vec x, vec r)
    {
        const __m128i k = _mm256_castsi256_si128(r);
        const __m128i lo = _mm_aesdeclast_si128(_mm256_castsi256_si128(x), k);
        const __m128i hi = _mm_aesdeclast_si128(_mm256_extracti128_si256(x, 1), k);
        return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    }
    static vec pshufb(vec table, vec index) { return _mm256_shuffle_epi8(table, index); }
    static vec and2(vec a, vec b) { return _mm256_and_si256(a, b); }
    static vec shift_nibbles(vec x) { return _mm256_srli_epi16(x, 4); }
};

using Entry = aria_bs::MasklessEntry<AesYmm, AesXmm, aria_bs::AesniSboxes>;

} // namespace
} // namespace kc

KC_TARGET_POP()

namespace kc {

// What the kernel runs on (the instruction sets its target pragma enables).
constexpr uint32_t needs = feat_avx | feat_avx2 | feat_aesni;

// Descriptor: batch_blocks: 16 ymm registers x 32 bytes; constant_time: AES-NI S-boxes,
// register-table vpshufb.
extern const Kernel aria_avx2_aesni_kernel = {
    "aria/avx2-aesni", "aria", 16, 32, true, needs, 30, sizeof(AriaSlicedKeys),
    aria_sliced_supports, aria_sliced_set_key_sbox,
    Entry::encrypt_blocks, Entry::decrypt_blocks, Entry::ctr_xor_blocks};

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp): its encryption-only key schedule.
extern const DrbgAccel aria_avx2_aesni_drbg = {&aria_avx2_aesni_kernel, needs, aria_sliced_set_encrypt_key_sbox};

// XTS's whitened ECB for the kernel above (kit/xts/xts_accel.hpp).
extern const XtsAccel aria_avx2_aesni_xts = {&aria_avx2_aesni_kernel, needs, Entry::xts_blocks};

} // namespace kc

#endif // __x86_64__
