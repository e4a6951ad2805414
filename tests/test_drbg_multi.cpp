// The many-instance DRBG (kcipher_drbg_multi_*) on the CPU, which needs no GPU and so runs
// everywhere: N instances against N kcipher_drbg handles given the same inputs and calls
// (random inputs, df and no df, several generate calls of odd sizes and many requests,
// reseeds from the interval, prediction resistance, explicit reseeds), the entropy source's
// order, and misuse. tests/test_drbg_gpu.cpp runs the same mode on the GPU.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kcipher/kcipher.h"
#include "kcipher/kcipher.hpp"
#include "support/drbg_multi_check.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using kct::compare_multi_with_singles;
using kct::counting_entropy;

class DrbgMultiCpu : public ::testing::TestWithParam<const char *> {};

TEST_P(DrbgMultiCpu, EqualsSingleDrbgs)
{
    for (unsigned flags : {0u, (unsigned)KCIPHER_DRBG_NO_DF})
        for (size_t n : {size_t(1), size_t(4)})
            ASSERT_NO_FATAL_FAILURE(compare_multi_with_singles(GetParam(), flags, n, nullptr, nullptr, n * 31 + flags));
}

std::string safe(const ::testing::TestParamInfo<const char *> &i)
{
    std::string n = i.param;
    for (char &c : n)
        if (c == '-')
            c = '_';
    return n;
}

INSTANTIATE_TEST_SUITE_P(AllCiphers, DrbgMultiCpu, ::testing::ValuesIn(kct::drbg_ciphers), safe);

// Enough instances for the threaded paths (instantiate, reseed, generate).
TEST(DrbgMulti, ManyInstancesOnThreads)
{
    ASSERT_NO_FATAL_FAILURE(compare_multi_with_singles("lea-128", 0, 150, nullptr, nullptr, 5));
    ASSERT_NO_FATAL_FAILURE(compare_multi_with_singles("cham-64-128", KCIPHER_DRBG_NO_DF, 130, nullptr, nullptr, 6));
}

// Entropy from the source: instance after instance, entropy then nonce, as N handles
// instantiated one after another take it; the thread count changes nothing.
TEST(DrbgMulti, EntropyFromTheSourceInInstanceOrder)
{
    const size_t n = 70;
    for (unsigned flags : {0u, (unsigned)KCIPHER_DRBG_NO_DF}) {
        uint32_t src_s = 9, src_m = 9, src_1 = 9;
        kct::MultiSingles s;
        for (size_t i = 0; i < n; i++) {
            kcipher_drbg *d = nullptr;
            ASSERT_EQ(KCIPHER_OK, kcipher_drbg_new(&d, "aria-192", flags, nullptr));
            s.d.push_back(d);
            ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_entropy_source(d, counting_entropy, &src_s));
            ASSERT_EQ(KCIPHER_OK, kcipher_drbg_instantiate(d, nullptr, 0, nullptr, 0, nullptr, 0));
        }
        kcipher::DrbgMulti m("aria-192", n, flags), one("aria-192", n, flags);
        m.set_entropy_source(counting_entropy, &src_m);
        one.set_entropy_source(counting_entropy, &src_1);
        one.set_threads(1);
        m.instantiate();
        one.instantiate();
        Bytes want(n * 100);
        for (size_t i = 0; i < n; i++)
            ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(s.d[i], want.data() + i * 100, 100, 1));
        EXPECT_EQ(m.generate(100, true), want);
        EXPECT_EQ(one.generate(100, true), want);
        EXPECT_EQ(src_s, src_m);
        EXPECT_EQ(src_s, src_1);
    }
}

// getrandom: instances differ from each other and from call to call.
TEST(DrbgMulti, GetrandomInstancesDiffer)
{
    kcipher::DrbgMulti m("hight", 3);
    m.instantiate({}, {}, Bytes(3 * 4, 7));
    Bytes a = m.generate(40), b = m.generate(40);
    ASSERT_EQ(a.size(), 120u);
    EXPECT_NE(Bytes(a.begin(), a.begin() + 40), Bytes(a.begin() + 40, a.begin() + 80));
    EXPECT_NE(a, b);
    EXPECT_EQ(m.reseed_counter(2), 3u);
    EXPECT_EQ(m.max_request(), 1024u);
}

struct FailingSource {
    int left;         // calls that succeed
    uint32_t counter; // counting_entropy's state
    static size_t take(void *user, uint8_t *buf, size_t min_len, size_t max_len)
    {
        auto *s = static_cast<FailingSource *>(user);
        if (s->left-- <= 0)
            return 0;
        return counting_entropy(&s->counter, buf, min_len, max_len);
    }
};

