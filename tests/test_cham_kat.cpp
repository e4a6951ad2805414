// CHAM kernels against known answers. kcipher's CHAM is the revised cipher (ICISC 2019:
// 88/112/120 rounds, little-endian words); the only multi-block and CTR vectors that exist,
// Crypto++'s cham.txt, are for the original cipher (ICISC 2017: 80/80/96 rounds) with words
// serialised big-endian. The tests are honest about both:
//   - cham_revised_2019.txt: the 3 revised vectors pass with every kernel as it ships, and the
//     3 original-paper vectors of that file pass only at the original round counts;
//   - cryptopp_cham.txt, all 60 vectors, at the original round counts (through the test hook
//     cham_set_rounds_for_test):
//       ECB (30): byte-swap every 16/32-bit word of key, plaintext and ciphertext;
//       CTR (30): Crypto++ counts on its own byte string, so the counter blocks are built and
//            incremented (one big-endian integer per block) in Crypto++'s order, their words are
//            swapped just before our encryption and the keystream's words swapped back; the key
//            is swapped, plaintext and ciphertext are used as they are. (Swapping everything and
//            using our CTR instead matches none, as tests/vectors/README.md says: tested too.)
//   - every kernel as it ships (revised rounds) passes none of the 60 Crypto++ vectors;
//   - ctr_xor_blocks is ECB of big-endian counter blocks of the cipher's own size (8 bytes for
//     CHAM-64/128 although Kernel::block_bytes says 16), through carries and the wrap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "cham/cham.hpp"
#include "core/cipher.hpp"
#include "core/key_state.hpp"
#include "dispatch/registry.hpp"
#include "support/kat_fixture.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using kc::Cipher;
using kct::tohex;
using kct::unhex;

constexpr Cipher kChamCiphers[] = {Cipher::cham64_128, Cipher::cham128_128, Cipher::cham128_256};

// Kernels whose key state is a ChamRoundKeys, so that cham_set_rounds_for_test can run them at
// the original round counts. A kernel with another layout is held to cham/ref by the revised
// vectors here and by the modes tests' comparison with the reference kernel.
const std::vector<std::string> kRoundHookKernels = {"cham/ref",
#if defined(__x86_64__)
                                                     "cham/avx2", "cham/avx512", "cham/avx512-vbmi2",
#endif
#if defined(__aarch64__)
                                                     "cham/neon",
#endif
};

using kct::where;

size_t block_of(Cipher c) { return kc::cipher_desc(c).block_bytes; }
size_t word_of(Cipher c) { return block_of(c) / 4; } // 2 or 4 bytes

// Reverses the bytes of every word: Crypto++'s byte order <-> ours.
Bytes swap_words(Bytes v, size_t word_bytes)
{
    for (size_t i = 0; i + word_bytes <= v.size(); i += word_bytes)
        std::reverse(v.begin() + i, v.begin() + i + word_bytes);
    return v;
}

// The counter step written out here rather than taken from core/counter.hpp, so that the test
// does not share a bug with the code under test.
void increment_be(Bytes &ctr)
{
    for (size_t b = ctr.size(); b-- > 0;)
        if (++ctr[b] != 0)
            return;
}

Bytes counter_blocks(Bytes ctr, size_t nblocks)
{
    Bytes out;
    for (size_t j = 0; j < nblocks; j++) {
        out.insert(out.end(), ctr.begin(), ctr.end());
        increment_be(ctr);
    }
    return out;
}

Bytes xor_bytes(Bytes a, const Bytes &b)
{
    for (size_t i = 0; i < a.size(); i++)
        a[i] ^= b[i];
    return a;
}

// A CHAM kernel with a key set, at the revised rounds unless told otherwise. The block size
// comes from the cipher, never from Kernel::block_bytes (16 for the whole family).
class ChamKeyed {
  public:
    ChamKeyed(const kc::Kernel *k, Cipher c, const Bytes &key, int rounds = 0) : k_(k), c_(c)
    {
        if (key.size() != kc::cipher_desc(c).key_bytes || !ks_.init(*k, c, key.data()))
            throw std::runtime_error("cannot set CHAM key");
        if (rounds != 0)
            kc::cham_set_rounds_for_test(const_cast<void *>(ks_.get()), rounds);
    }

