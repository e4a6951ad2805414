// XTS whitening (IEEE 1619-2018 5.3.1): the XORs of every block with its tweak before and after
// the block cipher, and the tweaks themselves (T_{j+1} = T_j * alpha in GF(2^128), the
// little-endian convention of xts_tweak.hpp). It does not depend on the cipher, so it is one
// shared piece; each implementation states what it requires, and the registry
// (dispatch/xts_whiten_choice.cpp) picks the fastest the machine runs, as it picks GHASH.
//
// Why SIMD matters here: XTS's budget over ECB is about 0.1 cycle per byte (1.6 cycles per
// block) and a serial doubling chain alone costs about 3 cycles per block.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kc {

struct XtsWhitenKernel {
    const char *name;   // "xts-whiten/avx512"
    uint32_t requires;  // Feature bits (core/features.hpp)
    int rank;           // the registry takes the highest runnable
    // tw[j] = t * alpha^j and out[j] = in[j] ^ tw[j] for the n 16-byte blocks j < n (out == in
    // allowed); t becomes t * alpha^n. tw holds n blocks, any alignment.
    void (*pre)(uint8_t t[16], uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n);
    // out[j] = in[j] ^ tw[j] for j < n (out == in allowed): XTS's second XOR, and CFB
    // decryption's P = C ^ E(C before) (modes/cfb.cpp).
    void (*post)(const uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n);
    // tw[j] = t * alpha^j for j < n, t becomes t * alpha^n: the tweaks alone, for a kernel that
    // XORs them in itself (kit/xts/xts_accel.hpp).
    void (*tweaks)(uint8_t t[16], uint8_t *tw, size_t n);
};

// dst[j] = t * alpha^j for j < n: the start of the AVX2 version's chains (the AVX-512 ones
// compute theirs in registers).
void xts_first_tweaks(const uint8_t t[16], uint8_t *dst, size_t n);

extern const XtsWhitenKernel xts_whiten_portable_kernel;
#if defined(__x86_64__)
extern const XtsWhitenKernel xts_whiten_avx2_kernel;
extern const XtsWhitenKernel xts_whiten_avx512_kernel;
extern const XtsWhitenKernel xts_whiten_avx512_vpclmul_kernel;
#endif

} // namespace kc
