// SEED word-sliced: the round function, key schedule, ECB and CTR of the SIMD SEED kernels,
// written once over a vector type V whose 32-bit lanes each hold one word of one block.
// A kernel file (seed_x86_avx512_gfni.cpp, seed_x86_avx2_vaes.cpp) includes this header
// inside its `KC_TARGET_PUSH` region, so that every function here is compiled for its
// instruction set, and supplies V:
//
//   vec; static constexpr int W (lanes: 16 or 8); bcast(u32); load(p); store(p, v);
//   xor2, add, and2, xor_and(a, b, c) = a ^ (b & c); bswap32; transpose4 (in-lane 4x4 of
//   32-bit words, its own inverse); lane_offsets() (which block of a group each lane holds);
//   sbox_pair(x) = S1 on the even bytes of each word, S2 on the odd ones;
//   rotr8, rotr16, rotr24 (32-bit rotations).
//
// The algebra (RFC 4269). A block is four big-endian words L0 L1 R0 R1; after a byte swap a
// lane holds each word as an integer, byte 0 the least significant (X0 of the RFC's G).
// G(X) = Z with Y_i = S(X_i) (S1 for i = 0, 2; S2 for 1, 3) and
//   Z_j = XOR_i (Y_i & m_((i + j) mod 4)),  m = fc f3 cf 3f,
// which is XOR over k of rotr(Y, 8k) & C_k, with byte j of C_k = m_((2j + k) mod 4): four
// constant masks, no table. The F function is three G with additions between them; the
// Feistel rounds alternate which half they update, so no words move (after 16 rounds the
// ciphertext is R0 R1 L0 L1). Decryption is encryption under the round keys reversed.
//
// Constant-time where V's sbox_pair is (GFNI or AES instructions, no table): everything else
// is XOR, AND, 32-bit addition, fixed rotations and shuffles, and memory addresses that
// depend on the length alone.
#pragma once
// Must be included inside a kernel file's target region, after that file has included
// seed/seed_key_inputs.hpp and core/wipe.hpp outside it (so that their inline functions are
// compiled for the baseline).

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/kernel.hpp"
#include "core/wipe.hpp"
#include "seed/seed.hpp"
#include "seed/seed_key_inputs.hpp"

