// ARIA key search on the GPU, the arithmetic (aria_cuda_keysearch.cu launches it): every
// candidate's round keys are derived on the fly with the T-table kernels' own round
// functions (aria_cuda_table.cuh), because the key schedule is three ARIA rounds:
//
//   W1 = FO(W0, CK1) ^ KR    FO = round 1 of the data path (big-endian words in)
//   W2 = FE(W1, CK2) ^ W0    FE = an even round: output rotated by 16 in every word
//   W3 = FO(W2, CK3) ^ W1    FO on the rotated W2 = an odd round after an even one
//
// and ek(k+1) = W(k mod 4) ^ (W((k+1) mod 4) >>> r), a 128-bit rotation of big-endian words
// (four funnel shifts), laid out as AriaCudaKeys lays them (even rounds rotated by 16, the
// last key little-endian). The early reject compares word 0 of the ciphertext only; ptxas
// then drops the last layer's other twelve lookups.
//
// __host__ __device__ like the table code, so tests/cuda checks it against aria_key_schedule
// and aria/ref on the CPU. Not constant-time (table lookups), which a key search need not be.
#pragma once

#include "aria/aria_cuda_table.cuh"

namespace kc::aria_cuda {

struct AriaSearchParams {
    uint32_t pt[4];     // pairs[0]'s plaintext, big-endian words
    uint32_t ct0;       // word 0 of its ciphertext, little-endian (the data path's output)
    uint32_t ck[3][4];  // CK1, CK2 as big-endian words; CK3 rotated by 16 (read by an odd
                        // round after an even one)
};

KC_HD uint32_t rot16(uint32_t x) { return byte_perm(x, 0, 0x1032); }

// CK1, CK2, CK3 of cipher c into p.ck, as key_words reads them (big-endian words, CK3 rotated
// by 16).
inline void set_key_constants(Cipher c, AriaSearchParams &p)
{
    const int first = aria_first_constant(c);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            const uint8_t *b = aria_key_constants[(first + i) % 3] + 4 * j;
            const uint32_t w = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
            p.ck[i][j] = i == 2 ? rot16(w) : w;
        }
}

// Bits 32j..32j+31 (from the top) of the 128-bit big-endian x rotated right by N.
template <unsigned N> KC_HD uint32_t rotr128_word(const uint32_t *x, int j)
{
    constexpr int q = (int)(N / 32);
    constexpr unsigned s = N % 32;
    const uint32_t lo = x[(j - q) & 3], hi = x[(j - q - 1) & 3];
    if constexpr (s == 0)
        return lo;
#ifdef __CUDA_ARCH__
    return __funnelshift_r(lo, hi, s);
#else
    return (lo >> s) | (hi << (32 - s));
#endif
}

// ek(k+1) as the data path reads it: big-endian for k = 0 (round 1 reads big-endian here),
// rotated by 16 for even k, little-endian for the last.
template <int K, int R> KC_HD void round_key(const uint32_t (*w)[4], uint32_t *out)
{
    constexpr unsigned n = aria_ek_rotation(K / 4);
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const uint32_t v = w[K % 4][j] ^ rotr128_word<n>(w[(K + 1) % 4], j);
        out[j] = K == R ? cuda::bswap32(v) : (K != 0 && K % 2 == 0) ? rot16(v) : v;
    }
}

template <int K, int R> KC_HD void round_keys(const uint32_t (*w)[4], uint32_t (*k)[4])
{
    round_key<K, R>(w, k[K]);
    if constexpr (K < R)
        round_keys<K + 1, R>(w, k);
}

// W0..W3 from the key's big-endian words (KW = 4, 6 or 8; KR is zero-padded).
#pragma nv_exec_check_disable
template <int KW, class Tab>
KC_HD void key_words(const Tab &tab, const AriaSearchParams &p, const uint32_t *key, uint32_t (*w)[4])
{
    uint32_t kr[4], w0r[4], w2r[4];
#pragma unroll
    for (int j = 0; j < 4; j++) {
        w[0][j] = key[j];
        kr[j] = j + 4 < KW ? key[j + 4] : 0;
        w0r[j] = rot16(key[j]);
    }
    uint32_t r[4];
#pragma unroll
    for (int j = 0; j < 4; j++)
        r[j] = sub_mix<3, 2, 1, 0>(tab, w[0][j] ^ p.ck[0][j]);
    diffuse_key(r[0], r[1], r[2], r[3], kr, w[1]); // W1
#pragma unroll
    for (int j = 0; j < 4; j++)
        r[j] = sub_mix<1, 0, 3, 2>(tab, w[1][j] ^ p.ck[1][j]);
    diffuse_key(r[0], r[1], r[2], r[3], w0r, w2r); // W2, rotated
#pragma unroll
    for (int j = 0; j < 4; j++)
        r[j] = sub_mix<1, 0, 3, 2>(tab, w2r[j] ^ p.ck[2][j]);
    diffuse_key(r[0], r[1], r[2], r[3], w[1], w[3]); // W3
#pragma unroll
    for (int j = 0; j < 4; j++)
        w[2][j] = rot16(w2r[j]);
}

// Does this key encrypt pt to a block whose word 0 is ct0?
#pragma nv_exec_check_disable
template <int R, int KW, class Tab>
KC_HD bool search_test(const Tab &tab, const AriaSearchParams &p, const uint32_t *key)
{
    uint32_t w[4][4], k[R + 1][4];
    key_words<KW>(tab, p, key, w);
    round_keys<0, R>(w, k);
    uint32_t r[4], s[4], out[4];
#pragma unroll
    for (int j = 0; j < 4; j++)
        r[j] = sub_mix<3, 2, 1, 0>(tab, p.pt[j] ^ k[0][j]);
    diffuse_key(r[0], r[1], r[2], r[3], k[1], s);
    rounds_tail<R>(tab, k, s, out);
    return out[0] == p.ct0;
}

} // namespace kc::aria_cuda
