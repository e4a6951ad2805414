// GCM, GMAC, CCM and CMAC (modes/aead.hpp through the C API, kcipher.h):
// - OpenSSL's ARIA GCM and CCM vectors (RFC 8269, draft-ietf-avtcore-aria-srtp) on every ARIA
//   kernel this machine runs;
// - the same mode code over an AES (and, for CMAC's 64-bit path, a TDES) block adapter
//   against OpenSSL's AES-GCM, AES-CCM and CMAC on random keys, IV, AAD, tag and text lengths:
//   the modes are right independently of our ciphers;
// - ARIA against OpenSSL's EVP ARIA-GCM/CCM and CMAC on every kernel; every other 128-bit
//   cipher's kernels against its reference kernel;
// - every single-bit flip of ciphertext, tag, AAD or IV is rejected, and the output zeroed;
// - streaming in random pieces equals one-shot; the limits and argument errors.
// The large grids run whole natively and as a seeded sample under emulation and sanitizers
// (support/sample.hpp: KCIPHER_TEST_SAMPLE).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/key_state.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"
#include "modes/aead.hpp"
#include "support/evp_block.hpp"
#include "support/kernels.hpp"
#include "support/openssl_aead.hpp"
#include "support/sample.hpp"
#include "support/vectors.hpp"

#ifdef KC_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

