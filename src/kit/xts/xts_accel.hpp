// What a kernel offers XTS (modes/xts.cpp) beyond the block interface: a family declares one
// XtsAccel beside the kernel it serves and lists it in its module (kit/module.hpp); the mode
// asks the registry for the one of its kernel (kc::xts_accel_for, dispatch/registry.hpp).
//
// Why: without it XTS runs the whitening as passes of their own around encrypt_blocks (the
// tweaks and in ^ T written to memory, the kernel, then out ^= T read back): two extra passes
// over every batch, 0.14-0.25 cycles a byte on a kernel that encrypts at 0.6. Inside the
// kernel the two XORs ride on its own loads and stores (a memory operand each), and only the
// tweaks are written beforehand.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/kernel.hpp"

namespace kc {

struct XtsAccel {
    const Kernel *kernel; // the kernel whose key states these read
    uint32_t requires;    // Feature bits the machine must have (core/features.hpp)

    // out[i] = E(in[i] ^ tw[i]) ^ tw[i] (D with decrypt: the kernel's decryption keys) for
    // nblocks whole 16-byte blocks; in == out allowed, other overlaps not; tw any alignment.
    void (*whitened_blocks)(const void *state, bool decrypt, const uint8_t *tw, const uint8_t *in,
                            uint8_t *out, size_t nblocks);
    // Optional: the same with the tweaks made in the kernel, in registers (no tweak buffer and
    // no pass to fill it): T_j = t * alpha^j for the nblocks blocks, t becomes t * alpha^nblocks.
    void (*tweaked_blocks)(const void *state, bool decrypt, uint8_t t[16], const uint8_t *in, uint8_t *out,
                           size_t nblocks) = nullptr;
};

} // namespace kc
