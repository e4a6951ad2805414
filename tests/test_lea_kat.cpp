// LEA kernels against known answers. Every LEA kernel in the registry runs every test here
// (TEST_P over the kernel name); kernels the machine cannot run are skipped.
//   - lea_spec_ttak_ko_12_0223.txt: the standard's reference values (3, one per key size);
//   - kcmvp_lea_ecb_kat.txt: the KCMVP V3.0 ECB KAT (1020);
//   - cryptopp_lea.txt: KISA's lea_vs.c multi-block vectors as Crypto++ ships them: ECB (30,
//     also in place), CTR (30, through the kernel's ctr_xor_blocks) and CBC (30, chained here
//     from the kernel's ECB, since CBC lives above the kernels).
// Every vector is checked in both directions, and every test checks how many vectors it ran.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "core/cipher.hpp"
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

constexpr size_t kBlock = 16;

kc::Cipher lea_for_key(size_t key_bytes)
{
    switch (key_bytes) {
    case 16:
        return kc::Cipher::lea128;
    case 24:
        return kc::Cipher::lea192;
    case 32:
        return kc::Cipher::lea256;
    default:
        throw std::runtime_error("LEA key of " + std::to_string(key_bytes) + " bytes");
    }
}

// "LEA-128" -> lea128, checked against the key length.
kc::Cipher lea_named(std::string name, size_t key_bytes)
{
    for (char &ch : name)
        ch = (char)std::tolower((unsigned char)ch);
    const kc::CipherDesc *d = kc::cipher_by_name(name);
    if (d == nullptr || d->key_bytes != key_bytes)
        throw std::runtime_error("cipher " + name + " does not match its key");
    return d->id;
}

class LeaKernel : public kct::KernelKat {
  protected:
    // Every section of cryptopp_lea.txt is named "LEA-128/<mode>" (128 is the block size);
    // the key length gives the key size.
    static std::vector<kct::Record> cryptopp_section(const std::string &mode)
    {
        return KernelKat::cryptopp_section("cryptopp_lea.txt", "LEA-128/" + mode);
    }
};

TEST_P(LeaKernel, Descriptor)
{
    expect_descriptor("lea", 16u);
}

TEST_P(LeaKernel, StandardReferenceValues)
{
    const char *file = "lea_spec_ttak_ko_12_0223.txt";
    for (const kct::Record &r : kct::load_kv_lines(file)) {
        Bytes key = unhex(r.at("key"));
        record(ecb_matches(k_, lea_named(r.at("cipher"), key.size()), key, unhex(r.at("pt")),
                           unhex(r.at("ct"))),
               where(file, r));
    }
    EXPECT_EQ(checked_, 3u);
    EXPECT_EQ(failed_, 0u);
}

TEST_P(LeaKernel, KcmvpEcbKat)
{
    const char *file = "kcmvp_lea_ecb_kat.txt";
    size_t per_key_size[3] = {0, 0, 0};
    for (const kct::Record &r : kct::load_kv_lines(file)) {
        ASSERT_EQ(r.at("mode"), "ECB") << where(file, r);
        Bytes key = unhex(r.at("key"));
        kc::Cipher c = lea_named(r.at("cipher"), key.size());
        record(ecb_matches(k_, c, key, unhex(r.at("pt")), unhex(r.at("ct"))), where(file, r));
        per_key_size[(int)c - (int)kc::Cipher::lea128]++;
    }
    EXPECT_EQ(checked_, 1020u);
    EXPECT_EQ(per_key_size[0], 276u);
    EXPECT_EQ(per_key_size[1], 340u);
    EXPECT_EQ(per_key_size[2], 404u);
    EXPECT_EQ(failed_, 0u);
}

TEST_P(LeaKernel, CryptoppEcb)
{
    for (const kct::Record &r : cryptopp_section("ECB")) {
        Bytes key = unhex(r.at("key"));
        record(ecb_matches(k_, lea_for_key(key.size()), key, unhex(r.at("plaintext")),
                           unhex(r.at("ciphertext"))),
               where("cryptopp_lea.txt", r));
    }
    EXPECT_EQ(checked_, 30u); // 10 per key size, 1..10 blocks
    EXPECT_EQ(failed_, 0u);
}

TEST_P(LeaKernel, CryptoppCtr)
{
    for (const kct::Record &r : cryptopp_section("CTR")) {
        Bytes key = unhex(r.at("key"));
        record(ctr_matches(k_, lea_for_key(key.size()), key, unhex(r.at("iv")),
                           unhex(r.at("plaintext")), unhex(r.at("ciphertext"))),
               where("cryptopp_lea.txt", r));
    }
    EXPECT_EQ(checked_, 30u);
    EXPECT_EQ(failed_, 0u);
}

TEST_P(LeaKernel, CryptoppCbc)
{
    for (const kct::Record &r : cryptopp_section("CBC")) {
        Bytes key = unhex(r.at("key"));
        record(cbc_matches(k_, lea_for_key(key.size()), key, unhex(r.at("iv")),
                           unhex(r.at("plaintext")), unhex(r.at("ciphertext"))),
               where("cryptopp_lea.txt", r));
    }
    EXPECT_EQ(checked_, 30u);
    EXPECT_EQ(failed_, 0u);
}

INSTANTIATE_TEST_SUITE_P(Lea, LeaKernel, testing::ValuesIn(kct::family_kernel_names("lea")),
                         kct::param_name);

// The parameter list comes from the registry; a missing registry line must fail, not shrink it.
TEST(LeaRegistry, HasRef)
{
    const kc::Kernel *ref = kc::find_kernel("lea/ref");
    ASSERT_NE(ref, nullptr);
    EXPECT_TRUE(ref->constant_time);
    EXPECT_EQ(ref->requires, 0u);
    EXPECT_EQ(ref->batch_blocks, 1u);
    for (kc::Cipher c : {kc::Cipher::lea128, kc::Cipher::lea192, kc::Cipher::lea256})
        EXPECT_EQ(kc::reference_kernel(c), ref);
}

} // namespace
