// The C API's promises: every misuse is a status, never a crash or an out-of-bounds access;
// names parse; dispatch and forcing kernels; a context shared by threads; keys wiped.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "api/context.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

struct Ctx {
    kcipher_ctx *c = nullptr;
    ~Ctx() { kcipher_free(c); }
};

const Bytes key16(16, 0x42), key32(32, 0x42);

TEST(ApiNames, ParseCipherAndMode)
{
    char cipher[32];
    kcipher_mode mode;
    ASSERT_EQ(KCIPHER_OK, kcipher_parse_name("cham-128-256-ctr", cipher, sizeof cipher, &mode));
    EXPECT_STREQ("cham-128-256", cipher);
    EXPECT_EQ(KCIPHER_MODE_CTR, mode);
    ASSERT_EQ(KCIPHER_OK, kcipher_parse_name("cham-128-256", cipher, sizeof cipher, &mode));
    EXPECT_EQ(KCIPHER_MODE_NONE, mode);
    ASSERT_EQ(KCIPHER_OK, kcipher_parse_name("hight-ecb", cipher, sizeof cipher, &mode));
    EXPECT_STREQ("hight", cipher);
    EXPECT_EQ(KCIPHER_MODE_ECB, mode);
    ASSERT_EQ(KCIPHER_OK, kcipher_parse_name("lea-192-cbc", cipher, sizeof cipher, &mode));
    EXPECT_EQ(KCIPHER_MODE_CBC, mode);
    for (auto [suffix, m] : {std::pair{"ofb", KCIPHER_MODE_OFB}, {"cfb", KCIPHER_MODE_CFB}, {"cfb8", KCIPHER_MODE_CFB8},
                             {"xts", KCIPHER_MODE_XTS}}) {
        ASSERT_EQ(KCIPHER_OK, kcipher_parse_name((std::string("lea-256-") + suffix).c_str(), cipher, sizeof cipher, &mode));
        EXPECT_STREQ("lea-256", cipher);
        EXPECT_EQ(m, mode) << suffix;
    }
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_MODE, kcipher_parse_name("aria-128-cfb1", cipher, sizeof cipher, &mode));
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_CIPHER, kcipher_parse_name("aria-129-ctr", cipher, sizeof cipher, &mode));
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_CIPHER, kcipher_parse_name("", cipher, sizeof cipher, &mode));
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_CIPHER, kcipher_parse_name("ARIA-128", cipher, sizeof cipher, &mode));
    EXPECT_EQ(KCIPHER_ERR_INVALID_ARGUMENT, kcipher_parse_name("aria-128", cipher, 8, &mode)); // too small
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_parse_name(nullptr, cipher, sizeof cipher, &mode));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_parse_name("aria-128", nullptr, 32, &mode));
}

TEST(ApiNames, EveryCipherIsListedWithItsSizes)
{
    const char *names[] = {"aria-128", "aria-192",    "aria-256",     "lea-128",      "lea-192",  "lea-256",
                           "hight",    "cham-64-128", "cham-128-128", "cham-128-256", "seed-128"};
    const size_t blocks[] = {16, 16, 16, 16, 16, 16, 8, 8, 16, 16, 16},
                 keys[] = {16, 24, 32, 16, 24, 32, 16, 16, 16, 32, 16};
    ASSERT_EQ(11u, kcipher_cipher_count());
    for (size_t i = 0; i < 11; i++) {
        kcipher_cipher_info info;
        ASSERT_EQ(KCIPHER_OK, kcipher_cipher_get(i, &info));
        EXPECT_STREQ(names[i], info.name);
        EXPECT_EQ(blocks[i], info.block_bytes);
        EXPECT_EQ(keys[i], info.key_bytes);
    }
    kcipher_cipher_info info;
    EXPECT_EQ(KCIPHER_ERR_INVALID_ARGUMENT, kcipher_cipher_get(11, &info));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_cipher_get(0, nullptr));
}

TEST(ApiStatus, EveryStatusHasItsOwnMessage)
{
    std::vector<std::string> seen;
    for (int s = KCIPHER_OK; s <= KCIPHER_ERR_CHECKPOINT_DAMAGED; s++) {
        std::string m = kcipher_strerror((kcipher_status)s);
        ASSERT_FALSE(m.empty());
        for (const std::string &x : seen)
            ASSERT_NE(x, m);
        seen.push_back(m);
    }
    EXPECT_STREQ("unknown status code", kcipher_strerror((kcipher_status)999));
}

