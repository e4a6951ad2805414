// hight/avx512-gfni key search: 64 candidate keys per zmm register, one per byte lane, for
// the CPU key search (kit/search/cpu_searcher.hpp). The hight/avx512-gfni kernel slices the
// blocks of one key into byte lanes; here every lane has its own key instead: register j of
// the key holds master-key byte MK_j of 64 candidates, and each subkey is derived as the
// round needs it, SK_n = MK_{subkey_source(n)} + δ_n, whitening key WK_i =
// MK_{whitening_source(i)} (hight_key_step.hpp: the key schedule's own constants and sources).
//
// A round (hight_ref.cpp) on 64 keys: F0 and F1 as one gf2p8affineqb each (the XOR of three
// byte rotations is a linear map of the byte), four subkey additions, four additions or XORs
// with them and four to combine: 16 instructions. All 32 rounds are unrolled
// (std::index_sequence), so the state's byte rotation is renaming and every subkey source and
// δ is a constant. That code is hight_x86_keysearch_byte_lanes.hpp, shared with
// hight/avx2-keysearch; this file holds its lane operations on zmm registers (Zmm).
//
// Constant-time like the kernel (ARX on bytes, F0/F1 computed).
#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "core/features.hpp"
#include "core/target_region.hpp"
#include "hight/hight_gf_matrices.hpp"
#include "hight/hight_key_step.hpp"
#include "kit/search/cpu_searcher.hpp"
#include "kit/search/lane_groups.hpp"
#include "kit/search/problem.hpp"

KC_TARGET_PUSH("avx512f,avx512bw,gfni")
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() (initialised from itself) as the
// unused merge source, and -Wuninitialized reports it once inlined (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "hight/hight_x86_keysearch_byte_lanes.hpp"

namespace kc::keysearch {
namespace {

typedef uint8_t u8x64 __attribute__((vector_size(64)));

// The lane operations of hight_x86_keysearch_byte_lanes.hpp on zmm registers.
struct Zmm {
    using vec = u8x64;
    static constexpr int lane_bits = 6;
    static vec bcast(uint8_t b) { return (vec)_mm512_set1_epi8((char)b); }
    static vec f0(vec x)
    {
        return (vec)_mm512_gf2p8affine_epi64_epi8((__m512i)x, _mm512_set1_epi64((long long)hight_gf::f0_matrix), 0);
    }
    static vec f1(vec x)
    {
        return (vec)_mm512_gf2p8affine_epi64_epi8((__m512i)x, _mm512_set1_epi64((long long)hight_gf::f1_matrix), 0);
    }
    static uint64_t equal8(const vec *x, const vec *c)
    {
        uint64_t m = ~uint64_t(0);
        for (int j = 0; j < 8; j++)
            m &= _mm512_cmpeq_epi8_mask((__m512i)x[j], (__m512i)c[j]);
        return m;
    }
};

} // namespace

extern const CpuSearcher hight_x86_keysearch_avx512_gfni = {
    "hight/avx512-gfni-keysearch", "hight/avx512-gfni", "hight", feat_avx512f | feat_avx512bw | feat_gfni,
    hight_keysearch_byte_lanes::search_hight<Zmm>,
};

} // namespace kc::keysearch

#pragma GCC diagnostic pop
KC_TARGET_POP()
#endif
