// Multiplication in GCM's field GF(2^128) on the GPU, by a fixed element P, with lookup
// tables: x * P is linear in x over GF(2), so with T[i][b] = (the block whose byte i is b,
// all else 0) * P, x * P = XOR over i of T[i][byte i of x]. Sixteen 16-byte lookups and no
// shifts or reductions; a table is 16 x 256 x 16 bytes = 64 KiB.
//
// Blocks are held as GCM's bytes read little-endian four at a time (w[j] = bytes 4j..4j+3),
// as load_block reads them, and the tables are stored the same way, so no conversion is
// needed on the data path. The lookups are indexed by secret-dependent values (the hash
// state): this is not constant-time, and the docs and `kcipher info` say so.
//
// The slow bitwise product (SP 800-38D, Algorithm 1) builds the tables and the host's powers
// of H; it runs in time independent of its inputs.
#pragma once

#include "cuda/device_util.cuh"

namespace kc::cuda {

// A field element as GCM's 128-bit big-endian string: hi holds bytes 0..7, lo bytes 8..15.
struct Gf128 {
    uint64_t hi, lo;
};

// The element times x: GCM's bit order puts x^0 at the string's most significant bit, so
// multiplying by x shifts right and folds x^128 back as R = 11100001 || 0^120.
KC_HD Gf128 gf_mulx(Gf128 v)
{
    const uint64_t carry = 0 - (v.lo & 1);
    v.lo = (v.lo >> 1) | (v.hi << 63);
    v.hi = (v.hi >> 1) ^ (carry & 0xe100000000000000ull);
    return v;
}

KC_HD Gf128 gf_mul_slow(Gf128 x, Gf128 y)
{
    Gf128 z{0, 0}, v = y;
    for (int i = 0; i < 128; i++) {
        const uint64_t word = i < 64 ? x.hi : x.lo;
        const uint64_t bit = 0 - ((word >> (63 - (i & 63))) & 1);
        z.hi ^= v.hi & bit;
        z.lo ^= v.lo & bit;
        v = gf_mulx(v);
    }
    return z;
}

KC_HD Gf128 gf_from_bytes(const uint8_t *p)
{
    Gf128 v{0, 0};
    for (int i = 0; i < 8; i++) {
        v.hi = v.hi << 8 | p[i];
        v.lo = v.lo << 8 | p[8 + i];
    }
    return v;
}

KC_HD void gf_to_bytes(Gf128 v, uint8_t *p)
{
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v.hi >> (56 - 8 * i));
        p[8 + i] = (uint8_t)(v.lo >> (56 - 8 * i));
    }
}

// The same element in the data path's little-endian words.
KC_HD uint4 gf_to_words(Gf128 v)
{
    return make_uint4(bswap32((uint32_t)(v.hi >> 32)), bswap32((uint32_t)v.hi), bswap32((uint32_t)(v.lo >> 32)),
                      bswap32((uint32_t)v.lo));
}

// One multiplier's table: 16 byte positions x 256 values.
constexpr int gf_table_entries = 16 * 256;
constexpr size_t gf_table_bytes = gf_table_entries * sizeof(uint4);

__device__ __forceinline__ uint4 xor4(uint4 a, uint4 b)
{
    return make_uint4(a.x ^ b.x, a.y ^ b.y, a.z ^ b.z, a.w ^ b.w);
}

__device__ __forceinline__ uint32_t word_of(uint4 x, int j)
{
    return j == 0 ? x.x : j == 1 ? x.y : j == 2 ? x.z : x.w;
}

// x * P with P's table in shared or global memory (Load reads one entry).
template <class Load> __device__ __forceinline__ uint4 gf_mul_table(uint4 x, Load load)
{
    uint4 r = make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int i = 0; i < 16; i++) {
        const uint32_t b = (word_of(x, i / 4) >> (8 * (i % 4))) & 0xff;
        r = xor4(r, load(i * 256 + b));
    }
    return r;
}

__device__ __forceinline__ uint4 gf_mul_smem(uint4 x, const uint4 *table)
{
    return gf_mul_table(x, [table](int k) { return table[k]; });
}

__device__ __forceinline__ uint4 gf_mul_global(uint4 x, const uint4 *table)
{
    return gf_mul_table(x, [table](int k) { return __ldg(table + k); });
}

} // namespace kc::cuda
