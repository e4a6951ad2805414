// CFB (full-block segments), CFB8 and OFB through the C API and the C++ wrapper:
//  - every kernel of every cipher (64-bit blocks included) against the modes composed by hand
//    over the cipher's reference kernel, in both directions, in place, with the updated iv, and
//    with a stream cut into whole-block pieces and a tail;
//  - every ARIA kernel against OpenSSL's EVP ARIA-*-CFB/CFB8/OFB on random keys, IVs and
//    lengths, the register OpenSSL leaves (its updated IV) included;
//  - CFB decryption over many threads, in place, equal to one thread;
//  - the argument checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "dispatch/registry.hpp"
#include "kcipher/kcipher.hpp"
#include "support/kernels.hpp"
#include "support/keyed_kernel.hpp"
#include "support/vectors.hpp"

#ifdef KC_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

namespace {

using Bytes = std::vector<uint8_t>;
using kct::KernelCipher;

enum class Feedback { cfb, cfb8, ofb };
const Feedback all_modes[] = {Feedback::cfb, Feedback::cfb8, Feedback::ofb};
const char *mode_name(Feedback m) { return m == Feedback::cfb ? "cfb" : m == Feedback::cfb8 ? "cfb8" : "ofb"; }

// Lengths around block boundaries of 8- and 16-byte blocks, and a few longer ones.
const size_t lengths[] = {0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 100, 255, 256, 257, 513, 700};

// One call of the mode through the pointer form of the wrapper; iv is updated as the API does.
void run(const kcipher::Cipher &c, Feedback m, bool enc, Bytes &iv, const uint8_t *in, uint8_t *out, size_t len)
{
    switch (m) {
    case Feedback::cfb:
        return enc ? c.cfb_encrypt(iv.data(), in, out, len) : c.cfb_decrypt(iv.data(), in, out, len);
    case Feedback::cfb8:
        return enc ? c.cfb8_encrypt(iv.data(), in, out, len) : c.cfb8_decrypt(iv.data(), in, out, len);
    case Feedback::ofb:
        return c.ofb_xor(iv.data(), in, out, len);
    }
}

Bytes run(const kcipher::Cipher &c, Feedback m, bool enc, Bytes &iv, const Bytes &in)
{
    Bytes out(in.size());
    run(c, m, enc, iv, in.data(), out.data(), in.size());
    return out;
}

// The same message cut into pieces of whole blocks (any bytes for CFB8) at the given cut
// points, then the rest, through one iv.
Bytes run_in_pieces(const kcipher::Cipher &c, Feedback m, bool enc, Bytes iv, const Bytes &in,
                    const std::vector<size_t> &cuts)
{
    Bytes out(in.size());
    size_t at = 0;
    for (size_t cut : cuts) {
        run(c, m, enc, iv, in.data() + at, out.data() + at, cut - at);
        at = cut;
    }
    run(c, m, enc, iv, in.data() + at, out.data() + at, in.size() - at);
    return out;
}

// Cut points of whole blocks (segments of one byte for CFB8), pseudo-random, ascending.
std::vector<size_t> cuts_for(Feedback m, size_t len, size_t bs, uint64_t seed)
{
    const size_t unit = m == Feedback::cfb8 ? 1 : bs;
    std::vector<size_t> cuts;
    const Bytes r = kct::random_bytes(4, seed);
    for (uint8_t x : r)
        cuts.push_back(len / unit == 0 ? 0 : x % (len / unit + 1) * unit);
    std::sort(cuts.begin(), cuts.end());
    return cuts;
}

// SP 800-38A 6.3 and 6.4 written out over one block encryption of the reference kernel.
// Returns the output and leaves the register in iv as OpenSSL's is left: after a partial
// last segment of CFB, the segment's ciphertext over the rest of E(register).
struct ByHand {
    kct::KeyedKernel ref;
    size_t bs;

