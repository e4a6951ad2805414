// CTR_DRBG large outputs on the GPU: the same bytes as the CPU definition for every cipher,
// through the C API (a DRBG made with the cipher's GPU kernel against one made with the best
// CPU kernel, instantiated alike), over sizes that are not multiples of the block, span
// many requests and cross the 8 MiB batches; with prediction resistance, whose reseeds
// happen inside the CPU's chain. Into host memory (kcipher_drbg_generate_large) and device
// memory (kcipher_drbg_generate_device); the many-instance mode (kcipher_drbg_multi) against
// single DRBGs and against its CPU path, into host and device memory; misuse. Skipped where
// there is no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/devices.hpp"
#include "drbg/drbg_gpu.hpp"
#include "kcipher/kcipher.h"
#include "kcipher/kcipher.hpp"
#include "support/drbg_multi_check.hpp"
#include "support/gpu_kit.hpp"

#if defined(KCIPHER_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

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

// An observer of the handle's GPU calls (drbg/gpu_observer.hpp) is told of each call, with
// its requests, and changes no byte; without one, nothing is reported.
TEST_P(GpuDrbg, ObserverSeesEachCallAndChangesNoByte)
{
    Pair p;
    make(p, 0);
    if (HasFatalFailure())
        return;
    struct Count final : kc::drbg::GpuCallObserver {
        int calls = 0;
        size_t requests = 0, batches = 0;
        void call_done(const kc::drbg::GpuCallReport &r) override { calls++, requests += r.requests, batches += r.batches; }
    } count;
    kc::drbg::set_gpu_observer(p.gpu, &count);
    const size_t max = kcipher_drbg_max_request(p.cpu), n = (size_t(9) << 20) + 5; // over a batch
    Bytes a(n), b(n);
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.cpu, a.data(), n, 0));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.gpu, b.data(), n, 0)) << kcipher_gpu_last_error();
    ASSERT_TRUE(a == b) << GetParam();
    EXPECT_EQ(count.calls, 1);
    EXPECT_EQ(count.requests, (n + max - 1) / max);
    EXPECT_GE(count.batches, 1u);
    kc::drbg::set_gpu_observer(p.gpu, nullptr);
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.cpu, a.data(), n, 0));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.gpu, b.data(), n, 0)) << kcipher_gpu_last_error();
    ASSERT_TRUE(a == b) << GetParam();
    EXPECT_EQ(count.calls, 1);
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

#if defined(KCIPHER_HAVE_CUDA)

using kct::DeviceBuffer;

Bytes to_host(const uint8_t *d, size_t n)
{
    Bytes h(n);
    if (n != 0 && cudaMemcpy(h.data(), d, n, cudaMemcpyDeviceToHost) != cudaSuccess)
        throw std::runtime_error("cudaMemcpy");
    return h;
}

Bytes random_input(std::mt19937_64 &g, size_t n)
{
    Bytes b(n);
    for (uint8_t &x : b)
        x = (uint8_t)g();
    return b;
}

// An entropy source that serves `good` calls, then fails.
struct FailingSource {
    uint32_t n = 0;
    int calls = 0, good = 0;
};
size_t failing_entropy(void *user, uint8_t *buf, size_t min_len, size_t max_len)
{
    auto *f = static_cast<FailingSource *>(user);
    if (f->calls++ >= f->good)
        return 0;
    return counting_entropy(&f->n, buf, min_len, max_len);
}

