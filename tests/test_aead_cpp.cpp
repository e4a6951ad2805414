// The C++ wrapper of GCM, CCM, CMAC and GMAC (kcipher.hpp): Cipher::seal/open and mac/
// mac_verify against the C API, AuthenticationError (an Error with KCIPHER_ERR_AUTH) on a bad
// tag with the output zeroed, the streaming Aead and Mac classes equal to one-shot, and misuse
// surfacing as Error with the library's status.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kcipher/kcipher.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<uint8_t>;

Bytes c_seal(const kcipher::Cipher &c, kcipher_mode m, const Bytes &iv, const Bytes &aad, const Bytes &pt, size_t t)
{
    Bytes out(pt.size() + t);
    EXPECT_EQ(KCIPHER_OK, kcipher_aead_seal(c.get(), m, iv.data(), iv.size(), aad.data(), aad.size(), pt.data(),
                                            pt.size(), out.data(), t));
    return out;
}

TEST(AeadCpp, SealOpenRoundTripEqualsTheCApi)
{
    const Bytes key = kct::random_bytes(16, 1), aad = kct::random_bytes(13, 2);
    kcipher::Cipher c("aria-128", key);
    for (kcipher_mode m : {KCIPHER_MODE_GCM, KCIPHER_MODE_CCM})
        for (size_t len : {0, 1, 16, 100, 4099}) {
            const Bytes iv = kct::random_bytes(m == KCIPHER_MODE_GCM ? 12 : 11, len), pt = kct::random_bytes(len, 3);
            for (size_t t : {16, 12, 8, 4}) {
                const Bytes sealed = c.seal(m, iv, pt, aad, t);
                EXPECT_EQ(c_seal(c, m, iv, aad, pt, t), sealed) << m << " " << len << " " << t;
                EXPECT_EQ(pt, c.open(m, iv, sealed, aad, t));
            }
        }
}

TEST(AeadCpp, PointerFormsInPlace)
{
    kcipher::Cipher c("lea-256", kct::random_bytes(32, 4));
    const Bytes iv = kct::random_bytes(12, 5), pt = kct::random_bytes(77, 6), aad = kct::random_bytes(5, 7);
    Bytes buf = pt;
    buf.resize(pt.size() + 16);
    c.seal(KCIPHER_MODE_GCM, iv.data(), iv.size(), aad.data(), aad.size(), buf.data(), pt.size(), buf.data());
    EXPECT_EQ(c.seal(KCIPHER_MODE_GCM, iv, pt, aad), buf);
    c.open(KCIPHER_MODE_GCM, iv.data(), iv.size(), aad.data(), aad.size(), buf.data(), buf.size(), buf.data());
    EXPECT_EQ(pt, Bytes(buf.begin(), buf.begin() + (long)pt.size()));
}

TEST(AeadCpp, BadTagThrowsAuthenticationErrorAndZeroesTheOutput)
{
    kcipher::Cipher c("cham-128-128", kct::random_bytes(16, 8));
    const Bytes iv = kct::random_bytes(12, 9), pt = kct::random_bytes(40, 10);
    for (kcipher_mode m : {KCIPHER_MODE_GCM, KCIPHER_MODE_CCM}) {
        Bytes sealed = c.seal(m, iv, pt, {});
        sealed[sealed.size() - 1] ^= 1;
        EXPECT_THROW(c.open(m, iv, sealed), kcipher::AuthenticationError);
        try {
            c.open(m, iv, sealed);
            FAIL() << "no exception";
        } catch (const kcipher::Error &e) { // an Error too, with the library's status and message
            EXPECT_EQ(KCIPHER_ERR_AUTH, e.status());
            EXPECT_STREQ(kcipher_strerror(KCIPHER_ERR_AUTH), e.what());
        }
        Bytes out(pt.size(), 0xee);
        EXPECT_THROW(c.open(m, iv.data(), iv.size(), nullptr, 0, sealed.data(), sealed.size(), out.data()),
                     kcipher::AuthenticationError);
        EXPECT_EQ(Bytes(pt.size(), 0), out) << "unverified plaintext released";
        // The wrong AAD fails the same way.
        EXPECT_THROW(c.open(m, iv, c.seal(m, iv, pt, {1}), {2}), kcipher::AuthenticationError);
    }
}

