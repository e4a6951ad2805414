// aria/avx512-gfni key search: 64 candidate keys per batch, byte-sliced like the
// aria/avx512-gfni kernel (aria_x86_byteslice.hpp), for the CPU key search
// (kit/search/cpu_searcher.hpp). The kernel slices 64 blocks under one key; here lane l of
// every register belongs to candidate l of a group, and since the plaintext is the same for
// all of them, nothing needs transposing: register j holds byte j of the 64 states, of the
// 64 keys, of W0..W3.
//
// The key schedule (RFC 5794 section 2.2.1) runs sliced too, because its round function is
// the data path's: W1 = FO(W0, CK1) ^ KR, W2 = FE(W1, CK2) ^ W0, W3 = FO(W2, CK3) ^ W1 use
// the kernel's own S-box layers (GfniSboxes) and diffusion (diffuse) with the constants of
// aria.hpp (aria_key_constants, aria_first_constant); the round keys
// ek(k+1) = W(k mod 4) ^ (W((k+1) mod 4) >>> aria_ek_rotation(k / 4)) are derived as each
// round needs them and added in the same 3-input XOR: a rotation by r = 8q + s bits of a
// sliced 128-bit value is a renaming of its byte registers by q and, for s != 0, two 16-bit
// shifts and one bit select per byte (the bits that cross into the next 16-bit lane are the
// ones the select drops).
//
// Per 64 ARIA-128 keys: 15 rounds of 24 GFNI and 38 XORs (3 for the key schedule, 12 for the
// block), and 13 round keys of 16 x 4 operations: about 1800 vector operations, 28 per key.
// Constant-time like the kernel (no lookups, no secret branch).
#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "aria/aria.hpp"
#include "aria/aria_x86_byteslice.hpp"
#include "core/features.hpp"
#include "core/target_region.hpp"
#include "kit/search/cpu_searcher.hpp"
#include "kit/search/lane_groups.hpp"

KC_TARGET_PUSH("avx512f,avx512bw,avx512vl,gfni")
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() (initialised from itself) as the
// unused merge source, and -Wuninitialized reports it once inlined (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define KC_ARIA_BYTESLICE_SIMD
#include "aria/aria_x86_byteslice.hpp"

namespace kc::keysearch {
namespace {

using vec = __m512i;

// The vector operations the byte-sliced templates use (aria_x86_byteslice.hpp), zmm.
struct Zmm {
    using vec = __m512i;
    static constexpr bool ternary = true;
    static vec xor2(vec a, vec b) { return _mm512_xor_si512(a, b); }
    static vec xor3(vec a, vec b, vec c) { return _mm512_ternarylogic_epi32(a, b, c, 0x96); }
    static vec bcast32(const uint32_t *p) { return _mm512_set1_epi32((int)*p); }
    static vec bcast64(long long v) { return _mm512_set1_epi64(v); }
    template <int c> static vec affine(vec x, vec m) { return _mm512_gf2p8affine_epi64_epi8(x, m, c); }
    template <int c> static vec affineinv(vec x, vec m) { return _mm512_gf2p8affineinv_epi64_epi8(x, m, c); }
};

using Sboxes = aria_bs::GfniSboxes<Zmm>;

#define KC_ARIA_KS_INLINE [[gnu::always_inline]] inline

KC_ARIA_KS_INLINE vec bcast8(uint8_t b) { return _mm512_set1_epi8((char)b); }

// Byte j of (w >>> R), w a sliced 128-bit value in RFC byte order (byte 0 the most
// significant): out_j = (w_{j-q} >> s) | (w_{j-q-1} << (8 - s)), R = 8q + s.
template <unsigned R> KC_ARIA_KS_INLINE vec rotated_byte(const vec *w, int j)
{
    constexpr int q = int(R / 8), s = int(R % 8);
    const vec a = w[(j - q) & 15];
    if constexpr (s == 0) {
        return a;
    } else {
        const vec b = w[(j - q - 1) & 15];
        // 16-bit shifts: the bits that cross a byte boundary land where the select (0xca:
        // mask ? hi : lo) takes the other operand.
        const vec hi = _mm512_srli_epi16(a, s), lo = _mm512_slli_epi16(b, 8 - s);
        return _mm512_ternarylogic_epi32(bcast8(uint8_t(0xff >> s)), hi, lo, 0xca);
    }
}

// x ^= ek(K+1) = W(K mod 4) ^ (W((K+1) mod 4) >>> aria_ek_rotation(K / 4)), K from 0.
template <int K> KC_ARIA_KS_INLINE void add_round_key(vec *x, const vec (*w)[16])
{
    constexpr unsigned r = aria_ek_rotation(K / 4) % 128;
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++)
        x[j] = Zmm::xor3(x[j], w[K % 4][j], rotated_byte<r>(w[(K + 1) % 4], j));
}

// Round R = 1 .. n-1 (RFC 5794 section 2.2.2.1): FO for odd R, FE for even, then ek(R+1).
template <int R> KC_ARIA_KS_INLINE void round(vec *x, const vec (*w)[16])
{
    if constexpr (R % 2 == 1)
        Sboxes::layer1(x);
    else
        Sboxes::layer2(x);
    aria_bs::diffuse<Zmm>(x, nullptr);
    add_round_key<R>(x, w);
}

template <size_t... R> KC_ARIA_KS_INLINE void rounds(vec *x, const vec (*w)[16], std::index_sequence<R...>)
{
    (round<int(R) + 1>(x, w), ...);
}

// t <- A(SL(d ^ c)) (FO: layer 1, FE: layer 2) ^ y: the key schedule's rounds with the
// constant c (16 bytes).
template <int Layer> KC_ARIA_KS_INLINE void key_round(const vec *d, const uint8_t *c, const vec *y, vec *t)
{
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++)
        t[j] = Zmm::xor2(d[j], bcast8(c[j]));
    if constexpr (Layer == 1)
        Sboxes::layer1(t);
    else
        Sboxes::layer2(t);
    aria_bs::diffuse<Zmm>(t, nullptr);
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++)
        t[j] = Zmm::xor2(t[j], y[j]);
}

