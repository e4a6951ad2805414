// The arithmetic every ARIA T-table CUDA kernel shares (aria_cuda_global.cu,
// aria_cuda_shared.cu, aria_cuda_x32.cu): the tables, the round-key layout, the block
// transform and the CTR precomputation. Everything here is __host__ __device__ over a "table
// layout" (where the T-table words live and how a byte of the state becomes an address), so
// that tests/cuda/test_aria_cuda_host.cu runs on the CPU exactly the code the GPU runs,
// shared-memory images and address arithmetic included.
//
// The algebra (as aria/table, RFC 5794 section 2.3): with the state as four big-endian words,
// one round is R_j = M(SL(s_j ^ k_j)) by four T-table lookups per word, then A = W . P . W
// on the words (W word mixing, P a byte permutation per word; M commutes with both).
//
// Four tables serve both substitution layers. T_q[x] holds S_q(x) in every byte except byte
// q (byte 0 the most significant; S_0..S_3 = SB1..SB4), the type 1 layer's tables. The
// type 2 layer puts S_(p^2) at byte p, and spread_except(s, p) = rot16(spread_except(s, p^2)),
// so a type 2 round is rot16 of lookups in T_(p^2). rot16 commutes with W, P and the key
// addition (with the key rotated too), so the even rounds leave their output rotated by 16
// (their round keys are stored rotated, see AriaCudaKeys) and the odd round after one reads
// byte p^2 instead of p. From round 2 on, every round therefore looks T_q up at byte q^2
// of the state, which is bit index 8*(q^1) of the word; round 1 reads byte q.
//
// Byte order: the grid kernels hand over blocks as little-endian words. Round 1 reads its
// bytes from those words directly (byte q of the block word is bits 8q..8q+7) and the last
// layer writes little-endian words; the whitening keys k[0] and k[n] are stored
// little-endian to match. No byte swaps are spent on loads and stores.
//
// Not constant-time: every lookup's address is a secret byte.
#pragma once

#include <cstdint>

#include "aria/aria.hpp"
#include "cuda/device_util.cuh"

namespace kc::aria_cuda {

using cuda::byte_perm;

// ---- Tables, computed at compile time from the S-boxes' algebraic definitions -------------
//
// The device tables are __device__/__constant__ data initialised from these constant
// expressions (no per-device upload at run time); the host tests check every entry against
// aria_sb1..4 of aria_sbox.cpp.

constexpr uint8_t gf_mul(uint8_t a, uint8_t b) // GF(2^8) modulo x^8+x^4+x^3+x+1
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++) {
        if (b & 1)
            r ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
        b >>= 1;
    }
    return r;
}

constexpr uint8_t gf_inv(uint8_t x) // x^254, 0 -> 0
{
    uint8_t r = 1, p = x;
    for (int e = 254; e; e >>= 1) {
        if (e & 1)
            r = gf_mul(r, p);
        p = gf_mul(p, p);
    }
    return r;
}

constexpr uint8_t rotl8(uint8_t b, int n) { return (uint8_t)((b << n) | (b >> (8 - n))); }

// SB1(x) = A(x^-1) ^ 0x63 with the AES affine map A. SB2(x) = B * x^247 ^ 0xe2 (ARIA
// specification); x^247 = (x^-1)^8 and squaring is linear, so SB2(x) = B' * x^-1 ^ 0xe2, with
// B' = B . square^3 given by its columns (B' e_k).
struct Sboxes {
    uint8_t s[4][256]; // SB1, SB2, SB3 = SB1^-1, SB4 = SB2^-1
};

constexpr Sboxes make_sboxes()
{
    constexpr uint8_t b2[8] = {0xac, 0xfd, 0xc6, 0x83, 0x26, 0xa7, 0xfb, 0x5f};
    Sboxes sb{};
    for (int x = 0; x < 256; x++) {
        uint8_t i = gf_inv((uint8_t)x);
        uint8_t s1 = (uint8_t)(i ^ rotl8(i, 1) ^ rotl8(i, 2) ^ rotl8(i, 3) ^ rotl8(i, 4) ^ 0x63);
        uint8_t s2 = 0xe2;
        for (int k = 0; k < 8; k++)
            if ((i >> k) & 1)
                s2 ^= b2[k];
        sb.s[0][x] = s1;
        sb.s[1][x] = s2;
        sb.s[2][s1] = (uint8_t)x;
        sb.s[3][s2] = (uint8_t)x;
    }
    return sb;
}

