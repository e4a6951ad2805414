// OpenSSL's AEAD and CMAC as the tests' independent reference (tests/test_aead*.cpp,
// tests/test_cli_aead.cpp): evp_aead seals with an EVP cipher by name ("ARIA-128-GCM",
// "AES-128-CCM"), returning ciphertext || tag; evp_cmac is EVP_MAC's CMAC over a CBC cipher.
#pragma once
#ifdef KC_HAVE_OPENSSL

#include <cstdint>
#include <vector>

#include <openssl/core_names.h>
#include <openssl/evp.h>

namespace kct {

using Bytes = std::vector<uint8_t>;

inline std::vector<uint8_t> evp_aead(const char *name, bool gcm, const Bytes &key, const Bytes &iv, const Bytes &aad, const Bytes &pt,
               size_t tag_len)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    const EVP_CIPHER *c = EVP_get_cipherbyname(name);
    EVP_EncryptInit_ex(x, c, nullptr, nullptr, nullptr);
    EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)iv.size(), nullptr);
    if (!gcm)
        EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)tag_len, nullptr);
    EVP_EncryptInit_ex(x, nullptr, nullptr, key.data(), iv.data());
    int l = 0;
    if (!gcm)
        EVP_EncryptUpdate(x, nullptr, &l, nullptr, (int)pt.size());
    if (!aad.empty())
        EVP_EncryptUpdate(x, nullptr, &l, aad.data(), (int)aad.size());
    Bytes out(pt.size() + tag_len);
    // CCM always takes the (possibly empty) payload call; a null input pointer there means
    // something else to some OpenSSL 3.0 releases, so it gets a real one.
    const uint8_t none = 0;
    if (!pt.empty() || !gcm)
        EVP_EncryptUpdate(x, out.data(), &l, pt.empty() ? &none : pt.data(), (int)pt.size());
    EVP_EncryptFinal_ex(x, out.data() + pt.size(), &l);
    EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)tag_len, out.data() + pt.size());
    EVP_CIPHER_CTX_free(x);
    return out;
}

inline std::vector<uint8_t> evp_cmac(const char *cbc_name, const Bytes &key, const Bytes &data)
{
    EVP_MAC *mac = EVP_MAC_fetch(nullptr, "CMAC", nullptr);
    EVP_MAC_CTX *m = EVP_MAC_CTX_new(mac);
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, const_cast<char *>(cbc_name), 0),
                           OSSL_PARAM_construct_end()};
    EVP_MAC_init(m, key.data(), key.size(), params);
    EVP_MAC_update(m, data.data(), data.size());
    Bytes out(16);
    size_t n = 0;
    EVP_MAC_final(m, out.data(), &n, out.size());
    out.resize(n);
    EVP_MAC_CTX_free(m);
    EVP_MAC_free(mac);
    return out;
}

} // namespace kct

#endif
