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

#pragma GCC push_options
#pragma GCC target("avx,aes")
#define KC_ARIA_BYTESLICE_SIMD
#define KC_ARIA_BYTESLICE_AES
#include "aria/aria_x86_byteslice.hpp"

namespace kc {
namespace {

using aria_bs::AesXmm;

void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const auto *ks = static_cast<const AriaSlicedKeys *>(state);
    aria_bs::ecb_blocks<AesXmm, AesXmm, aria_bs::AesniSboxes>(ks->enc, ks->rounds, in, out,
                                                              nblocks);
}

void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const auto *ks = static_cast<const AriaSlicedKeys *>(state);
    aria_bs::ecb_blocks<AesXmm, AesXmm, aria_bs::AesniSboxes>(ks->dec, ks->rounds, in, out,
                                                              nblocks);
}

void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                    size_t nblocks)
{
    const auto &ks = *static_cast<const AriaSlicedKeys *>(state);
    aria_bs::ctr_blocks<AesXmm, AesXmm, aria_bs::AesniSboxes>(ks, ctr, in, out, nblocks);
}

} // namespace
} // namespace kc

#pragma GCC pop_options

namespace kc {
namespace {

bool supports(Cipher c)
{
    return c == Cipher::aria128 || c == Cipher::aria192 || c == Cipher::aria256;
}

void set_key(void *state, Cipher c, const uint8_t *key)
{
    aria_sliced_set_key(static_cast<AriaSlicedKeys *>(state), c, key, AriaKeyFold::sbox);
}

} // namespace

// What the kernel runs on (the instruction sets its target pragma enables).
constexpr uint32_t needs = feat_avx | feat_aesni;

extern const Kernel aria_avx_aesni_kernel = {
    "aria/avx-aesni",       // name
    "aria",                 // family
    16,                     // block_bytes
    16,                     // batch_blocks: 16 xmm registers x 16 bytes
    true,                   // constant_time: AES-NI S-boxes, register-table vpshufb
    needs,                  // requires
    20,                     // rank: AVX + AES-NI
    sizeof(AriaSlicedKeys), // key_state_bytes
    supports,
    set_key,
    encrypt_blocks,
    decrypt_blocks,
    ctr_xor_blocks,
};

} // namespace kc

#endif // __x86_64__