// T_q[x]: S_q(x) in every byte but byte q (byte 0 the most significant). 4 KiB.
struct TTables {
    uint32_t t[4][256];
};

// The ARIA-CTR paper's 1 KiB table: SB1(x), SB2(x), SB3(x), SB4(x) from the most significant
// byte down, so S_q(x) sits at bit 8*(3-q); one PRMT turns an entry into T_q[x].
struct CombinedTable {
    uint32_t c[256];
};

constexpr uint32_t spread_except(uint8_t s, int q) { return (0x01010101u ^ (0x01000000u >> (8 * q))) * s; }

constexpr TTables make_ttables()
{
    const Sboxes sb = make_sboxes();
    TTables t{};
    for (int q = 0; q < 4; q++)
        for (int x = 0; x < 256; x++)
            t.t[q][x] = spread_except(sb.s[q][x], q);
    return t;
}

constexpr CombinedTable make_combined_table()
{
    const Sboxes sb = make_sboxes();
    CombinedTable c{};
    for (int x = 0; x < 256; x++)
        c.c[x] = (uint32_t)sb.s[0][x] << 24 | (uint32_t)sb.s[1][x] << 16 | (uint32_t)sb.s[2][x] << 8 | sb.s[3][x];
    return c;
}

// Host copies (the CTR precomputation and the tests use them).
inline constexpr Sboxes host_sboxes = make_sboxes();
inline constexpr TTables host_ttables = make_ttables();
inline constexpr CombinedTable host_combined = make_combined_table();

// PRMT selectors. index_sel(i): byte i of w into bits 8..15, byte 0 of `base` (a lane offset
// below 256) into bits 0..7, zeros above: one PRMT makes a shared-memory offset (x << 8) | base.
KC_HD constexpr uint32_t index_sel(int i) { return 0x7704u | (uint32_t)i << 4; }
// expand_sel(q): a combined-table entry into T_q[x] (S_q's byte everywhere but byte q, whose
// selector 4 takes the zero register).
KC_HD constexpr uint32_t expand_sel(int q)
{
    uint32_t s = 0;
    for (int i = 0; i < 4; i++)
        s |= (uint32_t)(i == 3 - q ? 4 : 3 - q) << (4 * i);
    return s;
}

KC_HD uint32_t load_u32(const uint8_t *mem, uint32_t off) { return *reinterpret_cast<const uint32_t *>(mem + off); }

// ---- Round keys ---------------------------------------------------------------------------

// Kernel parameters of every ARIA table kernel (the CUDA kernels get them by value: they sit
// in the constant bank and ptxas folds them into the XORs). k[0] and k[rounds] are
// little-endian words (the block's byte order); k[1..rounds-1] are big-endian words, rotated
// by 16 bits when the index is even (the rotated even rounds, see the file comment).
struct AriaCudaKeys {
    uint32_t rounds;
    uint32_t ek[aria_max_rounds + 1][4];
    uint32_t dk[aria_max_rounds + 1][4];
};