// The chain fails in the middle of its first batch (the second reseed's entropy source
// fails, after six requests): the GPU call reports what the CPU path reports, the six
// requests before the failure hold the CPU's bytes, and the state stands where the CPU's
// does. Into host memory, then device memory.
TEST_P(GpuDrbg, AChainFailureKeepsTheRequestsBeforeIt)
{
    const char *gpu_kernel = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_default_gpu_kernel(GetParam().c_str(), &gpu_kernel));
    for (bool device : {false, true}) {
        FailingSource fc{0, 0, 3}, fg{0, 0, 3}; // instantiate (entropy, nonce), one reseed, then failures
        kcipher::Drbg cpu(GetParam()), gpu(GetParam(), 0, gpu_kernel);
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_entropy_source(cpu.get(), failing_entropy, &fc));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_entropy_source(gpu.get(), failing_entropy, &fg));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_reseed_interval(cpu.get(), 3));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_reseed_interval(gpu.get(), 3));
        cpu.instantiate();
        gpu.instantiate();
        // Over one batch of the GPU path (8 MiB into host memory, 32 MiB into device memory),
        // so that the chain runs on its own thread and lays batches out in the ring.
        const size_t max = cpu.max_request(), n = (size_t(40) << 20) + 3, kept = 6 * max;
        Bytes a(n, 0), b(n, 0);
        const kcipher_status sa = kcipher_drbg_generate_large(cpu.get(), a.data(), n, 0);
        kcipher_status sb;
        if (device) {
            DeviceBuffer d(n);
            ASSERT_EQ(cudaSuccess, cudaMemset(d.p, 0, n));
            sb = kcipher_drbg_generate_device(gpu.get(), d.p, n, nullptr);
            b = to_host(d.p, n);
        } else {
            sb = kcipher_drbg_generate_large(gpu.get(), b.data(), n, 0);
        }
        EXPECT_EQ(KCIPHER_ERR_DRBG_ENTROPY_SOURCE, sa);
        EXPECT_EQ(sa, sb) << kcipher_gpu_last_error();
        ASSERT_TRUE(std::equal(a.begin(), a.begin() + kept, b.begin())) << GetParam() << " device " << device;
        EXPECT_NE(Bytes(kept, 0), Bytes(b.begin(), b.begin() + kept));
        uint64_t ca = 0, cb = 0;
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_reseed_counter(cpu.get(), &ca));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_reseed_counter(gpu.get(), &cb));
        EXPECT_EQ(ca, cb);
        EXPECT_EQ(fc.calls, fg.calls);
    }
}

// Page-locked host memory, which the GPU copies into directly (no staging): the same bytes,
// at odd offsets and sizes; a buffer pinned only in part takes the staged path, also exact.
TEST_P(GpuDrbg, PageLockedHostOutputEqualsTheCpu)
{
    Pair p;
    make(p, 0);
    if (HasFatalFailure())
        return;
    const size_t max = kcipher_drbg_max_request(p.cpu), cap = (size_t(20) << 20) + 64;
    uint8_t *pinned = nullptr;
    ASSERT_EQ(cudaSuccess, cudaHostAlloc((void **)&pinned, cap, cudaHostAllocDefault));
    std::unique_ptr<uint8_t, decltype(&cudaFreeHost)> guard(pinned, &cudaFreeHost);
    for (size_t n : {size_t(1), max + 3, 7 * max + 5, (size_t(9) << 20) + 11, (size_t(20) << 20) + 1}) {
        const size_t off = n % 2 ? 3 : 0;
        Bytes a(n);
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.cpu, a.data(), n, 0));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.gpu, pinned + off, n, 0)) << kcipher_gpu_last_error();
        ASSERT_TRUE(std::equal(a.begin(), a.end(), pinned + off)) << GetParam() << " bytes " << n;
    }
    // Pinned at the start, pageable at the end.
    const size_t n = 2 * max + 9;
    Bytes a(n);
    std::unique_ptr<uint8_t[]> mixed(new uint8_t[n + 4096]);
    ASSERT_EQ(cudaSuccess, cudaHostRegister(mixed.get(), 4096, cudaHostRegisterDefault));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(p.cpu, a.data(), n, 0));
    const kcipher_status st = kcipher_drbg_generate_large(p.gpu, mixed.get(), n, 0);
    cudaHostUnregister(mixed.get());
    ASSERT_EQ(KCIPHER_OK, st) << kcipher_gpu_last_error();
    ASSERT_TRUE(std::equal(a.begin(), a.end(), mixed.get()));
}

