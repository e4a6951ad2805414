// The XOR at the heart of the feedback modes, one whole block at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace kc {

// out = a ^ b over one block of bs bytes (16 or 8); also, where not null, takes it too (CFB
// encryption's register becomes the ciphertext block). A 16-byte block is one vector: the next
// block's 16-byte load of the register then forwards from one store, where two 8-byte stores
// under it would stall the chain on every block.
inline void xor_block(const uint8_t *a, const uint8_t *b, uint8_t *out, size_t bs, uint8_t *also = nullptr)
{
    if (bs == 16) {
        typedef uint8_t u8x16 __attribute__((vector_size(16)));
        u8x16 x, y;
        std::memcpy(&x, a, 16);
        std::memcpy(&y, b, 16);
        x ^= y;
        std::memcpy(out, &x, 16);
        if (also != nullptr)
            std::memcpy(also, &x, 16);
    } else {
        uint64_t x, y;
        std::memcpy(&x, a, 8);
        std::memcpy(&y, b, 8);
        x ^= y;
        std::memcpy(out, &x, 8);
        if (also != nullptr)
            std::memcpy(also, &x, 8);
    }
}

} // namespace kc