inline void keys_layout(const uint8_t (*in)[16], int n, uint32_t (*out)[4])
{
    for (int i = 0; i <= n; i++) {
        for (int j = 0; j < 4; j++) {
            const uint8_t *b = in[i] + 4 * j;
            uint32_t be = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
            uint32_t le = (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
            out[i][j] = (i == 0 || i == n) ? le : (i % 2 == 0) ? (be << 16 | be >> 16) : be;
        }
    }
}

inline void keys_from_schedule(const AriaRoundKeys &rk, AriaCudaKeys *k)
{
    *k = AriaCudaKeys{};
    k->rounds = (uint32_t)rk.rounds;
    keys_layout(rk.ek, rk.rounds, k->ek);
    keys_layout(rk.dk, rk.rounds, k->dk);
}

// ---- The block transform over a table layout ---------------------------------------------
//
// A layout `Tab` provides
//   template <int q> uint32_t t(uint32_t w, int i) const; // T_q[byte i of w] (i: bits 8i..8i+7)
//   template <int q> uint32_t s(uint32_t w, int i) const; // a word with S_q(byte i of w) ...
//   static constexpr int spos(int q);                     // ... at byte spos(q) (bits 8*spos)

// R = M(SL(w)) with table q read at byte I_q of w. (These templates are also instantiated
// with the host-only HostTab, by the CTR precomputation and the tests: hence
// nv_exec_check_disable on them.)
#pragma nv_exec_check_disable
template <int I0, int I1, int I2, int I3, class Tab> KC_HD uint32_t sub_mix(const Tab &tab, uint32_t w)
{
    return tab.template t<0>(w, I0) ^ tab.template t<1>(w, I1) ^ tab.template t<2>(w, I2) ^
           tab.template t<3>(w, I3);
}

// P, then W, then the next round key: the part of A after the first W.
template <class Key> KC_HD void permute_mix_key(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, const Key *k, uint32_t s[4])
{
    a1 = byte_perm(a1, 0, 0x2301); // abcd -> badc
    a2 = byte_perm(a2, 0, 0x1032); // abcd -> cdab
    a3 = byte_perm(a3, 0, 0x0123); // abcd -> dcba
    const uint32_t t = a0 ^ a1 ^ a2 ^ a3;
    s[0] = t ^ a3 ^ k[0]; // a0 ^ a1 ^ a2
    s[1] = t ^ a1 ^ k[1]; // a0 ^ a2 ^ a3
    s[2] = t ^ a2 ^ k[2]; // a0 ^ a1 ^ a3
    s[3] = t ^ a0 ^ k[3]; // a1 ^ a2 ^ a3
}

// A on the four M(SL) words, then the round key k: s = A(R) ^ k.
template <class Key> KC_HD void diffuse_key(uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3, const Key *k, uint32_t s[4])
{
    permute_mix_key(r0 ^ r1 ^ r2, r0 ^ r2 ^ r3, r0 ^ r1 ^ r3, r1 ^ r2 ^ r3, k, s);
}

// Rounds 2..n-1 and the last layer: s (big-endian words, after round 1) -> little-endian out.
#pragma nv_exec_check_disable
template <int R, class Tab, class Key> KC_HD void rounds_tail(const Tab &tab, const Key (*k)[4], uint32_t s[4], uint32_t out[4])
{
#pragma unroll
    for (int i = 2; i < R; i++) {
        const uint32_t r0 = sub_mix<1, 0, 3, 2>(tab, s[0]), r1 = sub_mix<1, 0, 3, 2>(tab, s[1]);
        const uint32_t r2 = sub_mix<1, 0, 3, 2>(tab, s[2]), r3 = sub_mix<1, 0, 3, 2>(tab, s[3]);
        diffuse_key(r0, r1, r2, r3, k[i], s);
    }
    // C = SL2(s) ^ k[n]: byte p of the output (little-endian byte p) is S_(p^2) of byte p of
    // the state, found in the lookup of table q = p^2 at byte q^2 = p.
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const uint32_t v0 = tab.template s<0>(s[j], 1), v1 = tab.template s<1>(s[j], 0);
        const uint32_t v2 = tab.template s<2>(s[j], 3), v3 = tab.template s<3>(s[j], 2);
        const uint32_t lo = byte_perm(v2, v3, (uint32_t)(Tab::spos(2) | (4 + Tab::spos(3)) << 4));
        const uint32_t hi = byte_perm(v0, v1, (uint32_t)(Tab::spos(0) << 8 | (4 + Tab::spos(1)) << 12));
        out[j] = byte_perm(lo, hi, 0x7610) ^ k[R][j];
    }
}