    Bytes encrypt(const Bytes &in) const { return run(k_->encrypt_blocks, in); }
    Bytes decrypt(const Bytes &in) const { return run(k_->decrypt_blocks, in); }
    Bytes ctr(const Bytes &ctr0, const Bytes &in) const
    {
        Bytes out(in.size());
        k_->ctr_xor_blocks(ks_.get(), ctr0.data(), in.data(), out.data(), in.size() / block_of(c_));
        return out;
    }
    void encrypt_in_place(Bytes &buf) const
    {
        k_->encrypt_blocks(ks_.get(), buf.data(), buf.data(), buf.size() / block_of(c_));
    }
    void decrypt_in_place(Bytes &buf) const
    {
        k_->decrypt_blocks(ks_.get(), buf.data(), buf.data(), buf.size() / block_of(c_));
    }

  private:
    Bytes run(decltype(kc::Kernel::encrypt_blocks) f, const Bytes &in) const
    {
        Bytes out(in.size());
        f(ks_.get(), in.data(), out.data(), in.size() / block_of(c_));
        return out;
    }

    const kc::Kernel *k_;
    Cipher c_;
    kc::KeyState ks_;
};

// ECB both ways, out of place and in place, at `rounds` (0 = as shipped).
testing::AssertionResult ecb_matches(const kc::Kernel *k, Cipher c, int rounds, const Bytes &key,
                                     const Bytes &pt, const Bytes &ct)
{
    if (pt.empty() || pt.size() % block_of(c) != 0 || pt.size() != ct.size())
        return testing::AssertionFailure() << "malformed vector";
    ChamKeyed kk(k, c, key, rounds);
    std::string enc = tohex(kk.encrypt(pt)), dec = tohex(kk.decrypt(ct));
    if (enc != tohex(ct))
        return testing::AssertionFailure() << "encrypt gave " << enc << ", expected " << tohex(ct);
    if (dec != tohex(pt))
        return testing::AssertionFailure() << "decrypt gave " << dec << ", expected " << tohex(pt);
    Bytes buf = pt;
    kk.encrypt_in_place(buf);
    if (buf != ct)
        return testing::AssertionFailure() << "in-place encrypt gave " << tohex(buf);
    kk.decrypt_in_place(buf);
    if (buf != pt)
        return testing::AssertionFailure() << "in-place decrypt gave " << tohex(buf);
    return testing::AssertionSuccess();
}

// "CHAM-64/128" -> cham64_128 through the cipher table ("cham-64-128").
Cipher cham_named(std::string name)
{
    for (char &ch : name)
        ch = ch == '/' ? '-' : (char)std::tolower((unsigned char)ch);
    const kc::CipherDesc *d = kc::cipher_by_name(name);
    if (d == nullptr)
        throw std::runtime_error("unknown cipher " + name);
    return d->id;
}

// ---- Crypto++'s cham.txt ----------------------------------------------------------------

struct CryptoppVector {
    Cipher cipher;
    bool ctr; // else ECB
    Bytes key, iv, pt, ct;
    std::string at;
};

// Sections are "CHAM-64/<mode>" and "CHAM-128/<mode>"; the key length picks 128/128 or 128/256.
std::vector<CryptoppVector> cryptopp_vectors()
{
    std::vector<CryptoppVector> out;
    for (const kct::Record &r : kct::load_cryptopp("cryptopp_cham.txt")) {
        CryptoppVector v;
        const std::string &name = r.at("name");
        v.key = unhex(r.at("key"));
        v.cipher = name.rfind("CHAM-64/", 0) == 0 ? Cipher::cham64_128
                   : v.key.size() == 16           ? Cipher::cham128_128
                                                  : Cipher::cham128_256;
        v.ctr = name.substr(name.size() - 4) == "/CTR";
        if (v.ctr)
            v.iv = unhex(r.at("iv"));
        v.pt = unhex(r.at("plaintext"));
        v.ct = unhex(r.at("ciphertext"));
        v.at = where("cryptopp_cham.txt", r);
        out.push_back(v);
    }
    return out;
}

// Crypto++'s CHAM-ECB, computed with a little-endian kernel: every word swapped on the way in
// and out.
Bytes cryptopp_ecb(const kc::Kernel *k, Cipher c, int rounds, const Bytes &cpp_key,
                   const Bytes &in, bool encrypt)
{
    const size_t wb = word_of(c);
    ChamKeyed kk(k, c, swap_words(cpp_key, wb), rounds);
    Bytes x = swap_words(in, wb);
    return swap_words(encrypt ? kk.encrypt(x) : kk.decrypt(x), wb);
}

