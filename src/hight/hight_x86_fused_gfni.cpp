// HIGHT for the CTR_DRBG chain (src/kit/fused_ecb.hpp): ECB of up to four blocks straight
// from the raw key, one block per 64-bit lane of a ymm register, with AVX-512VL/BW and GFNI.
// The chain runs one call per request (three blocks), one after the other, so this is written
// for latency, where the byte-sliced kernels are written for throughput over 64 blocks.
//
// A round on all blocks at once, with byte j of a lane holding X_j:
//   F0 and F1 of every byte are one GF2P8AFFINEQB each (masked to the bytes that feed them);
//   one masked VPADDB makes F1(x) ^ SK on bytes 0 and 4 and F0(x) + SK on bytes 2 and 6;
//   a 64-bit rotation by 8 moves those terms onto the odd bytes they update;
//   one masked VPADDB and a VPXOR add them into bytes 1 and 5 and XOR them into 3 and 7.
// The standard's byte rotation of the state after each round is not done: round r works on
// the state seen rotated by -r bytes, its masks and subkey positions rotated to match, and
// one rotation at the end puts the bytes back. The critical path is then GF2P8AFFINEQB,
// three one-cycle operations and the rotation, per round. The subkeys SK_n = MK + δ_n are one
// VPSHUFB of the key and one VPADDB of constants per round, off that path.
//
// Constant-time: no table, no branch; masks and shuffles are constants of the round number.
#if defined(__x86_64__)

#include "core/target_region.hpp"
KC_TARGET_PUSH("avx512f,avx512bw,avx512vl,gfni")
#include <immintrin.h>

#include <array>

#include "core/wipe.hpp"
#include "hight/hight.hpp"
#include "hight/hight_gf_matrices.hpp"
#include "hight/hight_key_step.hpp"

namespace kc {

namespace {

using hight_gf::f0_matrix;
using hight_gf::f1_matrix;

// Where logical byte j of the state sits in round r's lane: (j - r) mod 8 (the last round,
// 31, keeps round 31's positions).
constexpr int at(int j, int r) { return (j - r) & 7; }

// A byte mask of the logical positions `bits` (bit j: X_j) in round r, for all four lanes.
constexpr uint32_t lane_mask(unsigned bits, int r)
{
    unsigned m = 0;
    for (int j = 0; j < 8; j++)
        if (bits >> j & 1)
            m |= 1u << at(j, r);
    return m * 0x01010101u;
}

struct RoundConstants {
    std::array<uint64_t, 32> index; // VPSHUFB of the key: MK_src(4r+k) onto X_{2k}
    std::array<uint64_t, 32> delta; // δ_{4r+k} at the same bytes
};

constexpr RoundConstants make_constants()
{
    RoundConstants c{};
    for (int r = 0; r < 32; r++) {
        uint64_t idx = 0x8080808080808080ull, d = 0;
        for (int k = 0; k < 4; k++) {
            const int pos = at(2 * k, r), n = 4 * r + k;
            idx &= ~(0xffull << (8 * pos));
            idx |= (uint64_t)hight_key::subkey_source(n) << (8 * pos);
            d |= (uint64_t)hight_key::delta[n] << (8 * pos);
        }
        c.index[r] = idx, c.delta[r] = d;
    }
    return c;
}
constexpr RoundConstants rc = make_constants();

// The whitening keys onto bytes 0, 2, 4, 6 (rotated by `r`): the added pair and the XORed
// pair in separate vectors, zero elsewhere. first: WK_0..3 = MK_12..15, else WK_4..7 = MK_0..3.
constexpr uint64_t whitening_index(int first_mk, bool added, int r)
{
    uint64_t idx = 0x8080808080808080ull;
    for (int k = 0; k < 4; k++) {
        if ((k % 2 == 0) != added)
            continue;
        const int pos = at(2 * k, r);
        idx &= ~(0xffull << (8 * pos));
        idx |= (uint64_t)(first_mk + k) << (8 * pos);
    }
    return idx;
}

inline __m256i bcast(uint64_t v) { return _mm256_set1_epi64x((long long)v); }

__m256i encrypt_lanes(__m256i x, __m256i mk)
{
    // Initial transformation: X0 + WK0, X2 ^ WK1, X4 + WK2, X6 ^ WK3.
    x = _mm256_add_epi8(x, _mm256_shuffle_epi8(mk, bcast(whitening_index(12, true, 0))));
    x = _mm256_xor_si256(x, _mm256_shuffle_epi8(mk, bcast(whitening_index(12, false, 0))));
    const __m256i m0 = bcast(f0_matrix), m1 = bcast(f1_matrix);
#pragma GCC unroll 32
    for (int r = 0; r < 32; r++) {
        const __m256i sk = _mm256_add_epi8(_mm256_shuffle_epi8(mk, bcast(rc.index[r])), bcast(rc.delta[r]));
        const __m256i f0 = _mm256_maskz_gf2p8affine_epi64_epi8(lane_mask(0x44, r), x, m0, 0);
        const __m256i f1 = _mm256_maskz_gf2p8affine_epi64_epi8(lane_mask(0x11, r), x, m1, 0);
        __m256i t = _mm256_mask_add_epi8(_mm256_xor_si256(f1, sk), lane_mask(0x44, r), f0, sk);
        t = _mm256_rol_epi64(t, 8); // onto X1, X3, X5, X7
        x = _mm256_mask_add_epi8(_mm256_xor_si256(x, t), lane_mask(0x22, r), x, t);
    }
    // Final transformation on the last round's positions (r = 31), then the bytes back home.
    x = _mm256_add_epi8(x, _mm256_shuffle_epi8(mk, bcast(whitening_index(0, true, 31))));
    x = _mm256_xor_si256(x, _mm256_shuffle_epi8(mk, bcast(whitening_index(0, false, 31))));
    static_assert(at(0, 31) == 1, "after round 31, X_j sits one byte up");
    return _mm256_ror_epi64(x, 8);
}

} // namespace

void hight_fused_ecb_gfni(Cipher, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    __m256i mk = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i *>(key)));
    for (size_t done = 0; done < nblocks; done += 4) {
        const size_t n = nblocks - done < 4 ? nblocks - done : 4;
        const __mmask32 m = (__mmask32)(n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1);
        __m256i x = _mm256_maskz_loadu_epi8(m, in + 8 * done);
        x = encrypt_lanes(x, mk);
        _mm256_mask_storeu_epi8(out + 8 * done, m, x);
        x = _mm256_setzero_si256();
    }
    mk = _mm256_setzero_si256();
    (void)mk;
}

} // namespace kc

KC_TARGET_POP()

#endif // __x86_64__
