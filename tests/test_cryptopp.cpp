// Our reference kernels against Crypto++ (an independent implementation), on random keys and
// random multi-block inputs from fixed seeds: ARIA, LEA-128/192/256, HIGHT and CHAM in ECB both
// ways, and ARIA, LEA and HIGHT in CTR (Crypto++'s CTR_Mode counts on the whole block as one
// big-endian integer, as ours does) with random IVs and IVs whose low 32 or 64 bits, or all
// bits, are about to carry, and with lengths that end in a partial block.
//
// CHAM: Crypto++ implements the ORIGINAL cipher (ICISC 2017: 80/80/96 rounds) and reads the
// 16/32-bit words big-endian, while kcipher is the REVISED cipher (ICISC 2019: 88/112/120)
// with little-endian words. So Crypto++ is compared with our CHAM functions run at 80/80/96
// rounds on word-swapped key and data, which checks everything but the round count, and a
// separate test shows that the revised cipher does differ from Crypto++'s.
//
// Compiled only where CMake found Crypto++ (KC_HAVE_CRYPTOPP).
#ifdef KC_HAVE_CRYPTOPP

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#if __has_include(<cryptopp/cryptlib.h>)
#include <cryptopp/aria.h>
#include <cryptopp/cham.h>
#include <cryptopp/hight.h>
#include <cryptopp/lea.h>
#include <cryptopp/modes.h>
#else
#include <crypto++/aria.h>
#include <crypto++/cham.h>
#include <crypto++/hight.h>
#include <crypto++/lea.h>
#include <crypto++/modes.h>
#endif

#include "cham/cham.hpp"
#include "core/cipher.hpp"
#include "core/counter.hpp"
#include "dispatch/registry.hpp"
#include "support/keyed_kernel.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using kc::Cipher;

// ---- Crypto++ side ---------------------------------------------------------------------

template <class C> Bytes cpp_ecb(const Bytes &key, const Bytes &in, bool encrypt)
{
    Bytes out(in.size());
    if (encrypt) {
        typename CryptoPP::ECB_Mode<C>::Encryption e(key.data(), key.size());
        e.ProcessData(out.data(), in.data(), in.size());
    } else {
        typename CryptoPP::ECB_Mode<C>::Decryption d(key.data(), key.size());
        d.ProcessData(out.data(), in.data(), in.size());
    }
    return out;
}

template <class C> Bytes cpp_ctr(const Bytes &key, const Bytes &iv, const Bytes &in)
{
    Bytes out(in.size());
    typename CryptoPP::CTR_Mode<C>::Encryption e(key.data(), key.size(), iv.data());
    e.ProcessData(out.data(), in.data(), in.size());
    return out;
}

using CppEcb = Bytes (*)(const Bytes &, const Bytes &, bool);
using CppCtr = Bytes (*)(const Bytes &, const Bytes &, const Bytes &);

// ---- our side --------------------------------------------------------------------------

// CTR over any length: whole blocks through the kernel, the tail XORed with E(ctr0 + n).
Bytes our_ctr(const kct::KeyedKernel &kk, const Bytes &iv, const Bytes &in)
{
    const size_t bb = kk.k->block_bytes, n = in.size() / bb;
    Bytes out(in.size());
    kk.k->ctr_xor_blocks(kk.ks.get(), iv.data(), in.data(), out.data(), n);
    if (n * bb < in.size()) {
        Bytes ctr = iv, ks(bb);
        kc::counter_add(ctr.data(), bb, n);
        kk.k->encrypt_blocks(kk.ks.get(), ctr.data(), ks.data(), 1);
        for (size_t i = n * bb; i < in.size(); i++)
            out[i] = in[i] ^ ks[i - n * bb];
    }
    return out;
}

size_t random_below(size_t bound, uint64_t seed)
{
    Bytes r = kct::random_bytes(4, seed);
    return (r[0] | r[1] << 8 | r[2] << 16 | (size_t)r[3] << 24) % bound;
}

// IVs for trial t: random, then random with the low 32 bits, the low 64 bits or the whole
// block a few steps below a carry (the last case wraps at 2^(8*block)).
Bytes test_iv(size_t bb, int t, uint64_t seed)
{
    Bytes iv = kct::random_bytes(bb, seed);
    size_t ones = t % 4 == 1 ? 4 : t % 4 == 2 ? 8 : t % 4 == 3 ? bb : 0;
    std::fill(iv.end() - (long)std::min(ones, bb), iv.end(), 0xff);
    if (ones != 0)
        iv.back() = (uint8_t)(0xff - random_below(8, seed + 1)); // carries within 8 blocks
    return iv;
}