namespace {

using Bytes = std::vector<uint8_t>;
using kct::unhex;
#ifdef KC_HAVE_OPENSSL
using kct::evp_aead;
using kct::evp_cmac;
using kct::evp_kernel;
using kct::init_evp;
#endif

struct Ctx {
    kcipher_ctx *c = nullptr;
    Ctx(const std::string &cipher, const Bytes &key, const char *kernel = nullptr)
    {
        EXPECT_EQ(KCIPHER_OK, kcipher_new(&c, cipher.c_str(), key.data(), key.size(), kernel)) << cipher;
    }
    ~Ctx() { kcipher_free(c); }
};

Bytes seal(const kcipher_ctx *c, kcipher_mode m, const Bytes &iv, const Bytes &aad, const Bytes &pt, size_t tag_len)
{
    Bytes out(pt.size() + tag_len);
    EXPECT_EQ(KCIPHER_OK, kcipher_aead_seal(c, m, iv.data(), iv.size(), aad.data(), aad.size(), pt.data(), pt.size(),
                                            out.data(), tag_len));
    return out;
}

kcipher_status open(const kcipher_ctx *c, kcipher_mode m, const Bytes &iv, const Bytes &aad, const Bytes &in,
                    size_t tag_len, Bytes *pt)
{
    pt->assign(in.size() >= tag_len ? in.size() - tag_len : 0, 0xee);
    return kcipher_aead_open(c, m, iv.data(), iv.size(), aad.data(), aad.size(), in.data(), in.size(), pt->data(),
                             tag_len);
}

Bytes concat(Bytes a, const Bytes &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::vector<std::string> runnable_kernels(const std::string &family)
{
    std::vector<std::string> v;
    for (const std::string &k : kct::family_kernel_names(family))
        if (kc::kernel_runnable(*kc::find_kernel(k)))
            v.push_back(k);
    return v;
}

TEST(AeadVectors, OpensslAriaGcmAndCcmOnEveryAriaKernel)
{
    kct::Sample sample("AeadVectors");
    for (const std::string &kernel : runnable_kernels("aria")) {
        int n = 0;
        for (const kct::Record &r : kct::load_openssl_evp("openssl_evpciph_aria.txt")) {
            if (!r.has("tag"))
                continue;
            n++;
            if (!sample.keep())
                continue;
            const std::string name = r.at("cipher"); // ARIA-128-GCM
            const kcipher_mode m = name.substr(9) == "GCM" ? KCIPHER_MODE_GCM : KCIPHER_MODE_CCM;
            const Bytes key = unhex(r.at("key")), iv = unhex(r.at("iv")), aad = unhex(r.at("aad")),
                        tag = unhex(r.at("tag")), pt = unhex(r.at("plaintext")), ct = unhex(r.at("ciphertext"));
            Ctx c("aria-" + name.substr(5, 3), key, kernel.c_str());
            const Bytes sealed = concat(ct, tag);
            EXPECT_EQ(sealed, seal(c.c, m, iv, aad, pt, tag.size())) << kernel << " line " << r.line;
            Bytes back;
            EXPECT_EQ(KCIPHER_OK, open(c.c, m, iv, aad, sealed, tag.size(), &back)) << kernel << " line " << r.line;
            EXPECT_EQ(pt, back);
        }
        EXPECT_EQ(12, n) << kernel; // 5 GCM, 7 CCM
    }
}

// Every bit of ciphertext, tag, AAD and IV matters: each single flip is refused and the
// output buffer comes back zeroed.
TEST(AeadRejects, EverySingleBitFlip)
{
    const Bytes key = kct::random_bytes(16, 1), pt = kct::random_bytes(21, 2), aad = kct::random_bytes(7, 3);
    Ctx c("lea-128", key);
    kct::Sample sample("AeadRejects");
    for (kcipher_mode m : {KCIPHER_MODE_GCM, KCIPHER_MODE_CCM}) {
        const Bytes iv = kct::random_bytes(12, 4);
        const Bytes sealed = seal(c.c, m, iv, aad, pt, 16);
        Bytes out;
        ASSERT_EQ(KCIPHER_OK, open(c.c, m, iv, aad, sealed, 16, &out));
        auto refused = [&](const Bytes &i, const Bytes &a, const Bytes &s) {
            if (!sample.keep())
                return true;
            kcipher_status st = open(c.c, m, i, a, s, 16, &out);
            return st == KCIPHER_ERR_AUTH && out == Bytes(out.size(), 0);
        };
        for (size_t bit = 0; bit < 8 * sealed.size(); bit++) {
            Bytes s = sealed;
            s[bit / 8] ^= (uint8_t)(1 << (bit % 8));
            EXPECT_TRUE(refused(iv, aad, s)) << "mode " << m << " sealed bit " << bit;
        }
        for (size_t bit = 0; bit < 8 * aad.size(); bit++) {
            Bytes a = aad;
            a[bit / 8] ^= (uint8_t)(1 << (bit % 8));
            EXPECT_TRUE(refused(iv, a, sealed)) << "mode " << m << " aad bit " << bit;
        }
        for (size_t bit = 0; bit < 8 * iv.size(); bit++) {
            Bytes i = iv;
            i[bit / 8] ^= (uint8_t)(1 << (bit % 8));
            EXPECT_TRUE(refused(i, aad, sealed)) << "mode " << m << " iv bit " << bit;
        }
    }
}

// Streaming in random pieces (AAD and text) gives the one-shot bytes; opening the same way
// verifies, and a wrong tag fails final_verify.
TEST(AeadStreaming, RandomPiecesEqualOneShot)
{
    std::mt19937_64 rng(7);
    const Bytes key = kct::random_bytes(32, 5);
    Ctx c("aria-256", key);
    kct::Sample sample("AeadStreaming");
    for (int round = 0; round < 60; round++) {
        if (!sample.keep())
            continue;
        const kcipher_mode m = round % 2 ? KCIPHER_MODE_GCM : KCIPHER_MODE_CCM;
        const Bytes iv = kct::random_bytes(m == KCIPHER_MODE_CCM ? 7 + round % 7 : 1 + round % 40, round);
        const Bytes aad = kct::random_bytes(rng() % 70, round + 100), pt = kct::random_bytes(rng() % 3000, round + 200);
        const size_t tag_len = m == KCIPHER_MODE_CCM ? 4 + 2 * (round % 7) : 12 + round % 5;
        const Bytes sealed = seal(c.c, m, iv, aad, pt, tag_len);
        for (int dir = 0; dir < 2; dir++) {
            kcipher_aead *a = nullptr;
            ASSERT_EQ(KCIPHER_OK, kcipher_aead_init(&a, c.c, m, dir == 0, iv.data(), iv.size(), tag_len, aad.size(), pt.size()));
            for (size_t done = 0; done < aad.size();) {
                size_t n = std::min<size_t>(aad.size() - done, rng() % 20);
                ASSERT_EQ(KCIPHER_OK, kcipher_aead_aad(a, aad.data() + done, n));
                done += n;
            }
            const Bytes &in = dir == 0 ? pt : sealed;
            Bytes out(pt.size());
            for (size_t done = 0; done < pt.size();) {
                size_t n = std::min<size_t>(pt.size() - done, rng() % 100);
                ASSERT_EQ(KCIPHER_OK, kcipher_aead_update(a, in.data() + done, out.data() + done, n));
                done += n;
            }
            if (dir == 0) {
                Bytes tag(tag_len);
                ASSERT_EQ(KCIPHER_OK, kcipher_aead_final(a, tag.data(), tag_len));
                EXPECT_EQ(sealed, concat(out, tag)) << "round " << round;
            } else {
                EXPECT_EQ(pt, out) << "round " << round;
                Bytes bad(sealed.end() - tag_len, sealed.end());
                bad[0] ^= 1;
                EXPECT_EQ(KCIPHER_ERR_AUTH, kcipher_aead_final_verify(a, bad.data(), tag_len));
                EXPECT_EQ(KCIPHER_ERR_STATE, kcipher_aead_final_verify(a, sealed.data() + pt.size(), tag_len));
            }
            kcipher_aead_free(a);
        }
    }
}

TEST(AeadStreaming, OrderAndLengthsAreEnforced)
{
    const Bytes key(16, 1), iv(12, 2), x(40, 3);
    Ctx c("lea-128", key);
    Bytes out(40), tag(16);
    kcipher_aead *a = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_init(&a, c.c, KCIPHER_MODE_GCM, 1, iv.data(), 12, 16, 0, 0));
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_update(a, x.data(), out.data(), 5));
    EXPECT_EQ(KCIPHER_ERR_STATE, kcipher_aead_aad(a, x.data(), 1)); // AAD after data
    EXPECT_EQ(KCIPHER_ERR_STATE, kcipher_aead_final_verify(a, tag.data(), 16)); // a sealing stream
    EXPECT_EQ(KCIPHER_ERR_TAG_LENGTH, kcipher_aead_final(a, tag.data(), 12));
    EXPECT_EQ(KCIPHER_OK, kcipher_aead_final(a, tag.data(), 16));
    EXPECT_EQ(KCIPHER_ERR_STATE, kcipher_aead_update(a, x.data(), out.data(), 1));
    EXPECT_EQ(KCIPHER_ERR_STATE, kcipher_aead_final(a, tag.data(), 16));
    kcipher_aead_free(a);
    // CCM: exactly the declared lengths, AAD first.
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_init(&a, c.c, KCIPHER_MODE_CCM, 1, iv.data(), 12, 8, 3, 10));
    EXPECT_EQ(KCIPHER_ERR_STATE, kcipher_aead_update(a, x.data(), out.data(), 1)); // AAD not all given
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, kcipher_aead_aad(a, x.data(), 4));
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_aad(a, x.data(), 3));
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, kcipher_aead_update(a, x.data(), out.data(), 11));
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_update(a, x.data(), out.data(), 9));
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, kcipher_aead_final(a, tag.data(), 8));
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_update(a, x.data() + 9, out.data() + 9, 1));
    EXPECT_EQ(KCIPHER_OK, kcipher_aead_final(a, tag.data(), 8));
    kcipher_aead_free(a);
    kcipher_aead_free(nullptr);
}

