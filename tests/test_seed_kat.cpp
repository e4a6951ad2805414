// SEED-128 kernels against known answers. Every SEED kernel in the registry runs every test
// here (TEST_P over the kernel name); kernels the machine cannot run are skipped.
//   - kcmvp_seed_ecb_kat.txt: its first section is the four reference values of TTAS.KO-12.0004/R1,
//     which are also RFC 4269's Appendix B examples; then the KCMVP V3.0 ECB KAT, 276 in all;
//   - every kernel against the reference on random keys, in place and out of place, with CTR
//     counters that carry across 32- and 64-bit words and wrap at 2^128.
// The tables of src/seed/seed.hpp (generated from the S-boxes' algebraic definition) are
// checked against values printed in RFC 4269, so that a wrong generator fails by name and not
// only through a wrong ciphertext. Every vector is checked in both directions, and every test
// checks how many vectors it ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/cipher.hpp"
#include "core/counter.hpp"
#include "kcipher/kcipher.h"
#include "dispatch/registry.hpp"
#include "seed/seed.hpp"
#include "support/keyed_kernel.hpp"
#include "support/kat_checks.hpp"
#include "support/kat_fixture.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using kct::ecb_matches;
using kct::KeyedKernel;
using kct::tohex;
using kct::unhex;
using kct::where;

constexpr const char *kKatFile = "kcmvp_seed_ecb_kat.txt";
constexpr size_t kStandardValues = 4; // the file's first section: TTAS.KO-12.0004/R1 = RFC 4269 Appendix B

class SeedKernel : public kct::KernelKat {};

TEST_P(SeedKernel, Descriptor)
{
    expect_descriptor("seed", 16u);
}

TEST_P(SeedKernel, Rfc4269AppendixB)
{
    std::vector<kct::Record> all = kct::load_kv_lines(kKatFile);
    ASSERT_GE(all.size(), kStandardValues);
    for (size_t i = 0; i < kStandardValues; i++) {
        const kct::Record &r = all[i];
        record(ecb_matches(k_, kc::Cipher::seed128, unhex(r.at("key")), unhex(r.at("pt")), unhex(r.at("ct"))),
               where(kKatFile, r));
    }
    // B.1: the all-zero key; the ciphertext as RFC 4269 prints it.
    EXPECT_EQ(all[0].at("key"), "00000000000000000000000000000000");
    EXPECT_EQ(all[0].at("ct"), "5ebac6e0054e166819aff1cc6d346cdb");
    EXPECT_EQ(checked_, kStandardValues);
    EXPECT_EQ(failed_, 0u);
}

TEST_P(SeedKernel, KcmvpEcbKat)
{
    check_ecb_file(kKatFile, "SEED-128", kc::Cipher::seed128);
    EXPECT_EQ(checked_, 276u); // 4 from the standard + 272 KCMVP
    EXPECT_EQ(failed_, 0u);
}