TEST(ApiMisuse, NewRejectsBadArguments)
{
    kcipher_ctx *c = reinterpret_cast<kcipher_ctx *>(0x1); // must be reset on failure
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_new(nullptr, "aria-128", key16.data(), 16, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_new(&c, nullptr, key16.data(), 16, nullptr));
    EXPECT_EQ(nullptr, c);
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_new(&c, "aria-128", nullptr, 16, nullptr));
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_CIPHER, kcipher_new(&c, "camellia-128", key16.data(), 16, nullptr));
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_MODE, kcipher_new(&c, "aria-128-siv", key16.data(), 16, nullptr));
    for (size_t len : {0, 15, 17, 24, 32})
        EXPECT_EQ(KCIPHER_ERR_KEY_LENGTH, kcipher_new(&c, "aria-128", key32.data(), len, nullptr)) << len;
    EXPECT_EQ(KCIPHER_ERR_KEY_LENGTH, kcipher_new(&c, "hight", key32.data(), 32, nullptr));
    EXPECT_EQ(KCIPHER_ERR_KEY_LENGTH, kcipher_new(&c, "cham-128-256", key16.data(), 16, nullptr));
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_KERNEL, kcipher_new(&c, "aria-128", key16.data(), 16, "aria/nope"));
    EXPECT_EQ(KCIPHER_ERR_KERNEL_MISMATCH, kcipher_new(&c, "aria-128", key16.data(), 16, "lea/ref"));
    EXPECT_EQ(nullptr, c);
    // A mode suffix is accepted and ignored.
    Ctx ok;
    ASSERT_EQ(KCIPHER_OK, kcipher_new(&ok.c, "aria-128-ctr", key16.data(), 16, nullptr));
    EXPECT_STREQ("aria-128", kcipher_ctx_cipher(ok.c));
}

TEST(ApiMisuse, ModesRejectBadArguments)
{
    Ctx x;
    ASSERT_EQ(KCIPHER_OK, kcipher_new(&x.c, "aria-128", key16.data(), 16, nullptr));
    Bytes in(64, 1), out(64), iv(16), iv8(8);
    const kcipher_ctx *c = x.c;
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_ecb_encrypt(nullptr, in.data(), out.data(), 16));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_ecb_encrypt(c, nullptr, out.data(), 16));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_ecb_decrypt(c, in.data(), nullptr, 16));
    EXPECT_EQ(KCIPHER_OK, kcipher_ecb_encrypt(c, nullptr, nullptr, 0)); // nothing to do
    for (size_t len : {1, 15, 17, 63})
        EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, kcipher_ecb_encrypt(c, in.data(), out.data(), len)) << len;
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, kcipher_cbc_decrypt(c, iv.data(), 16, in.data(), out.data(), 20));
    EXPECT_EQ(KCIPHER_ERR_IV_LENGTH, kcipher_cbc_encrypt(c, iv8.data(), 8, in.data(), out.data(), 16));
    EXPECT_EQ(KCIPHER_ERR_IV_LENGTH, kcipher_ctr_xor(c, iv.data(), 17, 0, in.data(), out.data(), 16));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_cbc_encrypt(c, nullptr, 16, in.data(), out.data(), 16));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_ctr_xor(c, nullptr, 16, 0, in.data(), out.data(), 16));
    // Partial overlap is refused; exact aliasing (in place) is fine.
    EXPECT_EQ(KCIPHER_ERR_OVERLAP, kcipher_ecb_encrypt(c, in.data(), in.data() + 16, 32));
    EXPECT_EQ(KCIPHER_ERR_OVERLAP, kcipher_ctr_xor(c, iv.data(), 16, 0, in.data() + 1, in.data(), 20));
    EXPECT_EQ(KCIPHER_OK, kcipher_ctr_xor(c, iv.data(), 16, 0, in.data(), in.data(), 20));
    // A length that would wrap the address space.
    EXPECT_EQ(KCIPHER_ERR_INVALID_ARGUMENT, kcipher_ctr_xor(c, iv.data(), 16, 0, in.data(), out.data(), SIZE_MAX - 15));
    // A failed call leaves the output and the IV untouched.
    Bytes before = out, iv_before = iv;
    EXPECT_NE(KCIPHER_OK, kcipher_cbc_encrypt(c, iv.data(), 16, in.data(), out.data(), 17));
    EXPECT_EQ(before, out);
    EXPECT_EQ(iv_before, iv);
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_set_threads(nullptr, 1));
    EXPECT_EQ(KCIPHER_ERR_INVALID_ARGUMENT, kcipher_set_threads(x.c, 100000));
    EXPECT_EQ(0u, kcipher_block_size(nullptr));
    EXPECT_EQ(nullptr, kcipher_ctx_kernel(nullptr));
}