// ECB: one block as little-endian words, in place; k = ek for encryption, dk for decryption
// (RFC 5794 section 2.2.2.2: decryption is the same process with the decryption keys).
// Key is uint32_t, or volatile uint32_t where every use must read the key again (keys in
// shared memory that the compiler would otherwise hoist into registers).
#pragma nv_exec_check_disable
template <int R, class Tab, class Key> KC_HD void crypt_block(const Tab &tab, const Key (*k)[4], uint32_t w[4])
{
    uint32_t s[4];
    // Round 1 reads byte q of the little-endian words: table q at bits 8q.
    const uint32_t r0 = sub_mix<0, 1, 2, 3>(tab, w[0] ^ k[0][0]), r1 = sub_mix<0, 1, 2, 3>(tab, w[1] ^ k[0][1]);
    const uint32_t r2 = sub_mix<0, 1, 2, 3>(tab, w[2] ^ k[0][2]), r3 = sub_mix<0, 1, 2, 3>(tab, w[3] ^ k[0][3]);
    diffuse_key(r0, r1, r2, r3, k[1], s);
    rounds_tail<R>(tab, k, s, w);
}

// ---- CTR ----------------------------------------------------------------------------------
//
// Only the last word of the counter block changes inside a launch (the caller guarantees no
// carry out of it), so round 1's lookups for words 0..2 and what the first W makes of them
// are computed once on the host: a0 = R0^R1^R2 is fixed, a1 = f1^R3, a2 = f2^R3, a3 = f3^R3.
struct AriaCtrPre {
    uint32_t f0, f1, f2, f3; // R0^R1^R2, R0^R2, R0^R1, R1^R2
    uint32_t k3;             // whitening key word 3, big-endian (the counter word's key)
};

// ctr_words: the counter block as little-endian words. Any layout gives the same values;
// the host uses the flat tables.
template <class Tab> AriaCtrPre ctr_precompute(const Tab &tab, const AriaCudaKeys &p, const uint32_t ctr_words[4])
{
    uint32_t r[3];
    for (int j = 0; j < 3; j++)
        r[j] = sub_mix<0, 1, 2, 3>(tab, ctr_words[j] ^ p.ek[0][j]);
    AriaCtrPre pre;
    pre.f0 = r[0] ^ r[1] ^ r[2];
    pre.f1 = r[0] ^ r[2];
    pre.f2 = r[0] ^ r[1];
    pre.f3 = r[1] ^ r[2];
    pre.k3 = cuda::bswap32(p.ek[0][3]);
    return pre;
}

// Keystream block for the counter whose last word is ctr_lo (an integer: the big-endian
// word), as little-endian words.
#pragma nv_exec_check_disable
template <int R, class Tab, class Key>
KC_HD void ctr_keystream(const Tab &tab, const Key (*k)[4], const AriaCtrPre &pre, uint32_t ctr_lo, uint32_t ks[4])
{
    // The counter word is big-endian, so byte q is bits 8*(3-q).
    const uint32_t r3 = sub_mix<3, 2, 1, 0>(tab, ctr_lo ^ pre.k3);
    uint32_t s[4];
    permute_mix_key(pre.f0, pre.f1 ^ r3, pre.f2 ^ r3, pre.f3 ^ r3, k[1], s);
    rounds_tail<R>(tab, k, s, ks);
}

// ---- Table layouts ------------------------------------------------------------------------

// Flat tables anywhere a C++ reference reaches (the host copy; device __device__ or
// __constant__ data through Src::table()).
template <class Src> struct FlatTab {
    template <int q> KC_HD uint32_t t(uint32_t w, int i) const { return Src::table().t[q][(w >> (8 * i)) & 0xff]; }
    template <int q> KC_HD uint32_t s(uint32_t w, int i) const { return t<q>(w, i); }
    // T_q has S_q in every byte but byte q (bit 8*(3-q)); byte q^2 is one of the others.
    KC_HD static constexpr int spos(int q) { return q ^ 2; }
};

// The flat tables on the host (the CTR precomputation; host-only, hence not a FlatTab).
struct HostTab {
    template <int q> uint32_t t(uint32_t w, int i) const { return host_ttables.t[q][(w >> (8 * i)) & 0xff]; }
    template <int q> uint32_t s(uint32_t w, int i) const { return t<q>(w, i); }
    KC_HD static constexpr int spos(int q) { return q ^ 2; }
};