// Crypto++'s CHAM-CTR, computed with a little-endian kernel: counter blocks built and
// incremented in Crypto++'s byte order, word-swapped into ours for the encryption, keystream
// swapped back.
Bytes cryptopp_ctr(const kc::Kernel *k, Cipher c, int rounds, const Bytes &cpp_key,
                   const Bytes &iv, const Bytes &in)
{
    const size_t wb = word_of(c);
    ChamKeyed kk(k, c, swap_words(cpp_key, wb), rounds);
    Bytes counters = counter_blocks(iv, in.size() / block_of(c));
    return xor_bytes(in, swap_words(kk.encrypt(swap_words(counters, wb)), wb));
}

Bytes cryptopp_forward(const kc::Kernel *k, const CryptoppVector &v, int rounds)
{
    return v.ctr ? cryptopp_ctr(k, v.cipher, rounds, v.key, v.iv, v.pt)
                 : cryptopp_ecb(k, v.cipher, rounds, v.key, v.pt, true);
}

Bytes cryptopp_backward(const kc::Kernel *k, const CryptoppVector &v, int rounds)
{
    return v.ctr ? cryptopp_ctr(k, v.cipher, rounds, v.key, v.iv, v.ct)
                 : cryptopp_ecb(k, v.cipher, rounds, v.key, v.ct, false);
}

// ---- fixtures ---------------------------------------------------------------------------

using ChamKernelBase = kct::KernelKat;

class ChamKernel : public ChamKernelBase {};         // every CHAM kernel, as shipped
class ChamOriginalRounds : public ChamKernelBase {}; // kernels with the round-count hook

TEST_P(ChamKernel, Descriptor)
{
    expect_descriptor("cham", 16u);
    EXPECT_TRUE(k_->constant_time); // ARX: no kernel of CHAM needs a table
}

TEST_P(ChamKernel, RevisedVectorsPassAndOriginalOnesDoNot)
{
    const char *file = "cham_revised_2019.txt";
    size_t original = 0, original_matching = 0;
    for (const kct::Record &r : kct::load_kv_lines(file)) {
        Cipher c = cham_named(r.at("cipher"));
        Bytes key = unhex(r.at("key")), pt = unhex(r.at("pt")), ct = unhex(r.at("ct"));
        if (std::stoi(r.at("rounds")) == kc::cham_revised_rounds(c)) {
            record(ecb_matches(k_, c, 0, key, pt, ct), where(file, r));
        } else {
            ASSERT_EQ(std::stoi(r.at("rounds")), kc::cham_original_rounds(c)) << where(file, r);
            original++;
            original_matching += ChamKeyed(k_, c, key).encrypt(pt) == ct;
        }
    }
    EXPECT_EQ(checked_, 3u);
    EXPECT_EQ(failed_, 0u);
    EXPECT_EQ(original, 3u);
    EXPECT_EQ(original_matching, 0u);
}

TEST_P(ChamKernel, RevisedRoundsPassNoCryptoppVector)
{
    size_t total = 0, matching = 0;
    for (const CryptoppVector &v : cryptopp_vectors()) {
        matching += cryptopp_forward(k_, v, kc::cham_revised_rounds(v.cipher)) == v.ct;
        total++;
    }
    EXPECT_EQ(total, 60u);
    EXPECT_EQ(matching, 0u);
}

TEST_P(ChamKernel, CtrIsEcbOfBigEndianCounters)
{
    uint64_t seed = 1;
    for (Cipher c : kChamCiphers) {
        const size_t bb = block_of(c);
        ChamKeyed kk(k_, c, kct::random_bytes(kc::cipher_desc(c).key_bytes, seed++));
        // Counters 4 below the wrap at 2^(8*bb), below a 2^64 carry, below a 2^32 carry, random.
        Bytes wrap(bb, 0xff), carry64(bb, 0x00), carry32(bb, 0x5a);
        std::fill(carry64.end() - 8, carry64.end(), 0xff);
        std::fill(carry32.end() - 4, carry32.end(), 0xff);
        for (Bytes ctr0 : {wrap, carry64, carry32, kct::random_bytes(bb, seed++)}) {
            ctr0.back() = 0xfc;
            for (size_t n : {size_t(1), size_t(9), size_t(200)}) {
                Bytes in = kct::random_bytes(n * bb, seed++);
                Bytes want = xor_bytes(in, kk.encrypt(counter_blocks(ctr0, n)));
                EXPECT_EQ(tohex(kk.ctr(ctr0, in)), tohex(want))
                    << kc::cipher_desc(c).name << " ctr0 " << tohex(ctr0) << " blocks " << n;
            }
        }
    }
}