// GCM opening may leave the tag's length to final_verify (OpenSSL's EVP sets the tag late);
// sealing and CCM may not, and the length given at the end must still be a GCM one.
TEST(AeadStreaming, GcmOpeningTakesTheTagLengthAtTheEnd)
{
    const Bytes key(16, 1), iv(12, 2), x(40, 3);
    Ctx c("aria-128", key);
    Bytes sealed(40 + 16), out(40);
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_seal(c.c, KCIPHER_MODE_GCM, iv.data(), 12, nullptr, 0, x.data(), 40,
                                            sealed.data(), 16));
    kcipher_aead *a = nullptr;
    EXPECT_EQ(KCIPHER_ERR_TAG_LENGTH, kcipher_aead_init(&a, c.c, KCIPHER_MODE_GCM, 1, iv.data(), 12, 0, 0, 0));
    EXPECT_EQ(KCIPHER_ERR_TAG_LENGTH, kcipher_aead_init(&a, c.c, KCIPHER_MODE_CCM, 0, iv.data(), 12, 0, 0, 40));
    for (size_t t : {4, 8, 12, 13, 16}) {
        ASSERT_EQ(KCIPHER_OK, kcipher_aead_init(&a, c.c, KCIPHER_MODE_GCM, 0, iv.data(), 12, 0, 0, 0));
        ASSERT_EQ(KCIPHER_OK, kcipher_aead_update(a, sealed.data(), out.data(), 40));
        EXPECT_EQ(KCIPHER_ERR_TAG_LENGTH, kcipher_aead_final_verify(a, sealed.data() + 40, 7));
        EXPECT_EQ(KCIPHER_OK, kcipher_aead_final_verify(a, sealed.data() + 40, t)) << t; // a prefix of the tag
        kcipher_aead_free(a);
        EXPECT_EQ(out, x);
    }
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_init(&a, c.c, KCIPHER_MODE_GCM, 0, iv.data(), 12, 0, 0, 0));
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_update(a, sealed.data(), out.data(), 40));
    sealed[45] ^= 1;
    EXPECT_EQ(KCIPHER_ERR_AUTH, kcipher_aead_final_verify(a, sealed.data() + 40, 12));
    kcipher_aead_free(a);
}