TEST(AeadCpp, MisuseIsAnErrorNotAnAuthenticationError)
{
    kcipher::Cipher c("aria-128", kct::random_bytes(16, 11));
    const Bytes pt(10);
    auto status_of = [](auto &&f) {
        try {
            f();
        } catch (const kcipher::AuthenticationError &) {
            return KCIPHER_ERR_AUTH;
        } catch (const kcipher::Error &e) {
            return e.status();
        }
        return KCIPHER_OK;
    };
    EXPECT_EQ(KCIPHER_ERR_IV_LENGTH, status_of([&] { c.seal(KCIPHER_MODE_CCM, Bytes(6), pt); }));
    EXPECT_EQ(KCIPHER_ERR_TAG_LENGTH, status_of([&] { c.seal(KCIPHER_MODE_GCM, Bytes(12), pt, {}, 10); }));
    EXPECT_EQ(KCIPHER_ERR_DATA_LENGTH, status_of([&] { c.open(KCIPHER_MODE_GCM, Bytes(12), Bytes(15)); }));
    EXPECT_EQ(KCIPHER_ERR_UNKNOWN_MODE, status_of([&] { c.seal(KCIPHER_MODE_CTR, Bytes(12), pt); }));
    kcipher::Cipher h("hight", kct::random_bytes(16, 12));
    EXPECT_EQ(KCIPHER_ERR_UNSUPPORTED, status_of([&] { h.seal(KCIPHER_MODE_GCM, Bytes(12), pt); }));
    EXPECT_EQ(KCIPHER_ERR_UNSUPPORTED, status_of([&] { kcipher::Aead(h, KCIPHER_MODE_GCM, kcipher::Aead::seal, Bytes(12)); }));
}

// Streaming in uneven pieces gives the one-shot bytes; opening in pieces verifies; a flipped
// tag throws from finish_and_verify.
TEST(AeadCpp, StreamingEqualsOneShot)
{
    kcipher::Cipher c("seed-128", kct::random_bytes(16, 13));
    const size_t pieces[] = {1, 15, 16, 17, 1000, 3};
    for (kcipher_mode m : {KCIPHER_MODE_GCM, KCIPHER_MODE_CCM}) {
        const Bytes iv = kct::random_bytes(m == KCIPHER_MODE_GCM ? 1 + 30 : 13, 14);
        const Bytes aad = kct::random_bytes(70, 15), pt = kct::random_bytes(2500, 16);
        const Bytes one_shot = c.seal(m, iv, pt, aad, 14);

        kcipher::Aead s(c, m, kcipher::Aead::seal, iv, 14, aad.size(), pt.size());
        EXPECT_EQ(14u, s.tag_size());
        s.aad(Bytes(aad.begin(), aad.begin() + 33));
        s.aad(Bytes(aad.begin() + 33, aad.end()));
        Bytes streamed;
        size_t at = 0;
        for (size_t k = 0; at < pt.size(); k++) {
            size_t n = std::min(pieces[k % 6], pt.size() - at);
            Bytes part = s.update(Bytes(pt.begin() + (long)at, pt.begin() + (long)(at + n)));
            streamed.insert(streamed.end(), part.begin(), part.end());
            at += n;
        }
        Bytes tag = s.finish();
        streamed.insert(streamed.end(), tag.begin(), tag.end());
        EXPECT_EQ(one_shot, streamed) << m;

        const Bytes ct(one_shot.begin(), one_shot.end() - 14), good(one_shot.end() - 14, one_shot.end());
        for (bool flip : {false, true}) {
            kcipher::Aead o(c, m, kcipher::Aead::open, iv.data(), iv.size(), 14, aad.size(), ct.size());
            o.aad(aad);
            Bytes back(ct.size());
            o.update(ct.data(), back.data(), 1000);
            o.update(ct.data() + 1000, back.data() + 1000, ct.size() - 1000);
            EXPECT_EQ(pt, back);
            Bytes t = good;
            t[0] ^= flip ? 0x80 : 0;
            if (flip) {
                EXPECT_THROW(o.finish_and_verify(t), kcipher::AuthenticationError);
                EXPECT_THROW(o.finish_and_verify(good), kcipher::Error) << "a failed state stays unusable";
            } else {
                EXPECT_NO_THROW(o.finish_and_verify(t));
            }
        }
    }
}