TEST_P(ChamOriginalRounds, PaperVectorsAtTheirRoundCounts)
{
    const char *file = "cham_revised_2019.txt";
    for (const kct::Record &r : kct::load_kv_lines(file))
        record(ecb_matches(k_, cham_named(r.at("cipher")), std::stoi(r.at("rounds")),
                           unhex(r.at("key")), unhex(r.at("pt")), unhex(r.at("ct"))),
               where(file, r));
    EXPECT_EQ(checked_, 6u); // 3 revised, 3 original
    EXPECT_EQ(failed_, 0u);
}

// All 60 of Crypto++'s vectors, ECB and CTR, both ways, at the original round counts.
TEST_P(ChamOriginalRounds, AllCryptoppVectors)
{
    size_t per_cipher_mode[3][2] = {};
    for (const CryptoppVector &v : cryptopp_vectors()) {
        const int rounds = kc::cham_original_rounds(v.cipher);
        std::string fwd = tohex(cryptopp_forward(k_, v, rounds));
        std::string back = tohex(cryptopp_backward(k_, v, rounds));
        testing::AssertionResult ok = testing::AssertionSuccess();
        if (fwd != tohex(v.ct))
            ok = testing::AssertionFailure() << "gave " << fwd << ", expected " << tohex(v.ct);
        else if (back != tohex(v.pt))
            ok = testing::AssertionFailure() << "back gave " << back << ", expected "
                                             << tohex(v.pt);
        record(ok, v.at + (v.ctr ? " (CTR)" : " (ECB)"));
        per_cipher_mode[(int)v.cipher - (int)Cipher::cham64_128][v.ctr]++;
    }
    EXPECT_EQ(checked_, 60u);
    for (auto &modes : per_cipher_mode) {
        EXPECT_EQ(modes[0], 10u); // ECB, single blocks
        EXPECT_EQ(modes[1], 10u); // CTR, 12 blocks each
    }
    EXPECT_EQ(failed_, 0u);
}

// The README's warning kept as a test: swapping every word and running our own CTR (which
// counts on our byte order) is not Crypto++'s CTR.
TEST_P(ChamOriginalRounds, CryptoppCtrIsNotAPlainWordSwap)
{
    size_t total = 0, matching = 0;
    for (const CryptoppVector &v : cryptopp_vectors()) {
        if (!v.ctr)
            continue;
        const size_t wb = word_of(v.cipher);
        ChamKeyed kk(k_, v.cipher, swap_words(v.key, wb), kc::cham_original_rounds(v.cipher));
        matching += swap_words(kk.ctr(swap_words(v.iv, wb), swap_words(v.pt, wb)), wb) == v.ct;
        total++;
    }
    EXPECT_EQ(total, 30u);
    EXPECT_EQ(matching, 0u);
}

INSTANTIATE_TEST_SUITE_P(Cham, ChamKernel, testing::ValuesIn(kct::family_kernel_names("cham")),
                         kct::param_name);
INSTANTIATE_TEST_SUITE_P(Cham, ChamOriginalRounds, testing::ValuesIn(kRoundHookKernels),
                         kct::param_name);

// The parameter list comes from the registry; a missing registry line must fail, not shrink it.
TEST(ChamRegistry, HasRef)
{
    const kc::Kernel *ref = kc::find_kernel("cham/ref");
    ASSERT_NE(ref, nullptr);
    EXPECT_TRUE(ref->constant_time);
    EXPECT_EQ(ref->requires, 0u);
    EXPECT_EQ(ref->batch_blocks, 1u);
    for (Cipher c : kChamCiphers)
        EXPECT_EQ(kc::reference_kernel(c), ref);
}

} // namespace