// Device memory: sizes 0, 1, odd, a request and one byte either side, many requests, over
// one batch of the GPU path (8 MiB), at odd offsets into the buffer, on the default stream
// and on a stream of the caller's; host memory in between from the same DRBG.
TEST_P(GpuDrbg, DeviceOutputEqualsTheCpu)
{
    std::mt19937_64 g(std::hash<std::string>{}(GetParam()));
    kcipher_cipher_info info;
    ASSERT_EQ(KCIPHER_OK, kcipher_cipher_find(GetParam().c_str(), &info));
    const char *gpu_kernel = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_default_gpu_kernel(GetParam().c_str(), &gpu_kernel));
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaSuccess, cudaStreamCreate(&stream));
    for (unsigned flags : {0u, (unsigned)KCIPHER_DRBG_NO_DF}) {
        const bool df = flags == 0;
        const Bytes e = random_input(g, df ? info.key_bytes + 3 : info.key_bytes + info.block_bytes);
        const Bytes n = random_input(g, df ? 9 : 0), p = random_input(g, 5);
        kcipher::Drbg cpu(GetParam(), flags), gpu(GetParam(), flags, gpu_kernel);
        cpu.instantiate(e, n, p);
        gpu.instantiate(e, n, p);
        const size_t max = cpu.max_request();
        const size_t sizes[] = {0, 1, 15, 16, 17, max - 1, max, max + 1, 7 * max + 5, (size_t(8) << 20) + 1,
                                (size_t(20) << 20) + 11};
        int k = 0;
        for (size_t size : sizes) {
            const size_t off = k % 3 == 2 ? 3 : 0;
            DeviceBuffer d(size + off);
            Bytes want = cpu.generate_large(size);
            ASSERT_NO_THROW(gpu.generate_device(d.p + off, size, k % 2 ? stream : nullptr))
                << kcipher_gpu_last_error();
            ASSERT_TRUE(to_host(d.p + off, size) == want) << GetParam() << " df " << df << " bytes " << size;
            if (k++ % 4 == 1) // the host path of the same DRBG in between
                ASSERT_TRUE(cpu.generate_large(size + 7) == gpu.generate_large(size + 7));
        }
        uint64_t a = 0, b = 0;
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_reseed_counter(cpu.get(), &a));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_reseed_counter(gpu.get(), &b));
        EXPECT_EQ(a, b);
    }
    cudaStreamDestroy(stream);
}

// Every buffer of the GPU path that holds key material between a call's steps (key states,
// raw keys, counters, Update blocks; device and pinned host memory) reads zero, whole, after
// each call: one DRBG into device, pageable and page-locked memory, then many instances into
// host and device memory. The buffers must exist, or the check would prove nothing.
void expect_key_material_zero(const kc::drbg::GpuWorkspace *ws, const std::string &what)
{
    const std::vector<kc::drbg::SecretRegion> regions = kc::drbg::gpu_workspace_secrets(ws);
    size_t device_bytes = 0, host_bytes = 0;
    for (const kc::drbg::SecretRegion &r : regions) {
        Bytes b(r.bytes);
        if (r.device)
            ASSERT_EQ(cudaSuccess, cudaMemcpy(b.data(), r.p, r.bytes, cudaMemcpyDeviceToHost));
        else
            std::copy(r.p, r.p + r.bytes, b.begin());
        (r.device ? device_bytes : host_bytes) += r.bytes;
        const auto nonzero = std::find_if(b.begin(), b.end(), [](uint8_t x) { return x != 0; });
        EXPECT_EQ(nonzero, b.end()) << what << ": " << (r.device ? "device" : "pinned") << " buffer of " << r.bytes
                                    << " bytes, byte " << (nonzero - b.begin()) << " is not zero";
    }
    EXPECT_GT(device_bytes, 0u) << what;
    EXPECT_GT(host_bytes, 0u) << what;
}

TEST_P(GpuDrbg, KeyMaterialIsZeroAfterEachCall)
{
    const char *gpu_kernel = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_default_gpu_kernel(GetParam().c_str(), &gpu_kernel));
    kcipher::Drbg gpu(GetParam(), 0, gpu_kernel);
    gpu.instantiate();
    const size_t n = (size_t(40) << 20) + 11; // several batches and a tail
    DeviceBuffer d(n);
    ASSERT_NO_THROW(gpu.generate_device(d.p, n)) << kcipher_gpu_last_error();
    ASSERT_NO_FATAL_FAILURE(expect_key_material_zero(kc::drbg::gpu_workspace_of(gpu.get()), GetParam() + " device"));
    Bytes host(n);
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(gpu.get(), host.data(), n, 0)) << kcipher_gpu_last_error();
    ASSERT_NO_FATAL_FAILURE(expect_key_material_zero(kc::drbg::gpu_workspace_of(gpu.get()), GetParam() + " host"));
    uint8_t *pinned = nullptr;
    ASSERT_EQ(cudaSuccess, cudaHostAlloc((void **)&pinned, n, cudaHostAllocDefault));
    std::unique_ptr<uint8_t, cudaError_t (*)(void *)> own(pinned, cudaFreeHost);
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(gpu.get(), pinned, n, 1)) << kcipher_gpu_last_error();
    ASSERT_NO_FATAL_FAILURE(expect_key_material_zero(kc::drbg::gpu_workspace_of(gpu.get()),
                                                     GetParam() + " page-locked, prediction resistance"));

    kcipher::DrbgMulti many(GetParam(), 3000, 0, gpu_kernel);
    many.instantiate();
    const size_t len = many.max_request() + 17; // two requests each
    Bytes out = many.generate(len);
    ASSERT_NO_FATAL_FAILURE(expect_key_material_zero(kc::drbg::gpu_workspace_of(many.get()), GetParam() + " many"));
    DeviceBuffer dm(out.size());
    ASSERT_NO_THROW(many.generate_device(dm.p, len)) << kcipher_gpu_last_error();
    ASSERT_NO_FATAL_FAILURE(
        expect_key_material_zero(kc::drbg::gpu_workspace_of(many.get()), GetParam() + " many, device"));
}