TEST(AeadCpp, StreamingOrderIsEnforced)
{
    kcipher::Cipher c("aria-256", kct::random_bytes(32, 17));
    kcipher::Aead a(c, KCIPHER_MODE_GCM, kcipher::Aead::seal, Bytes(12, 1));
    a.update(Bytes(5));
    try {
        a.aad(Bytes(1));
        FAIL() << "AAD after data accepted";
    } catch (const kcipher::Error &e) {
        EXPECT_EQ(KCIPHER_ERR_STATE, e.status());
    }
    kcipher::Aead moved = std::move(a);
    (void)moved.finish();
    EXPECT_THROW((void)moved.finish(), kcipher::Error);
    EXPECT_THROW(moved.finish_and_verify(Bytes(16)), kcipher::Error); // a sealer cannot verify
}

TEST(AeadCpp, MacOneShotAndStreaming)
{
    const Bytes data = kct::random_bytes(1000, 18);
    for (const char *name : {"aria-128", "hight", "cham-64-128", "lea-192"}) {
        kcipher::Cipher c(name, kct::random_bytes(name == std::string("lea-192") ? 24 : 16, 19));
        const Bytes tag = c.mac(KCIPHER_MODE_CMAC, {}, data);
        EXPECT_EQ(c.block_size(), tag.size()) << name;
        Bytes ref(c.block_size());
        ASSERT_EQ(KCIPHER_OK, kcipher_mac(c.get(), KCIPHER_MODE_CMAC, nullptr, 0, data.data(), data.size(), ref.data(),
                                          ref.size()));
        EXPECT_EQ(ref, tag) << name;
        EXPECT_NO_THROW(c.mac_verify(KCIPHER_MODE_CMAC, {}, data, tag));
        Bytes bad = tag;
        bad[2] ^= 4;
        EXPECT_THROW(c.mac_verify(KCIPHER_MODE_CMAC, {}, data, bad), kcipher::AuthenticationError) << name;

        kcipher::Mac m(c, KCIPHER_MODE_CMAC);
        m.update(data.data(), 17);
        m.update(Bytes(data.begin() + 17, data.end()));
        EXPECT_EQ(tag, m.finish()) << name;
        kcipher::Mac v(c, KCIPHER_MODE_CMAC, {}, 4);
        v.update(data);
        EXPECT_NO_THROW(v.finish_and_verify(Bytes(tag.begin(), tag.begin() + 4)));
    }
    kcipher::Cipher c("lea-128", kct::random_bytes(16, 20));
    const Bytes iv = kct::random_bytes(12, 21);
    const Bytes gmac = c.mac(KCIPHER_MODE_GMAC, iv, data, 12);
    // GMAC is GCM's tag with the data as AAD and no text.
    const Bytes gcm = c.seal(KCIPHER_MODE_GCM, iv, {}, data, 12);
    EXPECT_EQ(gcm, gmac);
    kcipher::Mac g(c, KCIPHER_MODE_GMAC, iv, 12);
    g.update(data.data(), 500);
    g.update(data.data() + 500, 500);
    Bytes wrong = gmac;
    wrong[11] ^= 1;
    EXPECT_THROW(g.finish_and_verify(wrong), kcipher::AuthenticationError);
    EXPECT_THROW(kcipher::Mac(c, KCIPHER_MODE_GMAC), kcipher::Error); // GMAC needs an IV
}

} // namespace