    Bytes cfb(Bytes &iv, const Bytes &in, bool decrypt) const
    {
        Bytes out(in.size());
        for (size_t at = 0; at < in.size(); at += bs) {
            Bytes ks = ref.encrypt(iv);
            for (size_t j = 0; j < bs && at + j < in.size(); j++) {
                out[at + j] = in[at + j] ^ ks[j];
                ks[j] = decrypt ? in[at + j] : out[at + j];
            }
            iv = ks;
        }
        return out;
    }
    Bytes cfb8(Bytes &iv, const Bytes &in, bool decrypt) const
    {
        Bytes out(in.size());
        for (size_t i = 0; i < in.size(); i++) {
            out[i] = in[i] ^ ref.encrypt(iv)[0];
            iv.erase(iv.begin());
            iv.push_back(decrypt ? in[i] : out[i]);
        }
        return out;
    }
    Bytes ofb(Bytes &iv, const Bytes &in) const
    {
        Bytes out(in.size());
        for (size_t i = 0; i < in.size(); i++) {
            if (i % bs == 0)
                iv = ref.encrypt(iv);
            out[i] = in[i] ^ iv[i % bs];
        }
        return out;
    }
    Bytes run(Feedback m, bool enc, Bytes &iv, const Bytes &in) const
    {
        return m == Feedback::cfb ? cfb(iv, in, !enc) : m == Feedback::cfb8 ? cfb8(iv, in, !enc) : ofb(iv, in);
    }
};

class FeedbackVsComposition : public ::testing::TestWithParam<KernelCipher> {
  protected:
    void SetUp() override
    {
        if (!kc::kernel_runnable(*GetParam().kernel))
            GTEST_SKIP() << GetParam().kernel->name << " needs " << kc::feature_names(GetParam().kernel->requires)
                         << ", which this machine lacks";
        d = &kc::cipher_desc(GetParam().cipher);
    }
    const kc::CipherDesc *d = nullptr;
};

TEST_P(FeedbackVsComposition, BothDirectionsInPlaceAndUpdatedIv)
{
    const size_t bs = d->block_bytes;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        const Bytes key = kct::random_bytes(d->key_bytes, seed);
        kcipher::Cipher c(d->name, key, GetParam().kernel->name);
        const ByHand hand{kct::KeyedKernel(kc::reference_kernel(d->id), d->id, key), bs};
        for (Feedback m : all_modes)
            for (size_t len : lengths) {
                const Bytes iv = kct::random_bytes(bs, seed * 7919 + len);
                const Bytes pt = kct::random_bytes(len, seed * 104729 + len);
                SCOPED_TRACE(std::string(mode_name(m)) + ", " + std::to_string(len) + " bytes");
                Bytes hand_iv = iv, iv_enc = iv, iv_dec = iv, iv_inplace = iv;
                const Bytes ct = hand.run(m, true, hand_iv, pt);
                EXPECT_EQ(kct::tohex(ct), kct::tohex(run(c, m, true, iv_enc, pt)));
                EXPECT_EQ(kct::tohex(hand_iv), kct::tohex(iv_enc));
                EXPECT_EQ(kct::tohex(pt), kct::tohex(run(c, m, false, iv_dec, ct)));
                EXPECT_EQ(kct::tohex(hand_iv), kct::tohex(iv_dec)); // every mode feeds back ciphertext or keystream
                Bytes inplace = ct;
                run(c, m, false, iv_inplace, inplace.data(), inplace.data(), inplace.size());
                EXPECT_EQ(kct::tohex(pt), kct::tohex(inplace));
            }
    }
}

TEST_P(FeedbackVsComposition, PiecesEqualOneCall)
{
    const size_t bs = d->block_bytes;
    const Bytes key = kct::random_bytes(d->key_bytes, 3);
    kcipher::Cipher c(d->name, key, GetParam().kernel->name);
    for (Feedback m : all_modes)
        for (size_t len : {size_t(0), 5 * bs, 9 * bs + 3, size_t(333)}) {
            const Bytes iv = kct::random_bytes(bs, 11 + len), pt = kct::random_bytes(len, 13 + len);
            const std::vector<size_t> cuts = cuts_for(m, len, bs, 17 + len);
            SCOPED_TRACE(std::string(mode_name(m)) + ", " + std::to_string(len) + " bytes");
            Bytes v = iv;
            const Bytes ct = run(c, m, true, v, pt);
            EXPECT_EQ(kct::tohex(ct), kct::tohex(run_in_pieces(c, m, true, iv, pt, cuts)));
            EXPECT_EQ(kct::tohex(pt), kct::tohex(run_in_pieces(c, m, false, iv, ct, cuts)));
        }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, FeedbackVsComposition, ::testing::ValuesIn(kct::all_kernel_ciphers()),
                         [](const auto &info) { return kct::test_name(info.param); });

