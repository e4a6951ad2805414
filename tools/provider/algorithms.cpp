// The provider's algorithm table, built from kcipher's own list of ciphers (a new cipher in
// the library appears here with no change): every cipher in ECB, CBC, CTR, CFB, CFB8 and OFB,
// and the 128-bit-block ciphers in GCM, CCM and XTS too. ARIA and SEED keep OpenSSL's names,
// aliases and OIDs (so a name the default or legacy provider knows means the same algorithm
// here); the others, which have no registered OIDs, are kcipher's names uppercased.
#include "algorithms.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <cctype>
#include <string>

namespace kcprov {

namespace {

const char *suffix(kcipher_mode m)
{
    switch (m) {
    case KCIPHER_MODE_ECB: return "ECB";
    case KCIPHER_MODE_CBC: return "CBC";
    case KCIPHER_MODE_CTR: return "CTR";
    case KCIPHER_MODE_CFB: return "CFB";
    case KCIPHER_MODE_CFB8: return "CFB8";
    case KCIPHER_MODE_OFB: return "OFB";
    case KCIPHER_MODE_GCM: return "GCM";
    case KCIPHER_MODE_CCM: return "CCM";
    case KCIPHER_MODE_XTS: return "XTS";
    default: return "";
    }
}

std::string upper(std::string s)
{
    for (char &c : s)
        c = (char)std::toupper((unsigned char)c);
    return s;
}

// RFC 5794's arc 1.2.410.200046.1.1: ECB, CBC, CFB, OFB, CTR at 1..5 (128), 6..10, 11..15;
// GCM 34..36, CCM 37..39. CFB8 and XTS have none.
std::string aria_names(const std::string &kc, size_t key_bytes, kcipher_mode m)
{
    const int k = key_bytes == 16 ? 0 : key_bytes == 24 ? 1 : 2;
    int arc = 0;
    switch (m) {
    case KCIPHER_MODE_ECB: arc = 1 + 5 * k; break;
    case KCIPHER_MODE_CBC: arc = 2 + 5 * k; break;
    case KCIPHER_MODE_CFB: arc = 3 + 5 * k; break;
    case KCIPHER_MODE_OFB: arc = 4 + 5 * k; break;
    case KCIPHER_MODE_CTR: arc = 5 + 5 * k; break;
    case KCIPHER_MODE_GCM: arc = 34 + k; break;
    case KCIPHER_MODE_CCM: arc = 37 + k; break;
    default: return kc;
    }
    std::string names = kc;
    if (m == KCIPHER_MODE_CBC)
        names += ":ARIA" + std::to_string(128 + 64 * k);
    return names + ":1.2.410.200046.1.1." + std::to_string(arc);
}

// OpenSSL's legacy provider names SEED without its key size (RFC 4269's OIDs for ECB, CBC,
// CFB, OFB); kcipher's "SEED-128-..." are aliases.
std::string seed_names(const std::string &kc, kcipher_mode m)
{
    const std::string ossl = std::string("SEED-") + suffix(m);
    switch (m) {
    case KCIPHER_MODE_ECB: return ossl + ":" + kc + ":1.2.410.200004.1.3";
    case KCIPHER_MODE_CBC: return ossl + ":SEED:" + kc + ":1.2.410.200004.1.4";
    case KCIPHER_MODE_CFB: return ossl + ":SEED-CFB128:" + kc + ":1.2.410.200004.1.5";
    case KCIPHER_MODE_OFB: return ossl + ":SEED-OFB128:" + kc + ":1.2.410.200004.1.6";
    default: return ossl + ":" + kc;
    }
}

struct Entry {
    std::string names;
    std::string cipher;
    Algo algo;
};

std::vector<Entry> build()
{
    static const kcipher_mode every_block[] = {KCIPHER_MODE_ECB, KCIPHER_MODE_CBC, KCIPHER_MODE_CTR,
                                               KCIPHER_MODE_CFB, KCIPHER_MODE_CFB8, KCIPHER_MODE_OFB};
    static const kcipher_mode wide_block[] = {KCIPHER_MODE_GCM, KCIPHER_MODE_CCM, KCIPHER_MODE_XTS};
    std::vector<Entry> out;
    for (size_t i = 0; i < kcipher_cipher_count(); ++i) {
        kcipher_cipher_info info{};
        if (kcipher_cipher_get(i, &info) != KCIPHER_OK)
            continue;
        auto add = [&](kcipher_mode m) {
            const std::string kc = upper(std::string(info.name) + "-" + suffix(m));
            std::string names = kc;
            if (std::string(info.family) == "aria")
                names = aria_names(kc, info.key_bytes, m);
            else if (std::string(info.family) == "seed")
                names = seed_names(kc, m);
            out.push_back({names, info.name, Algo{nullptr, nullptr, m}});
        };
        for (kcipher_mode m : every_block)
            add(m);
        if (info.block_bytes == 16)
            for (kcipher_mode m : wide_block)
                add(m);
    }
    return out;
}

} // namespace

const std::vector<Algo> &algos()
{
    static const std::vector<Entry> entries = build();
    static const std::vector<Algo> list = [] {
        std::vector<Algo> l;
        for (const Entry &e : entries)
            l.push_back(Algo{e.names.c_str(), e.cipher.c_str(), e.algo.mode}); // entries never move
        return l;
    }();
    return list;
}

AlgoShape shape_of(const Algo &a)
{
    kcipher_cipher_info info{};
    kcipher_cipher_find(a.cipher, &info);
    AlgoShape s{};
    s.block = info.block_bytes;
    s.key_len = a.mode == KCIPHER_MODE_XTS ? 2 * info.key_bytes : info.key_bytes;
    s.ossl_block = 1;
    switch (a.mode) {
    case KCIPHER_MODE_ECB: s.ossl_mode = EVP_CIPH_ECB_MODE, s.iv_len = 0, s.ossl_block = s.block; break;
    case KCIPHER_MODE_CBC: s.ossl_mode = EVP_CIPH_CBC_MODE, s.iv_len = s.block, s.ossl_block = s.block; break;
    case KCIPHER_MODE_CTR: s.ossl_mode = EVP_CIPH_CTR_MODE, s.iv_len = s.block; break;
    case KCIPHER_MODE_CFB:
    case KCIPHER_MODE_CFB8: s.ossl_mode = EVP_CIPH_CFB_MODE, s.iv_len = s.block; break;
    case KCIPHER_MODE_OFB: s.ossl_mode = EVP_CIPH_OFB_MODE, s.iv_len = s.block; break;
    case KCIPHER_MODE_GCM: s.ossl_mode = EVP_CIPH_GCM_MODE, s.iv_len = 12, s.aead = true; break;
    case KCIPHER_MODE_CCM: s.ossl_mode = EVP_CIPH_CCM_MODE, s.iv_len = 7, s.aead = true; break; // OpenSSL's default L = 8
    case KCIPHER_MODE_XTS: s.ossl_mode = EVP_CIPH_XTS_MODE, s.iv_len = 16; break;
    default: break;
    }
    return s;
}

} // namespace kcprov
