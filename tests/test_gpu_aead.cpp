// GCM on the GPU (kcipher_gpu_aead_*, and host memory through a GPU context) against the
// CPU's GCM, itself tested against OpenSSL and the vectors in test_aead.cpp: random keys,
// messages across block, warp-step and segment boundaries, IVs of any length, AAD, tag
// lengths, in place and unaligned; batches of mixed messages; every tag failure caught with
// its output zeroed. Skipped where there is no GPU (CI); run by the GPU machine's script,
// also under compute-sanitizer.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cuda/gcm_pass.hpp"
#include "cuda/gpu_ops.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"
#include "support/gpu_kit.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

#if defined(KCIPHER_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

namespace {

using Bytes = std::vector<uint8_t>;
using kct::Ctx;
#if defined(KCIPHER_HAVE_CUDA)
using kct::DeviceBuffer;
#endif

// The GPU kernels of 128-bit-block ciphers that have GCM; a placeholder in builds without.
std::vector<kct::KernelCipher> gcm_kernel_ciphers()
{
    std::vector<kct::KernelCipher> v;
    for (const kct::KernelCipher &kc : kct::all_kernel_ciphers())
        if (kc.kernel->gpu != nullptr && kc.kernel->gpu->gcm != nullptr && kc::cipher_desc(kc.cipher).block_bytes == 16)
            v.push_back(kc);
    if (v.empty())
        v.push_back({kc::reference_kernel(kc::Cipher::aria128), kc::Cipher::aria128});
    return v;
}

class GpuGcm : public ::testing::TestWithParam<kct::KernelCipher> {
  protected:
    void SetUp() override
    {
        if (GetParam().kernel->gpu == nullptr)
            GTEST_SKIP() << "this build has no CUDA kernels";
        if (!kc::kernel_runnable(*GetParam().kernel))
            GTEST_SKIP() << GetParam().kernel->name << ": no GPU on this machine";
        d_ = &kc::cipher_desc(GetParam().cipher);
        seed_ = 0x6c3 + (uint64_t)GetParam().cipher * 1000;
        Bytes key = rnd(d_->key_bytes);
        gpu_.reset(new Ctx(d_->name, key, GetParam().kernel->name));
        cpu_.reset(new Ctx(d_->name, key, nullptr));
    }

    Bytes rnd(size_t n) { return kct::random_bytes(n, seed_++); }

    // The CPU's ciphertext || tag.
    Bytes cpu_seal(const Bytes &iv, const Bytes &aad, const Bytes &pt, size_t tag_len)
    {
        Bytes out(pt.size() + tag_len);
        EXPECT_EQ(KCIPHER_OK, kcipher_aead_seal(cpu_->c, KCIPHER_MODE_GCM, iv.data(), iv.size(), aad.data(), aad.size(),
                                                pt.data(), pt.size(), out.data(), tag_len));
        return out;
    }

