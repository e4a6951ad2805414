// What the fuzz targets choose from: the library's ciphers and, per family, the CPU kernels
// this machine can run (GPU kernels are left out: the fuzzers run on the host alone).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kcipher/kcipher.h"

namespace kcfuzz {

struct Catalog {
    std::vector<kcipher_cipher_info> ciphers;
    std::map<std::string, std::vector<std::string>> kernels; // family -> runnable CPU kernels
};

inline const Catalog &catalog()
{
    static const Catalog c = [] {
        Catalog c;
        for (size_t i = 0; i < kcipher_cipher_count(); i++) {
            kcipher_cipher_info info;
            if (kcipher_cipher_get(i, &info) == KCIPHER_OK)
                c.ciphers.push_back(info);
        }
        for (size_t i = 0; i < kcipher_kernel_count(); i++) {
            kcipher_kernel_info k;
            if (kcipher_kernel_get(i, &k) == KCIPHER_OK && k.available && !std::strstr(k.requires, "cuda"))
                c.kernels[k.family].push_back(k.name);
        }
        return c;
    }();
    return c;
}

// The cipher an input chooses (its next byte or two) and its family's runnable CPU kernels.
struct CipherChoice {
    const kcipher_cipher_info &cipher;
    const std::vector<std::string> &kernels;
};

template <class Input> CipherChoice choose_cipher(Input &f)
{
    const Catalog &cat = catalog();
    const kcipher_cipher_info &cipher = cat.ciphers[f.below(cat.ciphers.size())];
    return {cipher, cat.kernels.at(cipher.family)};
}

inline std::string reference_kernel(const kcipher_cipher_info &c) { return std::string(c.family) + "/ref"; }

// A difference between a kernel and the reference: print what differs and abort, so that
// libFuzzer saves the input.
[[noreturn]] inline void mismatch(const char *what, const char *detail)
{
    std::fprintf(stderr, "fuzz mismatch: %s (%s)\n", what, detail);
    std::abort();
}

#define KCFUZZ_CHECK(cond, detail)                                                               \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ::kcfuzz::mismatch(#cond, detail);                                                     \
    } while (0)

} // namespace kcfuzz
