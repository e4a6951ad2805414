// KCIPHER-CTR-DRBG: an EVP_RAND over kcipher's CTR_DRBG (SP 800-90A) for every cipher.
#pragma once

#include <openssl/core.h>

namespace kcprov {
// The OSSL_ALGORITHM list for OSSL_OP_RAND, ended by a null entry.
const OSSL_ALGORITHM *rand_algorithms();
} // namespace kcprov