// CFB decryption is the one parallel direction: chunks on many threads, in place (where a
// chunk's predecessor block is overwritten by the thread before it), equal to one thread.
TEST(FeedbackThreads, CfbDecryptionOnManyThreadsEqualsOne)
{
    for (const char *name : {"aria-128", "lea-256", "hight", "cham-64-128"}) {
        SCOPED_TRACE(name);
        const kc::CipherDesc *d = kc::cipher_by_name(name);
        const Bytes key = kct::random_bytes(d->key_bytes, 5);
        kcipher::Cipher one(name, key), many(name, key);
        one.set_threads(1);
        many.set_threads(7);
        const size_t len = (3 << 20) + 123 * d->block_bytes + 5; // chunks of uneven size, a tail
        const Bytes iv = kct::random_bytes(d->block_bytes, 6), pt = kct::random_bytes(len, 7);
        Bytes v = iv;
        const Bytes ct = one.cfb_encrypt(iv, pt);
        const Bytes want = one.cfb_decrypt(iv, ct);
        ASSERT_EQ(pt, want);
        EXPECT_EQ(want, many.cfb_decrypt(iv, ct));
        Bytes inplace = ct;
        many.cfb_decrypt(v.data(), inplace.data(), inplace.data(), inplace.size());
        EXPECT_EQ(want, inplace);
        Bytes v1 = iv;
        one.cfb_decrypt(v1.data(), ct.data(), Bytes(len).data(), len);
        EXPECT_EQ(v1, v); // the same register after the call
    }
}

TEST(FeedbackErrors, ArgumentsAreChecked)
{
    const Bytes key(16, 1);
    kcipher_ctx *c = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_new(&c, "lea-128", key.data(), key.size(), nullptr));
    uint8_t iv[16] = {}, buf[64] = {};
    using Fn = kcipher_status (*)(const kcipher_ctx *, uint8_t *, size_t, const uint8_t *, uint8_t *, size_t);
    for (Fn f : {kcipher_cfb_encrypt, kcipher_cfb_decrypt, kcipher_cfb8_encrypt, kcipher_cfb8_decrypt,
                 kcipher_ofb_xor}) {
        EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, f(nullptr, iv, 16, buf, buf, 16));
        EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, f(c, nullptr, 16, buf, buf, 16));
        EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, f(c, iv, 16, nullptr, buf, 16));
        EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, f(c, iv, 16, buf, nullptr, 16));
        EXPECT_EQ(KCIPHER_OK, f(c, iv, 16, nullptr, nullptr, 0));
        EXPECT_EQ(KCIPHER_ERR_IV_LENGTH, f(c, iv, 8, buf, buf, 16));
        EXPECT_EQ(KCIPHER_ERR_IV_LENGTH, f(c, iv, 17, buf, buf, 16));
        EXPECT_EQ(KCIPHER_ERR_OVERLAP, f(c, iv, 16, buf, buf + 1, 32));
        EXPECT_EQ(KCIPHER_OK, f(c, iv, 16, buf, buf + 32, 32)); // adjacent, not overlapping
        EXPECT_EQ(KCIPHER_OK, f(c, iv, 16, buf, buf, 33));      // in place, any length
    }
    kcipher_free(c);

    // An XTS context serves XTS alone.
    const Bytes key32 = kct::random_bytes(32, 9);
    ASSERT_EQ(KCIPHER_OK, kcipher_new(&c, "lea-128-xts", key32.data(), key32.size(), nullptr));
    for (Fn f : {kcipher_cfb_encrypt, kcipher_cfb_decrypt, kcipher_cfb8_encrypt, kcipher_cfb8_decrypt,
                 kcipher_ofb_xor})
        EXPECT_EQ(KCIPHER_ERR_CONTEXT_MODE, f(c, iv, 16, buf, buf, 16));
    kcipher_free(c);

    // The wrapper's vector forms check the iv before they call.
    kcipher::Cipher h("hight", Bytes(16, 2));
    EXPECT_THROW(h.cfb_encrypt(Bytes(16), Bytes(8)), kcipher::Error);
    EXPECT_EQ(8u, h.ofb_xor(Bytes(8), Bytes(8)).size());
}

