// The (kernel, cipher) pairs that tests run: every kernel in the registry that this machine
// can run, for every cipher it implements. Kernels the machine cannot run are listed too,
// so that tests can skip them with a message rather than silently.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"

namespace kct {

struct KernelCipher {
    const kc::Kernel *kernel;
    kc::Cipher cipher;
};

inline std::vector<KernelCipher> all_kernel_ciphers()
{
    std::vector<KernelCipher> v;
    for (const kc::Kernel *k : kc::all_kernels())
        for (int i = 0; i < kc::cipher_count; i++)
            if (k->supports(kc::cipher_by_index(i)->id))
                v.push_back({k, kc::cipher_by_index(i)->id});
    return v;
}

// For gtest's messages and ctest's test list: "aria/table aria-128", not raw bytes.
inline void PrintTo(const KernelCipher &kc, std::ostream *os)
{
    *os << kc.kernel->name << " " << kc::cipher_desc(kc.cipher).name;
}

// Every registered CPU kernel of a family, by name: parameter lists for the per-family tests
// that drive kernels directly, so that a new kernel is tested the moment it is registered.
// GPU kernels have no host entry points; test_gpu.cpp runs the same vector files on them
// through the API.
inline std::vector<std::string> family_kernel_names(const std::string &family)
{
    std::vector<std::string> names;
    for (const kc::Kernel *k : kc::all_kernels())
        if (family == k->family && k->gpu == nullptr)
            names.push_back(k->name);
    return names;
}

// gtest parameter names: "aria/avx512-gfni" -> "aria_avx512_gfni".
inline std::string param_name(const ::testing::TestParamInfo<std::string> &info)
{
    std::string s = info.param;
    for (char &ch : s)
        if (!std::isalnum((unsigned char)ch))
            ch = '_';
    return s;
}

inline std::string test_name(const KernelCipher &kc)
{
    std::string s = std::string(kc.kernel->name) + "_" + kc::cipher_desc(kc.cipher).name;
    for (char &c : s)
        if (!std::isalnum((unsigned char)c))
            c = '_';
    return s;
}

} // namespace kct
