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
#include "aria/aria_x86_block_tables.hpp"

namespace kc {

// The diffusion layer A (RFC 5794 section 2.3.3) as the seven byte shuffles of
// aria_x86_block_tables.hpp.
void aria_diffusion_ssse3(const uint8_t in[16], uint8_t out[16])
{
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in));
    __m128i r = _mm_shuffle_epi8(x, _mm_load_si128(reinterpret_cast<const __m128i *>(aria_block::perm[0])));
    for (int k = 1; k < 7; k++)
        r = _mm_xor_si128(r, _mm_shuffle_epi8(x, _mm_load_si128(reinterpret_cast<const __m128i *>(aria_block::perm[k]))));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), r);
}

} // namespace kc

KC_TARGET_POP()

#endif // __x86_64__