// A copy taken mid-stream finishes as the original does, on its own context with the same key
// (made apart, the original context gone by then); a context with another key is refused.
TEST(AeadStreaming, ACopyContinuesOnAContextWithTheSameKey)
{
    const Bytes key(16, 1), other(16, 2), iv(12, 2), aad(37, 4), x(1000, 3);
    for (kcipher_mode mode : {KCIPHER_MODE_GCM, KCIPHER_MODE_CCM}) {
        for (size_t cut : {0, 5, 16, 333}) {
            auto *c = new Ctx("lea-128", key);
            Ctx again("lea-128", key), wrong("lea-128", other);
            Bytes want(1000), got(1000), tag_a(16), tag_b(16);
            kcipher_aead *a = nullptr, *b = nullptr;
            ASSERT_EQ(KCIPHER_OK, kcipher_aead_init(&a, c->c, mode, 1, iv.data(), 12, 16, aad.size(), x.size()));
            ASSERT_EQ(KCIPHER_OK, kcipher_aead_aad(a, aad.data(), aad.size()));
            ASSERT_EQ(KCIPHER_OK, kcipher_aead_update(a, x.data(), want.data(), cut));
            EXPECT_EQ(KCIPHER_ERR_INVALID_ARGUMENT, kcipher_aead_dup(&b, a, wrong.c));
            EXPECT_EQ(b, nullptr);
            ASSERT_EQ(KCIPHER_OK, kcipher_aead_dup(&b, a, again.c));
            got = want;
            ASSERT_EQ(KCIPHER_OK, kcipher_aead_update(a, x.data() + cut, want.data() + cut, x.size() - cut));
            ASSERT_EQ(KCIPHER_OK, kcipher_aead_final(a, tag_a.data(), 16));
            kcipher_aead_free(a);
            delete c; // the copy no longer needs the original's context
            ASSERT_EQ(KCIPHER_OK, kcipher_aead_update(b, x.data() + cut, got.data() + cut, x.size() - cut));
            ASSERT_EQ(KCIPHER_OK, kcipher_aead_final(b, tag_b.data(), 16));
            kcipher_aead_free(b);
            EXPECT_EQ(got, want) << mode << " " << cut;
            EXPECT_EQ(tag_b, tag_a) << mode << " " << cut;
        }
    }
}

