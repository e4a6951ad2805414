// XTS (modes/xts.cpp through kc::xts_* and the C API, kcipher.h):
// - IEEE 1619-2007 Annex B XTS-AES vectors (tests/vectors/ieee1619_xts_aes.txt) through an AES
//   block adapter over OpenSSL's ECB (support/evp_block.hpp), and the same adapter against
//   OpenSSL's own AES-XTS on random keys, tweaks and lengths: the mode is right independently
//   of our ciphers;
// - every 128-bit cipher on every kernel this machine runs against a by-hand composition over
//   the reference kernel (tweak doubling, ECB block by block, ciphertext stealing), across block
//   and data-unit boundaries, in place;
// - the tweak arithmetic, the API's refusals, and threads that never change the bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/key_state.hpp"
#include "dispatch/registry.hpp"
#include "dispatch/xts_whiten_choice.hpp"
#include "kcipher/kcipher.h"
#include "kcipher/kcipher.hpp"
#include "modes/xts.hpp"
#include "modes/xts_tweak.hpp"
#include "support/evp_block.hpp"
#include "support/kernels.hpp"
#include "support/sample.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using kct::random_bytes;
using kct::unhex;

// ---- the by-hand oracle: IEEE 1619-2018 5.3 and 5.4 read literally, one block at a time ----

// t * alpha, byte by byte as the standard writes it (5.2).
void double_bytes(uint8_t t[16])
{
    uint8_t carry = 0;
    for (int i = 0; i < 16; i++) {
        const uint8_t next = t[i] >> 7;
        t[i] = (uint8_t)(t[i] << 1 | carry);
        carry = next;
    }
    if (carry)
        t[0] ^= 0x87;
}

struct BlockFn {
    const kc::Kernel *k;
    const void *keys;
    void run(bool dec, const uint8_t *t, const uint8_t *in, uint8_t *out) const
    {
        uint8_t x[16];
        for (int i = 0; i < 16; i++)
            x[i] = in[i] ^ t[i];
        (dec ? k->decrypt_blocks : k->encrypt_blocks)(keys, x, x, 1);
        for (int i = 0; i < 16; i++)
            out[i] = x[i] ^ t[i];
    }
};

// One data unit.
Bytes unit_by_hand(const BlockFn &data, const BlockFn &tweak_key, bool dec, const uint8_t tweak16[16], const Bytes &in)
{
    uint8_t t[16];
    tweak_key.k->encrypt_blocks(tweak_key.keys, tweak16, t, 1);
    Bytes out(in.size());
    const size_t m = in.size() / 16, r = in.size() % 16;
    const size_t plain = r ? m - 1 : m;
    for (size_t j = 0; j < plain; j++) {
        data.run(dec, t, &in[16 * j], &out[16 * j]);
        double_bytes(t);
    }
    if (r == 0)
        return out;
    uint8_t t_next[16], cc[16], pp[16];
    std::memcpy(t_next, t, 16);
    double_bytes(t_next);
    // encrypt: CC = enc(P_{m-1}, T_{m-1}); C_m = CC[0..r); C_{m-1} = enc(P_m || CC[r..], T_m).
    // decrypt: PP = dec(C_{m-1}, T_m); P_m = PP[0..r); P_{m-1} = dec(C_m || PP[r..], T_{m-1}).
    data.run(dec, dec ? t_next : t, &in[16 * plain], cc);
    std::memcpy(pp, &in[16 * plain + 16], r);
    std::memcpy(pp + r, cc + r, 16 - r);
    std::memcpy(&out[16 * plain + 16], cc, r);
    data.run(dec, dec ? t : t_next, pp, &out[16 * plain]);
    return out;
}

