// xts-whiten/avx2: eight tweak chains in four ymm registers (blocks j..j+7, two a register),
// each advanced by alpha^8 at once, which is a shift by whole bytes: each 128-bit lane moves up
// one byte (VPSLLDQ), and the byte h shifted out is reduced into the low bytes as h * 0x87
// carry-less = h ^ h<<1 ^ h<<2 ^ h<<7 (15 bits: no second reduction). A last group of fewer
// than eight blocks takes the portable path. Constant-time: shifts and XORs only.
#if defined(__x86_64__)
#include <immintrin.h>

#include "core/features.hpp"
#include "core/target_region.hpp"
#include "core/wipe.hpp"
#include "kit/xts/xts_whiten.hpp"

KC_TARGET_PUSH("avx2")

namespace kc {
namespace {

constexpr size_t group = 8;

__m256i times_alpha8(__m256i v)
{
    const __m256i h = _mm256_bsrli_epi128(v, 15); // the byte shifted out of each lane
    const __m256i red = _mm256_xor_si256(_mm256_xor_si256(h, _mm256_slli_epi64(h, 1)),
                                         _mm256_xor_si256(_mm256_slli_epi64(h, 2), _mm256_slli_epi64(h, 7)));
    return _mm256_xor_si256(_mm256_bslli_epi128(v, 1), red);
}

__m256i load(const uint8_t *p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)); }
void store(uint8_t *p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), v); }

// The tweaks of n blocks into tw and, With_data, in ^ tweak into out.
template <bool With_data>
void whiten(uint8_t t[16], uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n)
{
    const size_t full = n / group * group;
    if (full != 0) {
        alignas(64) uint8_t first[16 * group];
        xts_first_tweaks(t, first, group);
        __m256i v[4];
        for (int r = 0; r < 4; r++)
            v[r] = load(first + 32 * r);
        for (size_t j = 0; j < full; j += group)
            for (int r = 0; r < 4; r++) {
                const size_t at = 16 * j + 32 * r;
                store(tw + at, v[r]);
                if constexpr (With_data)
                    store(out + at, _mm256_xor_si256(load(in + at), v[r]));
                v[r] = times_alpha8(v[r]);
            }
        _mm_storeu_si128(reinterpret_cast<__m128i *>(t), _mm256_castsi256_si128(v[0])); // t * alpha^full
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
    const size_t full = n / 2 * 2;
    for (size_t j = 0; j < full; j += 2)
        store(out + 16 * j, _mm256_xor_si256(load(in + 16 * j), load(tw + 16 * j)));
    xts_whiten_portable_kernel.post(tw + 16 * full, in + 16 * full, out + 16 * full, n - full);
}

} // namespace

extern const XtsWhitenKernel xts_whiten_avx2_kernel = {"xts-whiten/avx2", feat_avx2, 10, pre, post, tweaks};

} // namespace kc

KC_TARGET_POP()
#endif
