#include "bench_cryptopp.hpp"

#ifdef KC_HAVE_CRYPTOPP
#include <crypto++/aria.h>
#include <crypto++/cham.h>
#include <crypto++/cryptlib.h>
#include <crypto++/hight.h>
#include <crypto++/lea.h>
#include <crypto++/modes.h>
#include <crypto++/seed.h>

#include <memory>

namespace cli {

bool cryptopp_available() { return true; }

std::string cryptopp_version()
{
    int v = CryptoPP::LibraryVersion();
    return "Crypto++ " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." + std::to_string(v % 10);
}

namespace {

template <class Cipher>
CryptoppWork make(const std::string &mode, const uint8_t *key, size_t key_len, const uint8_t *iv)
{
    // One object per worker: Crypto++ mode objects keep state (CBC chaining, CTR position).
    if (mode == "ecb") {
        auto e = std::make_shared<typename CryptoPP::ECB_Mode<Cipher>::Encryption>(key, key_len);
        return [e](const uint8_t *in, uint8_t *out, size_t n) { e->ProcessData(out, in, n); };
    }
    if (mode == "cbc") {
        auto e = std::make_shared<typename CryptoPP::CBC_Mode<Cipher>::Encryption>(key, key_len, iv);
        return [e](const uint8_t *in, uint8_t *out, size_t n) { e->ProcessData(out, in, n); };
    }
    auto e = std::make_shared<typename CryptoPP::CTR_Mode<Cipher>::Encryption>(key, key_len, iv);
    return [e](const uint8_t *in, uint8_t *out, size_t n) { e->ProcessData(out, in, n); };
}

} // namespace

CryptoppWork cryptopp_worker(const std::string &cipher, const std::string &mode, const uint8_t *key,
                             size_t key_len, const uint8_t *iv, std::string *label)
{
    *label = cryptopp_version();
    std::string family = cipher.substr(0, cipher.find('-'));
    if (family == "aria")
        return make<CryptoPP::ARIA>(mode, key, key_len, iv);
    if (family == "lea")
        return make<CryptoPP::LEA>(mode, key, key_len, iv);
    if (family == "hight")
        return make<CryptoPP::HIGHT>(mode, key, key_len, iv);
    if (family == "seed")
        return make<CryptoPP::SEED>(mode, key, key_len, iv);
    if (family != "cham")
        return {};
    *label += " (original CHAM: " + std::string(cipher == "cham-128-256" ? "96" : "80") + " rounds)";
    if (cipher == "cham-64-128")
        return make<CryptoPP::CHAM64>(mode, key, key_len, iv);
    if (cipher == "cham-128-128" || cipher == "cham-128-256")
        return make<CryptoPP::CHAM128>(mode, key, key_len, iv);
    return {};
}

} // namespace cli

#else

namespace cli {
bool cryptopp_available() { return false; }
std::string cryptopp_version() { return "not installed"; }
CryptoppWork cryptopp_worker(const std::string &, const std::string &, const uint8_t *, size_t, const uint8_t *,
                             std::string *)
{
    return {};
}
} // namespace cli

#endif
