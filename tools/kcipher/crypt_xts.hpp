// `kcipher enc` and `dec` in XTS (`-c NAME-xts -k KEY1KEY2 --iv TWEAK [--data-unit N]`). With
// --data-unit the input is cut into units of N bytes, unit i under TWEAK + i (dm-crypt's
// plain64 sector numbers), streamed in chunks of whole units. Without it the whole input is
// one data unit, whose last blocks (ciphertext stealing) depend on its length: it is read
// into memory whole, so such an input must fit in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "atomic_output.hpp"
#include "crypt_input.hpp"
#include "kcipher/kcipher.hpp"
#include "progress.hpp"

namespace cli {

// c: a context made with the NAME-xts name and the double key; tweak: 16 bytes.
void run_xts(const kcipher::Cipher &c, bool encrypt, const std::vector<uint8_t> &tweak, size_t data_unit, Input &in,
             AtomicOutput &out, Progress &bar);

} // namespace cli
