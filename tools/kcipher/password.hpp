// `--pass` with `--pbkdf2`, as `openssl enc -pbkdf2` does it, so that either tool opens what
// the other wrote: key and IV are one PBKDF2-HMAC output (key first) over the password and a
// random 8-byte salt, and the file starts with "Salted__" and the salt. PBKDF2 and the salt's
// randomness come from OpenSSL's libcrypto; a kcipher built without it refuses --pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cli {

constexpr char salted_magic[] = "Salted__"; // 8 bytes, no NUL in the file
constexpr size_t salt_bytes = 8;
constexpr unsigned default_pbkdf2_iter = 10000; // openssl enc's default

// The password named by pass:TEXT, env:VAR or file:PATH (its first line, without the
// newline, as openssl reads it). Throws std::runtime_error with a message.
std::string read_password(const std::string &source);

struct DerivedKey {
    std::vector<uint8_t> key, iv; // iv empty when iv_bytes is 0 (ECB)
};

// PKCS5_PBKDF2_HMAC with the digest named by md ("sha256", "sha1", "sha512", ... as OpenSSL
// names them). Throws when the digest is unknown or libcrypto is missing.
DerivedKey derive_key(const std::string &password, const uint8_t *salt, unsigned iter, const std::string &md,
                      size_t key_bytes, size_t iv_bytes);

// salt_bytes from a cryptographic generator (libcrypto's RAND_bytes).
std::vector<uint8_t> random_salt();

} // namespace cli
