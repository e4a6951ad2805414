// `kcipher enc` and `kcipher dec` in GCM and CCM: ciphertext || tag, streamed through the C
// API's kcipher_aead_* in chunks, so memory stays bounded for any size.
//
// Decryption releases nothing before the tag verifies: an output file is the usual temporary
// file renamed into place on success; standard output, a device or a FIFO gets the plaintext
// only after the tag verified, from an unlinked temporary file that held it (AtomicOutput's
// hold). On a bad tag: "authentication failed" and exit 1, no output file, stdout empty.
// CCM needs the text length before its first block: a pipe's input is first copied whole into
// an unlinked temporary file (Input::spool).
#pragma once

#include <cstdint>
#include <vector>

#include "crypt_options.hpp"
#include "kcipher/kcipher.hpp"

namespace cli {

// --iv for GCM (1 byte or more) or CCM (the nonce, 7 to 13 bytes), with --tag-len and the
// cipher's block checked too, before any key is made or file opened.
std::vector<uint8_t> aead_iv(const CryptOptions &o, kcipher_mode mode, const kcipher_cipher_info &info);

int run_aead(const CryptOptions &o, const kcipher::Cipher &c, kcipher_mode mode, const std::vector<uint8_t> &iv,
             bool encrypt);

} // namespace cli
