// A kcipher built without OpenSSL's libcrypto: --pass is refused, with the reason (PBKDF2 is
// taken from libcrypto rather than written by hand, so that it is the code openssl runs).
#include <stdexcept>

#include "password.hpp"

namespace cli {

static const char no_libcrypto[] = "--pass needs OpenSSL's libcrypto, and this kcipher was built without it";

DerivedKey derive_key(const std::string &, const uint8_t *, unsigned, const std::string &, size_t, size_t)
{
    throw std::runtime_error(no_libcrypto);
}

std::vector<uint8_t> random_salt() { throw std::runtime_error(no_libcrypto); }

} // namespace cli
