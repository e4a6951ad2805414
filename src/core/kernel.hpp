// A kernel is one implementation of one cipher family (BearSSL's vtable, libsodium's
// "implementation"): it assumes valid input and only computes. Batching of tails, threads,
// modes and argument checks live above it (src/modes, src/api).
//
// Adding a kernel = one file that defines an `extern const Kernel` and one line in its
// family's module (src/<family>/<family>_module.cpp, kit/module.hpp). This is the block
// interface only: what a kernel offers a service beyond it (CTR_DRBG's key layouts and
// keystreams: kit/drbg_accel.hpp) is a separate, optional descriptor in the same module.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cipher.hpp"
#include "core/features.hpp"

namespace kc {

struct GpuOps;

struct Kernel {
    const char *name;     // "family/technique", e.g. "aria/table", "aria/avx512-gfni"
    const char *family;   // "aria", "lea", "hight", "cham"
    size_t block_bytes;   // 16, or 8 for HIGHT and CHAM-64/128
    size_t batch_blocks;  // blocks one call computes at once at full speed (1 = scalar)
    bool constant_time;   // no secret-dependent branch or memory address (tested)
    uint32_t requires;    // Feature bits the machine must have
    int rank;             // dispatch preference among runnable kernels: higher wins
    size_t key_state_bytes; // size of the kernel's round-key layout (64-byte aligned storage)

    bool (*supports)(Cipher c);

    // Derives this kernel's round-key layout for cipher c from the raw key (length
    // already checked). `state` is key_state_bytes of zeroed, 64-byte-aligned memory.
    void (*set_key)(void *state, Cipher c, const uint8_t *key);

    // ECB over nblocks whole blocks; in == out is allowed, other overlaps are not.
    void (*encrypt_blocks)(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks);
    void (*decrypt_blocks)(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks);

    // CTR: out[i] = in[i] XOR E(ctr + i) for whole blocks i < nblocks, where ctr is the
    // block_bytes-long big-endian counter of block 0 and + wraps at 2^(8*block_bytes).
    // in == out is allowed.
    void (*ctr_xor_blocks)(const void *state, const uint8_t *ctr, const uint8_t *in,
                           uint8_t *out, size_t nblocks);

    // GPU kernels (requires feat_cuda_gpu) launch through these instead; the three host
    // entry points above are null for them, and the modes go through src/cuda.
    const GpuOps *gpu = nullptr;
};

} // namespace kc