Bytes xts_by_hand(const BlockFn &data, const BlockFn &tweak_key, bool dec, const Bytes &tweak16, size_t data_unit,
                  const Bytes &in)
{
    if (data_unit == 0)
        return unit_by_hand(data, tweak_key, dec, tweak16.data(), in);
    Bytes out;
    for (size_t off = 0, u = 0; off < in.size(); off += data_unit, u++) {
        uint8_t t[16];
        kc::xts_unit_tweak(t, tweak16.data(), u);
        const Bytes piece(in.begin() + off, in.begin() + std::min(in.size(), off + data_unit));
        const Bytes o = unit_by_hand(data, tweak_key, dec, t, piece);
        out.insert(out.end(), o.begin(), o.end());
    }
    return out;
}

Bytes run_xts(const kc::Keyed &d, const kc::Keyed &t, bool dec, const Bytes &tweak, size_t unit, Bytes buf)
{
    (dec ? kc::xts_decrypt : kc::xts_encrypt)(d, t, tweak.data(), unit, buf.data(), buf.data(), buf.size());
    return buf;
}

// ---- the tweak arithmetic ----

TEST(XtsTweak, MultiplyByAlphaPowerEqualsRepeatedDoubling)
{
    const Bytes seed = random_bytes(16, 5);
    kc::XtsTweak t = kc::xts_load(seed.data()), d = t;
    for (uint64_t j = 0; j <= 700; j++) {
        const kc::XtsTweak p = kc::xts_mul_alpha_pow(t, j);
        EXPECT_TRUE(p.lo == d.lo && p.hi == d.hi) << j;
        d = kc::xts_double(d);
    }
}

TEST(XtsTweak, UnitTweakCarriesAcrossAllSixteenBytes)
{
    uint8_t t[16];
    Bytes base(16, 0xff);
    base[15] = 0x7f;
    kc::xts_unit_tweak(t, base.data(), 1);
    Bytes want(16, 0);
    want[15] = 0x80;
    EXPECT_EQ(Bytes(t, t + 16), want);
    base.assign(16, 0);
    base[0] = 0xfe;
    kc::xts_unit_tweak(t, base.data(), 0x1234);
    EXPECT_EQ(kct::tohex(t, 16), "32130000000000000000000000000000");
}

// Every whitening implementation this machine runs equals the portable one on every length up
// to past a few of its groups and on a whole batch, in place, the tweaks at any offset; from a
// random first tweak and from all ones (every bit the SIMD chains' starts shift out is set).
TEST(XtsWhiten, EveryImplementationEqualsThePortableOne)
{
    const Bytes in = random_bytes(16 * 256, 22);
    for (const Bytes &t0 : {random_bytes(16, 21), Bytes(16, 0xff)}) {
        for (const kc::XtsWhitenKernel *w : kc::all_xts_whiten_kernels()) {
            if (!kc::runnable(w->requires))
                continue;
            for (size_t n = 0; n <= 256; n += n < 40 ? 1 : 216) {
                alignas(64) uint8_t tw1[16 * 256], tw2_buf[16 * 257];
                uint8_t *tw2 = tw2_buf + 16 * (n % 2); // the tweak buffer at any 16-byte offset
                Bytes t1 = t0, t2 = t0, out1(16 * n), out2 = Bytes(in.begin(), in.begin() + 16 * n);
                kc::xts_whiten_portable_kernel.pre(t1.data(), tw1, in.data(), out1.data(), n);
                w->pre(t2.data(), tw2, out2.data(), out2.data(), n); // in place
                EXPECT_EQ(out1, out2) << w->name << " pre, " << n << " blocks";
                EXPECT_EQ(t1, t2) << w->name << " next tweak, " << n << " blocks";
                EXPECT_EQ(0, std::memcmp(tw1, tw2, 16 * n)) << w->name << " tweaks, " << n << " blocks";
                Bytes apart(16 * n); // out of place: out = in ^ tw
                w->post(tw2, out2.data(), apart.data(), n);
                kc::xts_whiten_portable_kernel.post(tw1, out1.data(), out1.data(), n);
                w->post(tw2, out2.data(), out2.data(), n);
                EXPECT_EQ(out1, out2) << w->name << " post, " << n << " blocks";
                EXPECT_EQ(apart, out2) << w->name << " post out of place, " << n << " blocks";
                EXPECT_EQ(out1, Bytes(in.begin(), in.begin() + 16 * n)) << "pre then post is the identity";
                Bytes t3 = t0;
                std::memset(tw2, 0, 16 * n);
                w->tweaks(t3.data(), tw2, n);
                EXPECT_EQ(t1, t3) << w->name << " tweaks alone: next tweak, " << n << " blocks";
                EXPECT_EQ(0, std::memcmp(tw1, tw2, 16 * n)) << w->name << " tweaks alone, " << n << " blocks";
            }
        }
    }
}

