// CTR_DRBG large outputs on the GPU: the same bytes as the CPU definition for every cipher,
// through the C API (a DRBG made with the cipher's GPU kernel against one made with the best
// CPU kernel, instantiated alike), over sizes that are not multiples of the block, span
// many requests and cross the 16 MiB batches; with prediction resistance, whose reseeds
// happen inside the CPU's chain. Skipped where there is no GPU.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cuda/devices.hpp"
#include "kcipher/kcipher.h"

namespace {

using Bytes = std::vector<uint8_t>;

// The same entropy stream for both DRBGs of a test: a counter-keyed sequence.
size_t counting_entropy(void *user, uint8_t *buf, size_t min_len, size_t)
{
    auto *n = static_cast<uint32_t *>(user);
    for (size_t i = 0; i < min_len; i++)
        buf[i] = (uint8_t)((*n)++ * 131u + 7u);
    return min_len;
}

struct Pair {
    kcipher_drbg *cpu = nullptr, *gpu = nullptr;
    uint32_t cpu_n = 0, gpu_n = 0;
    ~Pair()
    {
        kcipher_drbg_free(cpu);
        kcipher_drbg_free(gpu);
    }
};

class GpuDrbg : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override
    {
        if (kc::cuda_device_count() == 0)
            GTEST_SKIP() << "no GPU on this machine (or no CUDA build)";
    }

    // Two DRBGs of the cipher, instantiated with the same input.
    void make(Pair &p, unsigned flags)
    {
        const char *gpu_kernel = nullptr;
        ASSERT_EQ(KCIPHER_OK, kcipher_default_gpu_kernel(GetParam().c_str(), &gpu_kernel));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_new(&p.cpu, GetParam().c_str(), flags, nullptr));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_new(&p.gpu, GetParam().c_str(), flags, gpu_kernel));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_entropy_source(p.cpu, counting_entropy, &p.cpu_n));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_entropy_source(p.gpu, counting_entropy, &p.gpu_n));
        const uint8_t pers[5] = {1, 2, 3, 4, 5};
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_instantiate(p.cpu, nullptr, 0, nullptr, 0, pers, sizeof pers));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_instantiate(p.gpu, nullptr, 0, nullptr, 0, pers, sizeof pers));
    }
};

TEST_P(GpuDrbg, LargeOutputsEqualTheCpu)
{
    for (unsigned flags : {0u, (unsigned)KCIPHER_DRBG_NO_DF}) {
        Pair p;
        make(p, flags);
        if (HasFatalFailure())
            return;
        const size_t max = kcipher_drbg_max_request(p.cpu);
        const size_t sizes[] = {1, 13, max, max + 1, 7 * max + 5, (size_t(3) << 20) + 3, (size_t(40) << 20) + 11};
        for (size_t n : sizes) {
            Bytes a(n), b(n);
            ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.cpu, a.data(), n, 0));
            ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.gpu, b.data(), n, 0)) << kcipher_gpu_last_error();
            ASSERT_TRUE(a == b) << GetParam() << " flags " << flags << " bytes " << n;
        }
        uint64_t ca = 0, cb = 0;
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_reseed_counter(p.cpu, &ca));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_reseed_counter(p.gpu, &cb));
        EXPECT_EQ(ca, cb);
    }
}

TEST_P(GpuDrbg, PredictionResistanceAndReseedsInsideTheChain)
{
    Pair p;
    make(p, 0);
    if (HasFatalFailure())
        return;
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_reseed_interval(p.cpu, 3));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_reseed_interval(p.gpu, 3));
    const size_t n = 11 * kcipher_drbg_max_request(p.cpu) + 3;
    for (int pr : {0, 1}) {
        Bytes a(n), b(n);
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.cpu, a.data(), n, pr));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.gpu, b.data(), n, pr)) << kcipher_gpu_last_error();
        ASSERT_TRUE(a == b) << GetParam() << " prediction resistance " << pr;
    }
}

std::string safe(const ::testing::TestParamInfo<std::string> &i)
{
    std::string n = i.param;
    for (char &c : n)
        if (c == '-')
            c = '_';
    return n;
}

INSTANTIATE_TEST_SUITE_P(AllCiphers, GpuDrbg,
                         ::testing::Values("aria-128", "aria-192", "aria-256", "lea-128", "lea-192", "lea-256",
                                           "hight", "cham-64-128", "cham-128-128", "cham-128-256"),
                         safe);

} // namespace
