// ghash/neon-pmull: GHASH with the ARMv8 Crypto Extension's 64x64 carry-less multiply
// (PMULL, PMULL2), four blocks per reduction.
//
// Technique: that of the x86 code (ghash_x86_clmul.hpp; ghash_portable.cpp derives the
// reduction): blocks byte-reversed into 128-bit integers, four products of 64-bit halves per
// block product, summed unreduced over four blocks, then shifted left one bit and reduced
// modulo x^128 + x^7 + x^2 + x + 1 with 64-bit lane shifts.
//
// Constant-time: PMULL's timing does not depend on its operands on ARMv8 cores, and
// everything else is shifts, lane moves and XORs at fixed addresses.
#if defined(__aarch64__)
// The whole file may use PMULL: the kernel requires it (feat_arm_pmull), and GCC emits it only
// where an intrinsic asks for it.
#if !defined(__clang__)
#pragma GCC target("+crypto")
#endif
// clang (14) declares the AES and PMULL intrinsics only for a file compiled with them:
// src/CMakeLists.txt gives this file -march=armv8-a+crypto there. Safe for the shared inline
// functions too, since no compiler emits AES or PMULL unless an intrinsic asks.
#include <arm_neon.h>

#include <cstring>

#include "core/features.hpp"
#include "kit/ghash/ghash.hpp"

namespace kc {
namespace {

using u64x2 = uint64x2_t;

inline u64x2 load_block(const uint8_t *p)
{
    const uint8x16_t b = vrev64q_u8(vld1q_u8(p));
    return vreinterpretq_u64_u8(vextq_u8(b, b, 8));
}

inline void store_block(uint8_t *p, u64x2 v)
{
    const uint8x16_t b = vrev64q_u8(vreinterpretq_u8_u64(v));
    vst1q_u8(p, vextq_u8(b, b, 8));
}

inline u64x2 clmul(uint64_t a, uint64_t b) { return vreinterpretq_u64_p128(vmull_p64(a, b)); }

// An unreduced 256-bit product: low, middle and high 128-bit parts.
struct Wide {
    u64x2 lo, mid, hi;
};

inline Wide zero_wide()
{
    const u64x2 z = vdupq_n_u64(0);
    return {z, z, z};
}

inline void mul_add(Wide &w, u64x2 a, u64x2 b)
{
    const uint64_t a0 = vgetq_lane_u64(a, 0), a1 = vgetq_lane_u64(a, 1);
    const uint64_t b0 = vgetq_lane_u64(b, 0), b1 = vgetq_lane_u64(b, 1);
    w.lo = veorq_u64(w.lo, clmul(a0, b0));
    w.hi = veorq_u64(w.hi, clmul(a1, b1));
    w.mid = veorq_u64(w.mid, veorq_u64(clmul(a0, b1), clmul(a1, b0)));
}

// The shifts 63, 62 and 57 left of each lane: what the terms of degree >= 128 fold back to.
inline u64x2 fold_left(u64x2 x)
{
    return veorq_u64(veorq_u64(vshlq_n_u64(x, 63), vshlq_n_u64(x, 62)), vshlq_n_u64(x, 57));
}

// Lane 0 of x moved to lane 1 (zero below), and lane 1 moved to lane 0 (zero above).
inline u64x2 up(u64x2 x) { return vreinterpretq_u64_u8(vextq_u8(vdupq_n_u8(0), vreinterpretq_u8_u64(x), 8)); }
inline u64x2 down(u64x2 x) { return vreinterpretq_u64_u8(vextq_u8(vreinterpretq_u8_u64(x), vdupq_n_u8(0), 8)); }

inline u64x2 reduce(Wide w)
{
    u64x2 lo = veorq_u64(w.lo, up(w.mid));
    u64x2 hi = veorq_u64(w.hi, down(w.mid));
    const u64x2 lc = vshrq_n_u64(lo, 63), hc = vshrq_n_u64(hi, 63);
    lo = vorrq_u64(vshlq_n_u64(lo, 1), up(lc));
    hi = vorrq_u64(vorrq_u64(vshlq_n_u64(hi, 1), up(hc)), down(lc));
    lo = veorq_u64(lo, up(fold_left(lo)));
    u64x2 r = veorq_u64(lo, veorq_u64(vshrq_n_u64(lo, 1), veorq_u64(vshrq_n_u64(lo, 2), vshrq_n_u64(lo, 7))));
    r = veorq_u64(r, down(fold_left(lo)));
    return veorq_u64(hi, r);
}

inline u64x2 gf_mul(u64x2 a, u64x2 b)
{
    Wide w = zero_wide();
    mul_add(w, a, b);
    return reduce(w);
}

// key.words: H^1 .. H^4, two words each.
inline u64x2 power(const GhashKey &k, int i) { return vld1q_u64(k.words + 2 * (i - 1)); }

void init(GhashKey &key, const uint8_t h[16])
{
    std::memset(&key, 0, sizeof key);
    const u64x2 h1 = load_block(h);
    u64x2 p = h1;
    for (int i = 0; i < 4; i++) {
        vst1q_u64(key.words + 2 * i, p);
        p = gf_mul(p, h1);
    }
}

void update(const GhashKey &key, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    u64x2 acc = load_block(y);
    const u64x2 h1 = power(key, 1), h2 = power(key, 2), h3 = power(key, 3), h4 = power(key, 4);
    for (; nblocks >= 4; nblocks -= 4, in += 64) {
        Wide w = zero_wide();
        mul_add(w, veorq_u64(acc, load_block(in)), h4);
        mul_add(w, load_block(in + 16), h3);
        mul_add(w, load_block(in + 32), h2);
        mul_add(w, load_block(in + 48), h1);
        acc = reduce(w);
    }
    for (; nblocks > 0; nblocks--, in += 16)
        acc = gf_mul(veorq_u64(acc, load_block(in)), h1);
    store_block(y, acc);
}

} // namespace
} // namespace kc

namespace kc {
// Descriptor: needs NEON and PMULL; constant-time; rank 10.
extern const GhashKernel ghash_neon_pmull_kernel = {"ghash/neon-pmull", feat_neon | feat_arm_pmull, 10, true,
                                                    init, update};
} // namespace kc
#endif
