// A kernel with a key set, for tests that drive kernels directly (below the C API).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "core/key_state.hpp"
#include "dispatch/registry.hpp"

namespace kct {

struct KeyedKernel {
    const kc::Kernel *k;
    kc::KeyState ks;
    size_t bs = 0; // the cipher's block size: a kernel such as cham/ref serves 8 and 16

    KeyedKernel(const kc::Kernel *kernel, kc::Cipher c, const std::vector<uint8_t> &key)
        : k(kernel), bs(kc::cipher_desc(c).block_bytes)
    {
        if (k == nullptr)
            throw std::runtime_error("no such kernel");
        if (key.size() != kc::cipher_desc(c).key_bytes)
            throw std::runtime_error("bad key length for " + std::string(kc::cipher_desc(c).name));
        if (!ks.init(*k, c, key.data()))
            throw std::runtime_error("out of memory");
    }
    KeyedKernel(const char *name, kc::Cipher c, const std::vector<uint8_t> &key)
        : KeyedKernel(kc::find_kernel(name), c, key) {}

    std::vector<uint8_t> encrypt(const std::vector<uint8_t> &in) const
    {
        std::vector<uint8_t> out(in.size());
        k->encrypt_blocks(ks.get(), in.data(), out.data(), in.size() / bs);
        return out;
    }
    std::vector<uint8_t> decrypt(const std::vector<uint8_t> &in) const
    {
        std::vector<uint8_t> out(in.size());
        k->decrypt_blocks(ks.get(), in.data(), out.data(), in.size() / bs);
        return out;
    }
    // Whole blocks only; ctr is the counter block of block 0.
    std::vector<uint8_t> ctr(const std::vector<uint8_t> &ctr0, const std::vector<uint8_t> &in) const
    {
        std::vector<uint8_t> out(in.size());
        k->ctr_xor_blocks(ks.get(), ctr0.data(), in.data(), out.data(), in.size() / bs);
        return out;
    }
};

} // namespace kct
