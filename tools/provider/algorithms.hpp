// The algorithms the provider offers: each cipher of kcipher in each mode it has, under
// OpenSSL's names (and OIDs) where OpenSSL has the cipher, else kcipher's own name uppercased.
#pragma once

#include <kcipher/kcipher.h>
#include <openssl/core.h>

#include <cstddef>
#include <vector>

namespace kcprov {

struct Algo {
    const char *names;  // OpenSSL's name list: "ARIA-128-CBC:ARIA128:1.2.410.200046.1.1.2"
    const char *cipher; // kcipher's cipher: "aria-128"
    kcipher_mode mode;
};

// Every cipher algorithm, built once from kcipher's cipher table.
const std::vector<Algo> &algos();

// The cipher's block, the key and IV lengths OpenSSL is told, and OpenSSL's mode number and
// block size for the mode.
struct AlgoShape {
    size_t block;        // the cipher's block
    size_t key_len;      // the mode's key (XTS: two keys)
    size_t iv_len;       // the default IV length
    unsigned ossl_mode;  // EVP_CIPH_*_MODE
    size_t ossl_block;   // what EVP_CIPHER_get_block_size says (1 for stream-like modes)
    bool aead;
};
AlgoShape shape_of(const Algo &a);

// The OSSL_ALGORITHM list for OSSL_OP_CIPHER, ended by a null entry (cipher_dispatch.cpp).
const OSSL_ALGORITHM *cipher_algorithms();

} // namespace kcprov
