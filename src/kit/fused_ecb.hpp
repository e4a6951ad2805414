// The slot a family fills to speed up CTR_DRBG's chain (src/drbg/chain.cpp): ECB of a few
// blocks straight from the raw key, with the key schedule in registers beside the rounds and
// no key state written. The chain of a large output is one Update per request, each keyed by
// the one before, so its cost is latency: one key schedule and two or three blocks,
// sequential by definition, where the kernels are written for throughput (each rekey lays
// out a key state of up to 13 KiB, each call runs a whole SIMD group).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cipher.hpp"

namespace kc {

// ECB of nblocks blocks of cipher c under the raw key (cipher_desc(c).key_bytes), in and out
// not overlapping partially. Constant-time, as the kernels of the same cipher.
using FusedEcb = void (*)(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks);

struct FusedEcbEntry {
    const char *name;  // "lea/fused", "cham/fused-avx512"
    uint32_t requires; // Feature bits (core/features.hpp)
    FusedEcb fn;
};

} // namespace kc
