// GHASH (SP 800-38D 6.4), the universal hash of GCM and GMAC: Y <- (Y ^ X_i) * H in GF(2^128)
// for each 16-byte block X_i. It does not depend on the cipher, so it is one shared piece:
// each implementation below states what it requires, and the registry
// (dispatch/registry.cpp: ghash_kernel) picks the fastest the machine runs, as it picks block
// kernels.
//
// Representation (all implementations): a block is read as a big-endian 128-bit integer, so
// the standard's bit 0 (the coefficient of x^0) is the integer's most significant bit. The
// product of two such "reflected" values is the reflected product shifted right by one bit,
// which the implementations correct while reducing modulo x^128 + x^7 + x^2 + x + 1.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kc {

// What an implementation keeps for one H: up to 32 128-bit slots of H's powers (aggregated
// reduction hashes several blocks per reduction) and what it derives from them, in the
// implementation's own layout. Wiped by its owner.
struct GhashKey {
    alignas(64) uint64_t words[64];
};

struct GhashKernel {
    const char *name;    // "ghash/pclmul"
    uint32_t requires;   // Feature bits (core/features.hpp)
    int rank;            // the registry takes the highest runnable
    bool constant_time;  // no secret-dependent branch or address
    // Fills key from H = E_K(0^128).
    void (*init)(GhashKey &key, const uint8_t h[16]);
    // y = GHASH_H continuing from y over nblocks whole blocks of in.
    void (*update)(const GhashKey &key, uint8_t y[16], const uint8_t *in, size_t nblocks);
};

extern const GhashKernel ghash_portable_kernel;
#if defined(__x86_64__)
extern const GhashKernel ghash_pclmul_kernel;
extern const GhashKernel ghash_vpclmul_avx2_kernel;
extern const GhashKernel ghash_vpclmul_avx512_kernel;
#endif
#if defined(__aarch64__)
extern const GhashKernel ghash_neon_pmull_kernel;
#endif

} // namespace kc
