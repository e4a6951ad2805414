// The keyed context behind the opaque kcipher_ctx: immutable after kcipher_new except for
// the thread budget, so any number of threads may encrypt with it at once.
#pragma once

#include <atomic>
#include <mutex>

#include "core/cipher.hpp"
#include "core/key_state.hpp"
#include "core/wipe.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"
#include "modes/aead.hpp"
#include "modes/gpu_modes.hpp"
#include "modes/keyed.hpp"

struct kcipher_ctx {
    const kc::CipherDesc *cipher = nullptr;
    const kc::Kernel *kernel = nullptr;
    kc::KeyState keys;
    std::atomic<unsigned> threads{0};

    // A GPU kernel's context also keys the best CPU kernel, for CBC (a chain: no GPU work).
    const kc::Kernel *cpu_kernel = nullptr;
    kc::KeyState cpu_keys;
    std::atomic<int> gpu_device{-1}; // -1: every GPU

    // The kernel of the chains of single blocks (CMAC, CCM's CBC-MAC), dispatch/registry.hpp's
    // chain_kernel for the CPU kernel; keyed apart (chain_keys) only where it is another kernel.
    const kc::Kernel *chain_kernel = nullptr;
    kc::KeyState chain_keys;
    const kc::ChainAccel *chain_accel = nullptr; // its loops (kit/chain_accel.hpp), or nullptr

    kc::Keyed keyed() const
    {
        return {kernel, keys.get(), cipher->block_bytes, threads.load(std::memory_order_relaxed)};
    }

    // The CPU kernel: the context's own, or the companion of a GPU kernel.
    kc::Keyed cpu_keyed() const
    {
        if (kernel->gpu == nullptr)
            return keyed();
        return {cpu_kernel, cpu_keys.get(), cipher->block_bytes, threads.load(std::memory_order_relaxed)};
    }

    kc::Keyed chain_keyed() const
    {
        kc::Keyed cpu = cpu_keyed();
        if (chain_kernel == cpu.kernel) {
            cpu.chain = chain_accel;
            return cpu;
        }
        return {chain_kernel, chain_keys.get(), cipher->block_bytes, 1, chain_accel};
    }

    // An XTS context ("NAME-xts", a double-length key): keys/cpu_keys hold the data key, and
    // tweak_keys/cpu_tweak_keys the tweak key for the same kernels. Such a context serves XTS alone.
    bool xts = false;
    kc::KeyState tweak_keys;
    kc::KeyState cpu_tweak_keys; // GPU contexts only

    kc::Keyed tweak_keyed() const
    {
        return {kernel, tweak_keys.get(), cipher->block_bytes, threads.load(std::memory_order_relaxed)};
    }
    kc::Keyed cpu_tweak_keyed() const
    {
        if (kernel->gpu == nullptr)
            return tweak_keyed();
        return {cpu_kernel, cpu_tweak_keys.get(), cipher->block_bytes, threads.load(std::memory_order_relaxed)};
    }

    kc::GpuJob gpu_job() const { return {kernel, keys.get(), cipher->block_bytes}; }

    // GCM's and GMAC's key-only part (H and its powers for the chosen GHASH), made on first use
    // by whichever thread gets there first, then shared by every message under this key.
    const kc::GcmKey &gcm_key() const
    {
        std::call_once(gcm_once, [this] { kc::gcm_key_init(gcm, cpu_keyed(), kc::ghash_kernel()); });
        return gcm;
    }

    ~kcipher_ctx() { kc::secure_wipe(&gcm, sizeof gcm); }

  private:
    mutable std::once_flag gcm_once;
    mutable kc::GcmKey gcm;
};

// The refusal every entry point of a mode other than XTS starts with: an XTS context's key is
// two keys, and using either half alone (ECB, CBC, a MAC...) would be misuse. KCIPHER_OK for a
// plain context (and for NULL, which the caller's own checks report).
inline kcipher_status kc_plain_context(const kcipher_ctx *ctx)
{
    return ctx != nullptr && ctx->xts ? KCIPHER_ERR_CONTEXT_MODE : KCIPHER_OK;
}
