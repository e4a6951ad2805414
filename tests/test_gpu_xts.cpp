// XTS on the GPU (kcipher_gpu_xts_*, and kcipher_xts_* on host memory through a GPU context's
// pipeline) against the CPU's kcipher_xts_* (tested against the IEEE 1619 vectors in
// test_xts.cpp) and against XTS composed by hand in this file over the CPU's ECB (IEEE 1619-2018
// section 5: tweak E_K2(i), alpha-doubling, ciphertext stealing): random keys, data units of
// 0 (one unit), 16, 512, 4096 and sizes that are not whole blocks, lengths across block, unit,
// warp-step (32 blocks), segment (4096 blocks) and chunk (4 MiB) boundaries, in place and
// unaligned, 100k units in one call, units larger than a launch's chunk; the errors. Also the
// tweak arithmetic (gf128_xts.cuh, on the host) and the cut into pieces (modes/xts_cut.hpp).
// The GPU tests are skipped where there is no GPU (CI); GpuXts*Small* is sized for
// compute-sanitizer.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "api/context.hpp"
#include "cuda/gpu_ops.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"
#include "modes/gpu_modes.hpp"
#include "modes/xts_cut.hpp"
#include "support/gpu_kit.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

#if defined(KCIPHER_HAVE_CUDA)
#include <cuda_runtime.h>

#include "cuda/gf128_xts.cuh"
#endif

namespace {

using Bytes = std::vector<uint8_t>;
using kct::Ctx;
#if defined(KCIPHER_HAVE_CUDA)
using kct::DeviceBuffer;
#endif

// ---- the reference: XTS by hand over ECB ------------------------------------------------

void alpha(uint8_t t[16])
{
    const uint8_t carry = t[15] >> 7;
    for (int k = 15; k > 0; k--)
        t[k] = (uint8_t)(t[k] << 1 | t[k - 1] >> 7);
    t[0] = (uint8_t)(t[0] << 1 ^ (carry ? 0x87 : 0));
}

struct RefXts {
    std::unique_ptr<Ctx> k1, k2;
    // The CPU's default kernels (each tested against its reference elsewhere): the large
    // cases here run hundreds of MiB through this composition.
    RefXts(const kc::CipherDesc &d, const Bytes &key)
    {
        k1.reset(new Ctx(d.name, Bytes(key.begin(), key.begin() + d.key_bytes), nullptr));
        k2.reset(new Ctx(d.name, Bytes(key.begin() + d.key_bytes, key.end()), nullptr));
    }

    void block(bool dec, uint8_t *b, const uint8_t t[16]) const
    {
        for (int k = 0; k < 16; k++)
            b[k] ^= t[k];
        ASSERT_EQ(KCIPHER_OK, (dec ? kcipher_ecb_decrypt : kcipher_ecb_encrypt)(k1->c, b, b, 16));
        for (int k = 0; k < 16; k++)
            b[k] ^= t[k];
    }

    // One unit of n bytes (n >= 16) with tweak integer `tw`, in place in p.
    void unit(bool dec, uint8_t *p, size_t n, const uint8_t tw[16]) const
    {
        uint8_t t[16];
        ASSERT_EQ(KCIPHER_OK, kcipher_ecb_encrypt(k2->c, tw, t, 16));
        const size_t m = n / 16, tail = n % 16, plain = tail ? m - 1 : m;
        // The plain blocks: masks, one ECB call, masks.
        Bytes mask(plain * 16);
        for (size_t j = 0; j < plain; j++, alpha(t))
            std::memcpy(&mask[16 * j], t, 16);
        for (size_t k = 0; k < plain * 16; k++)
            p[k] ^= mask[k];
        if (plain) {
            ASSERT_EQ(KCIPHER_OK, (dec ? kcipher_ecb_decrypt : kcipher_ecb_encrypt)(k1->c, p, p, plain * 16));
        }
        for (size_t k = 0; k < plain * 16; k++)
            p[k] ^= mask[k];
        if (!tail)
            return;
        uint8_t t2[16], x[16];
        std::memcpy(t2, t, 16);
        alpha(t2);
        uint8_t *last = p + plain * 16, *part = last + 16;
        std::memcpy(x, last, 16);
        block(dec, x, dec ? t2 : t); // CC (encrypt) or PP (decrypt)
        uint8_t y[16];
        std::memcpy(y, x, 16);
        std::memcpy(y, part, tail);
        std::memcpy(part, x, tail);
        block(dec, y, dec ? t : t2);
        std::memcpy(last, y, 16);
    }

