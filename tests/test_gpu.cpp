// GPU kernels against the CPU on random keys, lengths, alignments, counters and offsets,
// through both entry points (host memory and the caller's device memory), on several
// streams at once and on every GPU present. Skipped where there is no GPU (CI); run by
// scripts/gpu-check on the GPU machine, also under compute-sanitizer.
//
// The oracle is the best CPU kernel (itself tested against the reference in test_modes and
// the KAT files); the GPU kernels also pass the KATs through `kcipher selftest`.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/key_state.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"
#include "support/gpu_kit.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

#if defined(KCIPHER_HAVE_CUDA)
#include <cuda_runtime.h>

#include "modes/gpu_modes.hpp"
#endif

namespace {

using Bytes = std::vector<uint8_t>;
using kct::Ctx;
#if defined(KCIPHER_HAVE_CUDA)
using kct::DeviceBuffer;
#endif

std::vector<kct::KernelCipher> gpu_kernel_ciphers()
{
    std::vector<kct::KernelCipher> v;
    for (const kct::KernelCipher &kc : kct::all_kernel_ciphers())
        if (kc.kernel->gpu != nullptr)
            v.push_back(kc);
    if (v.empty()) // a build without CUDA: one placeholder that reports the skip
        v.push_back({kc::reference_kernel(kc::Cipher::aria128), kc::Cipher::aria128});
    return v;
}

class Gpu : public ::testing::TestWithParam<kct::KernelCipher> {
  protected:
    void SetUp() override
    {
        if (GetParam().kernel->gpu == nullptr)
            GTEST_SKIP() << "this build has no CUDA kernels";
        if (!kc::kernel_runnable(*GetParam().kernel))
            GTEST_SKIP() << GetParam().kernel->name << ": no GPU on this machine";
        d_ = &kc::cipher_desc(GetParam().cipher);
        seed_ = 0x51ed + (uint64_t)GetParam().cipher * 1000;
    }

    Bytes rnd(size_t n) { return kct::random_bytes(n, seed_++); }

    // The GPU context and the CPU oracle under one random key.
    void make(Bytes *key)
    {
        *key = rnd(d_->key_bytes);
        gpu_.reset(new Ctx(d_->name, *key, GetParam().kernel->name));
        cpu_.reset(new Ctx(d_->name, *key, nullptr));
    }

