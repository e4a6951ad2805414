// HIGHT kernels against known answers. Every HIGHT kernel in the registry runs every test
// here (TEST_P over the kernel name); kernels the machine cannot run are skipped.
//   - kcmvp_hight_ecb_kat.txt: the standard's 4 reference values (in byte-array order) and
//     the KCMVP V3.0 ECB KAT, 216 in all;
//   - cryptopp_hight.txt: KISA's KISA_HIGHT_{ECB,CBC,CTR}.c vectors as Crypto++ ships them:
//     ECB (15), CBC (8, chained here from the kernel's ECB) and CTR (52, lengths 1..65 bytes,
//     IV ...fe so that the counter carries: whole blocks through the kernel's ctr_xor_blocks,
//     the partial tail XORed here with one more counter block, as the CTR layer does).
// Every vector is checked in both directions, and every test checks how many vectors it ran.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "core/cipher.hpp"
#include "core/counter.hpp"
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

constexpr size_t kBlock = 8;

class HightKernel : public kct::KernelKat {
  protected:
    static std::vector<kct::Record> cryptopp_section(const std::string &name)
    {
        return KernelKat::cryptopp_section("cryptopp_hight.txt", name);
    }
};

TEST_P(HightKernel, Descriptor)
{
    expect_descriptor("hight", kBlock);
    EXPECT_TRUE(k_->constant_time); // ARX on bytes: no kernel of HIGHT needs a table
}

TEST_P(HightKernel, KcmvpEcbKat)
{
    check_ecb_file("kcmvp_hight_ecb_kat.txt", "HIGHT", kc::Cipher::hight);
    EXPECT_EQ(checked_, 216u); // 4 from the standard + 212 KCMVP
    EXPECT_EQ(failed_, 0u);
}

TEST_P(HightKernel, CryptoppEcb)
{
    for (const kct::Record &r : cryptopp_section("HIGHT/ECB"))
        record(ecb_matches(k_, kc::Cipher::hight, unhex(r.at("key")), unhex(r.at("plaintext")),
                           unhex(r.at("ciphertext"))),
               where("cryptopp_hight.txt", r));
    EXPECT_EQ(checked_, 15u); // the file repeats a few
    EXPECT_EQ(failed_, 0u);
}

TEST_P(HightKernel, CryptoppCbc)
{
    for (const kct::Record &r : cryptopp_section("HIGHT/CBC"))
        record(cbc_matches(k_, kc::Cipher::hight, unhex(r.at("key")), unhex(r.at("iv")), unhex(r.at("plaintext")),
                           unhex(r.at("ciphertext"))),
               where("cryptopp_hight.txt", r));
    EXPECT_EQ(checked_, 8u); // 1..8 blocks
    EXPECT_EQ(failed_, 0u);
}

TEST_P(HightKernel, CryptoppCtr)
{
    size_t past_carry = 0;
    for (const kct::Record &r : cryptopp_section("HIGHT/CTR")) {
        Bytes iv = unhex(r.at("iv")), pt = unhex(r.at("plaintext"));
        record(ctr_matches(k_, kc::Cipher::hight, unhex(r.at("key")), iv, pt, unhex(r.at("ciphertext"))),
               where("cryptopp_hight.txt", r));
        // IV ...fe: the third counter block carries into the next byte.
        past_carry += iv.back() == 0xfe && pt.size() > 2 * kBlock;
    }
    EXPECT_EQ(checked_, 52u);
    EXPECT_GT(past_carry, 0u);
    EXPECT_EQ(failed_, 0u);
}

INSTANTIATE_TEST_SUITE_P(Hight, HightKernel, testing::ValuesIn(kct::family_kernel_names("hight")),
                         kct::param_name);

// The parameter list comes from the registry; a missing registry line must fail, not shrink it.
TEST(HightRegistry, HasRef)
{
    const kc::Kernel *ref = kc::find_kernel("hight/ref");
    ASSERT_NE(ref, nullptr);
    EXPECT_TRUE(ref->constant_time);
    EXPECT_EQ(ref->requires, 0u);
    EXPECT_EQ(ref->batch_blocks, 1u);
    EXPECT_EQ(kc::reference_kernel(kc::Cipher::hight), ref);
}

} // namespace
