// N kcipher_drbg handles against one kcipher_drbg_multi of N instances given the same inputs
// and calls: random entropy, nonces and personalization strings, df or not, generate calls
// of odd sizes and of many requests, reseeds from a small interval, prediction resistance,
// an explicit reseed with additional input, all from one shared counting entropy source per
// side (so the multi's calls to it must come in the singles' order). Shared by
// tests/test_drbg_multi.cpp (CPU) and tests/test_drbg_gpu.cpp (GPU, host and device memory).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <vector>

#include "kcipher/kcipher.h"

namespace kct {

using MultiBytes = std::vector<uint8_t>;

inline MultiBytes multi_random_bytes(std::mt19937_64 &g, size_t n)
{
    MultiBytes b(n);
    for (uint8_t &x : b)
        x = (uint8_t)g();
    return b;
}

// Fills out (instances * len bytes) from the multi, as kcipher_drbg_multi_generate would;
// empty: kcipher_drbg_multi_generate itself.
using MultiGenerate = std::function<void(kcipher_drbg_multi *, MultiBytes &out, size_t len, int pr)>;

// One stream of entropy shared by all the handles of one side of a test.
inline size_t counting_entropy(void *user, uint8_t *buf, size_t min_len, size_t)
{
    auto *n = static_cast<uint32_t *>(user);
    for (size_t i = 0; i < min_len; i++)
        buf[i] = (uint8_t)((*n)++ * 167u + 3u);
    return min_len;
}

// The CPU tests' ciphers (test_drbg_multi.cpp). test_drbg_gpu.cpp lists its own: the ciphers
// with a GPU kernel.
inline const char *const drbg_ciphers[] = {"aria-128", "aria-192", "aria-256", "lea-128", "lea-192", "lea-256",
                                   "hight", "cham-64-128", "cham-128-128", "cham-128-256", "seed-128"};

struct MultiSingles {
    std::vector<kcipher_drbg *> d;
    ~MultiSingles()
    {
        for (kcipher_drbg *x : d)
            kcipher_drbg_free(x);
    }
};

struct MultiHandle {
    kcipher_drbg_multi *m = nullptr;
    ~MultiHandle() { kcipher_drbg_multi_free(m); }
};

inline size_t multi_max_request(const char *cipher)
{
    kcipher_cipher_info info;
    kcipher_cipher_find(cipher, &info);
    return info.block_bytes == 16 ? 65536 : 1024;
}

// N singles and one multi, instantiated alike; then the same calls on both, compared.
// kernel: the multi's kernel (NULL: the CPU), so the GPU test can run this too.
inline void compare_multi_with_singles(const char *cipher, unsigned flags, size_t n, const char *kernel,
                                       const MultiGenerate &generate, uint64_t seed)
{
    std::mt19937_64 g(seed);
    kcipher_cipher_info info;
    ASSERT_EQ(KCIPHER_OK, kcipher_cipher_find(cipher, &info));
    const bool df = (flags & KCIPHER_DRBG_NO_DF) == 0;
    const size_t seedlen = info.key_bytes + info.block_bytes;
    // With df: a nonce for an odd number of instances, none (the source gives none either) else.
    const size_t elen = df ? info.key_bytes + 5 : seedlen, nlen = df && n % 2 ? 7 : 0, plen = df ? 11 : seedlen - 3;
    const MultiBytes e = multi_random_bytes(g, n * elen), no = multi_random_bytes(g, n * nlen), ps = multi_random_bytes(g, n * plen);
    uint32_t src_s = 100, src_m = 100;

    MultiSingles s;
    for (size_t i = 0; i < n; i++) {
        kcipher_drbg *d = nullptr;
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_new(&d, cipher, flags, nullptr));
        s.d.push_back(d);
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_entropy_source(d, counting_entropy, &src_s));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_reseed_interval(d, 3));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_instantiate(d, e.data() + i * elen, elen, nlen ? no.data() + i * nlen : nullptr,
                                                       nlen, ps.data() + i * plen, plen));
    }
    MultiHandle m;
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_new(&m.m, cipher, n, flags, kernel));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_set_entropy_source(m.m, counting_entropy, &src_m));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_set_reseed_interval(m.m, 3));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_instantiate(m.m, e.data(), elen, nlen ? no.data() : nullptr, nlen,
                                                         ps.data(), plen));
    ASSERT_EQ(kcipher_drbg_multi_instances(m.m), n);

    const size_t max = multi_max_request(cipher);
    const size_t lens[] = {1, 17, 0, max, max + 5, 3 * max + 1, 64};
    int call = 0;
    for (size_t len : lens)
        for (int pr : {0, 1}) {
            if (++call == 6) { // an explicit reseed of every instance, with additional input
                const MultiBytes add = multi_random_bytes(g, n * 6);
                for (size_t i = 0; i < n; i++)
                    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_reseed(s.d[i], nullptr, 0, add.data() + i * 6, 6));
                ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_reseed(m.m, nullptr, 0, add.data(), 6));
            }
            MultiBytes want(n * len), got(n * len);
            for (size_t i = 0; i < n; i++)
                ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(s.d[i], want.data() + i * len, len, pr));
            if (generate)
                ASSERT_NO_FATAL_FAILURE(generate(m.m, got, len, pr));
            else
                ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_generate(m.m, got.data(), len, pr))
                    << kcipher_gpu_last_error();
            ASSERT_TRUE(want == got) << cipher << " flags " << flags << " n " << n << " len " << len << " pr " << pr;
            for (size_t i = 0; i < n; i++) {
                uint64_t a = 0, b = 0;
                ASSERT_EQ(KCIPHER_OK, kcipher_drbg_reseed_counter(s.d[i], &a));
                ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_reseed_counter(m.m, i, &b));
                ASSERT_EQ(a, b) << "instance " << i;
            }
        }
    EXPECT_EQ(src_s, src_m); // the same entropy calls
}

} // namespace kct
