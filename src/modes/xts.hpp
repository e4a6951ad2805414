// XTS (IEEE 1619, SP 800-38E), written once against the kernel interface. Arguments are valid
// here (the C API checked them): len >= 16, every data unit (and a shorter last one) at least
// one block, buffers identical or disjoint, 128-bit blocks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "modes/keyed.hpp"

namespace kc {

// data: the data key; tweak: the tweak key (the second half of an XTS key). data_unit == 0:
// the whole input is one data unit under tweak16; otherwise unit u (data_unit bytes, the last
// one possibly shorter) uses tweak16 + u, a 128-bit little-endian sum. A unit that is not
// whole blocks ends with ciphertext stealing.
void xts_encrypt(const Keyed &data, const Keyed &tweak, const uint8_t tweak16[16], size_t data_unit,
                 const uint8_t *in, uint8_t *out, size_t len);
void xts_decrypt(const Keyed &data, const Keyed &tweak, const uint8_t tweak16[16], size_t data_unit,
                 const uint8_t *in, uint8_t *out, size_t len);

} // namespace kc