    const kc::CipherDesc *d_ = nullptr;
    uint64_t seed_ = 0;
    std::unique_ptr<Ctx> gpu_, cpu_;
};

// The lengths every entry point is tried on: empty, under a block, around block and warp
// and CUDA-block boundaries, and past one 32 MiB staging chunk.
std::vector<size_t> lengths(size_t bs)
{
    return {0, 1, bs - 1, bs, bs + 1, 31 * bs + 5, 256 * bs, 257 * bs + 3, 4096 * bs - 1, (1 << 20) + 7,
            (size_t(33) << 20) + 3 * bs + 1};
}

TEST_P(Gpu, HostMemoryMatchesCpu)
{
    Bytes key;
    make(&key);
    const size_t bs = d_->block_bytes;
    for (size_t len : lengths(bs)) {
        Bytes in = rnd(len), a(len), b(len);
        // CTR from a random IV and offset.
        Bytes iv = rnd(bs);
        uint64_t off = len % 7 == 0 ? 0 : (uint64_t)len * 977;
        ASSERT_EQ(KCIPHER_OK, kcipher_ctr_xor(gpu_->c, iv.data(), bs, off, in.data(), a.data(), len));
        ASSERT_EQ(KCIPHER_OK, kcipher_ctr_xor(cpu_->c, iv.data(), bs, off, in.data(), b.data(), len));
        ASSERT_EQ(a, b) << "ctr len " << len;
        // In place.
        Bytes c = in;
        ASSERT_EQ(KCIPHER_OK, kcipher_ctr_xor(gpu_->c, iv.data(), bs, off, c.data(), c.data(), len));
        ASSERT_EQ(c, b) << "ctr in place, len " << len;
        // ECB both ways on whole blocks.
        size_t whole = len / bs * bs;
        Bytes e(whole), f(whole), g(whole);
        ASSERT_EQ(KCIPHER_OK, kcipher_ecb_encrypt(gpu_->c, in.data(), e.data(), whole));
        ASSERT_EQ(KCIPHER_OK, kcipher_ecb_encrypt(cpu_->c, in.data(), f.data(), whole));
        ASSERT_EQ(e, f) << "ecb len " << whole;
        ASSERT_EQ(KCIPHER_OK, kcipher_ecb_decrypt(gpu_->c, e.data(), g.data(), whole));
        ASSERT_TRUE(std::equal(g.begin(), g.end(), in.begin())) << "ecb decrypt len " << whole;
    }
}

TEST_P(Gpu, CbcUsesTheCpuCompanion)
{
    Bytes key;
    make(&key);
    const size_t bs = d_->block_bytes;
    Bytes in = rnd(100 * bs), a(in.size()), b(in.size()), iv = rnd(bs), iv2 = iv;
    ASSERT_EQ(KCIPHER_OK, kcipher_cbc_encrypt(gpu_->c, iv.data(), bs, in.data(), a.data(), in.size()));
    ASSERT_EQ(KCIPHER_OK, kcipher_cbc_encrypt(cpu_->c, iv2.data(), bs, in.data(), b.data(), in.size()));
    EXPECT_EQ(a, b);
    EXPECT_EQ(iv, iv2);
}

#if defined(KCIPHER_HAVE_CUDA)

TEST_P(Gpu, DeviceMemoryMatchesCpu)
{
    Bytes key;
    make(&key);
    const size_t bs = d_->block_bytes;
    for (size_t len : {size_t(0), size_t(1), bs + 3, 1000 * bs + 5, size_t(3) << 20})
        for (size_t skew : {0, 1, 3}) { // unaligned starts take the byte-wise load path
            Bytes in = rnd(len), iv = rnd(bs), want(len);
            uint64_t off = skew * 12345;
            ASSERT_EQ(KCIPHER_OK, kcipher_ctr_xor(cpu_->c, iv.data(), bs, off, in.data(), want.data(), len));
            DeviceBuffer din(len + 8), dout(len + 8);
            din.put(in, skew);
            ASSERT_EQ(KCIPHER_OK, kcipher_gpu_ctr_xor(gpu_->c, iv.data(), bs, off, din.p + skew, dout.p + skew, len, nullptr));
            ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
            ASSERT_EQ(dout.get(len, skew), want) << "ctr len " << len << " skew " << skew;
            // In place, and the keystream alone (in == NULL) XORed afterwards.
            ASSERT_EQ(KCIPHER_OK, kcipher_gpu_ctr_xor(gpu_->c, iv.data(), bs, off, din.p + skew, din.p + skew, len, nullptr));
            ASSERT_EQ(din.get(len, skew), want);
            ASSERT_EQ(KCIPHER_OK, kcipher_gpu_ctr_xor(gpu_->c, iv.data(), bs, off, nullptr, dout.p + skew, len, nullptr));
            Bytes ks = dout.get(len, skew);
            for (size_t i = 0; i < len; i++)
                ks[i] ^= in[i];
            ASSERT_EQ(ks, want) << "keystream len " << len;
            // ECB.
            size_t whole = len / bs * bs;
            Bytes ecb(whole);
            ASSERT_EQ(KCIPHER_OK, kcipher_ecb_encrypt(cpu_->c, in.data(), ecb.data(), whole));
            din.put(in, skew);
            ASSERT_EQ(KCIPHER_OK, kcipher_gpu_ecb_encrypt(gpu_->c, din.p + skew, dout.p + skew, whole, nullptr));
            ASSERT_EQ(dout.get(whole, skew), ecb) << "ecb len " << whole << " skew " << skew;
            ASSERT_EQ(KCIPHER_OK, kcipher_gpu_ecb_decrypt(gpu_->c, dout.p + skew, dout.p + skew, whole, nullptr));
            Bytes back = dout.get(whole, skew);
            ASSERT_TRUE(std::equal(back.begin(), back.end(), in.begin()));
        }
}

// Counters whose low 32 bits wrap inside the request (the launch is split there), whose
// 64-bit halves carry, and that wrap at 2^(8*block).
TEST_P(Gpu, CounterCarriesAndWraps)
{
    Bytes key;
    make(&key);
    const size_t bs = d_->block_bytes;
    const size_t len = 5000 * bs + 7;
    std::vector<Bytes> ivs;
    Bytes iv(bs, 0);
    for (size_t i = bs - 4; i < bs; i++)
        iv[i] = 0xff;
    iv[bs - 1] = 0x00; // low word 0xffffff00: wraps after 256 blocks
    ivs.push_back(iv);
    ivs.push_back(Bytes(bs, 0xff)); // wraps the whole block at once
    Bytes mid(bs, 0);
    for (size_t i = bs / 2 - 4; i < bs; i++)
        mid[i] = 0xff; // carries into the upper half of a 128-bit counter
    ivs.push_back(mid);
    ivs.push_back(rnd(bs));
    for (const Bytes &v : ivs) {
        Bytes in = rnd(len), want(len);
        ASSERT_EQ(KCIPHER_OK, kcipher_ctr_xor(cpu_->c, v.data(), bs, 3, in.data(), want.data(), len));
        DeviceBuffer d(len);
        d.put(in);
        ASSERT_EQ(KCIPHER_OK, kcipher_gpu_ctr_xor(gpu_->c, v.data(), bs, 3, d.p, d.p, len, nullptr));
        ASSERT_EQ(d.get(len), want) << "iv " << kct::tohex(v);
        Bytes host(len);
        ASSERT_EQ(KCIPHER_OK, kcipher_ctr_xor(gpu_->c, v.data(), bs, 3, in.data(), host.data(), len));
        ASSERT_EQ(host, want) << "host path, iv " << kct::tohex(v);
    }
}

// Small grids force every thread through the grid-stride loop, and leave threads idle.
TEST_P(Gpu, AnyLaunchShapeGivesTheSameBytes)
{
    Bytes key;
    make(&key);
    const size_t bs = d_->block_bytes;
    const size_t len = 70001 * bs + 9;
    Bytes in = rnd(len), iv = rnd(bs), want(len);
    ASSERT_EQ(KCIPHER_OK, kcipher_ctr_xor(cpu_->c, iv.data(), bs, 0, in.data(), want.data(), len));
    DeviceBuffer din(len), dout(len);
    din.put(in);
    kc::GpuJob job{GetParam().kernel, nullptr, bs};
    // The context's key state is private to the API: key a second copy here.
    kc::KeyState ks;
    ASSERT_TRUE(ks.init(*GetParam().kernel, GetParam().cipher, key.data()));
    job.keys = ks.get();
    for (kc::GpuLaunch shape : {kc::GpuLaunch{32, 1}, kc::GpuLaunch{64, 3}, kc::GpuLaunch{1024, 7}, kc::GpuLaunch{256, 100000}}) {
        ASSERT_EQ(cudaSuccess, cudaMemset(dout.p, 0xa5, len));
        ASSERT_EQ(KCIPHER_OK, kc::gpu_device_ctr(job, iv.data(), din.p, dout.p, len, nullptr, &shape));
        ASSERT_EQ(dout.get(len), want) << shape.threads << "x" << shape.blocks;
        size_t whole = len / bs * bs;
        Bytes ecb(whole);
        ASSERT_EQ(KCIPHER_OK, kcipher_ecb_encrypt(cpu_->c, in.data(), ecb.data(), whole));
        ASSERT_EQ(KCIPHER_OK, kc::gpu_device_ecb(job, false, din.p, dout.p, whole, nullptr, &shape));
        ASSERT_EQ(dout.get(whole), ecb) << shape.threads << "x" << shape.blocks;
    }
}

TEST_P(Gpu, SeveralStreamsAtOnce)
{
    const size_t bs = d_->block_bytes, len = (size_t(1) << 20) + 5;
    constexpr int n = 4;
    std::vector<std::unique_ptr<Ctx>> g, c;
    std::vector<Bytes> in, iv, want;
    std::vector<std::unique_ptr<DeviceBuffer>> buf;
    cudaStream_t s[n];
    for (int i = 0; i < n; i++) {
        Bytes key = rnd(d_->key_bytes);
        g.emplace_back(new Ctx(d_->name, key, GetParam().kernel->name));
        c.emplace_back(new Ctx(d_->name, key, nullptr));
        in.push_back(rnd(len));
        iv.push_back(rnd(bs));
        want.emplace_back(len);
        ASSERT_EQ(KCIPHER_OK, kcipher_ctr_xor(c[i]->c, iv[i].data(), bs, 0, in[i].data(), want[i].data(), len));
        buf.emplace_back(new DeviceBuffer(len));
        buf[i]->put(in[i]);
        ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s[i]));
    }
    for (int i = 0; i < n; i++)
        ASSERT_EQ(KCIPHER_OK, kcipher_gpu_ctr_xor(g[i]->c, iv[i].data(), bs, 0, buf[i]->p, buf[i]->p, len, s[i]));
    for (int i = 0; i < n; i++) {
        ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(s[i]));
        EXPECT_EQ(buf[i]->get(len), want[i]) << "stream " << i;
        cudaStreamDestroy(s[i]);
    }
}

