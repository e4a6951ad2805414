// CTR for kernels that have no CTR-specific code: write a batch of counter blocks, encrypt
// them with the kernel's own ECB function, XOR into the data. Correct for any kernel; fast
// kernels replace it with counters built in registers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/counter.hpp"
#include "core/wipe.hpp"

namespace kc {

using EcbFn = void (*)(const void *, const uint8_t *, uint8_t *, size_t);

inline void ctr_xor_via_ecb(EcbFn encrypt, size_t block_bytes, const void *state,
                            const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    constexpr size_t batch_bytes = 1024;
    alignas(64) uint8_t ks[batch_bytes];
    uint8_t next[16];
    std::memcpy(next, ctr, block_bytes);
    const size_t batch = batch_bytes / block_bytes;
    while (nblocks > 0) {
        size_t n = nblocks < batch ? nblocks : batch;
        for (size_t i = 0; i < n; i++) {
            std::memcpy(ks + i * block_bytes, next, block_bytes);
            counter_increment(next, block_bytes);
        }
        encrypt(state, ks, ks, n);
        for (size_t i = 0; i < n * block_bytes; i++)
            out[i] = in[i] ^ ks[i];
        in += n * block_bytes;
        out += n * block_bytes;
        nblocks -= n;
    }
    secure_wipe(ks, sizeof ks);
}

} // namespace kc