// Everything below has internal linkage: each kernel file compiles its own copy for its own
// instruction set, and no copy built for AVX-512 can be the one the linker keeps for another
// file (an inline function or template instantiation with external linkage could be).
namespace kc::seed_ws {
namespace {

// Round keys of the SIMD kernels: enc[2i], enc[2i + 1] = K_(i+1),0 and K_(i+1),1; dec holds
// the pairs in reverse round order. Each word is broadcast from memory as it is used.
struct Keys {
    uint32_t enc[2 * seed_rounds];
    uint32_t dec[2 * seed_rounds];
};

// Clears key-derived words on the stack (a store the compiler must keep).
inline void wipe(uint32_t (&w)[4])
{
    for (uint32_t &x : w)
        *(volatile uint32_t *)&x = 0;
}

constexpr uint32_t mix_mask0 = 0xcffccffc; // bytes m0 m2 m0 m2 (byte 0 first)
constexpr uint32_t mix_mask1 = 0x3ff33ff3; // m1 m3 m1 m3
constexpr uint32_t mix_mask2 = 0xfccffccf; // m2 m0 m2 m0
constexpr uint32_t mix_mask3 = 0xf33ff33f; // m3 m1 m3 m1

template <class V> inline typename V::vec g(typename V::vec x)
{
    using vec = typename V::vec;
    vec y = V::sbox_pair(x);
    vec z = V::and2(y, V::bcast(mix_mask0));
    z = V::xor_and(z, V::rotr8(y), V::bcast(mix_mask1));
    z = V::xor_and(z, V::rotr16(y), V::bcast(mix_mask2));
    return V::xor_and(z, V::rotr24(y), V::bcast(mix_mask3));
}

// dst ^= F(src) under the round-key pair k[0], k[1], for NG independent groups at once: the
// three G of one group depend on each other, so the groups interleave to hide the latency.
template <class V, int NG>
inline void half_round(typename V::vec (&dst)[NG][2], const typename V::vec (&src)[NG][2],
                       const uint32_t *k)
{
    using vec = typename V::vec;
    const vec k0 = V::bcast(k[0]), k1 = V::bcast(k[1]);
    vec t0[NG], t1[NG];
    for (int q = 0; q < NG; q++) {
        t0[q] = V::xor2(src[q][0], k0);
        t1[q] = g<V>(V::xor2(V::xor2(src[q][1], k1), t0[q]));
    }
    for (int q = 0; q < NG; q++)
        t0[q] = g<V>(V::add(t0[q], t1[q]));
    for (int q = 0; q < NG; q++)
        t1[q] = g<V>(V::add(t1[q], t0[q]));
    for (int q = 0; q < NG; q++) {
        dst[q][0] = V::xor2(dst[q][0], V::add(t0[q], t1[q]));
        dst[q][1] = V::xor2(dst[q][1], t1[q]);
    }
}

// 16 rounds on word-sliced groups: x[q] = {L0, L1, R0, R1} in, {R0, R1, L0, L1} out
// (i.e. the ciphertext's words in order).
template <class V, int NG> inline void rounds(typename V::vec (&x)[NG][4], const uint32_t *rk)
{
    using vec = typename V::vec;
    vec l[NG][2], r[NG][2];
    for (int q = 0; q < NG; q++) {
        l[q][0] = x[q][0], l[q][1] = x[q][1];
        r[q][0] = x[q][2], r[q][1] = x[q][3];
    }
    for (int i = 0; i < seed_rounds; i += 2) {
        half_round<V, NG>(l, r, rk + 2 * i);
        half_round<V, NG>(r, l, rk + 2 * i + 2);
    }
    for (int q = 0; q < NG; q++) {
        x[q][0] = r[q][0], x[q][1] = r[q][1];
        x[q][2] = l[q][0], x[q][3] = l[q][1];
    }
}

constexpr size_t group_bytes(int w) { return 16 * (size_t)w; } // W blocks of 16 bytes

// Blocks in, word-sliced: four vectors of W/4 blocks each, byte-swapped and transposed.
template <class V, int NG> inline void load_groups(const uint8_t *in, typename V::vec (&x)[NG][4])
{
    for (int q = 0; q < NG; q++) {
        const uint8_t *p = in + q * group_bytes(V::W);
        for (int j = 0; j < 4; j++)
            x[q][j] = V::bswap32(V::load(p + j * 4 * V::W));
        V::transpose4(x[q][0], x[q][1], x[q][2], x[q][3]);
    }
}

// The inverse of load_groups; with `in`, out = in ^ blocks (CTR).
template <class V, int NG>
inline void store_groups(typename V::vec (&x)[NG][4], const uint8_t *in, uint8_t *out)
{
    for (int q = 0; q < NG; q++) {
        V::transpose4(x[q][0], x[q][1], x[q][2], x[q][3]);
        size_t at = q * group_bytes(V::W);
        for (int j = 0; j < 4; j++) {
            typename V::vec v = V::bswap32(x[q][j]);
            if (in != nullptr)
                v = V::xor2(v, V::load(in + at + j * 4 * V::W));
            V::store(out + at + j * 4 * V::W, v);
        }
    }
}

template <class V, int NG>
inline void ecb_step(const uint32_t *rk, const uint8_t *in, uint8_t *out)
{
    typename V::vec x[NG][4];
    load_groups<V, NG>(in, x);
    rounds<V, NG>(x, rk);
    store_groups<V, NG>(x, nullptr, out);
}

// A full step of steps_groups groups, or a shorter last one of `groups` (1..4).
template <class V> inline void ecb_groups(int groups, const uint32_t *rk, const uint8_t *in, uint8_t *out)
{
    switch (groups) {
    case 1: ecb_step<V, 1>(rk, in, out); break;
    case 2: ecb_step<V, 2>(rk, in, out); break;
    case 3: ecb_step<V, 3>(rk, in, out); break;
    default: ecb_step<V, 4>(rk, in, out); break;
    }
}

constexpr int step_groups = 4;

template <class V> void ecb(const uint32_t *rk, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const size_t step = step_groups * (size_t)V::W;
    for (; nblocks >= step; nblocks -= step, in += 16 * step, out += 16 * step)
        ecb_groups<V>(step_groups, rk, in, out);
    if (nblocks == 0)
        return;
    // The last blocks go through a zero-padded buffer, as whole groups.
    alignas(64) uint8_t buf[step_groups * group_bytes(V::W)] = {};
    std::memcpy(buf, in, 16 * nblocks);
    ecb_groups<V>((int)((nblocks + V::W - 1) / V::W), rk, buf, buf);
    std::memcpy(out, buf, 16 * nblocks);
    secure_wipe(buf, sizeof buf);
}

// CTR over one step whose counters do not carry out of their low word: the word-sliced
// counter is built in registers (three words broadcast, the low one plus each lane's block).
template <class V, int NG>
inline void ctr_step_fast(const uint32_t *rk, const uint32_t w[4], const uint8_t *in, uint8_t *out)
{
    using vec = typename V::vec;
    vec x[NG][4];
    const vec offsets = V::lane_offsets();
    for (int q = 0; q < NG; q++) {
        x[q][0] = V::bcast(w[0]);
        x[q][1] = V::bcast(w[1]);
        x[q][2] = V::bcast(w[2]);
        x[q][3] = V::add(V::bcast(w[3] + (uint32_t)(q * V::W)), offsets);
    }
    rounds<V, NG>(x, rk);
    store_groups<V, NG>(x, in, out);
}

template <class V>
inline void ctr_groups(int groups, const uint32_t *rk, const uint32_t w[4], const uint8_t *in, uint8_t *out)
{
    switch (groups) {
    case 1: ctr_step_fast<V, 1>(rk, w, in, out); break;
    case 2: ctr_step_fast<V, 2>(rk, w, in, out); break;
    case 3: ctr_step_fast<V, 3>(rk, w, in, out); break;
    default: ctr_step_fast<V, 4>(rk, w, in, out); break;
    }
}

inline void counter_words(const uint8_t *ctr, uint32_t w[4])
{
    for (int j = 0; j < 4; j++)
        w[j] = (uint32_t)ctr[4 * j] << 24 | (uint32_t)ctr[4 * j + 1] << 16 |
               (uint32_t)ctr[4 * j + 2] << 8 | ctr[4 * j + 3];
}

// ctr += n, the block as one 128-bit big-endian integer (wrapping).
inline void counter_words_add(uint32_t w[4], uint64_t n)
{
    uint64_t lo = ((uint64_t)w[2] << 32 | w[3]) + n;
    uint64_t hi = ((uint64_t)w[0] << 32 | w[1]) + (lo < n);
    w[0] = (uint32_t)(hi >> 32), w[1] = (uint32_t)hi, w[2] = (uint32_t)(lo >> 32), w[3] = (uint32_t)lo;
}

// One step of `blocks` counter blocks, the last of which may cross a 2^32 boundary of the low
// word: the counters are written out as blocks and encrypted as ECB. The branch depends on
// the counter (public in CTR; in CTR_DRBG the secret V, whose low word reaches a boundary
// once per 2^32 blocks).
template <class V>
inline void ctr_step_any(const uint32_t *rk, uint32_t w[4], size_t blocks, const uint8_t *in, uint8_t *out)
{
    const size_t step = step_groups * (size_t)V::W;
    int groups = (int)((blocks + V::W - 1) / V::W);
    alignas(64) uint8_t buf[step_groups * group_bytes(V::W)];
    if ((uint64_t)w[3] + step <= (uint64_t)1 << 32) {
        ctr_groups<V>(groups, rk, w, nullptr, buf);
    } else {
        uint32_t c[4] = {w[0], w[1], w[2], w[3]};
        for (size_t b = 0; b < (size_t)groups * V::W; b++) {
            for (int j = 0; j < 4; j++) {
                buf[16 * b + 4 * j] = (uint8_t)(c[j] >> 24);
                buf[16 * b + 4 * j + 1] = (uint8_t)(c[j] >> 16);
                buf[16 * b + 4 * j + 2] = (uint8_t)(c[j] >> 8);
                buf[16 * b + 4 * j + 3] = (uint8_t)c[j];
            }
            counter_words_add(c, 1);
        }
        ecb_groups<V>(groups, rk, buf, buf);
        wipe(c);
    }
    for (size_t i = 0; i < 16 * blocks; i++)
        out[i] = (uint8_t)((in != nullptr ? in[i] : 0) ^ buf[i]);
    secure_wipe(buf, sizeof buf);
    counter_words_add(w, blocks);
}

// out = in ^ E(ctr + i) for i < nblocks; in == nullptr: the keystream itself.
template <class V>
void ctr(const uint32_t *rk, const uint8_t *ctr_block, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const size_t step = step_groups * (size_t)V::W;
    uint32_t w[4];
    counter_words(ctr_block, w);
    while (nblocks >= step) {
        if ((uint64_t)w[3] + step <= (uint64_t)1 << 32) {
            ctr_groups<V>(step_groups, rk, w, in, out);
            counter_words_add(w, step);
        } else {
            ctr_step_any<V>(rk, w, step, in, out);
        }
        nblocks -= step, out += 16 * step;
        if (in != nullptr)
            in += 16 * step;
    }
    if (nblocks > 0)
        ctr_step_any<V>(rk, w, nblocks, in, out);
    wipe(w);
}

// The key schedule (RFC 4269 section 2.2), its 32 G evaluations done as vectors: the inputs of
// G depend on the key words and the constants alone, never on an earlier G.
template <class V> void set_key(Keys &k, const uint8_t key[16])
{
    alignas(64) uint32_t in[2 * seed_rounds];
    seed_key_schedule_inputs(key, in);
    for (int i = 0; i < 2 * seed_rounds; i += V::W)
        V::store(reinterpret_cast<uint8_t *>(k.enc + i),
                 g<V>(V::load(reinterpret_cast<const uint8_t *>(in + i))));
    for (int r = 0; r < seed_rounds; r++) {
        k.dec[2 * r] = k.enc[2 * (seed_rounds - 1 - r)];
        k.dec[2 * r + 1] = k.enc[2 * (seed_rounds - 1 - r) + 1];
    }
    secure_wipe(in, sizeof in);
}

// The Kernel entry points over V, for the kernel file's descriptor.
template <class V> struct Entry {
    static void set_key(void *state, Cipher, const uint8_t *key) { seed_ws::set_key<V>(*static_cast<Keys *>(state), key); }
    static void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
    {
        ecb<V>(static_cast<const Keys *>(state)->enc, in, out, n);
    }
    static void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
    {
        ecb<V>(static_cast<const Keys *>(state)->dec, in, out, n);
    }
    static void ctr_xor_blocks(const void *state, const uint8_t *ctr_block, const uint8_t *in, uint8_t *out, size_t n)
    {
        ctr<V>(static_cast<const Keys *>(state)->enc, ctr_block, in, out, n);
    }
};

// A kernel's descriptor over V (a constant expression: the object is initialised at compile
// time, so no code built for V's instruction set runs before dispatch has checked the CPU).
template <class V> constexpr Kernel kernel(const char *name, size_t batch, uint32_t requires, int rank)
{
    return {name, "seed", 16, batch, true, requires, rank, sizeof(Keys), seed_supports, Entry<V>::set_key,
            Entry<V>::encrypt_blocks, Entry<V>::decrypt_blocks, Entry<V>::ctr_xor_blocks};
}

} // namespace
} // namespace kc::seed_ws
