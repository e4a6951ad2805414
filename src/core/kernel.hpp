// A kernel is one implementation of one cipher family (BearSSL's vtable, libsodium's
// "implementation"): it assumes valid input and only computes. Batching of tails, threads,
// modes and argument checks live above it (src/modes, src/api).
//
// Adding a kernel = one file that defines an `extern const Kernel` and one line in its
// family's module (src/<family>/<family>_module.cpp, kit/module.hpp).
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

    // Optional: a key layout for encrypt_blocks and ctr_xor_blocks only (decrypt_blocks must
    // not be called on it), where decryption keys cost extra to derive (ARIA: each is passed
    // through the diffusion layer). CTR_DRBG rekeys on every request and never decrypts.
    // nullptr: set_key serves both.
    void (*set_encrypt_key)(void *state, Cipher c, const uint8_t *key) = nullptr;

    // Optional, for CTR_DRBG's runs of max-size requests (drbg/burst.hpp), where every request
    // has a new key that the previous request's last blocks give; nullptr: not offered.
    //
    // keystream_pair: the keystream of two counter runs of pair_bytes each (half a full step
    // of the kernel), under two key states, in one interleaved pass (out_a = E_a(ctr_a),
    // E_a(ctr_a + 1), ...; out_b likewise): the work under one key hides the latency of the
    // other, whose key has just been derived.
    void (*keystream_pair)(const void *a, const uint8_t *ctr_a, uint8_t *out_a, const void *b,
                           const uint8_t *ctr_b, uint8_t *out_b) = nullptr;

    // encrypt_blocks_keyed: ECB where block i is encrypted under its own raw key, keys +
    // i * key_bytes (cipher c's length, checked by the caller), the key schedule done per lane
    // inside: the few blocks of many requests, each under its own request's key.
    void (*encrypt_blocks_keyed)(Cipher c, const uint8_t *keys, const uint8_t *in, uint8_t *out,
                                 size_t nblocks) = nullptr;
    size_t pair_bytes = 0; // each run of keystream_pair

    // Optional, for CTR_DRBG's output: the CTR keystream itself, out[i] = E(ctr + i) (as
    // ctr_xor_blocks over zeros), in one call however long, with the output written without
    // being read and its lines prefetched for write a fixed distance ahead of the stores
    // (core/write_prefetch.hpp says why). nullptr: the DRBG slices ctr_xor_blocks over a
    // block of zeros, which pays the kernel's per-call CTR setup every 1 KiB.
    void (*keystream_blocks)(const void *state, const uint8_t *ctr, uint8_t *out, size_t nblocks) = nullptr;
};

} // namespace kc