// Many instances into host and device memory against single DRBGs (kct::compare_multi_with_
// singles: odd sizes, many requests, reseeds, prediction resistance, df and no df).
TEST_P(GpuDrbg, ManyInstancesEqualSingleDrbgs)
{
    const char *gpu_kernel = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_default_gpu_kernel(GetParam().c_str(), &gpu_kernel));
    const kct::MultiGenerate device = [](kcipher_drbg_multi *m, Bytes &out, size_t len, int pr) {
        DeviceBuffer d(out.size());
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_generate_device(m, d.p, len, pr, nullptr)) << kcipher_gpu_last_error();
        out = to_host(d.p, out.size());
    };
    for (unsigned flags : {0u, (unsigned)KCIPHER_DRBG_NO_DF})
        for (size_t n : {size_t(1), size_t(3), size_t(40)}) {
            ASSERT_NO_FATAL_FAILURE(kct::compare_multi_with_singles(GetParam().c_str(), flags, n, gpu_kernel, nullptr,
                                                                    n + flags));
            ASSERT_NO_FATAL_FAILURE(kct::compare_multi_with_singles(GetParam().c_str(), flags, n, gpu_kernel, device,
                                                                    n * 7 + flags));
        }
}

// `count` instances against the CPU's many-instance path, which DrbgMultiCpu checks against
// single DRBGs.
void many_instances_gpu_equals_cpu(const std::string &name, size_t count)
{
    const char *gpu_kernel = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_default_gpu_kernel(name.c_str(), &gpu_kernel));
    std::mt19937_64 g(count);
    kcipher_cipher_info info;
    ASSERT_EQ(KCIPHER_OK, kcipher_cipher_find(name.c_str(), &info));
    const size_t max = info.block_bytes == 16 ? 65536 : 1024;
    for (unsigned flags : {0u, (unsigned)KCIPHER_DRBG_NO_DF}) {
        const size_t elen = flags == 0 ? info.key_bytes : info.key_bytes + info.block_bytes;
        const Bytes e = random_input(g, count * elen);
        kcipher::DrbgMulti cpu(name, count, flags), gpu(name, count, flags, gpu_kernel);
        uint32_t sc = 5, sg = 5;
        cpu.set_entropy_source(kct::counting_entropy, &sc);
        gpu.set_entropy_source(kct::counting_entropy, &sg);
        cpu.set_reseed_interval(2);
        gpu.set_reseed_interval(2);
        cpu.instantiate(e);
        gpu.instantiate(e);
        int k = 0;
        for (size_t len : {max, size_t(64), max + 17, size_t(1000), size_t(3)}) {
            const bool pr = k == 3;
            Bytes want = cpu.generate(len, pr);
            if (k++ % 2 == 0) {
                ASSERT_TRUE(gpu.generate(len, pr) == want) << name << " len " << len;
            } else {
                DeviceBuffer d(want.size());
                ASSERT_NO_THROW(gpu.generate_device(d.p, len, pr)) << kcipher_gpu_last_error();
                ASSERT_TRUE(to_host(d.p, want.size()) == want) << name << " len " << len;
            }
            ASSERT_EQ(cpu.reseed_counter(count - 1), gpu.reseed_counter(count - 1));
        }
        EXPECT_EQ(sc, sg);
    }
}

// Thousands of instances: several groups of the GPU path, the key states derived on the GPU
// (GpuOps::set_keys) where the kernel can.
TEST_P(GpuDrbg, ManyInstancesGpuEqualsCpu)
{
    many_instances_gpu_equals_cpu(GetParam(), 3000);
}

