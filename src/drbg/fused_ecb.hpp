// The chain's own block function (chain.cpp). The chain of a large output is one Update per
// request, each keyed by the one before, so its cost is latency: one key schedule and two or
// three blocks, sequential by definition. Our kernels are written for throughput: each rekey
// lays out a key state of up to 13 KiB (broadcast or byte-sliced round keys) and each call
// runs a whole SIMD group. The fused functions compute the few blocks straight from the raw
// key, with the key schedule in registers beside the rounds, and write no key state.
//
// Measured per request on the development VM (Zen 4; `kcipher bench --drbg`, chain column):
// docs/performance.md, "The chain's own block function".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/cipher.hpp"

namespace kc::drbg {

// ECB of nblocks blocks of cipher c under the raw key (cipher_desc(c).key_bytes), in and out
// not overlapping partially. Constant-time, as the kernels of the same cipher.
using FusedEcb = void (*)(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks);

// Every fused function for c that this machine runs, the fastest first (the tests check them
// all; bench/tools/drbg_fused_timing.cpp times them). LEA has only its scalar form: one with
// the blocks in AVX-512 lanes and the round keys broadcast from a table ran slower on both
// machines (Zen 4: 105-166 against 67-131 ns; the H100 host's Xeon: 175-311 against 113-327).
std::vector<FusedEcb> fused_ecb_candidates(Cipher c);

// The fused function for c on this machine; nullptr where there is none (then the chain uses
// the DRBG's kernel), or where KCIPHER_DRBG_CHAIN=kernel asks for the kernel (comparisons).
FusedEcb fused_ecb_for(Cipher c);

} // namespace kc::drbg