TEST(AeadErrors, ArgumentsAndLimitsAreRefusedBeforeAnyOutput)
{
    const Bytes key(16, 1), iv(12, 2);
    Ctx c("aria-128", key), h("hight", key);
    uint8_t in[64] = {}, out[80];
    std::memset(out, 0x5a, sizeof out);
    auto s = [&](const kcipher_ctx *x, kcipher_mode m, size_t iv_len, size_t len, size_t tag_len) {
        return kcipher_aead_seal(x, m, iv.data(), iv_len, nullptr, 0, in, len, out, tag_len);
    };
    for (size_t t : {0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 17})
        EXPECT_EQ(KCIPHER_ERR_TAG_LENGTH, s(c.c, KCIPHER_MODE_GCM, 12, 16, t)) << t;
    for (size_t t : {0, 2, 3, 5, 15, 18})
        EXPECT_EQ(KCIPHER_ERR_TAG_LENGTH, s(c.c, KCIPHER_MODE_CCM, 12, 16, t)) << t;
    EXPECT_EQ(KCIPHER_ERR_IV_LENGTH, s(c.c, KCIPHER_MODE_GCM, 0, 16, 16));
    for (size_t n : {0, 6, 14})
        EXPECT_EQ(KCIPHER_ERR_IV_LENGTH, s(c.c, KCIPHER_MODE_CCM, n, 16, 16)) << n;
    EXPECT_EQ(KCIPHER_ERR_UNSUPPORTED, s(h.c, KCIPHER_MODE_GCM, 12, 16, 16));
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_MODE, s(c.c, KCIPHER_MODE_CTR, 12, 16, 16));
    // Beyond the standards' limits, refused before a byte is read or written (the buffers
    // are far too small for these lengths).
    EXPECT_EQ(KCIPHER_ERR_MODE_LIMIT, s(c.c, KCIPHER_MODE_GCM, 12, ((size_t)1 << 36) - 31, 16));
    EXPECT_EQ(KCIPHER_ERR_MODE_LIMIT, s(c.c, KCIPHER_MODE_CCM, 13, 65536, 16)); // q = 2
    EXPECT_EQ(KCIPHER_ERR_MODE_LIMIT, s(c.c, KCIPHER_MODE_CCM, 12, (size_t)1 << 24, 16)); // q = 3
    EXPECT_EQ(KCIPHER_ERR_NULL_POINTER, kcipher_aead_seal(c.c, KCIPHER_MODE_GCM, iv.data(), 12, nullptr, 3, in, 16, out, 16));
    EXPECT_EQ(KCIPHER_ERR_OVERLAP, kcipher_aead_seal(c.c, KCIPHER_MODE_GCM, iv.data(), 12, nullptr, 0, out + 1, 16, out, 16));
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, kcipher_aead_open(c.c, KCIPHER_MODE_GCM, iv.data(), 12, nullptr, 0, in, 15, out, 16));
    for (uint8_t b : out)
        ASSERT_EQ(0x5a, b);
    // In place works for both directions.
    Bytes buf = kct::random_bytes(48, 9), pt = buf;
    buf.resize(64);
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_seal(c.c, KCIPHER_MODE_GCM, iv.data(), 12, nullptr, 0, buf.data(), 48, buf.data(), 16));
    ASSERT_EQ(KCIPHER_OK, kcipher_aead_open(c.c, KCIPHER_MODE_GCM, iv.data(), 12, nullptr, 0, buf.data(), 64, buf.data(), 16));
    EXPECT_EQ(pt, Bytes(buf.begin(), buf.begin() + 48));
}