TEST_P(Gpu, EveryGpuGivesTheSameBytes)
{
    int n = kcipher_gpu_count();
    Bytes key;
    make(&key);
    const size_t bs = d_->block_bytes, len = (size_t(70) << 20) + 3;
    Bytes in = rnd(len), iv = rnd(bs), want(len), got(len);
    ASSERT_EQ(KCIPHER_OK, kcipher_ctr_xor(cpu_->c, iv.data(), bs, 11, in.data(), want.data(), len));
    for (int dev = -1; dev < n; dev++) {
        ASSERT_EQ(KCIPHER_OK, kcipher_set_gpu(gpu_->c, dev));
        ASSERT_EQ(KCIPHER_OK, kcipher_ctr_xor(gpu_->c, iv.data(), bs, 11, in.data(), got.data(), len));
        ASSERT_EQ(got, want) << "gpu " << dev;
    }
    EXPECT_EQ(KCIPHER_ERR_NO_GPU, kcipher_set_gpu(gpu_->c, n));
}

TEST_P(Gpu, DeviceCallsRefuseMisuse)
{
    Bytes key;
    make(&key);
    const size_t bs = d_->block_bytes;
    Bytes host(64), iv(bs);
    DeviceBuffer d(64);
    EXPECT_EQ(KCIPHER_ERR_NOT_DEVICE_MEMORY, kcipher_gpu_ecb_encrypt(gpu_->c, host.data(), host.data(), 64, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NOT_DEVICE_MEMORY, kcipher_gpu_ecb_encrypt(gpu_->c, host.data(), d.p, 64, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NOT_GPU_KERNEL, kcipher_gpu_ecb_encrypt(cpu_->c, d.p, d.p, 64, nullptr));
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, kcipher_gpu_ecb_encrypt(gpu_->c, d.p, d.p, 63, nullptr));
    EXPECT_EQ(KCIPHER_ERR_OVERLAP, kcipher_gpu_ecb_encrypt(gpu_->c, d.p, d.p + bs, 32, nullptr));
    EXPECT_EQ(KCIPHER_ERR_IV_LENGTH, kcipher_gpu_ctr_xor(gpu_->c, iv.data(), bs + 1, 0, d.p, d.p, 64, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_gpu_ctr_xor(gpu_->c, nullptr, bs, 0, d.p, d.p, 64, nullptr));
    EXPECT_EQ(KCIPHER_OK, kcipher_gpu_ctr_xor(gpu_->c, iv.data(), bs, 0, nullptr, nullptr, 0, nullptr));
    EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
}

// GpuOps::set_keys (the DRBG's key states derived on the GPU) against the host's set_key:
// the same keystream from ctr_segments under many random keys and counters, with the
// device states' memory filled with garbage first (set_keys must write all that CTR reads).
TEST_P(Gpu, DeviceKeyScheduleGivesTheHostsStates)
{
    const kc::GpuOps &ops = *GetParam().kernel->gpu;
    if (ops.set_keys == nullptr || ops.ctr_segments == nullptr)
        GTEST_SKIP() << GetParam().kernel->name << " derives no key states on the GPU";
    const kc::Kernel &k = *GetParam().kernel;
    const size_t bs = d_->block_bytes, kb = d_->key_bytes;
    const size_t stride = (k.key_state_bytes + 63) / 64 * 64;
    for (size_t raw_stride : {kb, size_t(32), size_t(45)})
        for (size_t n : {size_t(1), size_t(37), size_t(1000)}) {
            const Bytes raw = rnd(n * raw_stride), ctrs = rnd(n * bs);
            Bytes host_states(n * stride, 0);
            for (size_t i = 0; i < n; i++)
                k.set_key(host_states.data() + i * stride, GetParam().cipher, raw.data() + i * raw_stride);
            const size_t seg = 67 * bs, last = 5 * bs + 3; // a tail: the last segment is partial
            DeviceBuffer d_raw(raw.size()), d_host(n * stride), d_dev(n * stride), d_ctr(ctrs.size());
            DeviceBuffer out_a(n * seg), out_b(n * seg);
            d_raw.put(raw);
            d_host.put(host_states);
            d_ctr.put(ctrs);
            ASSERT_EQ(cudaSuccess, cudaMemset(d_dev.p, 0xa5, n * stride));
            ASSERT_EQ(cudaSuccess, ops.set_keys(GetParam().cipher, d_raw.p, raw_stride, n, d_dev.p, stride, nullptr));
            ASSERT_EQ(cudaSuccess,
                      ops.ctr_segments(host_states.data(), d_host.p, stride, d_ctr.p, n, seg, last, out_a.p, nullptr));
            ASSERT_EQ(cudaSuccess,
                      ops.ctr_segments(host_states.data(), d_dev.p, stride, d_ctr.p, n, seg, last, out_b.p, nullptr));
            ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
            const size_t bytes = (n - 1) * seg + last;
            ASSERT_EQ(out_a.get(bytes), out_b.get(bytes)) << n << " keys, " << raw_stride << " bytes apart";
        }
    // A misaligned state stride is refused, not written through.
    DeviceBuffer d(4096);
    EXPECT_NE(cudaSuccess, ops.set_keys(GetParam().cipher, d.p, kb, 2, d.p + 1, stride, nullptr));
    cudaGetLastError();
}

#endif // KCIPHER_HAVE_CUDA

INSTANTIATE_TEST_SUITE_P(GpuKernels, Gpu, ::testing::ValuesIn(gpu_kernel_ciphers()),
                         [](const auto &info) { return kct::test_name(info.param); });

// Without a GPU context the device calls say so, in every build.
TEST(GpuApi, DeviceCallsNeedAGpuContext)
{
    Bytes key(16, 1), buf(32);
    kcipher_ctx *c = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_new(&c, "lea-128", key.data(), key.size(), "lea/ref"));
    EXPECT_EQ(KCIPHER_ERR_NOT_GPU_KERNEL, kcipher_gpu_ecb_encrypt(c, buf.data(), buf.data(), 32, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NOT_GPU_KERNEL, kcipher_gpu_ctr_xor(c, key.data(), 16, 0, nullptr, buf.data(), 32, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_gpu_ecb_decrypt(nullptr, buf.data(), buf.data(), 32, nullptr));
    EXPECT_STREQ("", kcipher_gpu_last_error());
    const char *name = nullptr;
    kcipher_status st = kcipher_default_gpu_kernel("lea-128", &name);
    if (kcipher_gpu_count() == 0)
        EXPECT_EQ(KCIPHER_ERR_NO_GPU, st);
    else
        EXPECT_EQ(KCIPHER_OK, st);
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_CIPHER, kcipher_default_gpu_kernel("des", &name));
    kcipher_free(c);
}

TEST(GpuApi, GpuKernelsAreNeverTheDefault)
{
    for (int i = 0; i < kc::cipher_count; i++) {
        const char *name = nullptr;
        ASSERT_EQ(KCIPHER_OK, kcipher_default_kernel(kc::cipher_by_index(i)->name, &name));
        EXPECT_EQ(nullptr, kc::find_kernel(name)->gpu) << name;
    }
}

} // namespace
