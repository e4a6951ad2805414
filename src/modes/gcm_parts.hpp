// Pieces of GCM that the GPU's paths share with the CPU's: J0 and GHASH over a byte run.
#pragma once

#include <cstddef>
#include <cstdint>

#include "modes/aead.hpp"

namespace kc {

// GHASH continuing from y over n bytes of p, the last partial block zero-padded.
void ghash_bytes(const GhashKernel &g, const GhashKey &hk, uint8_t y[16], const uint8_t *p, size_t n);

// J0 (SP 800-38D 7.1 step 2): IV || 0^31 || 1 for 96-bit IVs, else
// GHASH(IV || 0-pad || [0]64 || [len(IV) in bits]64).
void gcm_pre_counter(const GcmKey &key, const uint8_t *iv, size_t iv_len, uint8_t j0[16]);

} // namespace kc