// Every kernel of every 128-bit cipher seals as its reference kernel does (GCM with IVs of
// 1..64 bytes, CCM, GMAC, CMAC), over lengths that cross blocks and GCM's 16 KiB slices.
TEST(AeadKernels, EveryKernelEqualsItsReference)
{
    const size_t lengths[] = {0, 1, 15, 16, 17, 255, 4096 + 3, 16384, 16384 + 17, 40000};
    kct::Sample sample("AeadKernels");
    for (const kct::KernelCipher &kc : kct::all_kernel_ciphers()) {
        const kc::CipherDesc &d = kc::cipher_desc(kc.cipher);
        if (!kc::kernel_runnable(*kc.kernel) || kc.kernel->gpu != nullptr)
            continue;
        const Bytes key = kct::random_bytes(d.key_bytes, (uint64_t)d.id);
        Ctx fast(d.name, key, kc.kernel->name), ref(d.name, key, kc::reference_kernel(kc.cipher)->name);
        int round = 0;
        for (size_t len : lengths) {
            round++;
            if (!sample.keep())
                continue;
            const Bytes pt = kct::random_bytes(len, round), aad = kct::random_bytes(round * 5 % 37, round + 50);
            Bytes t1(16), t2(16);
            const size_t bs = d.block_bytes;
            ASSERT_EQ(KCIPHER_OK, kcipher_mac(fast.c, KCIPHER_MODE_CMAC, nullptr, 0, pt.data(), len, t1.data(), bs));
            ASSERT_EQ(KCIPHER_OK, kcipher_mac(ref.c, KCIPHER_MODE_CMAC, nullptr, 0, pt.data(), len, t2.data(), bs));
            EXPECT_EQ(t1, t2) << kc.kernel->name << " " << d.name << " CMAC " << len;
            if (bs != 16)
                continue;
            const Bytes iv = kct::random_bytes(1 + (round * 7) % 64, round + 9);
            EXPECT_EQ(seal(ref.c, KCIPHER_MODE_GCM, iv, aad, pt, 16), seal(fast.c, KCIPHER_MODE_GCM, iv, aad, pt, 16))
                << kc.kernel->name << " " << d.name << " GCM " << len;
            const Bytes nonce(iv.begin(), iv.begin() + std::min<size_t>(iv.size(), 7));
            if (nonce.size() == 7)
                EXPECT_EQ(seal(ref.c, KCIPHER_MODE_CCM, nonce, aad, pt, 10), seal(fast.c, KCIPHER_MODE_CCM, nonce, aad, pt, 10))
                    << kc.kernel->name << " " << d.name << " CCM " << len;
            ASSERT_EQ(KCIPHER_OK, kcipher_mac(fast.c, KCIPHER_MODE_GMAC, iv.data(), iv.size(), pt.data(), len, t1.data(), 16));
            ASSERT_EQ(KCIPHER_OK, kcipher_mac(ref.c, KCIPHER_MODE_GMAC, iv.data(), iv.size(), pt.data(), len, t2.data(), 16));
            EXPECT_EQ(t1, t2) << kc.kernel->name << " " << d.name << " GMAC " << len;
            EXPECT_EQ(KCIPHER_OK, kcipher_mac_verify(ref.c, KCIPHER_MODE_GMAC, iv.data(), iv.size(), pt.data(), len, t1.data(), 16));
            t1[15] ^= 0x80;
            EXPECT_EQ(KCIPHER_ERR_AUTH, kcipher_mac_verify(ref.c, KCIPHER_MODE_GMAC, iv.data(), iv.size(), pt.data(), len, t1.data(), 16));
        }
    }
}

// Every GHASH implementation this machine runs gives the portable one's result.
TEST(Ghash, EveryImplementationEqualsThePortableOne)
{
    const Bytes h = kct::random_bytes(16, 11), data = kct::random_bytes(16 * 37, 12);
    kc::GhashKey ref_key;
    kc::ghash_portable_kernel.init(ref_key, h.data());
    for (const kc::GhashKernel *g : kc::all_ghash_kernels()) {
        if (!kc::runnable(g->requires)) {
            std::printf("[ SKIPPED  ] %s: this machine lacks its features\n", g->name);
            continue;
        }
        kc::GhashKey key;
        g->init(key, h.data());
        for (size_t n : {0, 1, 3, 4, 5, 8, 37}) {
            uint8_t y1[16], y2[16];
            std::memcpy(y1, data.data() + 100, 16);
            std::memcpy(y2, y1, 16);
            g->update(key, y1, data.data(), n);
            kc::ghash_portable_kernel.update(ref_key, y2, data.data(), n);
            EXPECT_EQ(0, std::memcmp(y1, y2, 16)) << g->name << " " << n << " blocks";
        }
    }
}

// The same over every length up to three of the widest runs (32 blocks) and past them, from a
// nonzero start: whole runs, the shorter last run, its whole vectors and single blocks.
TEST(Ghash, EveryImplementationEqualsThePortableOneOnEveryLength)
{
    const Bytes h = kct::random_bytes(16, 13), data = kct::random_bytes(16 * 200, 14);
    kc::GhashKey ref_key;
    kc::ghash_portable_kernel.init(ref_key, h.data());
    for (const kc::GhashKernel *g : kc::all_ghash_kernels()) {
        if (!kc::runnable(g->requires))
            continue;
        kc::GhashKey key;
        g->init(key, h.data());
        for (size_t n = 0; n <= 200; n += n < 100 ? 1 : 7) {
            uint8_t y1[16], y2[16];
            std::memcpy(y1, data.data() + 16 * (n % 7), 16);
            std::memcpy(y2, y1, 16);
            g->update(key, y1, data.data(), n);
            kc::ghash_portable_kernel.update(ref_key, y2, data.data(), n);
            EXPECT_EQ(0, std::memcmp(y1, y2, 16)) << g->name << " " << n << " blocks";
        }
    }
}