// In shared memory: byte offsets from the start of the dynamic shared array `mem`.
// Every fill(mem, src, tid, nthreads) is what one thread of a CUDA block stores; the device
// runs all threads then syncs, the host tests loop over tid.

// One copy, [4][256] words (aria/cuda-shared).
struct SharedOneTab {
    static constexpr uint32_t bytes = 4 * 256 * 4;
    const uint8_t *mem;
    KC_HD static SharedOneTab at(const uint8_t *mem, unsigned) { return {mem}; }
    template <int q> KC_HD uint32_t t(uint32_t w, int i) const
    {
        return load_u32(mem, q * 1024 + (((w >> (8 * i)) & 0xff) << 2));
    }
    template <int q> KC_HD uint32_t s(uint32_t w, int i) const { return t<q>(w, i); }
    KC_HD static constexpr int spos(int q) { return q ^ 2; }
    KC_HD static void fill(uint8_t *mem, const TTables &src, unsigned tid, unsigned n)
    {
        for (unsigned e = tid; e < 1024; e += n)
            reinterpret_cast<uint32_t *>(mem)[e] = src.t[e >> 8][e & 255];
    }
};

// N copies as [N][4][256] words, copy = lane % N (aria/cuda-shared-nx256). Every copy starts
// at bank 0, so the bank of a lookup is its byte mod 32 whatever the copy: replication does
// not remove conflicts in this layout (two lanes with equal bytes in different copies even
// conflict where one copy would broadcast). It is the paper's layout, kept to measure that.
template <unsigned N> struct SharedNx256Tab {
    static constexpr uint32_t bytes = N * 4096;
    const uint8_t *mem; // this thread's copy
    KC_HD static SharedNx256Tab at(const uint8_t *mem, unsigned lane) { return {mem + (lane % N) * 4096}; }
    template <int q> KC_HD uint32_t t(uint32_t w, int i) const
    {
        return load_u32(mem, q * 1024 + (((w >> (8 * i)) & 0xff) << 2));
    }
    template <int q> KC_HD uint32_t s(uint32_t w, int i) const { return t<q>(w, i); }
    KC_HD static constexpr int spos(int q) { return q ^ 2; }
    KC_HD static void fill(uint8_t *mem, const TTables &src, unsigned tid, unsigned n)
    {
        for (unsigned e = tid; e < N * 1024; e += n)
            reinterpret_cast<uint32_t *>(mem)[e] = src.t[(e >> 8) & 3][e & 255];
    }
};

// N copies as [256][4][N] words: entry x of table q, copy c at ((x * 4 + q) * N + c) * 4
// (aria/cuda-shared-256xn). When 4N divides 128 (N <= 32, a power of two), copy c of every
// entry of table q lies in bank (q*N + c) mod 32, so two lanes share a bank only when they
// share a copy: at most 32/N lanes per bank. With N = 16 a row is 256 bytes and the offset
// (x << 8) | (c << 2) is one PRMT; q is an immediate.
template <unsigned N> struct Shared256xNTab {
    static constexpr uint32_t bytes = 256 * 4 * N * 4;
    static constexpr uint32_t row = 16 * N;
    const uint8_t *mem;
    uint32_t base; // copy * 4
    KC_HD static Shared256xNTab at(const uint8_t *mem, unsigned lane) { return {mem, (lane % N) * 4}; }
    KC_HD uint32_t offset(uint32_t w, int i) const
    {
        if constexpr (row == 256)
            return byte_perm(w, base, index_sel(i));
        else
            return ((w >> (8 * i)) & 0xff) * row + base;
    }
    template <int q> KC_HD uint32_t t(uint32_t w, int i) const { return load_u32(mem, offset(w, i) + q * 4 * N); }
    template <int q> KC_HD uint32_t s(uint32_t w, int i) const { return t<q>(w, i); }
    KC_HD static constexpr int spos(int q) { return q ^ 2; }
    KC_HD static void fill(uint8_t *mem, const TTables &src, unsigned tid, unsigned n)
    {
        for (unsigned e = tid; e < 1024 * N; e += n) // consecutive threads, consecutive banks
            reinterpret_cast<uint32_t *>(mem)[e] = src.t[(e / N) & 3][e / (4 * N)];
    }
};

