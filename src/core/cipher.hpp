// The eleven cipher variants kcipher knows, and what the layers above a kernel need to
// know about each: its name, block size and key size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kc {

enum class Cipher : int {
    aria128,
    aria192,
    aria256,
    lea128,
    lea192,
    lea256,
    hight,
    cham64_128,
    cham128_128,
    cham128_256,
    seed128,
};
constexpr int cipher_count = 11;

struct CipherDesc {
    Cipher id;
    const char *name;   // "aria-128": the name used by the API, the CLI and bench
    const char *family; // "aria": kernels are written per family
    size_t block_bytes;
    size_t key_bytes;
};

const CipherDesc &cipher_desc(Cipher c);
const CipherDesc *cipher_by_name(std::string_view name); // nullptr when unknown
const CipherDesc *cipher_by_index(int i);                // 0 <= i < cipher_count

} // namespace kc
