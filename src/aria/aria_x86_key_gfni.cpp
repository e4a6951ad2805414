// The key schedule's substitution layers with GFNI: all 16 bytes of FO's or FE's input through
// the four S-boxes at once (the byte-sliced kernels' affine maps, aria_x86_byteslice.hpp), each
// byte position then keeping its own S-box by mask. No table is read, so this is constant-time
// like the S-box scan it replaces (aria_key.cpp), and about a hundred times faster: the
// key schedule is on the critical path of every CTR_DRBG request and of short messages. The
// diffusion layer beside it is aria_x86_diffusion.cpp.
#if defined(__x86_64__)

#include "core/target_region.hpp"
KC_TARGET_PUSH("sse4.1,gfni")
#include <immintrin.h>

#include "aria/aria.hpp"
#include "aria/aria_x86_byteslice.hpp"

namespace kc {

void aria_key_layer_gfni(const uint8_t in[16], int layer, uint8_t out[16])
{
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in));
    const __m128i id = _mm_set1_epi64x(gf_identity);
    const __m128i s1 = _mm_gf2p8affineinv_epi64_epi8(x, _mm_set1_epi64x(gf_sb1_post), 0x63);
    const __m128i s2 = _mm_gf2p8affineinv_epi64_epi8(x, _mm_set1_epi64x(gf_sb2_post), 0xe2);
    const __m128i s3 = _mm_gf2p8affineinv_epi64_epi8(
        _mm_gf2p8affine_epi64_epi8(x, _mm_set1_epi64x(gf_sb3_pre), 0x05), id, 0);
    const __m128i s4 = _mm_gf2p8affineinv_epi64_epi8(
        _mm_gf2p8affine_epi64_epi8(x, _mm_set1_epi64x(gf_sb4_pre), 0x2c), id, 0);
    // Byte i takes S-box i mod 4 of the layer's order: (SB1, SB2, SB3, SB4) for layer 1,
    // (SB3, SB4, SB1, SB2) for layer 2 (RFC 5794 section 2.3.2).
    const __m128i a = layer == 1 ? s1 : s3, b = layer == 1 ? s2 : s4;
    const __m128i c = layer == 1 ? s3 : s1, d = layer == 1 ? s4 : s2;
    __m128i r = _mm_and_si128(a, _mm_set1_epi32(0x000000ff));
    r = _mm_or_si128(r, _mm_and_si128(b, _mm_set1_epi32(0x0000ff00)));
    r = _mm_or_si128(r, _mm_and_si128(c, _mm_set1_epi32(0x00ff0000)));
    r = _mm_or_si128(r, _mm_and_si128(d, _mm_set1_epi32(int(0xff000000u))));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), r);
}

} // namespace kc

KC_TARGET_POP()

#endif // __x86_64__