// Every kernel's whitened ECB (kit/xts/xts_accel.hpp) this machine runs equals its own
// encrypt_blocks / decrypt_blocks between two XORs with the tweaks, block for block: every
// count up to past two of its steps and a few long ones, in place and out of place, the tweaks
// at an odd offset. A wrong tweak block, a missing XOR or a wrong key direction fails here.
TEST(XtsAccel, WhitenedBlocksEqualTheKernelBetweenTwoXors)
{
    for (const kc::Kernel *k : kc::all_kernels()) {
        const kc::XtsAccel *a = kc::xts_accel_for(*k);
        if (a == nullptr)
            continue;
        ASSERT_EQ(a->kernel, k);
        for (kc::Cipher c : {kc::Cipher::aria128, kc::Cipher::aria256, kc::Cipher::lea128, kc::Cipher::lea192}) {
            if (!k->supports(c))
                continue;
            const Bytes key = random_bytes(kc::cipher_desc(c).key_bytes, 40 + (uint64_t)c);
            kc::KeyState ks;
            ASSERT_TRUE(ks.init(*k, c, key.data()));
            std::vector<size_t> counts;
            for (size_t n = 0; n <= 2 * k->batch_blocks + 3; n++)
                counts.push_back(n);
            for (size_t n : {255, 256, 300})
                counts.push_back(n);
            for (size_t n : counts) {
                const Bytes in = random_bytes(16 * n, 1000 + n), twb = random_bytes(16 * n + 3, 2000 + n);
                const uint8_t *tw = twb.data() + 3;
                for (bool dec : {false, true}) {
                    Bytes want(16 * n);
                    for (size_t i = 0; i < 16 * n; i++)
                        want[i] = in[i] ^ tw[i];
                    if (n > 0)
                        (dec ? k->decrypt_blocks : k->encrypt_blocks)(ks.get(), want.data(), want.data(), n);
                    for (size_t i = 0; i < 16 * n; i++)
                        want[i] ^= tw[i];
                    Bytes out(16 * n), inplace = in;
                    a->whitened_blocks(ks.get(), dec, tw, in.data(), out.data(), n);
                    a->whitened_blocks(ks.get(), dec, tw, inplace.data(), inplace.data(), n);
                    EXPECT_EQ(out, want) << k->name << " " << n << " blocks, decrypt " << dec;
                    EXPECT_EQ(inplace, want) << k->name << " in place, " << n << " blocks, decrypt " << dec;
                }
            }
        }
    }
}

#ifdef KC_HAVE_OPENSSL

struct AesXts {
    kc::KeyState data, tweak;
    kc::Keyed d, t;
    AesXts(const Bytes &key1, const Bytes &key2)
    {
        kct::EvpBlock::cipher() = key1.size() == 16 ? EVP_aes_128_ecb() : EVP_aes_256_ecb();
        EXPECT_TRUE(kct::init_evp(data, kct::evp_kernel, key1) && kct::init_evp(tweak, kct::evp_kernel, key2));
        d = {&kct::evp_kernel, data.get(), 16, 1};
        t = {&kct::evp_kernel, tweak.get(), 16, 1};
    }
};

