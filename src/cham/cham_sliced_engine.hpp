// Revised CHAM on word-sliced vectors, written once for the SIMD CHAM kernels (x86 and NEON): the
// rounds, ECB in steps of G groups, CTR with its counters built in registers, and the bursts of
// CTR_DRBG (keystream_pair, ECB with a key per block).
//
// A kernel file includes this header inside its `KC_TARGET_PUSH` region (the x86 kernels;
// cham_neon.cpp, baseline aarch64 code, has none), so that every function here is compiled for
// its instruction set, and supplies an operations class per word size, O:
//
//   V, W                       vector type; word type (uint16_t or uint32_t)
//   lanes, groups, masked      blocks per group (one per word lane); groups per full step;
//                              whether partial groups use masked loads and stores
//   block_bytes                4 * sizeof(W)
//   bxor, add, sub, splat(W), bcast(const uint32_t *: one ChamSlicedKeys table entry)
//   rol<R>, rol_xor<R>(x, k) = ROL_R(x) ^ k, bswap (each word's bytes reversed)
//   to_words(V (&)[4]), to_blocks(V (&)[4])   transposes of one group, inverse of each other
//   lane_blocks()              lane -> index of its block in the group (to_words' order)
//   load(p, j), store(p, j, v) register j (of sizeof(V) bytes) of a step; with `masked`
//   load_part(p, n, j), store_part(p, n, j, v): the same, touching only the first n blocks
//
// Every operation must be inlined (a static member function defined in its class is inline):
// a call per word operation would cost more than the operation. Engine<Ops16, Ops32>, at the
// end, is what the kernel's baseline entry points (cham_sliced_entry.hpp) call.
//
// A group is four registers x[0..3]; x[j] holds word j of `lanes` blocks.
//
// Round i (Koo et al., ICISC 2017, "encryption"; round counts of Roh et al., ICISC 2019):
//   X_0' = X_1, X_1' = X_2, X_2' = X_3, X_3' = ROL_{R2}((X_0 ^ i) + (ROL_{R1}(X_1) ^ RK_i))
// with (R1, R2) = (1, 8) for even i, (8, 1) for odd i. Writing the new word over X_0's
// register makes the word rotation free: rounds r..r+3 (r a multiple of 4) update x[0], x[1],
// x[2], x[3] in turn, each from itself and the next register, and leave the words in order.
#pragma once
// Must be included inside a kernel file's target region, after that file has included
// cham/cham_sliced.hpp (and with it the headers below) outside it, so that their inline
// functions are compiled for the baseline.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cham/cham.hpp"
#include "cham/cham_key_step.hpp"
#include "cham/cham_sliced.hpp"
#include "core/cipher.hpp"
#include "core/wipe.hpp"
#include "core/write_prefetch.hpp"