struct CppCase {
    const char *kernel;
    Cipher cipher;
    CppEcb ecb;
    CppCtr ctr;
};

void PrintTo(const CppCase &c, std::ostream *os)
{
    *os << c.kernel << " " << kc::cipher_desc(c.cipher).name;
}

std::string case_name(const testing::TestParamInfo<CppCase> &info)
{
    std::string s = std::string(info.param.kernel) + "_" + kc::cipher_desc(info.param.cipher).name;
    for (char &c : s)
        if (!std::isalnum((unsigned char)c))
            c = '_';
    return s;
}

const CppCase kCases[] = {
    {"aria/ref", Cipher::aria128, cpp_ecb<CryptoPP::ARIA>, cpp_ctr<CryptoPP::ARIA>},
    {"aria/ref", Cipher::aria192, cpp_ecb<CryptoPP::ARIA>, cpp_ctr<CryptoPP::ARIA>},
    {"aria/ref", Cipher::aria256, cpp_ecb<CryptoPP::ARIA>, cpp_ctr<CryptoPP::ARIA>},
    {"lea/ref", Cipher::lea128, cpp_ecb<CryptoPP::LEA>, cpp_ctr<CryptoPP::LEA>},
    {"lea/ref", Cipher::lea192, cpp_ecb<CryptoPP::LEA>, cpp_ctr<CryptoPP::LEA>},
    {"lea/ref", Cipher::lea256, cpp_ecb<CryptoPP::LEA>, cpp_ctr<CryptoPP::LEA>},
    {"hight/ref", Cipher::hight, cpp_ecb<CryptoPP::HIGHT>, cpp_ctr<CryptoPP::HIGHT>},
};

constexpr int kTrials = 24;

class CryptoppCompare : public testing::TestWithParam<CppCase> {
  protected:
    void SetUp() override
    {
        kernel_ = kc::find_kernel(GetParam().kernel);
        ASSERT_NE(kernel_, nullptr) << GetParam().kernel;
        ASSERT_TRUE(kernel_->supports(GetParam().cipher));
        ASSERT_EQ(kernel_->block_bytes, kc::cipher_desc(GetParam().cipher).block_bytes);
    }
    uint64_t seed_base() const { return 1000 * (uint64_t)GetParam().cipher; }
    const kc::Kernel *kernel_ = nullptr;
};

TEST_P(CryptoppCompare, EcbBothWays)
{
    const CppCase &p = GetParam();
    const kc::CipherDesc &d = kc::cipher_desc(p.cipher);
    int n = 0;
    for (int t = 0; t < kTrials; t++) {
        uint64_t seed = seed_base() + 10 * t;
        Bytes key = kct::random_bytes(d.key_bytes, seed);
        size_t nblocks = 1 + random_below(40, seed + 1);
        Bytes pt = kct::random_bytes(nblocks * d.block_bytes, seed + 2);
        kct::KeyedKernel kk(kernel_, p.cipher, key);
        Bytes ct = p.ecb(key, pt, true);
        ASSERT_NE(ct, pt);
        EXPECT_EQ(kct::tohex(kk.encrypt(pt)), kct::tohex(ct)) << "trial " << t;
        Bytes ct2 = kct::random_bytes(nblocks * d.block_bytes, seed + 3);
        EXPECT_EQ(kct::tohex(kk.decrypt(ct2)), kct::tohex(p.ecb(key, ct2, false))) << "trial " << t;
        n++;
    }
    EXPECT_EQ(n, kTrials);
}

TEST_P(CryptoppCompare, CtrWithCarries)
{
    const CppCase &p = GetParam();
    const kc::CipherDesc &d = kc::cipher_desc(p.cipher);
    int carried = 0;
    for (int t = 0; t < kTrials; t++) {
        uint64_t seed = seed_base() + 10 * t + 5;
        Bytes key = kct::random_bytes(d.key_bytes, seed);
        Bytes iv = test_iv(d.block_bytes, t, seed + 1);
        size_t len = 8 * d.block_bytes + random_below(24 * d.block_bytes, seed + 2);
        Bytes pt = kct::random_bytes(len, seed + 3);
        kct::KeyedKernel kk(kernel_, p.cipher, key);
        Bytes ct = p.ctr(key, iv, pt);
        EXPECT_EQ(kct::tohex(our_ctr(kk, iv, pt)), kct::tohex(ct))
            << "trial " << t << " iv " << kct::tohex(iv) << " len " << len;
        EXPECT_EQ(kct::tohex(our_ctr(kk, iv, ct)), kct::tohex(pt)) << "trial " << t;
        carried += t % 4 != 0;
    }
    EXPECT_EQ(carried, 3 * kTrials / 4);
}