// A source that fails, or none, leaves every instance as it was.
TEST(DrbgMulti, FailingSourceChangesNothing)
{
    const size_t n = 5;
    FailingSource src{1000, 1};
    kcipher::DrbgMulti m("lea-256", n), ref("lea-256", n);
    m.set_entropy_source(&FailingSource::take, &src);
    const Bytes e(n * 32, 0x11);
    m.instantiate(e);
    ref.instantiate(e);
    ref.set_entropy_source(nullptr, nullptr);
    m.set_reseed_interval(2);
    EXPECT_EQ(m.generate(10), ref.generate(10));
    src.left = 2; // the second request of each instance reseeds: 5 calls, the third fails
    std::vector<uint8_t> out(n * 3 * 65536);
    EXPECT_EQ(KCIPHER_ERR_DRBG_ENTROPY_SOURCE, kcipher_drbg_multi_generate(m.get(), out.data(), 3 * 65536, 0));
    EXPECT_EQ(m.reseed_counter(0), 2u);
    EXPECT_EQ(m.generate(10), ref.generate(10)); // one more request each, no reseed due yet
    kcipher_drbg_multi_set_entropy_source(m.get(), nullptr, nullptr);
    EXPECT_EQ(KCIPHER_ERR_DRBG_RESEED_REQUIRED, kcipher_drbg_multi_generate(m.get(), out.data(), 10, 0));
    EXPECT_EQ(KCIPHER_ERR_DRBG_RESEED_REQUIRED, kcipher_drbg_multi_generate(m.get(), out.data(), 10, 1));
    EXPECT_EQ(m.reseed_counter(4), 3u);
    EXPECT_EQ(KCIPHER_ERR_DRBG_ENTROPY_SOURCE, kcipher_drbg_multi_reseed(m.get(), nullptr, 0, nullptr, 0));
    const Bytes r(n * 32, 0x22);
    m.reseed(r);
    ref.reseed(r);
    EXPECT_EQ(m.generate(3000), ref.generate(3000));
}