    Bytes run(bool dec, const Bytes &tweak, size_t data_unit, const Bytes &in) const
    {
        Bytes out = in;
        const size_t u = data_unit == 0 || data_unit > in.size() ? in.size() : data_unit;
        uint8_t tw[16];
        std::memcpy(tw, tweak.data(), 16);
        for (size_t at = 0; at < in.size(); at += u) {
            unit(dec, out.data() + at, std::min(u, in.size() - at), tw);
            for (int k = 0; k < 16 && ++tw[k] == 0; k++) // tweak + 1, little-endian
                ;
        }
        return out;
    }
};

// ---- the cut into pieces (no GPU needed) -----------------------------------------------

// Pieces cover the job in order, none larger than the limit, each whole units or a run of
// one unit's blocks that never leaves a partial block without the block before it.
void check_cut(size_t len, size_t unit, size_t max)
{
    const kc::XtsCut cut(len, unit, max);
    const size_t u = unit == 0 || unit > len ? len : unit;
    size_t at = 0;
    for (size_t i = 0; i < cut.count(); i++) {
        const kc::XtsPiece pc = cut.piece(i);
        ASSERT_EQ(pc.offset, at) << len << " " << unit << " piece " << i;
        ASSERT_LE(pc.len, max);
        ASSERT_GE(pc.len, 16u);
        ASSERT_EQ(pc.unit, pc.offset / u);
        const size_t in_unit = pc.offset - pc.unit * u;
        ASSERT_EQ(pc.first_block * 16, in_unit);
        if (pc.first_block != 0 || pc.unit_bytes < u) {
            ASSERT_EQ(pc.unit_bytes, pc.len); // a run inside one unit
        }
        at += pc.len;
    }
    ASSERT_EQ(at, len);
}

TEST(XtsCut, PiecesCoverTheJobOnUnitAndBlockBoundaries)
{
    for (size_t max : {size_t(64), size_t(4096), size_t(4) << 20})
        for (size_t len : {size_t(16), size_t(17), size_t(4096), size_t(4097), size_t(4111), size_t(4112),
                           (size_t(9) << 20) + 7, (size_t(8) << 20) + 3})
            for (size_t unit : {size_t(0), size_t(16), size_t(512), size_t(1000), size_t(4096), size_t(4100)})
                if (len >= 16 && (unit == 0 || unit >= len || len % unit == 0 || len % unit >= 16))
                    check_cut(len, unit, max);
}

#if defined(KCIPHER_HAVE_CUDA)

// ---- the tweak arithmetic, on the host -------------------------------------------------

TEST(XtsTweakMath, PowersAndSquaresAgreeWithDoubling)
{
    uint32_t t[4] = {0x9abcdef0u, 0x12345678u, 0xdeadbeefu, 0x80000001u};
    uint32_t walk[4] = {t[0], t[1], t[2], t[3]};
    for (uint64_t e = 0; e <= 700; e++) {
        uint32_t x[4] = {t[0], t[1], t[2], t[3]};
        kc::cuda::xts_mul_xpow(x, e);
        ASSERT_EQ(0, std::memcmp(x, walk, 16)) << "x^" << e;
        if (e % 32 == 0) { // x^32 steps and x^k shifts agree with the walk too
            uint32_t y[4] = {t[0], t[1], t[2], t[3]};
            for (uint64_t k = 0; k < e / 32; k++)
                kc::cuda::xts_mul_x32(y);
            ASSERT_EQ(0, std::memcmp(y, walk, 16)) << "x^32 steps to " << e;
        }
        kc::cuda::xts_mul_xk(walk, 1);
    }
    uint32_t a[4] = {t[0], t[1], t[2], t[3]}, b[4] = {t[0], t[1], t[2], t[3]};
    kc::cuda::xts_square(a);
    kc::cuda::xts_mul(b, t);
    ASSERT_EQ(0, std::memcmp(a, b, 16));
    // x^(2^20) by the power function against 2^20 doublings.
    uint32_t big[4] = {t[0], t[1], t[2], t[3]}, slow[4] = {t[0], t[1], t[2], t[3]};
    kc::cuda::xts_mul_xpow(big, uint64_t(1) << 20);
    for (int k = 0; k < (1 << 20); k++)
        kc::cuda::xts_mul_xk(slow, 1);
    ASSERT_EQ(0, std::memcmp(big, slow, 16));
}

#endif // KCIPHER_HAVE_CUDA

// ---- the GPU kernels ---------------------------------------------------------------------

// The GPU kernels of 128-bit-block ciphers that have XTS; a placeholder in builds without.
std::vector<kct::KernelCipher> xts_kernel_ciphers()
{
    std::vector<kct::KernelCipher> v;
    for (const kct::KernelCipher &kc : kct::all_kernel_ciphers())
        if (kc.kernel->gpu != nullptr && kc.kernel->gpu->xts != nullptr && kc::cipher_desc(kc.cipher).block_bytes == 16)
            v.push_back(kc);
    if (v.empty())
        v.push_back({kc::reference_kernel(kc::Cipher::lea128), kc::Cipher::lea128});
    return v;
}

// Host memory: a GPU context's kcipher_xts_* (the pipeline of modes/gpu_host.cu), or the CPU's.
Bytes host(kcipher_ctx *c, bool dec, const Bytes &tweak, size_t unit, const Bytes &in)
{
    Bytes out(in.size());
    EXPECT_EQ(KCIPHER_OK, (dec ? kcipher_xts_decrypt : kcipher_xts_encrypt)(c, tweak.data(), 16, unit, in.data(),
                                                                             out.data(), in.size()));
    return out;
}

class GpuXts : public ::testing::TestWithParam<kct::KernelCipher> {
  protected:
    void SetUp() override
    {
        if (GetParam().kernel->gpu == nullptr)
            GTEST_SKIP() << "this build has no CUDA kernels";
        if (!kc::kernel_runnable(*GetParam().kernel))
            GTEST_SKIP() << GetParam().kernel->name << ": no GPU on this machine";
        d_ = &kc::cipher_desc(GetParam().cipher);
        seed_ = 0x7e5 + (uint64_t)GetParam().cipher * 1000;
        Bytes key = rnd(2 * d_->key_bytes);
        const std::string name = std::string(d_->name) + "-xts";
        gpu_.reset(new Ctx(name.c_str(), key, GetParam().kernel->name));
        ref_.reset(new RefXts(*d_, key));
        cpu_.reset(new Ctx(name.c_str(), key, nullptr));
    }