#ifdef KC_HAVE_OPENSSL

// Our GCM, CCM and CMAC code over AES-128 equals OpenSSL's AES-GCM, AES-CCM and CMAC, with
// every GHASH implementation, every GCM tag length, IVs of 1..64 bytes, and lengths across
// block and slice boundaries.
TEST(AeadModesOverAes, EqualOpenssl)
{
    kct::EvpBlock::cipher() = EVP_aes_128_ecb();
    const size_t gcm_tags[] = {16, 15, 14, 13, 12, 8, 4};
    const size_t lengths[] = {0, 1, 15, 16, 17, 31, 33, 64, 100, 1000, 16383, 16385, 33000};
    kct::Sample sample("AeadModesOverAes");
    for (const kc::GhashKernel *g : kc::all_ghash_kernels()) {
        if (!kc::runnable(g->requires))
            continue;
        for (int round = 0; round < 39; round++) {
            if (!sample.keep())
                continue;
            const size_t len = lengths[round % 13];
            Bytes key = kct::random_bytes(32, round);
            key.resize(16);
            const Bytes iv = kct::random_bytes(1 + (round * 5) % 64, round + 1000);
            const Bytes aad = kct::random_bytes((round * 13) % 50, round + 2000), pt = kct::random_bytes(len, round + 3000);
            kc::KeyState ks;
            ASSERT_TRUE(init_evp(ks, evp_kernel, key));
            const kc::Keyed k{&evp_kernel, ks.get(), 16, 1};
            const size_t tag_len = gcm_tags[round % 7];
            // GCM
            Bytes ct(len);
            uint8_t tag[16];
            kc::GcmKey gk;
            kc::gcm_key_init(gk, k, *g);
            kc::Gcm gcm;
            gcm.start(k, gk, iv.data(), iv.size());
            gcm.aad(aad.data(), aad.size());
            gcm.encrypt(pt.data(), ct.data(), len);
            gcm.tag(tag);
            Bytes mine = concat(ct, Bytes(tag, tag + tag_len));
            EXPECT_EQ(evp_aead("AES-128-GCM", true, key, iv, aad, pt, tag_len), mine)
                << g->name << " round " << round << " iv " << iv.size() << " len " << len;
            // CCM: nonce 7..13, tag 4..16 even
            const Bytes nonce = kct::random_bytes(7 + round % 7, round + 4000);
            {
                const size_t t = 4 + 2 * (round % 7);
                kc::Ccm ccm;
                ccm.start(k, k, nonce.data(), nonce.size(), aad.size(), len, t);
                ccm.aad(aad.data(), aad.size());
                ccm.encrypt(pt.data(), ct.data(), len);
                ccm.tag(tag);
                EXPECT_EQ(evp_aead("AES-128-CCM", false, key, nonce, aad, pt, t), concat(ct, Bytes(tag, tag + t)))
                    << "CCM round " << round << " nonce " << nonce.size() << " len " << len;
            }
            // CMAC
            kc::Cmac cmac;
            cmac.start(k);
            cmac.update(pt.data(), len);
            cmac.tag(tag);
            EXPECT_EQ(evp_cmac("AES-128-CBC", key, pt), Bytes(tag, tag + 16)) << "CMAC len " << len;
        }
    }
}

// CMAC's 64-bit-block path (the subkeys' R_64 = 0x1b) against OpenSSL's CMAC over TDES.
TEST(AeadModesOverAes, Cmac64EqualsOpensslOverTdes)
{
    kct::EvpBlock::cipher() = EVP_des_ede3_ecb();
    static const kc::Kernel tdes = {"test/evp-tdes", "test", 8, 1, false, 0, 0, 32, nullptr,
                                    kct::EvpBlock::set_key, kct::EvpBlock::enc, kct::EvpBlock::dec, kct::EvpBlock::ctr};
    Bytes key = kct::random_bytes(32, 77);
    key.resize(24);
    kc::KeyState ks;
    ASSERT_TRUE(init_evp(ks, tdes, key));
    for (size_t len : {0, 1, 7, 8, 9, 16, 23, 100}) {
        const Bytes pt = kct::random_bytes(len, len + 1);
        kc::Cmac cmac;
        cmac.start({&tdes, ks.get(), 8, 1});
        cmac.update(pt.data(), len);
        uint8_t tag[16];
        cmac.tag(tag);
        EXPECT_EQ(evp_cmac("DES-EDE3-CBC", key, pt), Bytes(tag, tag + 8)) << len;
    }
}