TEST(DrbgMulti, Misuse)
{
    kcipher_drbg_multi *m = nullptr;
    EXPECT_EQ(kcipher_drbg_multi_new(nullptr, "lea-128", 2, 0, nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_multi_new(&m, nullptr, 2, 0, nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_multi_new(&m, "lea-128", 0, 0, nullptr), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_multi_new(&m, "lea-128", (size_t(1) << 24) + 1, 0, nullptr), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_multi_new(&m, "lea-128", 2, 2, nullptr), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_multi_new(&m, "aes-128", 2, 0, nullptr), KCIPHER_ERR_UNKNOWN_CIPHER);
    EXPECT_EQ(kcipher_drbg_multi_new(&m, "lea-128", 2, 0, "no/such"), KCIPHER_ERR_UNKNOWN_KERNEL);
    EXPECT_EQ(kcipher_drbg_multi_new(&m, "lea-128", 2, 0, "aria/ref"), KCIPHER_ERR_KERNEL_MISMATCH);
    EXPECT_EQ(m, nullptr);
    ASSERT_EQ(kcipher_drbg_multi_new(&m, "lea-128", 2, 0, "lea/ref"), KCIPHER_OK);
    EXPECT_STREQ(kcipher_drbg_multi_kernel(m), "lea/ref");
    EXPECT_EQ(kcipher_drbg_multi_max_request(m), 65536u);
    uint8_t buf[64] = {0};
    uint64_t c = 7;
    EXPECT_EQ(kcipher_drbg_multi_generate(m, buf, 8, 0), KCIPHER_ERR_DRBG_NOT_INSTANTIATED);
    EXPECT_EQ(kcipher_drbg_multi_reseed(m, nullptr, 0, nullptr, 0), KCIPHER_ERR_DRBG_NOT_INSTANTIATED);
    EXPECT_EQ(kcipher_drbg_multi_reseed_counter(m, 1, &c), KCIPHER_OK);
    EXPECT_EQ(c, 0u);
    EXPECT_EQ(kcipher_drbg_multi_reseed_counter(m, 2, &c), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_multi_reseed_counter(m, 0, nullptr), KCIPHER_ERR_NULL_POINTER);
    // Entropy of a length the standard does not allow (with df: at least 16 bytes here).
    EXPECT_EQ(kcipher_drbg_multi_instantiate(m, buf, 15, nullptr, 0, nullptr, 0), KCIPHER_ERR_DRBG_ENTROPY_LENGTH);
    EXPECT_EQ(kcipher_drbg_multi_instantiate(m, nullptr, 16, nullptr, 0, nullptr, 0), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_multi_instantiate(m, buf, 16, nullptr, 3, nullptr, 0), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_multi_instantiate(m, buf, SIZE_MAX / 2 + 1, nullptr, 0, nullptr, 0),
              KCIPHER_ERR_INVALID_ARGUMENT);
    ASSERT_EQ(kcipher_drbg_multi_instantiate(m, buf, 16, nullptr, 0, buf, 8), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_multi_generate(m, nullptr, 8, 0), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_multi_generate(m, nullptr, 0, 0), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_multi_generate(m, buf, SIZE_MAX / 2 + 1, 0), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_multi_reseed(m, buf, 3, nullptr, 0), KCIPHER_ERR_DRBG_ENTROPY_LENGTH);
    EXPECT_EQ(kcipher_drbg_multi_reseed_counter(m, 0, &c), KCIPHER_OK);
    EXPECT_EQ(c, 1u);
    EXPECT_EQ(kcipher_drbg_multi_generate(m, buf, 32, 0), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_multi_reseed_counter(m, 1, &c), KCIPHER_OK);
    EXPECT_EQ(c, 2u);
    // Device memory needs a GPU kernel.
    EXPECT_EQ(kcipher_drbg_multi_generate_device(m, buf, 8, 0, nullptr), KCIPHER_ERR_NOT_GPU_KERNEL);
    EXPECT_EQ(kcipher_drbg_multi_generate_device(nullptr, buf, 8, 0, nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_multi_set_threads(m, 5000), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_multi_set_reseed_interval(m, 0), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_multi_set_reseed_interval(m, (uint64_t(1) << 48) + 1), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_multi_set_gpu(m, -2), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_multi_set_gpu(m, -1), KCIPHER_OK);
#if defined(KCIPHER_HAVE_CUDA)
    EXPECT_EQ(kcipher_drbg_multi_set_gpu(m, kcipher_gpu_count()), KCIPHER_ERR_NO_GPU);
#endif
    EXPECT_EQ(kcipher_drbg_multi_uninstantiate(m), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_multi_generate(m, buf, 8, 0), KCIPHER_ERR_DRBG_NOT_INSTANTIATED);
    EXPECT_EQ(kcipher_drbg_multi_reseed_counter(m, 0, &c), KCIPHER_OK);
    EXPECT_EQ(c, 0u);
    kcipher_drbg_multi_free(m);
    kcipher_drbg_multi_free(nullptr);
    EXPECT_EQ(kcipher_drbg_multi_instances(nullptr), 0u);
    EXPECT_EQ(kcipher_drbg_multi_max_request(nullptr), 0u);
    EXPECT_EQ(kcipher_drbg_multi_kernel(nullptr), nullptr);
    EXPECT_EQ(kcipher_drbg_multi_uninstantiate(nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_THROW(kcipher::DrbgMulti("lea-128", 3).instantiate(Bytes(32)), kcipher::Error); // 32 is not 3 parts
}

// The single DRBG's GPU calls refuse a DRBG without a GPU kernel, and the GPU index is
// checked against the GPUs present (in a CUDA build).
TEST(DrbgMulti, SingleDrbgGpuMisuse)
{
    kcipher_drbg *d = nullptr;
    ASSERT_EQ(kcipher_drbg_new(&d, "cham-128-128", 0, nullptr), KCIPHER_OK);
    uint8_t buf[16];
    EXPECT_EQ(kcipher_drbg_generate_device(d, buf, 16, nullptr), KCIPHER_ERR_NOT_GPU_KERNEL);
    EXPECT_EQ(kcipher_drbg_generate_device(nullptr, buf, 16, nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_set_gpu(d, -1), KCIPHER_OK);
#if defined(KCIPHER_HAVE_CUDA)
    EXPECT_EQ(kcipher_drbg_set_gpu(d, kcipher_gpu_count()), KCIPHER_ERR_NO_GPU);
#else
    EXPECT_EQ(kcipher_drbg_set_gpu(d, 3), KCIPHER_OK); // no GPU path that could use it
#endif
    kcipher::Drbg w("cham-128-128");
    w.instantiate();
    EXPECT_THROW(w.generate_device(buf, 16), kcipher::Error);
    kcipher_drbg_free(d);
}

} // namespace