TEST(ApiMisuse, CtrCounterSpaceOf64BitBlocks)
{
    for (const char *name : {"hight", "cham-64-128"}) {
        Ctx x;
        ASSERT_EQ(KCIPHER_OK, kcipher_new(&x.c, name, key16.data(), 16, nullptr));
        Bytes buf(24), iv(8, 0);
        const uint64_t last = ~uint64_t(0); // the last of the 2^64 counter values
        EXPECT_EQ(KCIPHER_OK, kcipher_ctr_xor(x.c, iv.data(), 8, last, buf.data(), buf.data(), 8));
        EXPECT_EQ(KCIPHER_OK, kcipher_ctr_xor(x.c, iv.data(), 8, last, buf.data(), buf.data(), 5));
        EXPECT_EQ(KCIPHER_ERR_COUNTER_SPACE, kcipher_ctr_xor(x.c, iv.data(), 8, last, buf.data(), buf.data(), 9));
        EXPECT_EQ(KCIPHER_OK, kcipher_ctr_xor(x.c, iv.data(), 8, last - 2, buf.data(), buf.data(), 24));
        EXPECT_EQ(KCIPHER_ERR_COUNTER_SPACE, kcipher_ctr_xor(x.c, iv.data(), 8, last - 1, buf.data(), buf.data(), 24));
    }
    // 128-bit blocks cannot run out with a 64-bit offset.
    Ctx a;
    ASSERT_EQ(KCIPHER_OK, kcipher_new(&a.c, "aria-128", key16.data(), 16, nullptr));
    Bytes buf(64), iv(16, 0xff);
    EXPECT_EQ(KCIPHER_OK, kcipher_ctr_xor(a.c, iv.data(), 16, ~uint64_t(0), buf.data(), buf.data(), 64));
}

class EnvKernel : public ::testing::Test {
  protected:
    void TearDown() override { unsetenv("KCIPHER_KERNEL"); }
};

TEST_F(EnvKernel, ForcesAKernelPerFamily)
{
    setenv("KCIPHER_KERNEL", "aria/ref, lea/ref", 1);
    const char *k = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_default_kernel("aria-256", &k));
    EXPECT_STREQ("aria/ref", k);
    Ctx x;
    ASSERT_EQ(KCIPHER_OK, kcipher_new(&x.c, "aria-128", key16.data(), 16, nullptr));
    EXPECT_STREQ("aria/ref", kcipher_ctx_kernel(x.c));
    // An explicit argument beats the environment.
    Ctx y;
    ASSERT_EQ(KCIPHER_OK, kcipher_new(&y.c, "aria-128", key16.data(), 16, "aria/table"));
    EXPECT_STREQ("aria/table", kcipher_ctx_kernel(y.c));
    setenv("KCIPHER_KERNEL", "aria/tabel", 1); // a typo is an error, not ignored
    Ctx z;
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_KERNEL, kcipher_new(&z.c, "lea-128", key16.data(), 16, nullptr));
}

TEST(ApiDispatch, DefaultIsTheBestRunnableKernel)
{
    for (int i = 0; i < kc::cipher_count; i++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(i);
        const char *name = nullptr;
        ASSERT_EQ(KCIPHER_OK, kcipher_default_kernel(d.name, &name));
        const kc::Kernel *chosen = kc::find_kernel(name);
        ASSERT_NE(nullptr, chosen);
        EXPECT_TRUE(chosen->supports(d.id));
        EXPECT_TRUE(kc::kernel_runnable(*chosen));
        for (const kc::Kernel *k : kc::all_kernels())
            if (k->supports(d.id) && kc::kernel_runnable(*k))
                EXPECT_LE(k->rank, chosen->rank) << k->name << " outranks " << name;
    }
}