// N rounds, KB key bytes.
template <int N, int KB> void search(const Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits)
{
    LaneGroups lg(p, 6);
    alignas(64) uint8_t lane[32][64];
    std::memset(lane, 0, sizeof lane);
    for (int j = 0; j < KB; j++)
        for (int l = 0; l < 64; l++)
            lane[j][l] = lg.lane_key(l)[j];
    const int ck = aria_first_constant(p.cipher);
    const uint8_t *ck1 = aria_key_constants[ck], *ck2 = aria_key_constants[(ck + 1) % 3],
                  *ck3 = aria_key_constants[(ck + 2) % 3];
    const uint8_t *pt = p.pairs[0].pt, *ct = p.pairs[0].ct;
    search_lane_groups(lg, first, count, hits, [&](const uint8_t *base) {
        vec kr[16], w[4][16], x[16];
        // Section 2.2.1: KL || KR = MK || 0, W0 = KL, then the three rounds.
#pragma GCC unroll 16
        for (int j = 0; j < 16; j++) {
            w[0][j] = _mm512_or_si512(bcast8(base[j]), _mm512_load_si512(lane[j]));
            kr[j] = 16 + j < KB ? _mm512_or_si512(bcast8(base[16 + j]), _mm512_load_si512(lane[16 + j]))
                                : _mm512_setzero_si512();
        }
        key_round<1>(w[0], ck1, kr, w[1]);
        key_round<2>(w[1], ck2, w[0], w[2]);
        key_round<1>(w[2], ck3, w[1], w[3]);
        // Section 2.2.2.1: P ^ ek1, rounds 1 .. N-1, then SL2 and ek(N+1).
#pragma GCC unroll 16
        for (int j = 0; j < 16; j++)
            x[j] = bcast8(pt[j]);
        add_round_key<0>(x, w);
        rounds(x, w, std::make_index_sequence<N - 1>());
        Sboxes::layer2(x);
        add_round_key<N>(x, w);
        uint64_t m = ~uint64_t(0);
#pragma GCC unroll 16
        for (int j = 0; j < 16; j++)
            m &= _mm512_cmpeq_epi8_mask(x[j], bcast8(ct[j]));
        return m;
    });
    secure_wipe(lane, sizeof lane);
}

void search_aria(const Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits)
{
    switch (p.cipher) {
    case Cipher::aria128: return search<12, 16>(p, first, count, hits);
    case Cipher::aria192: return search<14, 24>(p, first, count, hits);
    default: return search<16, 32>(p, first, count, hits);
    }
}

} // namespace

extern const CpuSearcher aria_x86_keysearch_avx512_gfni = {
    "aria/avx512-gfni-keysearch", "aria/avx512-gfni", "aria",
    feat_avx512f | feat_avx512bw | feat_avx512vl | feat_gfni, search_aria,
};

} // namespace kc::keysearch

#pragma GCC diagnostic pop
KC_TARGET_POP()
#endif