// Everything below has internal linkage: each kernel file compiles its own copy for its own
// instruction set, and no copy built for AVX-512 can be the one the linker keeps for another
// file (an inline function or template instantiation with external linkage could be).
namespace kc::cham_sliced {
namespace {

// Round i, one group: the new X_3 from X_0 and X_1 (ri, rk: i and RK_i in every lane).
template <class O, unsigned R1, unsigned R2>
inline typename O::V encrypt_word(typename O::V x0, typename O::V x1, typename O::V ri,
                                  typename O::V rk)
{
    return O::template rol<R2>(O::add(O::bxor(x0, ri), O::template rol_xor<R1>(x1, rk)));
}

// Inverse of round i on u_j = s_j ^ j (cham_sliced.hpp, ChamSlicedKeys): u_i from u_{i+4}, u_{i+1}.
template <class O, unsigned R1, unsigned R2>
inline typename O::V decrypt_word(typename O::V u4, typename O::V u1, typename O::V dc,
                                  typename O::V dk)
{
    constexpr unsigned bits = 8 * sizeof(typename O::W);
    return O::sub(O::template rol_xor<bits - R2>(u4, dc), O::template rol_xor<R1>(u1, dk));
}

// Where encryption takes its keys from: a ChamSlicedKeys (every lane the same key), or
// ChamLaneKeys (each lane its own key: DrbgAccel::encrypt_blocks_keyed, for CTR_DRBG).
template <class O> inline typename O::V round_key(const ChamSlicedKeys &k, int i) { return O::bcast(&k.rk[i & 15]); }
// The round number i in every lane, from the key-independent table (cham_sliced.hpp): a rekey
// writes none of it.
template <class O> inline typename O::V round_number(int i)
{
    return O::bcast(&cham_sliced_round_constants<typename O::W>.ri[i]);
}
template <class O> inline typename O::V round_number(const ChamSlicedKeys &, int i) { return round_number<O>(i); }
inline int round_count(const ChamSlicedKeys &k) { return k.base.rounds; }

// Round keys of one group whose lanes each have their own key: the family's key schedule
// (cham_key_step.hpp) on word-sliced key words.
template <class O> struct ChamLaneKeys {
    typename O::V rk[16];
    int nrk, rounds;
};
template <class O> inline typename O::V round_key(const ChamLaneKeys<O> &k, int i) { return k.rk[i & (k.nrk - 1)]; }
template <class O> inline typename O::V round_number(const ChamLaneKeys<O> &, int i) { return round_number<O>(i); }
template <class O> inline int round_count(const ChamLaneKeys<O> &k) { return k.rounds; }

// Two key states for the two halves of a step (DrbgAccel::keystream_pair): groups 0..G/2-1
// under k[0], the others under k[1]. group_keys gives group g of G its key source; for one
// key state or one group of lane keys, every group shares it (and the compiler loads each
// round's key once).
struct ChamKeyPair {
    const ChamSlicedKeys *k[2];
};
inline const ChamSlicedKeys &group_keys(const ChamSlicedKeys &k, int, int) { return k; }
inline const ChamSlicedKeys &group_keys(const ChamKeyPair &p, int g, int groups) { return *p.k[2 * g / groups]; }
template <class O> inline const ChamLaneKeys<O> &group_keys(const ChamLaneKeys<O> &k, int, int) { return k; }
inline int round_count(const ChamKeyPair &p) { return p.k[0]->base.rounds; }

// Round r + K of G groups, r a multiple of 4 (so the round's parity is K's).
template <class O, int G, int K, class KS>
inline void encrypt_round(const KS &k, typename O::V (&x)[G][4], int r)
{
    constexpr unsigned r1 = K % 2 == 0 ? 1 : 8, r2 = 9 - r1;
    for (int g = 0; g < G; g++) {
        const auto &kg = group_keys(k, g, G);
        x[g][K] = encrypt_word<O, r1, r2>(x[g][K], x[g][(K + 1) % 4], round_number<O>(kg, r + K),
                                          round_key<O>(kg, r + K));
    }
}

template <class O, int G, int K>
inline void decrypt_round(const ChamSlicedKeys &k, typename O::V (&x)[G][4], int r)
{
    constexpr unsigned r1 = K % 2 == 0 ? 1 : 8, r2 = 9 - r1;
    const typename O::V dc = O::bcast(&k.dc[r + K]), dk = O::bcast(&k.dk[r + K]);
    for (int g = 0; g < G; g++)
        x[g][K] = decrypt_word<O, r1, r2>(x[g][K], x[g][(K + 1) % 4], dc, dk);
}

// Rounds first.. (first a multiple of 4) to the end.
template <class O, int G, class KS>
inline void encrypt_rounds(const KS &k, typename O::V (&x)[G][4], int first)
{
    const int rounds = round_count(k);
    for (int r = first; r < rounds; r += 4) {
        encrypt_round<O, G, 0>(k, x, r);
        encrypt_round<O, G, 1>(k, x, r);
        encrypt_round<O, G, 2>(k, x, r);
        encrypt_round<O, G, 3>(k, x, r);
    }
}

// The last round first: round r + K wrote x[K], so undoing rounds r+3..r restores x[3]..x[0].
// The registers hold u_j = s_j ^ j in between (see decrypt_word).
template <class O, int G> inline void decrypt_rounds(const ChamSlicedKeys &k, typename O::V (&x)[G][4])
{
    const int rounds = k.base.rounds;
    for (int g = 0; g < G; g++)
        for (int j = 0; j < 4; j++)
            x[g][j] = O::bxor(x[g][j], round_number<O>(k, rounds + j));
    for (int r = rounds - 4; r >= 0; r -= 4) {
        decrypt_round<O, G, 3>(k, x, r);
        decrypt_round<O, G, 2>(k, x, r);
        decrypt_round<O, G, 1>(k, x, r);
        decrypt_round<O, G, 0>(k, x, r);
    }
    for (int g = 0; g < G; g++)
        for (int j = 0; j < 4; j++)
            x[g][j] = O::bxor(x[g][j], round_number<O>(k, j));
}

// Register j of a step, all blocks or only the first n.
template <class O, bool Part> inline typename O::V load_reg(const uint8_t *p, size_t n, size_t j)
{
    if constexpr (Part)
        return O::load_part(p, n, j);
    else
        return O::load(p, j);
}

template <class O, bool Part>
inline void store_reg(uint8_t *p, size_t n, size_t j, typename O::V v)
{
    if constexpr (Part)
        O::store_part(p, n, j, v);
    else
        O::store(p, j, v);
}

// Without masked loads and stores, a partial step runs as a whole step on a copy of its n
// blocks in a stack buffer (never one block at a time). The copy holds data or keystream:
// wiped after use.
template <class O, int G, class Step>
inline void through_buffer(const uint8_t *in, uint8_t *out, size_t n, Step step)
{
    alignas(64) uint8_t buf[G * 4 * sizeof(typename O::V)] = {};
    if (in != nullptr) // nullptr: the keystream, over the zeros
        std::memcpy(buf, in, n * O::block_bytes);
    step(buf, buf);
    std::memcpy(out, buf, n * O::block_bytes);
    secure_wipe(buf, sizeof buf);
}

// ECB of one step: G groups, or only its first n blocks when Part.
template <class O, int G, bool Part, bool Decrypt, class KS>
void ecb_step(const KS &k, const uint8_t *in, uint8_t *out, size_t n)
{
    if constexpr (Part && !O::masked) {
        through_buffer<O, G>(in, out, n, [&](const uint8_t *bi, uint8_t *bo) {
            ecb_step<O, G, false, Decrypt>(k, bi, bo, G * O::lanes);
        });
    } else {
        typename O::V x[G][4];
        for (int g = 0; g < G; g++) {
            for (int j = 0; j < 4; j++)
                x[g][j] = load_reg<O, Part>(in, n, 4 * g + j);
            O::to_words(x[g]);
        }
        if constexpr (Decrypt)
            decrypt_rounds<O, G>(k, x);
        else
            encrypt_rounds<O, G>(k, x, 0);
        for (int g = 0; g < G; g++) {
            O::to_blocks(x[g]);
            for (int j = 0; j < 4; j++)
                store_reg<O, Part>(out, n, 4 * g + j, x[g][j]);
        }
    }
}

// The last 0 < n < G * lanes blocks as one step of just enough groups.
template <class O, int G, bool Decrypt>
void ecb_tail(const ChamSlicedKeys &k, const uint8_t *in, uint8_t *out, size_t n)
{
    if constexpr (G > 1) {
        if (n <= (G - 1) * O::lanes)
            return ecb_tail<O, G - 1, Decrypt>(k, in, out, n);
    }
    ecb_step<O, G, true, Decrypt>(k, in, out, n);
}

template <class O, bool Decrypt>
void ecb(const ChamSlicedKeys &k, const uint8_t *in, uint8_t *out, size_t n)
{
    constexpr int G = O::groups;
    constexpr size_t step = G * O::lanes, step_bytes = step * O::block_bytes;
    for (; n >= step; n -= step, in += step_bytes, out += step_bytes)
        ecb_step<O, G, false, Decrypt>(k, in, out, step);
    if (n > 0)
        ecb_tail<O, G, Decrypt>(k, in, out, n);
}

// The heads of keystream_pair's two runs, like ChamKeyPair.
template <class W> struct ChamHeadPair {
    const ChamCtrHead<W> *h[2];
};
template <class W> inline const ChamCtrHead<W> &group_head(const ChamCtrHead<W> &h, int, int) { return h; }
template <class W> inline const ChamCtrHead<W> &group_head(const ChamHeadPair<W> &p, int g, int groups)
{
    return *p.h[2 * g / groups];
}

// CTR rounds 0..11 of G groups (cham_sliced.hpp has the formulas): x[g][0] holds the blocks'
// X_3 on entry; on return x[g][0..3] hold s_12..s_15, the words entering round 12. KS and HS:
// one key state and head for every group, or a pair of each.
template <class O, int G, class KS, class HS>
inline void ctr_head_rounds(const KS &k, const HS &h, typename O::V (&x)[G][4])
{
    using V = typename O::V;
    V s6[G], s7[G], s9[G], s10[G], s11[G], s12[G];
    for (int g = 0; g < G; g++) {
        const auto &kg = group_keys(k, g, G);
        const auto &hg = group_head(h, g, G);
        const V s3 = x[g][0];
        s6[g] = O::template rol<8>(O::add(O::splat(hg.a2), O::template rol_xor<1>(s3, round_key<O>(kg, 2))));
        s7[g] = O::template rol<1>(O::add(O::bxor(s3, round_number<O>(kg, 3)), O::splat(hg.b3)));
    }
    for (int g = 0; g < G; g++) {
        const auto &kg = group_keys(k, g, G);
        const auto &hg = group_head(h, g, G);
        s9[g] = O::template rol<1>(O::add(O::splat(hg.a5), O::template rol_xor<8>(s6[g], round_key<O>(kg, 5))));
        s10[g] = encrypt_word<O, 1, 8>(s6[g], s7[g], round_number<O>(kg, 6), round_key<O>(kg, 6));
        s11[g] = O::template rol<1>(O::add(O::bxor(s7[g], round_number<O>(kg, 7)), O::splat(hg.b7)));
    }
    for (int g = 0; g < G; g++) {
        const auto &kg = group_keys(k, g, G);
        s12[g] = O::template rol<8>(O::add(O::splat(group_head(h, g, G).a8), O::template rol_xor<1>(s9[g], round_key<O>(kg, 8))));
    }
    for (int g = 0; g < G; g++) {
        const auto &kg = group_keys(k, g, G);
        x[g][0] = s12[g];
        x[g][1] = encrypt_word<O, 8, 1>(s9[g], s10[g], round_number<O>(kg, 9), round_key<O>(kg, 9));
        x[g][2] = encrypt_word<O, 1, 8>(s10[g], s11[g], round_number<O>(kg, 10), round_key<O>(kg, 10));
    }
    for (int g = 0; g < G; g++) {
        const auto &kg = group_keys(k, g, G);
        x[g][3] = encrypt_word<O, 8, 1>(s11[g], s12[g], round_number<O>(kg, 11), round_key<O>(kg, 11));
    }
}

// CTR of one step: blocks first.. of a segment (their X_3 = byteswap(h.low + index)), XORed
// into G groups of data, or only into its first n blocks when Part; Ks: the keystream itself
// (no data, in unused).
template <class O, int G, bool Part, bool Ks = false>
void ctr_step(const ChamSlicedKeys &k, const ChamCtrHead<typename O::W> &h, size_t first,
              const uint8_t *in, uint8_t *out, size_t n)
{
    using V = typename O::V;
    using W = typename O::W;
    if constexpr (Part && !O::masked) {
        through_buffer<O, G>(Ks ? nullptr : in, out, n, [&](const uint8_t *bi, uint8_t *bo) {
            ctr_step<O, G, false, Ks>(k, h, first, bi, bo, G * O::lanes);
        });
    } else {
        V x[G][4];
        for (int g = 0; g < G; g++) {
            const W low = (W)(h.low + first + g * O::lanes); // no wrap within a segment
            x[g][0] = O::bswap(O::add(O::splat(low), O::lane_blocks()));
        }
        ctr_head_rounds<O, G>(k, h, x);
        encrypt_rounds<O, G>(k, x, 12);
        for (int g = 0; g < G; g++) {
            O::to_blocks(x[g]);
            for (int j = 0; j < 4; j++) {
                const size_t r = 4 * g + j;
                if constexpr (Ks)
                    store_reg<O, Part>(out, n, r, x[g][j]);
                else
                    store_reg<O, Part>(out, n, r, O::bxor(x[g][j], load_reg<O, Part>(in, n, r)));
            }
        }
    }
}

// DrbgAccel::keystream_pair's step: the keystream of half a step from head ha under ka into
// out_a, and of the other half from hb under kb into out_b, interleaved. Neither run's low
// counter word wraps (the caller checks).
template <class O>
void keystream_pair_step(const ChamSlicedKeys &ka, const ChamCtrHead<typename O::W> &ha, uint8_t *out_a,
                         const ChamSlicedKeys &kb, const ChamCtrHead<typename O::W> &hb, uint8_t *out_b)
{
    using V = typename O::V;
    using W = typename O::W;
    constexpr int G = O::groups, H = G / 2;
    static_assert(G % 2 == 0, "a step of whole halves");
    const ChamKeyPair k{{&ka, &kb}};
    const ChamHeadPair<W> h{{&ha, &hb}};
    V x[G][4];
    for (int g = 0; g < G; g++) {
        const W low = (W)(group_head(h, g, G).low + (g % H) * O::lanes);
        x[g][0] = O::bswap(O::add(O::splat(low), O::lane_blocks()));
    }
    ctr_head_rounds<O, G>(k, h, x);
    encrypt_rounds<O, G>(k, x, 12);
    for (int g = 0; g < G; g++) {
        O::to_blocks(x[g]);
        for (int j = 0; j < 4; j++)
            O::store(g < H ? out_a : out_b, 4 * (g % H) + j, x[g][j]);
    }
}

template <class O, int G, bool Ks>
void ctr_tail(const ChamSlicedKeys &k, const ChamCtrHead<typename O::W> &h, size_t first,
              const uint8_t *in, uint8_t *out, size_t n)
{
    if constexpr (G > 1) {
        if (n <= (G - 1) * O::lanes)
            return ctr_tail<O, G - 1, Ks>(k, h, first, in, out, n);
    }
    ctr_step<O, G, true, Ks>(k, h, first, in, out, n);
}

// n blocks of one segment (cham_sliced_ctr_segments): whole steps, then one partial step. The
// keystream (Ks, no data) asks for its lines write_prefetch_ahead bytes before it stores them.
template <class O, bool Ks>
void ctr_segment_as(const ChamSlicedKeys &k, const ChamCtrHead<typename O::W> &h, const uint8_t *in,
                    uint8_t *out, size_t n)
{
    constexpr int G = O::groups;
    constexpr size_t step = G * O::lanes, step_bytes = step * O::block_bytes;
    size_t first = 0;
    for (; n - first >= step; first += step, out += step_bytes) {
        if constexpr (Ks) // counted in bytes left: no pointer is formed past the output
            if ((n - first) * O::block_bytes >= write_prefetch_ahead + step_bytes)
                prefetch_for_write(out + write_prefetch_ahead, step_bytes);
        ctr_step<O, G, false, Ks>(k, h, first, in, out, step);
        if constexpr (!Ks)
            in += step_bytes;
    }
    if (n > first)
        ctr_tail<O, G, Ks>(k, h, first, in, out, n - first);
}

// in == nullptr: the keystream itself.
template <class O>
void ctr_segment(const ChamSlicedKeys &k, const ChamCtrHead<typename O::W> &h, const uint8_t *in,
                 uint8_t *out, size_t n)
{
    if (in == nullptr)
        ctr_segment_as<O, true>(k, h, in, out, n);
    else
        ctr_segment_as<O, false>(k, h, in, out, n);
}

// The lane keys of one group from its first n raw keys (the others zero): each key's
// block-sized pieces are word-sliced like blocks, then each key word gives its two round keys.
template <class O>
inline void lane_keys(Cipher c, const uint8_t *keys, size_t n, ChamLaneKeys<O> &lk)
{
    using V = typename O::V;
    using W = typename O::W;
    constexpr size_t bb = O::block_bytes;
    const size_t kb = cipher_desc(c).key_bytes;
    const int key_words = (int)(kb / sizeof(W));
    alignas(64) uint8_t piece[O::lanes * bb];
    V kw[8];
    for (size_t p = 0; p < kb / bb; p++) {
        std::memset(piece, 0, sizeof piece);
        for (size_t i = 0; i < n; i++)
            std::memcpy(piece + bb * i, keys + kb * i + bb * p, bb);
        V w[4];
        for (int j = 0; j < 4; j++)
            w[j] = O::load(piece, j);
        O::to_words(w);
        for (int j = 0; j < 4; j++)
            kw[4 * p + j] = w[j];
    }
    for (int i = 0; i < key_words; i++) {
        const V t = O::bxor(kw[i], O::template rol<1>(kw[i]));
        lk.rk[i] = O::bxor(t, O::template rol<8>(kw[i]));
        lk.rk[cham_key::second_index(i, key_words)] = O::bxor(t, O::template rol<11>(kw[i]));
    }
    lk.nrk = 2 * key_words;
    lk.rounds = cham_revised_rounds(c);
    secure_wipe(piece, sizeof piece);
    secure_wipe(kw, sizeof kw);
}

// ECB with a key per block, one group at a time (the blocks of many CTR_DRBG requests).
template <class O>
void ecb_keyed(Cipher c, const uint8_t *keys, const uint8_t *in, uint8_t *out, size_t n)
{
    constexpr size_t bb = O::block_bytes;
    const size_t kb = cipher_desc(c).key_bytes;
    ChamLaneKeys<O> lk;
    for (size_t done = 0; done < n; done += O::lanes) {
        const size_t m = n - done < O::lanes ? n - done : O::lanes;
        lane_keys<O>(c, keys + kb * done, m, lk);
        if (m == O::lanes)
            ecb_step<O, 1, false, false>(lk, in + bb * done, out + bb * done, m);
        else
            ecb_step<O, 1, true, false>(lk, in + bb * done, out + bb * done, m);
    }
    secure_wipe(&lk, sizeof lk);
}

// The engine of one instruction set over its two operations classes: what the kernel's
// baseline entry points (cham_sliced_entry.hpp) call, choosing by the key's word size.
template <class Ops16, class Ops32> struct Engine {
    static_assert(std::is_same_v<typename Ops16::W, uint16_t> && std::is_same_v<typename Ops32::W, uint32_t>,
                  "Ops16 for CHAM-64/128, Ops32 for CHAM-128/*");
    static_assert(Ops16::groups / 2 * 4 * sizeof(typename Ops16::V) ==
                      Ops32::groups / 2 * 4 * sizeof(typename Ops32::V),
                  "one step size");
    // Bytes of each run of keystream_pair: half a step.
    static constexpr size_t pair_bytes = Ops16::groups / 2 * 4 * sizeof(typename Ops16::V);

    template <bool Decrypt> static void ecb_blocks(const ChamSlicedKeys &k, const uint8_t *in, uint8_t *out, size_t n);
    // CTR and keystream_pair take the operations class of their word type W.
    template <class W> using Ops = std::conditional_t<std::is_same_v<W, uint16_t>, Ops16, Ops32>;
    template <class W>
    static void ctr(const ChamSlicedKeys &k, const ChamCtrHead<W> &h, const uint8_t *in, uint8_t *out, size_t n);
    template <class W>
    static void pair(const ChamSlicedKeys &ka, const ChamCtrHead<W> &ha, uint8_t *out_a, const ChamSlicedKeys &kb,
                     const ChamCtrHead<W> &hb, uint8_t *out_b);
    static void encrypt_keyed(Cipher c, const uint8_t *keys, const uint8_t *in, uint8_t *out, size_t n);
};

// Defined outside the class, so not inline: each is one function of the target region, which
// the baseline entry points call (and could not inline: it needs the region's instruction set).
template <class Ops16, class Ops32>
template <bool Decrypt>
void Engine<Ops16, Ops32>::ecb_blocks(const ChamSlicedKeys &k, const uint8_t *in, uint8_t *out, size_t n)
{
    if (k.base.word_bits == 16)
        ecb<Ops16, Decrypt>(k, in, out, n);
    else
        ecb<Ops32, Decrypt>(k, in, out, n);
}

template <class Ops16, class Ops32>
template <class W>
void Engine<Ops16, Ops32>::ctr(const ChamSlicedKeys &k, const ChamCtrHead<W> &h, const uint8_t *in, uint8_t *out,
                               size_t n)
{
    ctr_segment<Ops<W>>(k, h, in, out, n);
}

template <class Ops16, class Ops32>
template <class W>
void Engine<Ops16, Ops32>::pair(const ChamSlicedKeys &ka, const ChamCtrHead<W> &ha, uint8_t *out_a,
                                const ChamSlicedKeys &kb, const ChamCtrHead<W> &hb, uint8_t *out_b)
{
    keystream_pair_step<Ops<W>>(ka, ha, out_a, kb, hb, out_b);
}

template <class Ops16, class Ops32>
void Engine<Ops16, Ops32>::encrypt_keyed(Cipher c, const uint8_t *keys, const uint8_t *in, uint8_t *out,
                                         size_t n)
{
    if (cipher_desc(c).block_bytes == 8)
        ecb_keyed<Ops16>(c, keys, in, out, n);
    else
        ecb_keyed<Ops32>(c, keys, in, out, n);
}

} // namespace
} // namespace kc::cham_sliced