TEST(GpuDrbgMisuse, DeviceCalls)
{
    if (kc::cuda_device_count() == 0)
        GTEST_SKIP() << "no GPU on this machine (or no CUDA build)";
    const char *gpu_kernel = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_default_gpu_kernel("lea-128", &gpu_kernel));
    kcipher::Drbg gpu("lea-128", 0, gpu_kernel), cpu("lea-128");
    DeviceBuffer d(4096);
    Bytes host(4096);
    uint8_t *pinned = nullptr;
    ASSERT_EQ(cudaSuccess, cudaMallocHost((void **)&pinned, 4096));
    kcipher_drbg *g = gpu.get();
    EXPECT_EQ(kcipher_drbg_generate_device(g, d.p, 64, nullptr), KCIPHER_ERR_DRBG_NOT_INSTANTIATED);
    gpu.instantiate();
    cpu.instantiate();
    EXPECT_EQ(kcipher_drbg_generate_device(g, host.data(), 64, nullptr), KCIPHER_ERR_NOT_DEVICE_MEMORY);
    EXPECT_EQ(kcipher_drbg_generate_device(g, pinned, 64, nullptr), KCIPHER_ERR_NOT_DEVICE_MEMORY);
    EXPECT_EQ(kcipher_drbg_generate_device(g, nullptr, 64, nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_generate_device(g, nullptr, 0, nullptr), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_generate_device(nullptr, d.p, 64, nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_generate_device(cpu.get(), d.p, 64, nullptr), KCIPHER_ERR_NOT_GPU_KERNEL);
    EXPECT_EQ(kcipher_drbg_set_gpu(g, kcipher_gpu_count()), KCIPHER_ERR_NO_GPU);
    EXPECT_EQ(kcipher_drbg_set_gpu(g, -2), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_NO_THROW(gpu.set_gpu(kcipher_gpu_count() - 1));
    EXPECT_THROW(gpu.generate_device(host.data(), 64), kcipher::Error);
    uint64_t c = 0;
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_reseed_counter(g, &c));
    EXPECT_EQ(c, 1u); // no refused call made a request

    // The work is ordered after the caller's stream: a memset queued first does not win.
    cudaStream_t s = nullptr;
    ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
    kcipher::Drbg a("lea-128", 0, gpu_kernel), b("lea-128");
    const Bytes e(16, 0x5c);
    a.instantiate(e);
    b.instantiate(e);
    ASSERT_EQ(cudaSuccess, cudaMemsetAsync(d.p, 0, 4096, s));
    a.generate_device(d.p, 4096, s);
    EXPECT_TRUE(to_host(d.p, 4096) == b.generate_large(4096));
    cudaStreamDestroy(s);

    // Many instances.
    kcipher::DrbgMulti mg("lea-128", 4, 0, gpu_kernel), mc("lea-128", 4);
    kcipher_drbg_multi *m = mg.get();
    EXPECT_EQ(kcipher_drbg_multi_generate_device(m, d.p, 64, 0, nullptr), KCIPHER_ERR_DRBG_NOT_INSTANTIATED);
    mg.instantiate();
    mc.instantiate();
    EXPECT_EQ(kcipher_drbg_multi_generate_device(m, host.data(), 64, 0, nullptr), KCIPHER_ERR_NOT_DEVICE_MEMORY);
    EXPECT_EQ(kcipher_drbg_multi_generate_device(m, pinned, 64, 0, nullptr), KCIPHER_ERR_NOT_DEVICE_MEMORY);
    EXPECT_EQ(kcipher_drbg_multi_generate_device(m, nullptr, 64, 0, nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_multi_generate_device(m, nullptr, 0, 0, nullptr), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_multi_generate_device(mc.get(), d.p, 64, 0, nullptr), KCIPHER_ERR_NOT_GPU_KERNEL);
    EXPECT_EQ(kcipher_drbg_multi_set_gpu(m, kcipher_gpu_count()), KCIPHER_ERR_NO_GPU);
    EXPECT_EQ(mg.reseed_counter(3), 1u);
    EXPECT_EQ(kcipher_drbg_multi_generate_device(m, d.p, 1024, 0, nullptr), KCIPHER_OK);
    EXPECT_EQ(mg.reseed_counter(3), 2u);
    cudaFreeHost(pinned);
}

#endif // KCIPHER_HAVE_CUDA

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
                                           "hight", "cham-64-128", "cham-128-128", "cham-128-256", "seed-128"),
                         safe);

} // namespace
