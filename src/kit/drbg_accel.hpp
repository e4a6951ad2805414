// The optional accelerations a kernel offers CTR_DRBG (src/drbg), apart from the block
// interface (core/kernel.hpp): a family declares one DrbgAccel beside the kernel it serves and
// lists it in its module (kit/module.hpp); the DRBG asks the registry for the one of its
// kernel (kc::drbg_accel_for, dispatch/registry.hpp). Every entry point is optional (nullptr:
// not offered); each works on the key states of `kernel`. Descriptors are filled in field
// order, trailing entries left out where not offered:
//   extern const DrbgAccel lea_avx2_drbg = {&lea_avx2_kernel, feat_avx2, set_encrypt_key, keystream_blocks};
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cipher.hpp"
#include "core/kernel.hpp"

namespace kc {

struct DrbgAccel {
    const Kernel *kernel; // the kernel whose key-state layout these read and write
    uint32_t requires;    // Feature bits the machine must have (core/features.hpp)

    // A key layout for encrypt_blocks and ctr_xor_blocks only (decrypt_blocks must not be
    // called on it), where decryption keys cost extra to derive (ARIA: each is passed through
    // the diffusion layer). CTR_DRBG rekeys on every request and never decrypts. nullptr:
    // the kernel's set_key serves.
    void (*set_encrypt_key)(void *state, Cipher c, const uint8_t *key) = nullptr;

    // The CTR keystream itself, out[i] = E(ctr + i) (as ctr_xor_blocks over zeros), in one
    // call however long, with the output written without being read and its lines prefetched
    // for write a fixed distance ahead of the stores (core/write_prefetch.hpp says why).
    // nullptr: the DRBG slices ctr_xor_blocks over a block of zeros, which pays the kernel's
    // per-call CTR setup every 1 KiB.
    void (*keystream_blocks)(const void *state, const uint8_t *ctr, uint8_t *out, size_t nblocks) = nullptr;

    // For CTR_DRBG's runs of max-size requests (drbg/burst.hpp), where every request has a new
    // key that the previous request's last blocks give.
    //
    // keystream_pair: the keystream of two counter runs of pair_bytes each (half a full step
    // of the kernel), under two key states, in one interleaved pass (out_a = E_a(ctr_a),
    // E_a(ctr_a + 1), ...; out_b likewise): the work under one key hides the latency of the
    // other, whose key has just been derived.
    void (*keystream_pair)(const void *a, const uint8_t *ctr_a, uint8_t *out_a, const void *b,
                           const uint8_t *ctr_b, uint8_t *out_b) = nullptr;
    size_t pair_bytes = 0; // each run of keystream_pair

    // ECB where block i is encrypted under its own raw key, keys + i * key_bytes (cipher c's
    // length, checked by the caller), the key schedule done per lane inside: the few blocks of
    // many requests, each under its own request's key. Bursts need it.
    void (*encrypt_blocks_keyed)(Cipher c, const uint8_t *keys, const uint8_t *in, uint8_t *out,
                                 size_t nblocks) = nullptr;
};

} // namespace kc
