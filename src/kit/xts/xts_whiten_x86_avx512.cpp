// xts-whiten/avx512: eight tweak chains in two zmm registers (blocks j..j+3 and j+4..j+7), each
// advanced by alpha^8 at once, which is a shift by whole bytes: each 128-bit lane moves up one
// byte (VPSLLDQ), and the byte h shifted out is reduced into the low bytes as h * 0x87
// carry-less = h ^ h<<1 ^ h<<2 ^ h<<7 (15 bits: no second reduction), seven instructions per
// four tweaks. Two independent registers halve the step's latency per block. A last group of fewer than eight blocks takes the
// portable path. Constant-time: shifts, byte shifts and XORs only.
#if defined(__x86_64__)
#include <immintrin.h>

#include "core/features.hpp"
#include "core/target_region.hpp"
#include "core/wipe.hpp"
#include "kit/xts/xts_whiten.hpp"

KC_TARGET_PUSH("avx512f,avx512bw")
// GCC's own AVX-512 headers trip these inside their casts (the undefined upper lanes).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace kc {
namespace {

constexpr size_t group = 8;

__m512i times_alpha8(__m512i v)
{
    const __m512i h = _mm512_bsrli_epi128(v, 15); // the byte shifted out of each lane
    const __m512i red = _mm512_ternarylogic_epi64(h, _mm512_slli_epi64(h, 1), _mm512_slli_epi64(h, 2), 0x96);
    return _mm512_ternarylogic_epi64(_mm512_bslli_epi128(v, 1), red, _mm512_slli_epi64(h, 7), 0x96);
}

// The tweaks of n blocks into tw and, With_data, in ^ tweak into out.
template <bool With_data>
void whiten(uint8_t t[16], uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n)
{
    const size_t full = n / group * group;
    if (full != 0) {
        alignas(64) uint8_t first[16 * group];
        xts_first_tweaks(t, first, group);
        __m512i v0 = _mm512_load_si512(first), v1 = _mm512_load_si512(first + 64);
        for (size_t j = 0; j < full; j += group) {
            _mm512_storeu_si512(tw + 16 * j, v0);
            _mm512_storeu_si512(tw + 16 * j + 64, v1);
            if constexpr (With_data) {
                _mm512_storeu_si512(out + 16 * j, _mm512_xor_si512(_mm512_loadu_si512(in + 16 * j), v0));
                _mm512_storeu_si512(out + 16 * j + 64, _mm512_xor_si512(_mm512_loadu_si512(in + 16 * j + 64), v1));
            }
            v0 = times_alpha8(v0);
            v1 = times_alpha8(v1);
        }
        _mm_storeu_si128(reinterpret_cast<__m128i *>(t), _mm512_castsi512_si128(v0)); // t * alpha^full
        secure_wipe(first, sizeof first);
    }
    if constexpr (With_data)
        xts_whiten_portable_kernel.pre(t, tw + 16 * full, in + 16 * full, out + 16 * full, n - full);
    else
        xts_whiten_portable_kernel.tweaks(t, tw + 16 * full, n - full);
}

void pre(uint8_t t[16], uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n) { whiten<true>(t, tw, in, out, n); }
void tweaks(uint8_t t[16], uint8_t *tw, size_t n) { whiten<false>(t, tw, nullptr, nullptr, n); }

void post(const uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n)
{
    const size_t full = n / 4 * 4;
    for (size_t j = 0; j < full; j += 4)
        _mm512_storeu_si512(out + 16 * j, _mm512_xor_si512(_mm512_loadu_si512(in + 16 * j), _mm512_loadu_si512(tw + 16 * j)));
    xts_whiten_portable_kernel.post(tw + 16 * full, in + 16 * full, out + 16 * full, n - full);
}

} // namespace

extern const XtsWhitenKernel xts_whiten_avx512_kernel = {"xts-whiten/avx512", feat_avx512f | feat_avx512bw, 20,
                                                         pre, post, tweaks};

} // namespace kc

#pragma GCC diagnostic pop
KC_TARGET_POP()
#endif