// The ARIA-CTR paper's table: the 1 KiB combined table, 32 copies, copy = lane, so lane l
// always reads bank l and a warp never conflicts (aria/cuda-shared-1k-x32). RowBytes = 128
// is the paper's dense [256][32] layout, whose offset (x << 7) | (lane << 2) costs a shift
// and a LOP3 per lookup; RowBytes = 256 leaves the second half of every row unused
// ([256][2][32], 64 KiB instead of 32) so that the offset is one PRMT. The expansion of an
// entry into T_q[x] is one more PRMT; the last layer merges raw entries instead.
template <unsigned RowBytes> struct Combined1kX32Tab {
    static_assert(RowBytes == 128 || RowBytes == 256, "rows hold the 32 copies");
    static constexpr uint32_t bytes = 256 * RowBytes;
    const uint8_t *mem;
    uint32_t base; // lane * 4
    KC_HD static Combined1kX32Tab at(const uint8_t *mem, unsigned lane) { return {mem, (lane % 32) * 4}; }
    KC_HD uint32_t entry(uint32_t w, int i) const
    {
        if constexpr (RowBytes == 256)
            return load_u32(mem, byte_perm(w, base, index_sel(i)));
        else
            return load_u32(mem, (((w >> (8 * i)) & 0xff) << 7) | base);
    }
    template <int q> KC_HD uint32_t t(uint32_t w, int i) const { return byte_perm(entry(w, i), 0, expand_sel(q)); }
    template <int q> KC_HD uint32_t s(uint32_t w, int i) const { return entry(w, i); }
    KC_HD static constexpr int spos(int q) { return 3 - q; }
    KC_HD static void fill(uint8_t *mem, const CombinedTable &src, unsigned tid, unsigned n)
    {
        // A warp stores one row: the 32 lanes hit 32 banks, and all read the same entry.
        for (unsigned e = tid; e < 256 * 32; e += n)
            reinterpret_cast<uint32_t *>(mem + (e / 32) * RowBytes)[e % 32] = src.c[e / 32];
    }
};

// All four T-tables, 32 copies each, copy = lane (aria/cuda-shared-4k-x32, 128 KiB: GH100's
// 228 KiB per SM allows it). Layout [2][256][2][32] words: table q's entry x for lane l at
// (q >> 1) * 64 KiB + x * 256 + (q & 1) * 128 + l * 4. Rows of 256 bytes hold two tables,
// so the offset is one PRMT and the table an immediate; no expansion.
struct TTables4kX32Tab {
    static constexpr uint32_t bytes = 4 * 256 * 32 * 4;
    const uint8_t *mem;
    uint32_t base; // lane * 4
    KC_HD static TTables4kX32Tab at(const uint8_t *mem, unsigned lane) { return {mem, (lane % 32) * 4}; }
    template <int q> KC_HD uint32_t t(uint32_t w, int i) const
    {
        return load_u32(mem, byte_perm(w, base, index_sel(i)) + (q >> 1) * 65536 + (q & 1) * 128);
    }
    template <int q> KC_HD uint32_t s(uint32_t w, int i) const { return t<q>(w, i); }
    KC_HD static constexpr int spos(int q) { return q ^ 2; }
    KC_HD static void fill(uint8_t *mem, const TTables &src, unsigned tid, unsigned n)
    {
        // Word e of the layout: lane e % 32, table half (e / 32) % 2, entry (e / 64) % 256,
        // table pair e / 16384. A warp stores 32 consecutive words (one bank each) of one entry.
        for (unsigned e = tid; e < 32768; e += n) {
            const unsigned q = (e / 16384) * 2 + (e / 32) % 2;
            reinterpret_cast<uint32_t *>(mem)[e] = src.t[q][(e / 64) % 256];
        }
    }
};

} // namespace kc::aria_cuda
