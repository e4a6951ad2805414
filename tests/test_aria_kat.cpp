// ARIA kernels against known answers and against the reference kernel.
//
// Every ARIA kernel in the registry runs every test here (TEST_P over the kernel name, so each
// shows in the count); kernels the machine cannot run are skipped. Known answers come from
// RFC 5794 Appendix A, the KCMVP ECB KAT set, and the ECB and CTR entries of Crypto++'s and
// OpenSSL's ARIA test files (CBC is tested through the modes layer elsewhere).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "aria/aria.hpp"
#include "core/cipher.hpp"
#include "dispatch/features.hpp"
#include "dispatch/registry.hpp"
#include "support/keyed_kernel.hpp"
#include "support/kat_checks.hpp"
#include "support/kat_fixture.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using kct::cbc_matches;
using kct::ctr_matches;
using kct::ecb_matches;
using kct::KeyedKernel;
using kct::where;
using kct::tohex;
using kct::unhex;

constexpr size_t kcmvp_vector_count = 1014; // 276 + 338 + 400 lines in the file

kc::Cipher aria_for_key(size_t key_bytes)
{
    switch (key_bytes) {
    case 16:
        return kc::Cipher::aria128;
    case 24:
        return kc::Cipher::aria192;
    case 32:
        return kc::Cipher::aria256;
    default:
        throw std::runtime_error("ARIA key of " + std::to_string(key_bytes) + " bytes");
    }
}

// "ARIA-128", "aria-128-ecb" -> the cipher they name, checked against the key length.
kc::Cipher aria_named(const std::string &name, size_t key_bytes)
{
    std::string lower = name.substr(0, 8);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char ch) { return (char)std::tolower(ch); });
    const kc::CipherDesc *d = kc::cipher_by_name(lower);
    if (d == nullptr || d->key_bytes != key_bytes)
        throw std::runtime_error("cipher " + name + " does not match its key");
    return d->id;
}

class AriaKernel : public kct::KernelKat {};

TEST_P(AriaKernel, Descriptor)
{
    expect_descriptor("aria", 16u);
}

TEST_P(AriaKernel, Rfc5794AppendixA)
{
    const char *file = "aria_rfc5794.txt";
    for (const kct::Record &r : kct::load_kv_lines(file)) {
        Bytes key = unhex(r.at("key"));
        record(ecb_matches(k_, aria_named(r.at("cipher"), key.size()), key, unhex(r.at("pt")),
                           unhex(r.at("ct"))),
               where(file, r));
    }
    EXPECT_EQ(checked_, 3u);
    EXPECT_EQ(failed_, 0u);
}

TEST_P(AriaKernel, KcmvpEcbKat)
{
    const char *file = "kcmvp_aria_ecb_kat.txt";
    for (const kct::Record &r : kct::load_kv_lines(file)) {
        ASSERT_EQ(r.at("mode"), "ECB") << where(file, r);
        Bytes key = unhex(r.at("key"));
        record(ecb_matches(k_, aria_named(r.at("cipher"), key.size()), key, unhex(r.at("pt")),
                           unhex(r.at("ct"))),
               where(file, r));
    }
    EXPECT_EQ(checked_, kcmvp_vector_count);
    EXPECT_EQ(failed_, 0u);
}

TEST_P(AriaKernel, CryptoppEcb)
{
    const char *file = "cryptopp_aria.txt";
    for (const kct::Record &r : kct::load_cryptopp(file)) {
        if (r.at("name") != "ARIA/ECB")
            continue;
        Bytes key = unhex(r.at("key"));
        record(ecb_matches(k_, aria_for_key(key.size()), key, unhex(r.at("plaintext")),
                           unhex(r.at("ciphertext"))),
               where(file, r));
    }
    EXPECT_EQ(checked_, 6u); // RFC 5794 A.1-A.3 and the 2004 test-vector PDF, 5 blocks each
    EXPECT_EQ(failed_, 0u);
}

TEST_P(AriaKernel, CryptoppCtr)
{
    const char *file = "cryptopp_aria.txt";
    for (const kct::Record &r : kct::load_cryptopp(file)) {
        if (r.at("name") != "ARIA/CTR")
            continue;
        Bytes key = unhex(r.at("key"));
        record(ctr_matches(k_, aria_for_key(key.size()), key, unhex(r.at("iv")),
                           unhex(r.at("plaintext")), unhex(r.at("ciphertext"))),
               where(file, r));
    }
    EXPECT_EQ(checked_, 3u);
    EXPECT_EQ(failed_, 0u);
}