TEST(ApiDispatch, KernelsTheMachineCannotRunAreRefused)
{
    kc::Kernel fake = *kc::find_kernel("aria/ref");
    fake.requires = kc::feat_neon | kc::feat_avx512f; // no machine has both
    EXPECT_FALSE(kc::kernel_runnable(fake));
    size_t unavailable = 0;
    for (size_t i = 0; i < kcipher_kernel_count(); i++) {
        kcipher_kernel_info info;
        ASSERT_EQ(KCIPHER_OK, kcipher_kernel_get(i, &info));
        if (info.available)
            continue;
        unavailable++;
        kcipher_cipher_info c;
        for (size_t j = 0; j < kcipher_cipher_count(); j++) {
            kcipher_cipher_get(j, &c);
            if (std::string(c.family) == info.family)
                break;
        }
        Bytes key(c.key_bytes, 1);
        Ctx x;
        EXPECT_EQ(KCIPHER_ERR_KERNEL_UNAVAILABLE, kcipher_new(&x.c, c.name, key.data(), key.size(), info.name));
    }
    std::printf("kernels this machine cannot run: %zu\n", unavailable);
}

TEST(ApiKernels, InfoIsComplete)
{
    ASSERT_GE(kcipher_kernel_count(), 5u);
    kcipher_kernel_info info;
    EXPECT_EQ(KCIPHER_ERR_INVALID_ARGUMENT, kcipher_kernel_get(kcipher_kernel_count(), &info));
    for (size_t i = 0; i < kcipher_kernel_count(); i++) {
        ASSERT_EQ(KCIPHER_OK, kcipher_kernel_get(i, &info));
        EXPECT_NE(nullptr, std::strchr(info.name, '/'));
        EXPECT_EQ(0, std::strncmp(info.name, info.family, std::strlen(info.family)));
        EXPECT_NE(nullptr, info.requires);
    }
}

TEST(ApiThreads, OneContextManyThreads)
{
    kcipher::Cipher c("lea-256", Bytes(32, 9));
    Bytes iv(16, 3), pt = kct::random_bytes(100000, 1);
    Bytes want = c.ctr_xor(iv, pt);
    std::vector<std::thread> ts;
    std::vector<int> ok(8, 0);
    for (int t = 0; t < 8; t++)
        ts.emplace_back([&, t] {
            bool all = true;
            for (int r = 0; r < 20; r++)
                all = all && c.ctr_xor(iv, pt) == want && c.ecb_decrypt(c.ecb_encrypt(Bytes(pt.begin(), pt.begin() + 4096))) ==
                                                             Bytes(pt.begin(), pt.begin() + 4096);
            ok[t] = all;
        });
    for (auto &t : ts)
        t.join();
    for (int t = 0; t < 8; t++)
        EXPECT_EQ(1, ok[t]) << t;
}

// kcipher_free destroys the KeyState, whose reset() runs wipe() before free(); freed memory
// cannot be read, so check wipe() on live memory, for every kernel and cipher whose key
// schedule this machine can run. A GPU kernel's key schedule runs on the host (it builds the
// layout that is copied to the device), so it needs only the kernel's CPU features.
class ApiKeys : public ::testing::TestWithParam<kct::KernelCipher> {
  protected:
    void SetUp() override
    {
        const kc::Kernel &k = *GetParam().kernel;
        const uint32_t cpu = k.requires & kc::cpu_feature_bits;
        if ((kc::machine_features() & cpu) != cpu)
            GTEST_SKIP() << k.name << "'s key schedule needs " << kc::feature_names(cpu)
                         << ", which this machine lacks (or KCIPHER_CPU_FEATURES removes)";
    }
};

TEST_P(ApiKeys, RoundKeysAreWipedOnFree)
{
    const kc::Kernel &k = *GetParam().kernel;
    const kc::CipherDesc &d = kc::cipher_desc(GetParam().cipher);
    kc::KeyState ks;
    Bytes key(d.key_bytes, 0xa5);
    ASSERT_TRUE(ks.init(k, d.id, key.data()));
    const uint8_t *p = static_cast<const uint8_t *>(ks.get());
    bool any = false;
    for (size_t j = 0; j < ks.size(); j++)
        any = any || p[j] != 0;
    EXPECT_TRUE(any) << k.name << ": the key schedule wrote nothing";
    ks.wipe();
    for (size_t j = 0; j < ks.size(); j++)
        ASSERT_EQ(0, p[j]) << k.name << " byte " << j;
}

INSTANTIATE_TEST_SUITE_P(EveryKernel, ApiKeys, ::testing::ValuesIn(kct::all_kernel_ciphers()),
                         [](const ::testing::TestParamInfo<kct::KernelCipher> &i) { return kct::test_name(i.param); });