    const kc::CipherDesc *d_ = nullptr;
    uint64_t seed_ = 0;
    std::unique_ptr<Ctx> gpu_, cpu_;
};

// Host memory through a GPU context: the pinned pipeline (GPU keystream, CPU hash), across
// its 4 MiB chunks.
TEST_P(GpuGcm, HostMemoryMatchesCpu)
{
    for (size_t len : {size_t(0), size_t(17), size_t(4) << 20, (size_t(9) << 20) + 5}) {
        Bytes pt = rnd(len), iv = rnd(len % 2 ? 12 : 20), aad = rnd(len % 50), ct(len + 16), back(len);
        ASSERT_EQ(KCIPHER_OK, kcipher_aead_seal(gpu_->c, KCIPHER_MODE_GCM, iv.data(), iv.size(), aad.data(), aad.size(),
                                                pt.data(), len, ct.data(), 16));
        ASSERT_EQ(ct, cpu_seal(iv, aad, pt, 16)) << "len " << len;
        ASSERT_EQ(KCIPHER_OK, kcipher_aead_open(gpu_->c, KCIPHER_MODE_GCM, iv.data(), iv.size(), aad.data(), aad.size(),
                                                ct.data(), ct.size(), back.data(), 16));
        ASSERT_EQ(back, pt);
        ct[len / 2] ^= 1;
        ASSERT_EQ(KCIPHER_ERR_AUTH, kcipher_aead_open(gpu_->c, KCIPHER_MODE_GCM, iv.data(), iv.size(), aad.data(),
                                                      aad.size(), ct.data(), ct.size(), back.data(), 16));
        ASSERT_EQ(back, Bytes(len, 0));
    }
}

#if defined(KCIPHER_HAVE_CUDA)

// One message on device memory: lengths around blocks, the 32-block warp step, segments
// (2^10 blocks and up) and the finish's 256-segment passes; IVs of 1..64 bytes; AAD;
// every tag length; unaligned and in place. Then every way of breaking the tag.
TEST_P(GpuGcm, DeviceMessageMatchesCpu)
{
    const size_t lens[] = {0, 1, 15, 16, 17, 511, 512, 513, 16384, 16389, 1 << 20, (size_t(1) << 24) + 3,
                           (size_t(65) << 20) + 7};
    const size_t tags[] = {16, 15, 14, 13, 12, 8, 4};
    int k = 0;
    for (size_t len : lens) {
        const size_t iv_len = k % 4 == 0 ? 12 : 1 + (k * 7) % 64, aad_len = (k * 37) % 300, tag_len = tags[k % 7];
        const size_t skew = k % 3 == 2 ? 3 : 0;
        k++;
        Bytes pt = rnd(len), iv = rnd(iv_len), aad = rnd(aad_len);
        const Bytes want = cpu_seal(iv, aad, pt, tag_len);
        DeviceBuffer din(len + skew + 16), dout(len + skew + 16);
        din.put(pt, skew);
        ASSERT_EQ(KCIPHER_OK, kcipher_gpu_aead_seal(gpu_->c, KCIPHER_MODE_GCM, iv.data(), iv_len, aad.data(), aad_len,
                                                    din.p + skew, len, dout.p + skew, tag_len, nullptr));
        ASSERT_EQ(dout.get(len + tag_len, skew), want) << "len " << len << " iv " << iv_len << " aad " << aad_len;
        // Open in place.
        ASSERT_EQ(KCIPHER_OK, kcipher_gpu_aead_open(gpu_->c, KCIPHER_MODE_GCM, iv.data(), iv_len, aad.data(), aad_len,
                                                    dout.p + skew, len + tag_len, dout.p + skew, tag_len, nullptr));
        ASSERT_EQ(dout.get(len, skew), pt);
        // A flipped bit of the ciphertext, the tag, the AAD or the IV: refused, output zeroed.
        for (int what = 0; what < 4; what++) {
            Bytes ct = want, a2 = aad, iv2 = iv;
            if (what == 0 && len)
                ct[(len * 5) / 7] ^= 0x10;
            else if (what == 1)
                ct[len + tag_len - 1] ^= 0x80;
            else if (what == 2 && aad_len)
                a2[aad_len / 2] ^= 1;
            else
                iv2[0] ^= 4;
            din.put(ct, skew);
            DeviceBuffer o(len + 1);
            o.put(rnd(len));
            ASSERT_EQ(KCIPHER_ERR_AUTH, kcipher_gpu_aead_open(gpu_->c, KCIPHER_MODE_GCM, iv2.data(), iv_len, a2.data(),
                                                              aad_len, din.p + skew, len + tag_len, o.p, tag_len, nullptr))
                << "len " << len << " flip " << what;
            ASSERT_EQ(o.get(len), Bytes(len, 0));
        }
    }
}

// A batch: mixed lengths (empty, short TLS records, 16 KiB, one of many segments), IVs,
// AAD, in place and not; then opened, with some messages broken: only those fail, and
// only their outputs are zeroed.
TEST_P(GpuGcm, BatchMatchesCpu)
{
    const size_t tag_len = 16, n = 300;
    std::vector<Bytes> pt(n), iv(n), aad(n), want(n);
    std::vector<size_t> at(n);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = i % 50 == 7 ? (size_t(9) << 20) + 3 : i % 10 == 3 ? 16384 : i % 17 == 0 ? 0 : (i * 977) % 3000;
        pt[i] = rnd(len);
        iv[i] = rnd(i % 5 == 4 ? 1 + i % 40 : 12);
        aad[i] = rnd(i % 3 == 0 ? 13 : (i * 31) % 100);
        want[i] = cpu_seal(iv[i], aad[i], pt[i], tag_len);
        at[i] = total;
        total += (len + tag_len + 15) / 16 * 16 + (i % 4 == 1 ? 16 : 0); // some gaps
    }
    DeviceBuffer data(total), side(n * 200), out(total);
    std::vector<kcipher_gpu_aead_msg> msgs(n);
    for (size_t i = 0; i < n; i++) {
        data.put(pt[i], at[i]);
        side.put(iv[i], i * 200);
        side.put(aad[i], i * 200 + 64);
        const bool in_place = i % 6 == 5;
        msgs[i] = {side.p + i * 200, aad[i].empty() ? nullptr : side.p + i * 200 + 64, data.p + at[i],
                   in_place ? data.p + at[i] : out.p + at[i], iv[i].size(), aad[i].size(), pt[i].size(), -1, 0};
    }
    DeviceBuffer dmsgs(n * sizeof(kcipher_gpu_aead_msg));
    auto upload = [&] {
        ASSERT_EQ(cudaSuccess, cudaMemcpy(dmsgs.p, msgs.data(), n * sizeof msgs[0], cudaMemcpyHostToDevice));
    };
    upload();
    auto *dm = reinterpret_cast<kcipher_gpu_aead_msg *>(dmsgs.p);
    cudaStream_t s;
    ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
    ASSERT_EQ(KCIPHER_OK, kcipher_gpu_aead_seal_batch(gpu_->c, KCIPHER_MODE_GCM, dm, n, tag_len, s));
    for (size_t i = 0; i < n; i++) {
        const uint8_t *o = msgs[i].out;
        DeviceBuffer *buf = o == data.p + at[i] ? &data : &out;
        ASSERT_EQ(buf->get(want[i].size(), at[i]), want[i]) << "message " << i;
    }
    // Open: ciphertexts in `data`, plaintexts into `out`; break every 7th.
    for (size_t i = 0; i < n; i++) {
        Bytes ct = want[i];
        if (i % 7 == 2)
            ct[(ct.size() * 3) / 5] ^= 2;
        data.put(ct, at[i]);
        msgs[i].in = data.p + at[i];
        msgs[i].out = out.p + at[i];
    }
    upload();
    ASSERT_EQ(KCIPHER_ERR_AUTH, kcipher_gpu_aead_open_batch(gpu_->c, KCIPHER_MODE_GCM, dm, n, tag_len, s));
    std::vector<kcipher_gpu_aead_msg> back(n);
    ASSERT_EQ(cudaSuccess, cudaMemcpy(back.data(), dmsgs.p, n * sizeof back[0], cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++) {
        const bool broken = i % 7 == 2;
        ASSERT_EQ(broken ? KCIPHER_ERR_AUTH : KCIPHER_OK, back[i].status) << "message " << i;
        ASSERT_EQ(out.get(pt[i].size(), at[i]), broken ? Bytes(pt[i].size(), 0) : pt[i]) << "message " << i;
    }
    // All whole: KCIPHER_OK.
    for (size_t i = 0; i < n; i++)
        data.put(want[i], at[i]);
    ASSERT_EQ(KCIPHER_OK, kcipher_gpu_aead_open_batch(gpu_->c, KCIPHER_MODE_GCM, dm, n, tag_len, s));
    cudaStreamDestroy(s);
}

// The fused pass runs a round (gcm_round warp steps of 32 blocks) without per-block tests when
// every block of it is a whole, aligned ciphertext block: the first and last such rounds move
// with the AAD's length (where the ciphertext starts) and the message's (where it ends), in a
// batch (one 2^11-block segment a message up to 32 KiB) and across segments. Lengths around
// multiples of a round (2 KiB at four steps) and AAD lengths around steps and rounds, aligned
// (the lean rounds) and one byte off (never lean), in one batch, sealed and opened.
TEST_P(GpuGcm, LeanRoundEdgesMatchCpu)
{
    const size_t tag_len = 16, round = 32 * 16 * kc::gcm_round; // bytes
    std::vector<size_t> lens, aads = {0, 13, 16, 496, 512, 528, 2032, 2048, 2064, 4096 + 16};
    for (size_t m : {size_t(1), size_t(2), size_t(3), size_t(16), size_t(17), size_t(33)})
        for (long d : {-16L, -1L, 0L, 1L, 16L, 512L})
            lens.push_back(m * round + d);
    std::vector<Bytes> pt, iv, aad, want;
    std::vector<size_t> at;
    std::vector<bool> skew;
    size_t total = 0;
    for (size_t len : lens)
        for (size_t a : aads) {
            pt.push_back(rnd(len));
            iv.push_back(rnd(12));
            aad.push_back(rnd(a));
            want.push_back(cpu_seal(iv.back(), aad.back(), pt.back(), tag_len));
            skew.push_back(pt.size() % 7 == 3);
            at.push_back(total + (skew.back() ? 1 : 0));
            total += (len + tag_len + 31) / 16 * 16;
        }
    const size_t n = pt.size();
    DeviceBuffer data(total), side(n * 4200), out(total);
    std::vector<kcipher_gpu_aead_msg> msgs(n);
    for (size_t i = 0; i < n; i++) {
        data.put(pt[i], at[i]);
        side.put(iv[i], i * 4200);
        side.put(aad[i], i * 4200 + 16);
        msgs[i] = {side.p + i * 4200, aad[i].empty() ? nullptr : side.p + i * 4200 + 16, data.p + at[i], out.p + at[i],
                   12, aad[i].size(), pt[i].size(), -1, 0};
    }
    DeviceBuffer dmsgs(n * sizeof(kcipher_gpu_aead_msg));
    ASSERT_EQ(cudaSuccess, cudaMemcpy(dmsgs.p, msgs.data(), n * sizeof msgs[0], cudaMemcpyHostToDevice));
    auto *dm = reinterpret_cast<kcipher_gpu_aead_msg *>(dmsgs.p);
    ASSERT_EQ(KCIPHER_OK, kcipher_gpu_aead_seal_batch(gpu_->c, KCIPHER_MODE_GCM, dm, n, tag_len, nullptr));
    for (size_t i = 0; i < n; i++)
        ASSERT_EQ(out.get(want[i].size(), at[i]), want[i])
            << "len " << pt[i].size() << " aad " << aad[i].size() << " skew " << skew[i];
    for (size_t i = 0; i < n; i++) { // open: ciphertexts into `data`, plaintexts into `out`
        data.put(want[i], at[i]);
        out.put(Bytes(pt[i].size(), 0xa5), at[i]);
    }
    ASSERT_EQ(KCIPHER_OK, kcipher_gpu_aead_open_batch(gpu_->c, KCIPHER_MODE_GCM, dm, n, tag_len, nullptr));
    for (size_t i = 0; i < n; i++)
        ASSERT_EQ(out.get(pt[i].size(), at[i]), pt[i]) << "len " << pt[i].size() << " aad " << aad[i].size();
}

TEST_P(GpuGcm, DeviceCallsRefuseMisuse)
{
    Bytes host(64), iv = rnd(12);
    DeviceBuffer d(256);
    auto seal = [&](kcipher_ctx *c, kcipher_mode m, size_t iv_len, const void *in, size_t len, void *out, size_t tag) {
        return kcipher_gpu_aead_seal(c, m, iv.data(), iv_len, nullptr, 0, in, len, out, tag, nullptr);
    };
    EXPECT_EQ(KCIPHER_ERR_NOT_DEVICE_MEMORY, seal(gpu_->c, KCIPHER_MODE_GCM, 12, host.data(), 32, d.p, 16));
    EXPECT_EQ(KCIPHER_ERR_NOT_GPU_KERNEL, seal(cpu_->c, KCIPHER_MODE_GCM, 12, d.p, 32, d.p + 64, 16));
    EXPECT_EQ(KCIPHER_ERR_UNSUPPORTED, seal(gpu_->c, KCIPHER_MODE_CCM, 12, d.p, 32, d.p + 64, 16));
    EXPECT_EQ(KCIPHER_ERR_TAG_LENGTH, seal(gpu_->c, KCIPHER_MODE_GCM, 12, d.p, 32, d.p + 64, 11));
    EXPECT_EQ(KCIPHER_ERR_IV_LENGTH, seal(gpu_->c, KCIPHER_MODE_GCM, 0, d.p, 32, d.p + 64, 16));
    EXPECT_EQ(KCIPHER_ERR_OVERLAP, seal(gpu_->c, KCIPHER_MODE_GCM, 12, d.p, 32, d.p + 16, 16));
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, kcipher_gpu_aead_open(gpu_->c, KCIPHER_MODE_GCM, iv.data(), 12, nullptr, 0, d.p,
                                                             8, d.p + 64, 16, nullptr));
    // A batch with one message past the standard's limit: refused before any output.
    Bytes marker(64, 0xa5);
    d.put(marker);
    kcipher_gpu_aead_msg m[2] = {{d.p + 200, nullptr, d.p + 128, d.p, 12, 0, 16, 0, 0},
                                 {d.p + 200, nullptr, d.p + 128, d.p + 32, 12, 0, (uint64_t(1) << 36), 0, 0}};
    DeviceBuffer dm(sizeof m);
    ASSERT_EQ(cudaSuccess, cudaMemcpy(dm.p, m, sizeof m, cudaMemcpyHostToDevice));
    auto *p = reinterpret_cast<kcipher_gpu_aead_msg *>(dm.p);
    EXPECT_EQ(KCIPHER_ERR_MODE_LIMIT, kcipher_gpu_aead_seal_batch(gpu_->c, KCIPHER_MODE_GCM, p, 2, 16, nullptr));
    EXPECT_EQ(d.get(64), marker);
    EXPECT_EQ(KCIPHER_ERR_NOT_DEVICE_MEMORY, kcipher_gpu_aead_seal_batch(gpu_->c, KCIPHER_MODE_GCM, m, 2, 16, nullptr));
    EXPECT_EQ(KCIPHER_ERR_TAG_LENGTH, kcipher_gpu_aead_seal_batch(gpu_->c, KCIPHER_MODE_GCM, p, 2, 7, nullptr));
    EXPECT_EQ(KCIPHER_OK, kcipher_gpu_aead_seal_batch(gpu_->c, KCIPHER_MODE_GCM, p, 0, 16, nullptr));
    EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
}

#endif // KCIPHER_HAVE_CUDA

INSTANTIATE_TEST_SUITE_P(GpuKernels, GpuGcm, ::testing::ValuesIn(gcm_kernel_ciphers()),
                         [](const auto &info) { return kct::test_name(info.param); });

// Without a GPU context the device calls say so, in every build.
TEST(GpuGcmApi, DeviceCallsNeedAGpuContext)
{
    Bytes key(16, 1), buf(64);
    kcipher_ctx *c = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_new(&c, "aria-128", key.data(), key.size(), nullptr));
    EXPECT_EQ(KCIPHER_ERR_NOT_GPU_KERNEL, kcipher_gpu_aead_seal(c, KCIPHER_MODE_GCM, key.data(), 12, nullptr, 0,
                                                                buf.data(), 16, buf.data() + 16, 16, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NOT_GPU_KERNEL, kcipher_gpu_aead_open_batch(c, KCIPHER_MODE_GCM, nullptr, 0, 16, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_gpu_aead_seal_batch(nullptr, KCIPHER_MODE_GCM, nullptr, 0, 16, nullptr));
    kcipher_free(c);
}

} // namespace
