// xts-whiten/avx512 and xts-whiten/avx512-vpclmul: the tweak chains in zmm registers, four
// blocks to a register, each chain advanced by alpha^8 or alpha^32 at once, which is a shift by
// whole bytes: each 128-bit lane moves up (VPSLLDQ), and the bits h shifted out are reduced into
// the low bytes as h * 0x87 carry-less (15 or 39 bits: no second reduction), by shifts and XORs
// or by one VPCLMULQDQ (ShiftReduce, ClmulReduce below). The chains start from t * alpha^k,
// every k at once (first4). A last group of fewer blocks takes the portable path.
// Constant-time: shifts, byte shifts, carry-less multiplication and XORs only.
#if defined(__x86_64__)
#include <immintrin.h>

#include "core/features.hpp"
#include "core/target_region.hpp"
#include "core/wipe.hpp"
#include "kit/xts/xts_whiten.hpp"

KC_TARGET_PUSH("avx512f,avx512bw,vpclmulqdq")
// GCC's own AVX-512 headers trip these inside their casts (the undefined upper lanes).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace kc {
namespace {

// Shifts and XORs, eight chains in two registers each advanced by alpha^8 (a byte): seven
// instructions a step, three of them shifts (port 0 alone on Intel cores).
struct ShiftReduce {
    static constexpr size_t group = 8;
    static __m512i step(__m512i v)
    {
        const __m512i h = _mm512_bsrli_epi128(v, 15); // the byte shifted out of each lane
        const __m512i red = _mm512_ternarylogic_epi64(h, _mm512_slli_epi64(h, 1), _mm512_slli_epi64(h, 2), 0x96);
        return _mm512_ternarylogic_epi64(_mm512_bslli_epi128(v, 1), red, _mm512_slli_epi64(h, 7), 0x96);
    }
};

// With VPCLMULQDQ: 32 chains in eight registers each advanced by alpha^32 (four bytes); the
// four bytes h shifted out reduce as one carry-less multiplication h * 0x87 (39 bits: no second
// reduction), four instructions a step where ShiftReduce takes seven. Eight registers, as the
// multiplication's latency sets the pace of a chain: with four (alpha^16), generating the
// tweaks took 10% of LEA-128-XTS on a Zen 5 VM. The tweaks were most of what XTS adds to a
// kernel that XORs them in itself (kit/xts/xts_accel.hpp).
struct ClmulReduce {
    static constexpr size_t group = 32;
    static __m512i step(__m512i v)
    {
        const __m512i poly = _mm512_set1_epi64(0x87);
        const __m512i h = _mm512_srli_epi64(v, 32); // the high qword's top four bytes, at its bottom
        return _mm512_xor_si512(_mm512_bslli_epi128(v, 4), _mm512_clmulepi64_epi128(h, poly, 0x01));
    }
};

// t * alpha^c in lane i, c = k + i (t in every lane): each lane's 128-bit value shifted left by
// its own count, the c bits h shifted out of the top reduced as h * 0x87 by shifts and XORs
// (h ^ h<<1 ^ h<<2 ^ h<<7, below 2^(c + 7): within the low qword while c < 57). The chains'
// starts in a few independent instructions, where doubling t block by block was a serial chain
// that every call restarted.
__m512i first4(__m512i t, int k)
{
    const __m512i cnt = _mm512_add_epi64(_mm512_set1_epi64(k), _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0));
    const __m512i up = _mm512_sllv_epi64(t, cnt);                                    // lo << c, hi << c
    const __m512i out = _mm512_srlv_epi64(t, _mm512_sub_epi64(_mm512_set1_epi64(64), cnt)); // lo >> (64 - c), h
    const __m512i carry = _mm512_bslli_epi128(out, 8); // lo's top bits into hi
    const __m512i h = _mm512_bsrli_epi128(out, 8);     // hi's top bits, at the bottom of lo
    const __m512i red = _mm512_ternarylogic_epi64(h, _mm512_slli_epi64(h, 1), _mm512_slli_epi64(h, 2), 0x96);
    return _mm512_ternarylogic_epi64(up, carry, _mm512_xor_si512(red, _mm512_slli_epi64(h, 7)), 0x96);
}

// The tweaks of n blocks into tw and, With_data, in ^ tweak into out: R::group chains, four to
// a register, each advanced by alpha^group per step.
template <class R, bool With_data>
void whiten(uint8_t t[16], uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n)
{
    constexpr size_t group = R::group, regs = group / 4;
    static_assert(group <= 56, "first4's reduction fits one qword");
    const size_t full = n / group * group;
    if (full != 0) {
        const __m512i t4 = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i *>(t)));
        __m512i v[regs];
        for (size_t r = 0; r < regs; r++)
            v[r] = first4(t4, 4 * (int)r);
        for (size_t j = 0; j < full; j += group) {
            for (size_t r = 0; r < regs; r++) {
                const size_t at = 16 * j + 64 * r;
                _mm512_storeu_si512(tw + at, v[r]);
                if constexpr (With_data)
                    _mm512_storeu_si512(out + at, _mm512_xor_si512(_mm512_loadu_si512(in + at), v[r]));
                v[r] = R::step(v[r]);
            }
        }
        _mm_storeu_si128(reinterpret_cast<__m128i *>(t), _mm512_castsi512_si128(v[0])); // t * alpha^full
    }
    if constexpr (With_data)
        xts_whiten_portable_kernel.pre(t, tw + 16 * full, in + 16 * full, out + 16 * full, n - full);
    else
        xts_whiten_portable_kernel.tweaks(t, tw + 16 * full, n - full);
}

template <class R> void pre(uint8_t t[16], uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n)
{
    whiten<R, true>(t, tw, in, out, n);
}
template <class R> void tweaks(uint8_t t[16], uint8_t *tw, size_t n) { whiten<R, false>(t, tw, nullptr, nullptr, n); }

void post(const uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n)
{
    const size_t full = n / 4 * 4;
    for (size_t j = 0; j < full; j += 4)
        _mm512_storeu_si512(out + 16 * j, _mm512_xor_si512(_mm512_loadu_si512(in + 16 * j), _mm512_loadu_si512(tw + 16 * j)));
    xts_whiten_portable_kernel.post(tw + 16 * full, in + 16 * full, out + 16 * full, n - full);
}

} // namespace

extern const XtsWhitenKernel xts_whiten_avx512_kernel = {"xts-whiten/avx512", feat_avx512f | feat_avx512bw, 20,
                                                         pre<ShiftReduce>, post, tweaks<ShiftReduce>};
extern const XtsWhitenKernel xts_whiten_avx512_vpclmul_kernel = {
    "xts-whiten/avx512-vpclmul", feat_avx512f | feat_avx512bw | feat_vpclmul, 25, pre<ClmulReduce>, post, tweaks<ClmulReduce>};

} // namespace kc

#pragma GCC diagnostic pop
KC_TARGET_POP()
#endif
