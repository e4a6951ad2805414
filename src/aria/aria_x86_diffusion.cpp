// The diffusion layer A on one block as byte shuffles, for the key schedules (aria_key.cpp
// beside the GFNI S-box layers, and the AES-NI kernels' round-key fold in
// aria_x86_byteslice.cpp): every ARIA round key passes through A, and byte by byte it was half
// of a rekey. Fixed shuffle indexes, so constant-time. SSSE3 only: it runs on every machine
// with an AVX kernel.
#if defined(__x86_64__)

#include "core/target_region.hpp"
KC_TARGET_PUSH("ssse3")
#include <immintrin.h>

#include "aria/aria.hpp"

namespace kc {

// The diffusion layer A (RFC 5794 section 2.3.3) as seven byte shuffles: each output byte is
// the XOR of seven input bytes, and each input byte feeds seven outputs, so the 0/1 matrix of
// A is the sum of seven permutation matrices (a 7-regular bipartite graph splits into seven
// perfect matchings). Row k below is permutation k: out[i] ^= in[perm[k][i]]. The tests
// compare it with the byte-by-byte aria_diffusion on every unit vector (A is linear).
void aria_diffusion_ssse3(const uint8_t in[16], uint8_t out[16])
{
    alignas(16) static const uint8_t perm[7][16] = {
        {8, 7, 4, 11, 14, 10, 9, 13, 15, 6, 3, 2, 12, 0, 5, 1},
        {14, 12, 10, 7, 15, 1, 0, 11, 4, 5, 13, 9, 6, 8, 3, 2},
        {3, 5, 11, 10, 0, 15, 7, 1, 13, 14, 8, 12, 2, 6, 9, 4},
        {13, 9, 1, 0, 8, 14, 2, 6, 7, 12, 15, 3, 11, 10, 4, 5},
        {6, 2, 15, 13, 11, 9, 10, 12, 1, 0, 5, 4, 7, 3, 14, 8},
        {4, 15, 12, 5, 2, 3, 13, 8, 0, 1, 6, 14, 9, 7, 11, 10},
        {9, 8, 6, 14, 5, 4, 12, 3, 10, 11, 2, 7, 1, 13, 0, 15},
    };
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in));
    __m128i r = _mm_shuffle_epi8(x, _mm_load_si128(reinterpret_cast<const __m128i *>(perm[0])));
    for (int k = 1; k < 7; k++)
        r = _mm_xor_si128(r, _mm_shuffle_epi8(x, _mm_load_si128(reinterpret_cast<const __m128i *>(perm[k]))));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), r);
}

} // namespace kc

KC_TARGET_POP()

#endif // __x86_64__