TEST(XtsOverAes, Ieee1619AnnexBVectors)
{
    const auto records = kct::load_kv_lines("ieee1619_xts_aes.txt");
    ASSERT_EQ(records.size(), 19u);
    for (const kct::Record &r : records) {
        AesXts aes(unhex(r.at("key1")), unhex(r.at("key2")));
        const Bytes tweak = unhex(r.at("tweak")), pt = unhex(r.at("pt")), ct = unhex(r.at("ct"));
        EXPECT_EQ(kct::tohex(run_xts(aes.d, aes.t, false, tweak, 0, pt)), r.at("ct")) << "vector " << r.at("vector");
        EXPECT_EQ(run_xts(aes.d, aes.t, true, tweak, 0, ct), pt) << "vector " << r.at("vector");
    }
}

Bytes evp_xts(bool enc, const Bytes &key, const Bytes &tweak, const Bytes &in)
{
    const EVP_CIPHER *c = key.size() == 32 ? EVP_aes_128_xts() : EVP_aes_256_xts();
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    Bytes out(in.size());
    int l = 0;
    EXPECT_EQ(1, EVP_CipherInit_ex(x, c, nullptr, key.data(), tweak.data(), enc ? 1 : 0));
    EXPECT_EQ(1, EVP_CipherUpdate(x, out.data(), &l, in.data(), (int)in.size()));
    EVP_CIPHER_CTX_free(x);
    return out;
}

// One data unit of every length from 16 to 600, random keys (OpenSSL refuses equal halves too:
// random ones never are) and tweaks, both directions.
TEST(XtsOverAes, EqualsOpensslAesXts)
{
    kct::Sample sample("XtsOverAes");
    for (size_t len = 16; len <= 600; len++) {
        if (!sample.keep())
            continue;
        const size_t half = len % 2 ? 16 : 32;
        const Bytes key = random_bytes(2 * half, len), tweak = random_bytes(16, len + 1000),
                    pt = random_bytes(len, len + 2000);
        AesXts aes(Bytes(key.begin(), key.begin() + half), Bytes(key.begin() + half, key.end()));
        const Bytes ct = run_xts(aes.d, aes.t, false, tweak, 0, pt);
        EXPECT_EQ(ct, evp_xts(true, key, tweak, pt)) << "len " << len << " key " << 8 * half;
        EXPECT_EQ(run_xts(aes.d, aes.t, true, tweak, 0, ct), pt) << "len " << len;
        EXPECT_EQ(evp_xts(false, key, tweak, ct), pt) << "len " << len;
    }
}

#endif // KC_HAVE_OPENSSL

// ---- every 128-bit cipher, every kernel ----

class XtsKernels : public ::testing::TestWithParam<kct::KernelCipher> {};