INSTANTIATE_TEST_SUITE_P(RefKernels, CryptoppCompare, testing::ValuesIn(kCases), case_name);

// ---- CHAM: original rounds, swapped words -----------------------------------------------

Bytes swap_words(Bytes v, size_t word_bytes)
{
    for (size_t i = 0; i + word_bytes <= v.size(); i += word_bytes)
        std::reverse(v.begin() + i, v.begin() + i + word_bytes);
    return v;
}

// Crypto++'s CHAM on byte strings, computed with our functions at the given round count.
Bytes our_cham_as_cryptopp(Cipher c, int rounds, const Bytes &key, const Bytes &in, bool encrypt)
{
    const size_t bb = kc::cipher_desc(c).block_bytes, wb = bb / 4;
    kc::ChamRoundKeys rk;
    kc::cham_key_schedule(c, swap_words(key, wb).data(), &rk, rounds);
    Bytes x = swap_words(in, wb);
    for (size_t off = 0; off < x.size(); off += bb) {
        if (encrypt)
            kc::cham_encrypt_block(rk, x.data() + off, x.data() + off);
        else
            kc::cham_decrypt_block(rk, x.data() + off, x.data() + off);
    }
    return swap_words(x, wb);
}

struct ChamCase {
    Cipher cipher;
    CppEcb ecb;
};

class CryptoppCham : public testing::TestWithParam<ChamCase> {};

void PrintTo(const ChamCase &c, std::ostream *os) { *os << kc::cipher_desc(c.cipher).name; }

std::string cham_case_name(const testing::TestParamInfo<ChamCase> &info)
{
    std::string s = kc::cipher_desc(info.param.cipher).name;
    for (char &c : s)
        if (!std::isalnum((unsigned char)c))
            c = '_';
    return s;
}

TEST_P(CryptoppCham, EcbAtOriginalRoundsWithSwappedWords)
{
    const ChamCase &p = GetParam();
    const kc::CipherDesc &d = kc::cipher_desc(p.cipher);
    const int rounds = kc::cham_original_rounds(p.cipher);
    for (int t = 0; t < kTrials; t++) {
        uint64_t seed = 50000 + 1000 * (uint64_t)p.cipher + 10 * t;
        Bytes key = kct::random_bytes(d.key_bytes, seed);
        size_t nblocks = 1 + random_below(40, seed + 1);
        Bytes pt = kct::random_bytes(nblocks * d.block_bytes, seed + 2);
        Bytes ct = p.ecb(key, pt, true);
        Bytes enc = our_cham_as_cryptopp(p.cipher, rounds, key, pt, true);
        Bytes dec = our_cham_as_cryptopp(p.cipher, rounds, key, ct, false);
        EXPECT_EQ(kct::tohex(enc), kct::tohex(ct)) << "trial " << t;
        EXPECT_EQ(kct::tohex(dec), kct::tohex(pt)) << "trial " << t;
    }
}

// The honest half: kcipher's CHAM (revised rounds) is not Crypto++'s, block by block.
TEST_P(CryptoppCham, RevisedRoundsDifferFromCryptopp)
{
    const ChamCase &p = GetParam();
    const kc::CipherDesc &d = kc::cipher_desc(p.cipher);
    const int rounds = kc::cham_revised_rounds(p.cipher);
    int equal_blocks = 0, blocks = 0;
    for (int t = 0; t < kTrials; t++) {
        uint64_t seed = 60000 + 1000 * (uint64_t)p.cipher + 10 * t;
        Bytes key = kct::random_bytes(d.key_bytes, seed);
        Bytes pt = kct::random_bytes(4 * d.block_bytes, seed + 2);
        Bytes ours = our_cham_as_cryptopp(p.cipher, rounds, key, pt, true);
        Bytes theirs = p.ecb(key, pt, true);
        for (size_t off = 0; off < pt.size(); off += d.block_bytes, blocks++)
            equal_blocks += std::equal(ours.begin() + off, ours.begin() + off + d.block_bytes,
                                       theirs.begin() + off);
    }
    EXPECT_EQ(blocks, 4 * kTrials);
    EXPECT_EQ(equal_blocks, 0);
}

const ChamCase kChamCases[] = {
    {Cipher::cham64_128, cpp_ecb<CryptoPP::CHAM64>},
    {Cipher::cham128_128, cpp_ecb<CryptoPP::CHAM128>},
    {Cipher::cham128_256, cpp_ecb<CryptoPP::CHAM128>},
};

INSTANTIATE_TEST_SUITE_P(RefFunctions, CryptoppCham, testing::ValuesIn(kChamCases), cham_case_name);

} // namespace

#endif // KC_HAVE_CRYPTOPP
