// Crypto++ (Debian's libcrypto++), where installed, measured in the same run as kcipher:
// the other library with LEA, HIGHT, CHAM and SEED. Its CHAM is the original 2017 cipher
// (80/80/96 rounds, not the revised 88/112/120), so its CHAM rows are labelled so and
// compare a cipher with fewer rounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace cli {

using CryptoppWork = std::function<void(const uint8_t *, uint8_t *, size_t)>;

bool cryptopp_available();
std::string cryptopp_version();
// cipher "lea-128", mode "ctr"; empty function when Crypto++ lacks it (or is absent).
// `label` receives what to print in the kernel column.
CryptoppWork cryptopp_worker(const std::string &cipher, const std::string &mode, const uint8_t *key,
                             size_t key_len, const uint8_t *iv, std::string *label);

} // namespace cli
