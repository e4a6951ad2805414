#include <cstring>
#include <string>

#include "core/cipher.hpp"
#include "kcipher/kcipher.h"

namespace {

// "unknown cipher (expected aria-128, ..., cham-128-256 or seed-128)", from the cipher table, so
// that a new cipher needs no edit here.
const char *unknown_cipher_message()
{
    static const std::string m = [] {
        std::string s = "unknown cipher (expected ";
        for (int i = 0; i < kc::cipher_count; i++)
            s += std::string(i == 0 ? "" : i + 1 == kc::cipher_count ? " or " : ", ") + kc::cipher_by_index(i)->name;
        return s + ")";
    }();
    return m.c_str();
}

} // namespace

extern "C" {

const char *kcipher_strerror(kcipher_status status)
{
    // A C caller may pass any int. In C++, loading a value outside the enum's range as the
    // enum is undefined (clang's -fsanitize=enum stops there), so the switch reads an int.
    int code;
    static_assert(sizeof code == sizeof status, "a C enum is an int");
    std::memcpy(&code, &status, sizeof code);
    switch (code) {
    case KCIPHER_OK:
        return "success";
    case KCIPHER_ERR_NULL_POINTER:
        return "a required pointer argument is NULL";
    case KCIPHER_ERR_UNKNOWN_CIPHER:
        return unknown_cipher_message();
    case KCIPHER_ERR_UNKNOWN_MODE:
        return "unknown mode (expected a -ecb, -cbc, -ctr, -cfb, -cfb8, -ofb, -xts, -gcm, -ccm, -cmac or -gmac suffix)";
    case KCIPHER_ERR_KEY_LENGTH:
        return "wrong key length for this cipher";
    case KCIPHER_ERR_IV_LENGTH:
        return "wrong IV length (ECB none; CBC and CTR one block; GCM/GMAC at least 1 byte; CCM 7-13 bytes)";
    case KCIPHER_ERR_DATA_LENGTH:
        return "wrong data length (ECB and CBC need whole blocks; an AEAD input must hold its tag; CCM exactly its declared lengths)";
    case KCIPHER_ERR_COUNTER_SPACE:
        return "the request runs past the end of the CTR counter space";
    case KCIPHER_ERR_UNKNOWN_KERNEL:
        return "unknown kernel name (see `kcipher info`)";
    case KCIPHER_ERR_KERNEL_UNAVAILABLE:
        return "this machine cannot run the requested kernel (missing CPU feature or GPU)";
    case KCIPHER_ERR_KERNEL_MISMATCH:
        return "the requested kernel does not implement this cipher";
    case KCIPHER_ERR_OVERLAP:
        return "input and output buffers overlap without being the same buffer";
    case KCIPHER_ERR_NO_MEMORY:
        return "out of memory";
    case KCIPHER_ERR_INVALID_ARGUMENT:
        return "invalid argument";
    case KCIPHER_ERR_INTERNAL:
        return "internal error";
    case KCIPHER_ERR_CUDA:
        return "a CUDA call failed (kcipher_gpu_last_error has the CUDA message)";
    case KCIPHER_ERR_NOT_GPU_KERNEL:
        return "device memory needs a context made with a GPU kernel (see kcipher_default_gpu_kernel)";
    case KCIPHER_ERR_NOT_DEVICE_MEMORY:
        return "a pointer passed as device memory is not GPU memory";
    case KCIPHER_ERR_NO_GPU:
        return "no usable GPU (none present, no CUDA in this build, or the GPU index is out of range)";
    case KCIPHER_ERR_MASK_BITS:
        return "the key mask has more than 64 bits set (at most 2^64 candidates)";
    case KCIPHER_ERR_NO_PAIRS:
        return "the key search needs at least one known (plaintext, ciphertext) pair";
    case KCIPHER_ERR_PAIR_LENGTH:
        return "a known plaintext or ciphertext is not exactly one block of the cipher";
    case KCIPHER_ERR_SEARCH_RANGE:
        return "start and count reach outside the 2^(mask bits) candidates (or the range holds 2^64: "
               "give a count or use shards)";
    case KCIPHER_ERR_CHECKPOINT_MISMATCH:
        return "the checkpoint file belongs to a different search (cipher, pairs, key, mask or range differ)";
    case KCIPHER_ERR_CHECKPOINT:
        return "the checkpoint file cannot be read or written";
    case KCIPHER_ERR_CANCELLED:
        return "the key search was stopped before the end of its range (progress saved)";
    case KCIPHER_ERR_DRBG_NOT_INSTANTIATED:
        return "the DRBG is not instantiated (call kcipher_drbg_instantiate first)";
    case KCIPHER_ERR_DRBG_REQUEST_TOO_LARGE:
        return "DRBG request over the per-request limit (2^19 bits for a 128-bit block cipher, 2^13 for a "
               "64-bit one; kcipher_drbg_generate_large serves more)";
    case KCIPHER_ERR_DRBG_RESEED_REQUIRED:
        return "the DRBG must be reseeded (reseed interval reached or prediction resistance asked) and has no "
               "entropy source: call kcipher_drbg_reseed";
    case KCIPHER_ERR_DRBG_ENTROPY_LENGTH:
        return "wrong DRBG entropy input length (without df exactly seedlen = key + block bytes; with df at "
               "least the key length, at most 1 MiB)";
    case KCIPHER_ERR_DRBG_INPUT_LENGTH:
        return "DRBG nonce, personalization string or additional input too long (without df at most seedlen "
               "bytes; with df at most 1 MiB)";
    case KCIPHER_ERR_DRBG_ENTROPY_SOURCE:
        return "the DRBG entropy source failed (or there is none)";
    case KCIPHER_ERR_UNSUPPORTED:
        return "this cipher does not offer the operation asked for (e.g. no GPU key search for its family)";
    case KCIPHER_ERR_AUTH:
        return "authentication failed: the tag does not match (no plaintext was released)";
    case KCIPHER_ERR_TAG_LENGTH:
        return "a tag length the mode does not allow (GCM/GMAC: 4, 8, 12-16; CCM: 4-16 even; CMAC: 4 to the block size)";
    case KCIPHER_ERR_MODE_LIMIT:
        return "the message, AAD or IV exceeds the mode's limit for one invocation";
    case KCIPHER_ERR_STATE:
        return "a streaming call out of order (AAD after data, or a call after the final one)";
    case KCIPHER_ERR_XTS_KEY:
        return "the two halves of the XTS key are equal (XTS needs two different keys)";
    case KCIPHER_ERR_PADDING:
        return "bad padding: the data is not PKCS#7-padded with this key and IV";
    case KCIPHER_ERR_CONTEXT_MODE:
        return "this context was keyed for another mode (an XTS key serves XTS alone; XTS needs a NAME-xts context)";
    case KCIPHER_ERR_CHECKPOINT_DAMAGED:
        return "the checkpoint file is damaged (its checksum or a field does not check out, or a key it holds "
               "does not match the pairs): refused; move it away to start the search afresh";
    case KCIPHER_ERR_CPU_FEATURES:
        return "KCIPHER_CPU_FEATURES cannot be parsed: it takes -FEATURE entries (e.g. -avx512f,-gfni or -all)";
    }
    return "unknown status code";
}

const char *kcipher_version(void) { return KCIPHER_VERSION; }

} // extern "C"