#ifdef KC_HAVE_OPENSSL

const EVP_CIPHER *evp_aria(Feedback m, int bits)
{
    switch (m) {
    case Feedback::cfb:
        return bits == 128 ? EVP_aria_128_cfb128() : bits == 192 ? EVP_aria_192_cfb128() : EVP_aria_256_cfb128();
    case Feedback::cfb8:
        return bits == 128 ? EVP_aria_128_cfb8() : bits == 192 ? EVP_aria_192_cfb8() : EVP_aria_256_cfb8();
    case Feedback::ofb:
        break;
    }
    return bits == 128 ? EVP_aria_128_ofb() : bits == 192 ? EVP_aria_192_ofb() : EVP_aria_256_ofb();
}

// OpenSSL's output in one EVP_CipherUpdate, and the IV it is left with (its register).
Bytes openssl(Feedback m, int bits, const Bytes &key, Bytes &iv, const Bytes &in, bool enc)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    Bytes out(in.size() + 16);
    int n = 0;
    EXPECT_EQ(1, EVP_CipherInit_ex(ctx, evp_aria(m, bits), nullptr, key.data(), iv.data(), enc ? 1 : 0));
    EXPECT_EQ(1, EVP_CipherUpdate(ctx, out.data(), &n, in.data(), (int)in.size()));
    EXPECT_EQ(1, EVP_CIPHER_CTX_get_updated_iv(ctx, iv.data(), iv.size()));
    EVP_CIPHER_CTX_free(ctx);
    out.resize((size_t)n);
    return out;
}

class FeedbackVsOpenssl : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override
    {
        if (!kc::kernel_runnable(*kc::find_kernel(GetParam())))
            GTEST_SKIP() << GetParam() << " cannot run on this machine";
    }
};

TEST_P(FeedbackVsOpenssl, RandomKeysIvsAndLengths)
{
    uint64_t seed = 1;
    for (int bits : {128, 192, 256}) {
        const std::string cipher = "aria-" + std::to_string(bits);
        for (int round = 0; round < 8; round++, seed++) {
            const Bytes key = kct::random_bytes(bits / 8, seed), iv = kct::random_bytes(16, seed + 100);
            const size_t len = round == 0 ? 0 : kct::random_bytes(2, seed + 200)[0] * 11 % 701 + round % 2;
            const Bytes pt = kct::random_bytes(len, seed + 300);
            kcipher::Cipher c(cipher, key, GetParam().c_str());
            for (Feedback m : all_modes) {
                SCOPED_TRACE(cipher + "-" + mode_name(m) + ", " + std::to_string(len) + " bytes");
                Bytes want_iv = iv, iv_enc = iv, iv_dec = iv, back_iv = iv;
                const Bytes ct = openssl(m, bits, key, want_iv, pt, true);
                EXPECT_EQ(kct::tohex(ct), kct::tohex(run(c, m, true, iv_enc, pt)));
                EXPECT_EQ(kct::tohex(want_iv), kct::tohex(iv_enc));
                EXPECT_EQ(kct::tohex(pt), kct::tohex(openssl(m, bits, key, back_iv, ct, false)));
                Bytes inplace = ct;
                run(c, m, false, iv_dec, inplace.data(), inplace.data(), inplace.size());
                EXPECT_EQ(kct::tohex(pt), kct::tohex(inplace));
                EXPECT_EQ(kct::tohex(back_iv), kct::tohex(iv_dec));
                const std::vector<size_t> cuts = cuts_for(m, len, 16, seed + 400);
                EXPECT_EQ(kct::tohex(ct), kct::tohex(run_in_pieces(c, m, true, iv, pt, cuts)));
                EXPECT_EQ(kct::tohex(pt), kct::tohex(run_in_pieces(c, m, false, iv, ct, cuts)));
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Aria, FeedbackVsOpenssl, ::testing::ValuesIn(kct::family_kernel_names("aria")),
                         kct::param_name);

#endif // KC_HAVE_OPENSSL

} // namespace
