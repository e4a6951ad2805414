// What the DRBG's throughput layer (chain.*, burst.*, segments.*, the GPU path) may use beyond
// the block interface (block_cipher.hpp), for a DRBG whose cipher is one of our kernels: the
// registry's DrbgAccel for that kernel (kit/drbg_accel.hpp) and the family's fused block
// function for the chain (kit/fused_ecb.hpp). Asked of the registry once, where the DRBG is
// made (drbg_api.cpp), and passed beside the Drbg: the SP 800-90A core (ctr_drbg.*) never
// sees it, and an Accelerations{} (none) gives the same bytes, only slower.
#pragma once

#include "core/cipher.hpp"
#include "core/kernel.hpp"
#include "core/key_state.hpp"
#include "kit/drbg_accel.hpp"
#include "kit/fused_ecb.hpp"

namespace kc::drbg {

struct Accelerations {
    const Kernel *kernel = nullptr;   // the CPU kernel behind the DRBG's cipher; nullptr: none
    Cipher cipher{};                  // the cipher it runs
    const DrbgAccel *accel = nullptr; // nullptr: the block interface alone
    FusedEcb fused = nullptr;         // the chain's Update blocks from the raw Key; nullptr: the kernel's

    // The key schedule for key states that only encrypt (nullptr: the kernel's set_key).
    KeySchedule encrypt_key() const { return accel != nullptr ? accel->set_encrypt_key : nullptr; }
    // Whether runs of max-size requests may go through bursts (burst.hpp).
    bool bursts() const { return accel != nullptr && accel->encrypt_blocks_keyed != nullptr; }
};

// Everything the registry offers this machine for CPU kernel k running cipher c.
Accelerations accelerations_for(const Kernel &k, Cipher c);

} // namespace kc::drbg