// GCM's inc32: the counter's last word wraps without carrying into the IV part (reachable
// with IVs that are not 12 bytes long).
TEST(AeadModesOverAes, GcmCounterWrapsInItsLastWord)
{
    kct::EvpBlock::cipher() = EVP_aes_128_ecb();
    const Bytes key(16, 3);
    kc::KeyState ks;
    ASSERT_TRUE(init_evp(ks, evp_kernel, key));
    const kc::Keyed k{&evp_kernel, ks.get(), 16, 1};
    uint8_t start[16];
    std::memset(start, 0x77, 12);
    for (int i = 12; i < 16; i++)
        start[i] = 0xff;
    start[15] = 0xfe;
    kc::CtrStream s;
    s.start(k, start, true);
    Bytes zero(64 + 5, 0), ks_out(64 + 5);
    s.xor_bytes(zero.data(), ks_out.data(), 7); // in pieces, across the wrap
    s.xor_bytes(zero.data() + 7, ks_out.data() + 7, 62);
    Bytes want;
    for (uint32_t low : {0xfffffffeu, 0xffffffffu, 0u, 1u, 2u}) {
        Bytes cb(start, start + 12);
        for (int sh = 24; sh >= 0; sh -= 8)
            cb.push_back((uint8_t)(low >> sh));
        Bytes e(16);
        kct::EvpBlock::enc(ks.get(), cb.data(), e.data(), 1);
        want.insert(want.end(), e.begin(), e.end());
    }
    want.resize(69);
    EXPECT_EQ(want, ks_out);
}

// ARIA's GCM, CCM and CMAC on every ARIA kernel against OpenSSL's EVP ARIA on random inputs.
TEST(AeadAriaVsOpenssl, EveryKernelRandomInputs)
{
    if (EVP_get_cipherbyname("ARIA-128-GCM") == nullptr)
        GTEST_SKIP() << "this OpenSSL has no ARIA-GCM";
    kct::Sample sample("AeadAriaVsOpenssl");
    for (const std::string &kernel : runnable_kernels("aria")) {
        for (int round = 0; round < 24; round++) {
            if (!sample.keep())
                continue;
            const int bits = 128 + 64 * (round % 3);
            const std::string cipher = "aria-" + std::to_string(bits), up = "ARIA-" + std::to_string(bits);
            const Bytes key = kct::random_bytes(bits / 8, round + 40);
            const Bytes iv = kct::random_bytes(1 + round * 3 % 64, round), aad = kct::random_bytes(round % 33, round + 1);
            const Bytes pt = kct::random_bytes((size_t)round * 97 % 2000, round + 2);
            Ctx c(cipher, key, kernel.c_str());
            const size_t t = 4 + 4 * (round % 4);
            EXPECT_EQ(evp_aead((up + "-GCM").c_str(), true, key, iv, aad, pt, t), seal(c.c, KCIPHER_MODE_GCM, iv, aad, pt, t))
                << kernel << " round " << round;
            const Bytes nonce(12, (uint8_t)round);
            EXPECT_EQ(evp_aead((up + "-CCM").c_str(), false, key, nonce, aad, pt, t), seal(c.c, KCIPHER_MODE_CCM, nonce, aad, pt, t))
                << kernel << " round " << round;
            Bytes tag(16);
            ASSERT_EQ(KCIPHER_OK, kcipher_mac(c.c, KCIPHER_MODE_CMAC, nullptr, 0, pt.data(), pt.size(), tag.data(), 16));
            EXPECT_EQ(evp_cmac((up + "-CBC").c_str(), key, pt), tag) << kernel << " round " << round;
        }
    }
}

#endif // KC_HAVE_OPENSSL

} // namespace