TEST_P(XtsKernels, EqualTheReferenceComposedByHand)
{
    const kct::KernelCipher kc_ = GetParam();
    if (!kc::kernel_runnable(*kc_.kernel))
        GTEST_SKIP() << kc_.kernel->name << " needs CPU features this machine lacks";
    const kc::CipherDesc &d = kc::cipher_desc(kc_.cipher);
    const kc::Kernel *ref = kc::reference_kernel(kc_.cipher);
    const Bytes key = random_bytes(2 * d.key_bytes, (uint64_t)kc_.cipher * 31 + 7);
    kc::KeyState kd, kt, rd, rt;
    ASSERT_TRUE(kd.init(*kc_.kernel, kc_.cipher, key.data()) && kt.init(*kc_.kernel, kc_.cipher, key.data() + d.key_bytes));
    ASSERT_TRUE(rd.init(*ref, kc_.cipher, key.data()) && rt.init(*ref, kc_.cipher, key.data() + d.key_bytes));
    const kc::Keyed data{kc_.kernel, kd.get(), 16, 1}, tweak{kc_.kernel, kt.get(), 16, 1};
    const BlockFn ref_data{ref, rd.get()}, ref_tweak{ref, rt.get()};
    struct Case {
        size_t unit, len;
    };
    std::vector<Case> cases;
    for (size_t len : {16, 17, 31, 32, 33, 47, 100, 255 * 16 + 3, 256 * 16, 256 * 16 + 15, 513 * 16 + 9})
        cases.push_back({0, len});
    for (size_t unit : {16, 32, 512, 4096})
        for (size_t len : {unit, 3 * unit, 3 * unit + 16, 3 * unit + 21, 2 * unit + unit / 2 + 16})
            if (len % unit == 0 || len % unit >= 16) // a shorter last unit holds a block at least
                cases.push_back({unit, len});
    cases.push_back({4096 + 5, 3 * 4101 + 40}); // units that are not whole blocks: every unit steals
    kct::Sample sample("XtsKernels_" + kct::test_name(kc_));
    int n = 0;
    for (const Case &c : cases) {
        if (!sample.keep())
            continue;
        const Bytes tw16 = kct::edge_iv(n % 4, 90 + n), pt = random_bytes(c.len, 500 + n++);
        const Bytes want = xts_by_hand(ref_data, ref_tweak, false, tw16, c.unit, pt);
        const Bytes ct = run_xts(data, tweak, false, tw16, c.unit, pt); // in place
        EXPECT_EQ(ct, want) << kc_.kernel->name << " unit " << c.unit << " len " << c.len;
        EXPECT_EQ(xts_by_hand(ref_data, ref_tweak, true, tw16, c.unit, want), pt) << "oracle round trip";
        EXPECT_EQ(run_xts(data, tweak, true, tw16, c.unit, ct), pt) << kc_.kernel->name << " unit " << c.unit
                                                                      << " len " << c.len;
        Bytes out(c.len);
        kc::xts_encrypt(data, tweak, tw16.data(), c.unit, pt.data(), out.data(), c.len); // out of place
        EXPECT_EQ(out, want);
    }
}

std::vector<kct::KernelCipher> xts_kernel_ciphers()
{
    std::vector<kct::KernelCipher> v;
    for (const kct::KernelCipher &kc_ : kct::all_kernel_ciphers())
        if (kc::cipher_desc(kc_.cipher).block_bytes == 16 && kc_.kernel->gpu == nullptr)
            v.push_back(kc_);
    return v;
}

INSTANTIATE_TEST_SUITE_P(All, XtsKernels, ::testing::ValuesIn(xts_kernel_ciphers()),
                         [](const auto &info) { return kct::test_name(info.param); });

// ---- the C API ----

struct Ctx {
    kcipher_ctx *c = nullptr;
    kcipher_status st;
    Ctx(const std::string &name, const Bytes &key) : st(kcipher_new(&c, name.c_str(), key.data(), key.size(), nullptr)) {}
    ~Ctx() { kcipher_free(c); }
};

TEST(XtsApi, ContextRefusals)
{
    const Bytes key = random_bytes(32, 1);
    EXPECT_EQ(Ctx("lea-128-xts", Bytes(key.begin(), key.begin() + 16)).st, KCIPHER_ERR_KEY_LENGTH);
    EXPECT_EQ(Ctx("lea-128-xts", random_bytes(48, 2)).st, KCIPHER_ERR_KEY_LENGTH);
    Bytes equal(32, 0x5a);
    EXPECT_EQ(Ctx("aria-128-xts", equal).st, KCIPHER_ERR_XTS_KEY);
    equal[31] ^= 1; // one bit apart is two keys
    EXPECT_EQ(Ctx("aria-128-xts", equal).st, KCIPHER_OK);
    EXPECT_EQ(Ctx("hight-xts", key).st, KCIPHER_ERR_UNSUPPORTED);
    EXPECT_EQ(Ctx("cham-64-128-xts", key).st, KCIPHER_ERR_UNSUPPORTED);
    EXPECT_EQ(Ctx("lea-256-xts", random_bytes(64, 3)).st, KCIPHER_OK);
}

