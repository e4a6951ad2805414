// The round keys of the one-block x86 kernels (aria/aesni-block, aria/avx512-gfni-block,
// aria/avx-gfni-block): each round key one xmm row, encryption's and decryption's. Internal
// linkage and SSE2 only, so that every file may include it inside its own target region.
#pragma once
#if defined(__x86_64__)

#include <immintrin.h>

#include <cstdint>

#include "aria/aria.hpp"
#include "core/wipe.hpp"

namespace kc {
namespace {

struct AriaBlockKeys {
    int rounds;
    __m128i ek[aria_max_rounds + 1];
    __m128i dk[aria_max_rounds + 1];
};

bool supports(Cipher c) { return c == Cipher::aria128 || c == Cipher::aria192 || c == Cipher::aria256; }

void schedule(Cipher c, const uint8_t *key, AriaBlockKeys *k)
{
    AriaRoundKeys rk;
    aria_key_schedule(c, key, &rk);
    k->rounds = rk.rounds;
    for (int r = 0; r <= rk.rounds; r++) {
        k->ek[r] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(rk.ek[r]));
        k->dk[r] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(rk.dk[r]));
    }
    secure_wipe(&rk, sizeof rk);
}

} // namespace
} // namespace kc

#endif // __x86_64__