// Every kernel computes the reference's function: ECB both ways over many blocks (in place
// too), and CTR from counters that carry across word boundaries and wrap at 2^128, checked
// against the reference's ECB of the counter blocks.
TEST_P(SeedKernel, AgreesWithTheReference)
{
    const kc::Kernel *ref = kc::reference_kernel(kc::Cipher::seed128);
    ASSERT_NE(ref, nullptr);
    Bytes wrap(16, 0xff), carry64(16, 0), carry32(16, 0);
    std::fill(carry64.begin() + 8, carry64.end(), 0xff);
    carry64[15] = 0xfd;
    std::fill(carry32.begin() + 12, carry32.end(), 0xff);
    uint64_t seed = 1;
    for (int round = 0; round < 4; round++) {
        const Bytes key = kct::random_bytes(16, seed++);
        KeyedKernel kk(k_, kc::Cipher::seed128, key), rk(ref, kc::Cipher::seed128, key);
        for (size_t n : {size_t(1), size_t(2), k_->batch_blocks, 2 * k_->batch_blocks + 3, size_t(70)}) {
            const Bytes in = kct::random_bytes(16 * n, seed++);
            ASSERT_EQ(tohex(kk.encrypt(in)), tohex(rk.encrypt(in))) << n << " blocks";
            ASSERT_EQ(tohex(kk.decrypt(in)), tohex(rk.decrypt(in))) << n << " blocks";
            Bytes buf = in;
            k_->encrypt_blocks(kk.ks.get(), buf.data(), buf.data(), n);
            ASSERT_EQ(tohex(buf), tohex(rk.encrypt(in))) << "in place, " << n << " blocks";
            for (const Bytes &ctr0 : {wrap, carry64, carry32, kct::random_bytes(16, seed++)}) {
                Bytes counters(16 * n), got(16 * n);
                Bytes c = ctr0;
                for (size_t i = 0; i < n; i++, kc::counter_increment(c.data(), 16))
                    std::copy(c.begin(), c.end(), counters.begin() + 16 * i);
                Bytes want = rk.encrypt(counters);
                for (size_t i = 0; i < want.size(); i++)
                    want[i] ^= in[i];
                k_->ctr_xor_blocks(kk.ks.get(), ctr0.data(), in.data(), got.data(), n);
                ASSERT_EQ(tohex(got), tohex(want)) << "CTR from " << tohex(ctr0) << ", " << n << " blocks";
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Seed, SeedKernel, testing::ValuesIn(kct::family_kernel_names("seed")), kct::param_name);

// The parameter list comes from the registry; a missing registry line must fail, not shrink it.
TEST(SeedRegistry, HasRef)
{
    const kc::Kernel *ref = kc::find_kernel("seed/ref");
    ASSERT_NE(ref, nullptr);
    EXPECT_FALSE(ref->constant_time); // S-box lookups at secret indexes (seed_ref.cpp)
    EXPECT_EQ(ref->requires, 0u);
    EXPECT_EQ(ref->batch_blocks, 1u);
    EXPECT_EQ(ref->gpu, nullptr);
    EXPECT_EQ(kc::reference_kernel(kc::Cipher::seed128), ref);
    const kc::CipherDesc *d = kc::cipher_by_name("seed-128");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->id, kc::Cipher::seed128);
    EXPECT_STREQ(d->family, "seed");
    EXPECT_EQ(d->block_bytes, 16u);
    EXPECT_EQ(d->key_bytes, 16u);
}

// `kcipher selftest` (src/selftest) carries SEED's known answers and runs them on every SEED
// kernel this machine can run.
TEST(SeedSelftest, RunsSeedKnownAnswers)
{
    struct Seen {
        std::vector<std::string> seed_checks;
        int failed = 0;
    } seen;
    auto report = [](void *user, const char *kernel, const char *check, int ok) {
        auto *s = static_cast<Seen *>(user);
        if (std::string(check).rfind("seed-128", 0) == 0)
            s->seed_checks.push_back(std::string(kernel) + ": " + check);
        s->failed += ok ? 0 : 1;
    };
    EXPECT_EQ(kcipher_selftest(report, &seen), KCIPHER_OK);
    EXPECT_EQ(seen.failed, 0);
    for (const char *want : {"seed/ref: seed-128-ecb RFC 4269 App. B.1", "seed/ref: seed-128-ecb RFC 4269 App. B.2",
                             "seed/ref: seed-128-ecb RFC 4269 App. B.3", "seed/ref: seed-128-cbc OpenSSL 3 SEED-CBC"})
        EXPECT_NE(std::find(seen.seed_checks.begin(), seen.seed_checks.end(), want), seen.seed_checks.end()) << want;
}

// seed.hpp builds S1, S2, the G tables SS0..SS3 and KC from their definitions; these are the
// values RFC 4269 prints (Appendix A's SS tables, section 2.3's constants).
TEST(SeedSpec, TablesMatchRfc4269)
{
    namespace s = kc::seed_spec;
    // S1(0) = 169 and S2(0) = 56 are the affine constants (0^e = 0).
    EXPECT_EQ(s::s1[0x00], 0xa9);
    EXPECT_EQ(s::s2[0x00], 0x38);
    // Appendix A: the first and last words of each SS table.
    const uint32_t first[4] = {0x2989a1a8, 0x38380830, 0xa1a82989, 0x08303838};
    const uint32_t second[4] = {0x05858184, 0xe828c8e0, 0x81840585, 0xc8e0e828};
    const uint32_t last[4] = {0x1a8a9298, 0xb43787b3, 0x92981a8a, 0x87b3b437};
    for (int j = 0; j < 4; j++) {
        EXPECT_EQ(s::ss[j][0x00], first[j]) << "SS" << j;
        EXPECT_EQ(s::ss[j][0x01], second[j]) << "SS" << j;
        EXPECT_EQ(s::ss[j][0xff], last[j]) << "SS" << j;
    }
    // A few entries from the middle of SS0 and SS1.
    EXPECT_EQ(s::ss[0][0x5a], 0x00000000u); // S1(0x5a) = 0
    EXPECT_EQ(s::ss[0][0x80], 0x02020200u);
    EXPECT_EQ(s::ss[1][0xd6], 0x00000000u); // S2(0xd6) = 0
    EXPECT_EQ(s::ss[1][0x41], 0xd414c4d0u);
    // Both S-boxes are permutations.
    for (const auto *box : {&s::s1, &s::s2}) {
        std::vector<uint8_t> v(box->begin(), box->end());
        std::sort(v.begin(), v.end());
        for (int x = 0; x < 256; x++)
            ASSERT_EQ(v[x], x);
    }
    // Section 2.3: KC_1 .. KC_16.
    EXPECT_EQ(s::kc[0], 0x9e3779b9u);
    EXPECT_EQ(s::kc[1], 0x3c6ef373u);
    EXPECT_EQ(s::kc[7], 0x1bbcdccfu);
    EXPECT_EQ(s::kc[15], 0xbcdccf1bu);
}

} // namespace