TEST(XtsApi, ArgumentErrors)
{
    Ctx x("lea-128-xts", random_bytes(32, 4));
    ASSERT_EQ(x.st, KCIPHER_OK);
    const Bytes tweak = random_bytes(16, 5);
    Bytes buf = random_bytes(4096, 6), out(4096);
    auto enc = [&](const uint8_t *t, size_t tl, size_t unit, const uint8_t *in, uint8_t *o, size_t len) {
        return kcipher_xts_encrypt(x.c, t, tl, unit, in, o, len);
    };
    EXPECT_EQ(enc(tweak.data(), 16, 0, buf.data(), out.data(), 16), KCIPHER_OK);
    EXPECT_EQ(enc(tweak.data(), 15, 0, buf.data(), out.data(), 64), KCIPHER_ERR_IV_LENGTH);
    EXPECT_EQ(enc(tweak.data(), 0, 0, buf.data(), out.data(), 64), KCIPHER_ERR_IV_LENGTH);
    EXPECT_EQ(enc(tweak.data(), 16, 0, buf.data(), out.data(), 15), KCIPHER_ERR_DATA_LENGTH);
    EXPECT_EQ(enc(tweak.data(), 16, 0, buf.data(), out.data(), 0), KCIPHER_ERR_DATA_LENGTH);
    EXPECT_EQ(enc(tweak.data(), 16, 8, buf.data(), out.data(), 64), KCIPHER_ERR_DATA_LENGTH);     // unit < 16
    EXPECT_EQ(enc(tweak.data(), 16, 512, buf.data(), out.data(), 1024 + 15), KCIPHER_ERR_DATA_LENGTH); // short last
    EXPECT_EQ(enc(tweak.data(), 16, 512, buf.data(), out.data(), 1024 + 16), KCIPHER_OK);
    EXPECT_EQ(enc(tweak.data(), 16, 8192, buf.data(), out.data(), 4096), KCIPHER_OK); // a unit longer than the input
    EXPECT_EQ(enc(nullptr, 16, 0, buf.data(), out.data(), 64), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(enc(tweak.data(), 16, 0, nullptr, out.data(), 64), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(enc(tweak.data(), 16, 0, buf.data(), nullptr, 64), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_xts_decrypt(nullptr, tweak.data(), 16, 0, buf.data(), out.data(), 64), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(enc(tweak.data(), 16, 0, buf.data(), buf.data() + 16, 64), KCIPHER_ERR_OVERLAP);
    EXPECT_EQ(kcipher_xts_decrypt(x.c, tweak.data(), 16, 0, buf.data() + 1, buf.data(), 64), KCIPHER_ERR_OVERLAP);
    EXPECT_EQ(enc(tweak.data(), 16, 0, buf.data(), buf.data(), 64), KCIPHER_OK); // in place
}

TEST(XtsApi, AnXtsKeyServesXtsAloneAndXtsNeedsOne)
{
    Ctx x("aria-128-xts", random_bytes(32, 7)), plain("aria-128", random_bytes(16, 8));
    ASSERT_EQ(x.st, KCIPHER_OK);
    ASSERT_EQ(plain.st, KCIPHER_OK);
    Bytes iv = random_bytes(16, 9), buf = random_bytes(64, 10), out(64 + 16);
    EXPECT_EQ(kcipher_ecb_encrypt(x.c, buf.data(), out.data(), 64), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_ecb_decrypt(x.c, buf.data(), out.data(), 64), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_cbc_encrypt(x.c, iv.data(), 16, buf.data(), out.data(), 64), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_cbc_decrypt(x.c, iv.data(), 16, buf.data(), out.data(), 64), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_ctr_xor(x.c, iv.data(), 16, 0, buf.data(), out.data(), 64), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_aead_seal(x.c, KCIPHER_MODE_GCM, iv.data(), 12, nullptr, 0, buf.data(), 64, out.data(), 16),
              KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_aead_open(x.c, KCIPHER_MODE_CCM, iv.data(), 12, nullptr, 0, out.data(), 80, buf.data(), 16),
              KCIPHER_ERR_CONTEXT_MODE);
    kcipher_aead *a = nullptr;
    EXPECT_EQ(kcipher_aead_init(&a, x.c, KCIPHER_MODE_GCM, 1, iv.data(), 12, 16, 0, 0), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(a, nullptr);
    kcipher_mac_state *m = nullptr;
    EXPECT_EQ(kcipher_mac_init(&m, x.c, KCIPHER_MODE_CMAC, nullptr, 0, 16), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_mac(x.c, KCIPHER_MODE_GMAC, iv.data(), 12, buf.data(), 64, out.data(), 16), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_gpu_ecb_encrypt(x.c, buf.data(), out.data(), 64, nullptr), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_gpu_ctr_xor(x.c, iv.data(), 16, 0, buf.data(), out.data(), 64, nullptr), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_gpu_aead_seal(x.c, KCIPHER_MODE_GCM, iv.data(), 12, nullptr, 0, buf.data(), 64, out.data(), 16,
                                    nullptr),
              KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_xts_encrypt(plain.c, iv.data(), 16, 0, buf.data(), out.data(), 64), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_xts_decrypt(plain.c, iv.data(), 16, 0, buf.data(), out.data(), 64), KCIPHER_ERR_CONTEXT_MODE);
}

// The C++ wrapper: the same bytes as the C call, a round trip, and the C statuses as exceptions.
TEST(XtsApi, CppWrapper)
{
    kcipher::Cipher c("seed-128-xts", random_bytes(32, 30));
    const Bytes tweak = random_bytes(16, 31), pt = random_bytes(1000, 32);
    const Bytes ct = c.xts_encrypt(tweak, pt, 512);
    Bytes want(pt.size());
    ASSERT_EQ(kcipher_xts_encrypt(c.get(), tweak.data(), 16, 512, pt.data(), want.data(), pt.size()), KCIPHER_OK);
    EXPECT_EQ(ct, want);
    EXPECT_EQ(c.xts_decrypt(tweak, ct, 512), pt);
    EXPECT_THROW(c.xts_encrypt(Bytes(15), pt), kcipher::Error);
    EXPECT_THROW(c.ecb_encrypt(Bytes(16)), kcipher::Error);
}

// The C API on a context equals the mode on the context's kernel, and the threads change
// nothing: one long unit split inside (with a stolen tail), many sectors, and long units taken
// one at a time.
TEST(XtsApi, ThreadsGiveTheSingleThreadBytes)
{
    const Bytes key = random_bytes(32, 11), tweak = random_bytes(16, 12);
    Ctx x("lea-128-xts", key);
    ASSERT_EQ(x.st, KCIPHER_OK);
    struct Case {
        size_t unit, len;
    };
    for (const Case c : {Case{0, (3u << 20) + 5}, Case{512, (2u << 20) + 48}, Case{4096, (2u << 20) + 4096 + 17},
                         Case{1u << 20, (3u << 20) + (1u << 19) + 33}}) {
        const Bytes pt = random_bytes(c.len, c.len);
        Bytes one(c.len);
        ASSERT_EQ(kcipher_set_threads(x.c, 1), KCIPHER_OK);
        ASSERT_EQ(kcipher_xts_encrypt(x.c, tweak.data(), 16, c.unit, pt.data(), one.data(), c.len), KCIPHER_OK);
        for (unsigned threads = 2; threads <= 4; threads++) {
            ASSERT_EQ(kcipher_set_threads(x.c, threads), KCIPHER_OK);
            Bytes many = pt;
            ASSERT_EQ(kcipher_xts_encrypt(x.c, tweak.data(), 16, c.unit, many.data(), many.data(), c.len), KCIPHER_OK);
            EXPECT_TRUE(many == one) << threads << " threads, unit " << c.unit << " len " << c.len;
            ASSERT_EQ(kcipher_xts_decrypt(x.c, tweak.data(), 16, c.unit, many.data(), many.data(), c.len), KCIPHER_OK);
            EXPECT_TRUE(many == pt) << threads << " threads, unit " << c.unit << " len " << c.len;
        }
    }
}

} // namespace
