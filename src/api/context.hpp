// The keyed context behind the opaque kcipher_ctx: immutable after kcipher_new except for
// the thread budget, so any number of threads may encrypt with it at once.
#pragma once

#include <atomic>

#include "core/cipher.hpp"
#include "core/key_state.hpp"
#include "modes/keyed.hpp"

struct kcipher_ctx {
    const kc::CipherDesc *cipher = nullptr;
    const kc::Kernel *kernel = nullptr;
    kc::KeyState keys;
    std::atomic<unsigned> threads{0};

    kc::Keyed keyed() const
    {
        return {kernel, keys.get(), cipher->block_bytes, threads.load(std::memory_order_relaxed)};
    }
};