// kcipher_keysearch_shard: an exact cover of any range, the 2^64-index one included, sizes
// differing by at most one, the larger parts first; an empty part and misuse are statuses.
TEST(ApiKeysearchShard, PartsCoverTheRangeExactly)
{
    struct Whole {
        uint64_t first, last;
    };
    for (Whole w : {Whole{0, 9}, Whole{5, 5}, Whole{100, 1100}, Whole{0, UINT64_MAX}, Whole{UINT64_MAX - 6, UINT64_MAX}}) {
        for (uint64_t n : {1ull, 2ull, 3ull, 7ull, 64ull}) {
            uint64_t next = w.first, prev_size = 0;
            bool done = false, first_part = true;
            for (uint64_t i = 0; i < n; i++) {
                uint64_t a = 0, b = 0;
                kcipher_status st = kcipher_keysearch_shard(w.first, w.last, i, n, &a, &b);
                if (st == KCIPHER_ERR_SEARCH_RANGE) { // more parts than candidates: the rest are empty
                    EXPECT_TRUE(done) << w.first << ".." << w.last << " part " << i << "/" << n;
                    continue;
                }
                ASSERT_EQ(KCIPHER_OK, st);
                ASSERT_FALSE(done) << "a part after the range was covered";
                EXPECT_EQ(next, a) << "parts must follow each other";
                ASSERT_LE(a, b);
                const uint64_t size_minus_one = b - a;
                if (!first_part) {
                    EXPECT_LE(size_minus_one, prev_size) << "larger parts come first";
                    EXPECT_LE(prev_size - size_minus_one, 1u) << "sizes differ by at most one";
                }
                first_part = false;
                prev_size = size_minus_one;
                done = b == w.last;
                next = b + 1;
            }
            EXPECT_TRUE(done) << w.first << ".." << w.last << " in " << n << " parts is not covered";
        }
    }
    uint64_t a = 0, b = 0;
    EXPECT_EQ(KCIPHER_ERR_INVALID_ARGUMENT, kcipher_keysearch_shard(0, 9, 0, 0, &a, &b));
    EXPECT_EQ(KCIPHER_ERR_INVALID_ARGUMENT, kcipher_keysearch_shard(0, 9, 4, 4, &a, &b));
    EXPECT_EQ(KCIPHER_ERR_INVALID_ARGUMENT, kcipher_keysearch_shard(9, 0, 0, 1, &a, &b));
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_keysearch_shard(0, 9, 0, 1, nullptr, &b));
    EXPECT_EQ(KCIPHER_ERR_SEARCH_RANGE, kcipher_keysearch_shard(0, 1, 2, 3, &a, &b));
}

TEST(ApiGpu, DescriptionsThroughTheCApi)
{
    kcipher_gpu_info g;
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_gpu_get(0, nullptr));
    EXPECT_EQ(KCIPHER_ERR_NO_GPU, kcipher_gpu_get(-1, &g));
    EXPECT_EQ(KCIPHER_ERR_NO_GPU, kcipher_gpu_get(kcipher_gpu_count(), &g));
    for (int i = 0; i < kcipher_gpu_count(); i++) {
        ASSERT_EQ(KCIPHER_OK, kcipher_gpu_get(i, &g));
        EXPECT_EQ(i, g.index);
        EXPECT_GT(std::strlen(g.name), 0u);
        EXPECT_GT(g.multiprocessors, 0);
        EXPECT_GT(g.global_memory_bytes, 0u);
    }
    EXPECT_GT(std::strlen(kcipher_gpu_runtime_status()), 0u);
}

TEST(ApiCpp, WrapperThrowsWithTheStatus)
{
    try {
        kcipher::Cipher c("lea-128", Bytes(15, 0));
        FAIL() << "no exception";
    } catch (const kcipher::Error &e) {
        EXPECT_EQ(KCIPHER_ERR_KEY_LENGTH, e.status());
        EXPECT_STREQ(kcipher_strerror(KCIPHER_ERR_KEY_LENGTH), e.what());
    }
    kcipher::Cipher c("hight", Bytes(16, 0));
    EXPECT_THROW(c.ctr_xor(Bytes(16, 0), Bytes(8)), kcipher::Error); // IV of 16 for an 8-byte block
    EXPECT_EQ(8u, c.block_size());
    kcipher::Cipher moved = std::move(c);
    EXPECT_EQ("hight", moved.name());
}

} // namespace