    Bytes rnd(size_t n) { return kct::random_bytes(n, seed_++); }


    const kc::CipherDesc *d_ = nullptr;
    uint64_t seed_ = 0;
    std::unique_ptr<Ctx> gpu_, cpu_;
    std::unique_ptr<RefXts> ref_;
};

#if defined(KCIPHER_HAVE_CUDA)

// Device memory, both ways, against the reference: the given unit and lengths, some in place
// (skew 0, out == in), some unaligned.
void device_round_trip(kcipher_ctx *c, kcipher_ctx *cpu, const RefXts &ref, const Bytes &tweak, size_t unit,
                       const Bytes &pt, size_t skew, bool in_place)
{
    const size_t len = pt.size();
    const Bytes want = ref.run(false, tweak, unit, pt);
    ASSERT_EQ(host(cpu, false, tweak, unit, pt), want) << "the two oracles, len " << len << " unit " << unit;
    DeviceBuffer din(len + skew), dout(len + skew);
    din.put(pt, skew);
    uint8_t *out = in_place ? din.p + skew : dout.p + skew;
    ASSERT_EQ(KCIPHER_OK, kcipher_gpu_xts_encrypt(c, tweak.data(), 16, unit, din.p + skew, out, len, nullptr));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    DeviceBuffer &ob = in_place ? din : dout;
    ASSERT_EQ(ob.get(len, skew), want) << "encrypt len " << len << " unit " << unit << " skew " << skew;
    if (len <= (size_t(1) << 20)) { // the composition inverts itself
        ASSERT_EQ(ref.run(true, tweak, unit, want), pt);
    }
    ASSERT_EQ(KCIPHER_OK, kcipher_gpu_xts_decrypt(c, tweak.data(), 16, unit, out, out, len, nullptr));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    ASSERT_EQ(ob.get(len, skew), pt) << "decrypt len " << len << " unit " << unit;
}

// A few units of a few blocks each, with stealing: small enough for compute-sanitizer.
TEST_P(GpuXts, SmallDeviceCases)
{
    int k = 0;
    for (size_t unit : {size_t(0), size_t(16), size_t(40), size_t(512)})
        for (size_t len : {size_t(16), size_t(17), size_t(31), size_t(47), size_t(96), size_t(560), size_t(1043)}) {
            if (unit && unit < len && len % unit && len % unit < 16)
                continue;
            Bytes tweak = rnd(16);
            if (k % 5 == 4)
                std::memset(tweak.data(), 0xff, 12); // + unit carries into the high words
            device_round_trip(gpu_->c, cpu_->c, *ref_, tweak, unit, rnd(len), k % 3 == 1 ? 5 : 0, k % 2 == 0);
            k++;
        }
}

// Lengths across blocks, 32-block warp steps, units and 4096-block segments; odd unit sizes
// (every unit stealing); one unit of several segments.
TEST_P(GpuXts, DeviceMatchesReference)
{
    const size_t units[] = {0, 512, 4096, 1000, 4100, 16};
    const size_t lens[] = {16, 33, 511, 512, 513, 4096, 4111, 65536 + 48, 65536 + 24, (size_t(1) << 20) + 9, 3 * 4100 + 17};
    int k = 0;
    for (size_t unit : units)
        for (size_t len : lens) {
            if (unit && unit < len && len % unit && len % unit < 16)
                continue;
            device_round_trip(gpu_->c, cpu_->c, *ref_, rnd(16), unit, rnd(len), k % 4 == 3 ? 3 : 0, k % 3 == 0);
            k++;
        }
}

// Many units in one call (100,000 x 512 bytes and 4096 x 4 KiB + one short), and one large
// unit (64 MiB + 5 bytes: segments far from block 0, and a stolen end).
TEST_P(GpuXts, ManyUnitsAndOneLargeUnit)
{
    device_round_trip(gpu_->c, cpu_->c, *ref_, rnd(16), 512, rnd(100000 * 512), 0, false);
    device_round_trip(gpu_->c, cpu_->c, *ref_, rnd(16), 4096, rnd(4096 * 4096 + 300), 0, true);
    device_round_trip(gpu_->c, cpu_->c, *ref_, rnd(16), 0, rnd((size_t(64) << 20) + 5), 0, true);
}

#endif // KCIPHER_HAVE_CUDA

// Host memory: chunks of whole units, and units larger than a 4 MiB chunk cut between blocks
// (each chunk starting its tweaks at its block); in place too.
TEST_P(GpuXts, HostMemoryMatchesReference)
{
    const struct {
        size_t unit, len;
    } cases[] = {{0, 17}, {512, 512 * 9000 + 100}, {4096, (size_t(9) << 20) + 4096}, {1000, (size_t(5) << 20) + 1000 * 3 + 20},
                 {0, (size_t(9) << 20) + 7}, {0, (size_t(8) << 20) + 3}, {(size_t(5) << 20) + 1, (size_t(11) << 20) + 30}};
    for (const auto &c : cases) {
        const Bytes tweak = rnd(16), pt = rnd(c.len);
        const Bytes want = ref_->run(false, tweak, c.unit, pt);
        const Bytes ct = host(gpu_->c, false, tweak, c.unit, pt);
        ASSERT_EQ(ct, want) << "len " << c.len << " unit " << c.unit;
        ASSERT_EQ(host(gpu_->c, true, tweak, c.unit, ct), pt) << "len " << c.len << " unit " << c.unit;
        Bytes in_place = pt; // the pipeline reads a chunk before it writes it back
        ASSERT_EQ(KCIPHER_OK, kcipher_xts_encrypt(gpu_->c, tweak.data(), 16, c.unit, in_place.data(), in_place.data(),
                                                  in_place.size()));
        ASSERT_EQ(in_place, want);
    }
}

#if defined(KCIPHER_HAVE_CUDA)

TEST_P(GpuXts, DeviceCallsRefuseMisuse)
{
    Bytes host_buf(64), tweak = rnd(16);
    DeviceBuffer d(256);
    kcipher_ctx *c = gpu_->c;
    auto enc = [&](const kcipher_ctx *cx, size_t tlen, size_t unit, const void *in, void *out, size_t len) {
        return kcipher_gpu_xts_encrypt(cx, tweak.data(), tlen, unit, in, out, len, nullptr);
    };
    EXPECT_EQ(KCIPHER_ERR_NOT_DEVICE_MEMORY, enc(c, 16, 0, host_buf.data(), d.p, 32));
    EXPECT_EQ(KCIPHER_ERR_NOT_DEVICE_MEMORY, enc(c, 16, 0, d.p, host_buf.data(), 32));
    EXPECT_EQ(KCIPHER_ERR_IV_LENGTH, enc(c, 12, 0, d.p, d.p + 64, 32));
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, enc(c, 16, 0, d.p, d.p + 64, 15));
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, enc(c, 16, 8, d.p, d.p + 64, 32));   // units below a block
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, enc(c, 16, 32, d.p, d.p + 64, 40));  // a last unit of 8 bytes
    EXPECT_EQ(KCIPHER_OK, enc(c, 16, 32, d.p, d.p + 64, 48));               // a last unit of 16
    EXPECT_EQ(KCIPHER_ERR_OVERLAP, enc(c, 16, 0, d.p, d.p + 16, 64));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_gpu_xts_encrypt(c, nullptr, 16, 0, d.p, d.p, 32, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, enc(c, 16, 0, nullptr, d.p, 32));
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, enc(c, 16, 0, d.p, d.p, 0)); // as kcipher_xts_encrypt
    // A GPU context without an XTS key, and a CPU XTS context.
    Ctx plain(d_->name, rnd(d_->key_bytes), GetParam().kernel->name);
    EXPECT_EQ(KCIPHER_ERR_CONTEXT_MODE, enc(plain.c, 16, 0, d.p, d.p, 32));
    const std::string name = std::string(d_->name) + "-xts";
    Ctx cpu(name.c_str(), rnd(2 * d_->key_bytes), nullptr);
    EXPECT_EQ(KCIPHER_ERR_NOT_GPU_KERNEL, enc(cpu.c, 16, 0, d.p, d.p, 32));
    EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
}

#endif // KCIPHER_HAVE_CUDA

INSTANTIATE_TEST_SUITE_P(GpuKernels, GpuXts, ::testing::ValuesIn(xts_kernel_ciphers()),
                         [](const auto &info) { return kct::test_name(info.param); });

// Every build: the device calls need a context, and a GPU one.
TEST(GpuXtsApi, DeviceCallsNeedAGpuXtsContext)
{
    Bytes key(32), buf(64, 0);
    for (size_t i = 0; i < key.size(); i++)
        key[i] = (uint8_t)i;
    kcipher_ctx *c = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_new(&c, "lea-128-xts", key.data(), key.size(), nullptr));
    EXPECT_EQ(KCIPHER_ERR_NOT_GPU_KERNEL,
              kcipher_gpu_xts_encrypt(c, key.data(), 16, 0, buf.data(), buf.data(), 32, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER,
              kcipher_gpu_xts_decrypt(nullptr, key.data(), 16, 0, buf.data(), buf.data(), 32, nullptr));
    kcipher_free(c);
}

} // namespace