TEST_P(AriaKernel, OpensslEcb)
{
    const char *file = "openssl_evpciph_aria.txt";
    for (const kct::Record &r : kct::load_openssl_evp(file)) {
        if (!r.has("cipher") || r.at("cipher").size() < 4 ||
            r.at("cipher").compare(r.at("cipher").size() - 4, 4, "-ECB") != 0)
            continue;
        Bytes key = unhex(r.at("key"));
        record(ecb_matches(k_, aria_named(r.at("cipher"), key.size()), key,
                           unhex(r.at("plaintext")), unhex(r.at("ciphertext"))),
               where(file, r));
    }
    EXPECT_EQ(checked_, 6u);
    EXPECT_EQ(failed_, 0u);
}

TEST_P(AriaKernel, OpensslCtr)
{
    const char *file = "openssl_evpciph_aria.txt";
    for (const kct::Record &r : kct::load_openssl_evp(file)) {
        if (!r.has("cipher") || r.at("cipher").size() < 4 ||
            r.at("cipher").compare(r.at("cipher").size() - 4, 4, "-CTR") != 0)
            continue;
        Bytes key = unhex(r.at("key"));
        Bytes pt = unhex(r.at("plaintext"));
        ASSERT_EQ(pt.size() % 16, 0u) << where(file, r) << ": only whole blocks are tested here";
        record(ctr_matches(k_, aria_named(r.at("cipher"), key.size()), key, unhex(r.at("iv")),
                           pt, unhex(r.at("ciphertext"))),
               where(file, r));
    }
    EXPECT_EQ(checked_, 3u);
    EXPECT_EQ(failed_, 0u);
}

INSTANTIATE_TEST_SUITE_P(Aria, AriaKernel, testing::ValuesIn(kct::family_kernel_names("aria")),
                         kct::param_name);

// ---- every ARIA kernel equals aria/ref on random keys, lengths and alignments -------------

class AriaKernelVsRef : public AriaKernel {
  protected:
    void SetUp() override
    {
        AriaKernel::SetUp();
        ref_ = kc::find_kernel("aria/ref");
        ASSERT_NE(ref_, nullptr);
    }
    const kc::Kernel *ref_ = nullptr;
};

constexpr kc::Cipher aria_ciphers[] = {kc::Cipher::aria128, kc::Cipher::aria192,
                                       kc::Cipher::aria256};

// Block counts around small sizes, typical SIMD batch widths and beyond them.
constexpr size_t block_counts[] = {1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257};

TEST_P(AriaKernelVsRef, EcbRandom)
{
    uint64_t seed = 1;
    for (kc::Cipher c : aria_ciphers) {
        for (int trial = 0; trial < 4; trial++) {
            Bytes key = kct::random_bytes(kc::cipher_desc(c).key_bytes, seed++);
            KeyedKernel kk(k_, c, key), ref(ref_, c, key);
            for (size_t n : block_counts) {
                const size_t offset = seed % 16; // misaligned buffers too
                Bytes buf = kct::random_bytes(n * 16 + offset, seed++);
                uint8_t *data = buf.data() + offset;
                Bytes in(data, data + n * 16);
                Bytes want_enc = ref.encrypt(in), want_dec = ref.decrypt(in);
                SCOPED_TRACE(std::string(kc::cipher_desc(c).name) + " key " + tohex(key) +
                             " blocks " + std::to_string(n) + " offset " + std::to_string(offset));

                Bytes out(n * 16 + offset);
                k_->encrypt_blocks(kk.ks.get(), data, out.data() + offset, n);
                ASSERT_EQ(tohex(out.data() + offset, n * 16), tohex(want_enc)) << "encrypt";
                k_->decrypt_blocks(kk.ks.get(), data, out.data() + offset, n);
                ASSERT_EQ(tohex(out.data() + offset, n * 16), tohex(want_dec)) << "decrypt";

                k_->encrypt_blocks(kk.ks.get(), data, data, n); // in place
                ASSERT_EQ(tohex(data, n * 16), tohex(want_enc)) << "in-place encrypt";
                k_->decrypt_blocks(kk.ks.get(), data, data, n);
                ASSERT_EQ(tohex(data, n * 16), tohex(in)) << "in-place decrypt round trip";
                k_->decrypt_blocks(kk.ks.get(), data, data, n);
                ASSERT_EQ(tohex(data, n * 16), tohex(want_dec)) << "in-place decrypt";
            }
        }
    }
}

// The counter step written out here rather than taken from core/counter.hpp, so that the test
// does not share a bug with the code under test.
void increment_be128(Bytes &ctr)
{
    for (int b = 15; b >= 0; b--)
        if (++ctr[b] != 0)
            return;
}

// CTR against keystream built here from aria/ref's ECB and an independent counter, starting
// from counters whose low 32 or 64 bits, or all 128, are about to carry or wrap, and from
// counters whose last byte is low or high (within and across runs of 256 counters).
TEST_P(AriaKernelVsRef, CtrRandomAndCarries)
{
    const Bytes starts[] = {
        kct::random_bytes(16, 99),
        unhex("0123456789abcdef00000000fffffffe"),
        unhex("0123456789abcdeffffffffffffffffd"),
        unhex("fffffffffffffffffffffffffffffffe"),
        // byte 15 at 0x00 and 0xd0: whole batches inside a run of 256 counters, then the batch
        // that wraps into the next run (x86 kernels' mix_spans) and a short last one
        unhex("0123456789abcdef0011223344556600"),
        unhex("0123456789abcdef00112233445566d0"),
    };
    uint64_t seed = 1000;
    for (kc::Cipher c : aria_ciphers) {
        Bytes key = kct::random_bytes(kc::cipher_desc(c).key_bytes, seed++);
        KeyedKernel kk(k_, c, key), ref(ref_, c, key);
        for (const Bytes &ctr0 : starts) {
            for (size_t n : {size_t(1), size_t(5), size_t(64), size_t(70), size_t(300)}) {
                Bytes in = kct::random_bytes(n * 16, seed++);
                Bytes counters(n * 16), ctr = ctr0;
                for (size_t i = 0; i < n; i++) {
                    std::memcpy(&counters[16 * i], ctr.data(), 16);
                    increment_be128(ctr);
                }
                Bytes want = ref.encrypt(counters);
                for (size_t i = 0; i < want.size(); i++)
                    want[i] ^= in[i];
                SCOPED_TRACE(std::string(kc::cipher_desc(c).name) + " ctr " + tohex(ctr0) +
                             " blocks " + std::to_string(n));
                ASSERT_EQ(tohex(kk.ctr(ctr0, in)), tohex(want));
                Bytes buf = in;
                k_->ctr_xor_blocks(kk.ks.get(), ctr0.data(), buf.data(), buf.data(), n);
                ASSERT_EQ(tohex(buf), tohex(want)) << "in place";
            }
        }
    }
}

std::vector<std::string> aria_kernel_names_except_ref()
{
    std::vector<std::string> names = kct::family_kernel_names("aria");
    names.erase(std::remove(names.begin(), names.end(), "aria/ref"), names.end());
    return names;
}

INSTANTIATE_TEST_SUITE_P(Aria, AriaKernelVsRef, testing::ValuesIn(aria_kernel_names_except_ref()),
                         kct::param_name);

// The parameter lists above come from the registry; make sure the kernels this file was
// written for are in it, so that a missing registry line fails rather than shrinks the count.
TEST(AriaRegistry, HasRefAndTable)
{
    const kc::Kernel *ref = kc::find_kernel("aria/ref");
    const kc::Kernel *table = kc::find_kernel("aria/table");
    ASSERT_NE(ref, nullptr);
    ASSERT_NE(table, nullptr);
    EXPECT_FALSE(ref->constant_time);   // S-box lookups indexed by secrets
    EXPECT_FALSE(table->constant_time); // T-table lookups indexed by secrets
    EXPECT_LT(ref->rank, table->rank);  // dispatch prefers the faster portable kernel
    EXPECT_EQ(kc::reference_kernel(kc::Cipher::aria192), ref);
}

// The registry switches the key schedule's GFNI layers on exactly where the machine runs them
// (the ARIA module's option): a missed switch would cost every ARIA rekey a hundredfold.
TEST(AriaKeySchedule, GfniLayersOnExactlyWhereRunnable)
{
    kc::modules(); // the registry enables the modules' options when it first lists them
#if defined(__x86_64__)
    EXPECT_EQ(kc::runnable(kc::feat_gfni | kc::feat_ssse3), kc::aria_key_schedule_uses_gfni());
#else
    EXPECT_FALSE(kc::aria_key_schedule_uses_gfni());
#endif
}

#if defined(__x86_64__)
// The key schedule's shuffle form of the diffusion layer (aria_x86_key_gfni.cpp) against the
// byte-by-byte one: A is linear, so agreeing on the 128 unit vectors is agreeing everywhere.
// Run where the key schedule runs it: on CPUs with GFNI (its file's target).
TEST(AriaKeySchedule, DiffusionShufflesMatchA)
{
    if ((kc::machine_features() & kc::feat_gfni) == 0)
        GTEST_SKIP() << "needs GFNI";
    for (int bit = 0; bit < 128; bit++) {
        uint8_t x[16] = {0}, want[16], got[16];
        x[bit / 8] = (uint8_t)(1u << (bit % 8));
        kc::aria_diffusion(x, want);
        kc::aria_diffusion_ssse3(x, got);
        ASSERT_EQ(0, std::memcmp(want, got, 16)) << "unit vector " << bit;
    }
}
#endif

} // namespace
