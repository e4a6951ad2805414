// ARIA one block at a time in one xmm register with GFNI S-boxes, for the chains (CBC
// encryption, CMAC, CCM's CBC-MAC, CFB, OFB): aria/avx512-gfni-block and aria/avx-gfni-block,
// which include this inside their target regions (kit/block_loop.hpp before it, so that only
// the loops instantiated here take the target) and differ only in L, how they select bytes
// and XOR (L::select(m, a, b): m ? a : b bit by bit; L::diffuse(p, key): p[0] ^ .. ^ p[6] ^ key).
// Everything here has internal linkage, so each file gets its own instruction set.
// aria/aesni-block does the same with SSSE3 and AES-NI in about 50 vector instructions a round
// on three ports, which the ports, more than the dependent path, pace (about 27 cycles a round
// on the device host's Xeon). Here a round is 20 with AVX-512 (four GFNI and one aesdeclast for
// the S-boxes, three vpternlogd selects, A as seven byte shuffles XORed with the next round's
// key in three vpternlogd and one vpxor), 23 with AVX (vpblendvb selects, seven vpxor).
//
// The dependent path of an AVX-512 round, with latencies measured on the device host's Xeon
// in chains of one instruction (docs/performance.md, "CCM and CMAC"): GFNI and AES 3 cycles, shuffles
// and logic 1, and 1 more each time a value moves between the GFNI/AES unit and the others (a
// GFNI-vpternlogd chain takes 6 cycles, not 4):
//   1 + 3 + 3 + 1 (SB4: affine map, inversion) + 2 (two selects) + 4 (the seventh shuffle of A
//   issues in the fourth cycle, two shuffle ports) + 1 (its XOR) = 15 cycles.
//   ARIA-128: 11 such rounds, the last layer (10 and the key) and the first key: about 177
//   cycles a block, 11.1 cycles a byte, the ceiling of the chains on this kernel (ARIA-192:
//   207 and 12.9, ARIA-256: 237 and 14.8). With AVX, A's XORs take one cycle more.
//
// Constant-time: no branch and no memory address depends on key or data. gf2p8affineqb,
// gf2p8affineinvqb and aesdeclast take the same time for every input; the rest is XOR, selects
// by fixed masks and fixed shuffles. (valgrind cannot run GFNI, so ct_check skips these
// kernels, as it does aria/avx512-gfni; `kcipher-lab --ct-check` times them.)
#pragma once
#if defined(__x86_64__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "aria/aria.hpp"
#include "aria/aria_x86_block_keys.hpp"
#include "aria/aria_x86_block_tables.hpp"
#include "aria/aria_x86_byteslice.hpp" // the GFNI matrices of the S-boxes
#include "core/kernel.hpp"
#include "kit/block_loop.hpp"
#include "kit/chain_accel.hpp"

namespace kc {
namespace {

inline __m128i row(const uint8_t *p) { return _mm_load_si128(reinterpret_cast<const __m128i *>(p)); }

struct Constants {
    __m128i dec_order; // the shuffle before aesdeclast
    __m128i perm[7];   // A = XOR of the seven byte permutations
};

inline Constants constants()
{
    Constants k;
    k.dec_order = row(aria_block::dec_order);
    for (int i = 0; i < 7; i++)
        k.perm[i] = row(aria_block::perm[i]);
    return k;
}

// The bytes at i mod 4 == t (t = 4 and 5: two of them), as a vector.
inline __m128i at(int t) { return _mm_set1_epi32((int)(t < 4 ? 0xffu << (8 * t) : t == 4 ? 0xffffu : 0xffff0000u)); }

// The substitution layer of type 1 (odd = true: SB1, SB2, SB3, SB4 by i mod 4) or 2 (SB3, SB4,
// SB1, SB2): the four S-boxes on every byte, then each position keeps its own in a tree of
// selects. SB4 is the longest path (an affine map, then the inversion: two GFNI deep), so its
// first instruction is issued first; SB3 = SB1^-1 is aesdeclast after the shuffle that cancels
// its InvShiftRows, on the AES unit, which leaves the GFNI port to the other three. (Measured on
// the device host's Xeon, 16 KiB OFB, against the forms tried: SB3 by GFNI too, 4% slower; in
// the order SB1, SB2, SB3, SB4, 10%; that order with a chain of three selects, or with each
// S-box zero-masked by its GFNI instruction and the four XORed, about 20%; SB1 by aesenclast as
// well, the same.)
template <class L> inline __m128i substitute(const Constants &k, __m128i x, bool odd)
{
    const int o = odd ? 0 : 2; // the position of SB1 in this layer's order (SB2 follows it)
    const __m128i u4 = _mm_gf2p8affine_epi64_epi8(x, _mm_set1_epi64x(gf_sb4_pre), 0x2c);
    const __m128i sb3 = _mm_aesdeclast_si128(_mm_shuffle_epi8(x, k.dec_order), _mm_setzero_si128());
    const __m128i sb1 = _mm_gf2p8affineinv_epi64_epi8(x, _mm_set1_epi64x(gf_sb1_post), 0x63);
    const __m128i sb4 = _mm_gf2p8affineinv_epi64_epi8(u4, _mm_set1_epi64x(gf_identity), 0);
    const __m128i sb2 = _mm_gf2p8affineinv_epi64_epi8(x, _mm_set1_epi64x(gf_sb2_post), 0xe2);
    const __m128i s12 = L::select(at(o), sb1, sb2);
    const __m128i s34 = L::select(at((o + 2) % 4), sb3, sb4);
    return L::select(at(odd ? 4 : 5), s12, s34);
}

// A(x) ^ key: seven byte shuffles, XORed with the key by L::diffuse in the order they issue.
template <class L> inline __m128i diffuse_add(const Constants &k, __m128i x, __m128i key)
{
    __m128i p[7];
    for (int i = 0; i < 7; i++)
        p[i] = _mm_shuffle_epi8(x, k.perm[i]);
    return L::diffuse(p, key);
}

// Section 2.4: rounds 1 .. n-1 alternate FO and FE (n is even), the last is SL2 between two
// keys. Each round's key is added at the end of the round before.
template <class L> inline __m128i crypt_block(const Constants &k, const __m128i *rk, int rounds, __m128i x)
{
    x = _mm_xor_si128(x, rk[0]);
    int r = 0;
    for (; r + 2 < rounds; r += 2) {
        x = diffuse_add<L>(k, substitute<L>(k, x, true), rk[r + 1]);
        x = diffuse_add<L>(k, substitute<L>(k, x, false), rk[r + 2]);
    }
    x = diffuse_add<L>(k, substitute<L>(k, x, true), rk[r + 1]);
    return _mm_xor_si128(substitute<L>(k, x, false), rk[rounds]);
}

// The block functions, the chains' block (kit/chain_accel.hpp: the register in an xmm
// register) and their loops for one L.
template <class L> struct AriaGfniBlock {
    static void encrypt_block(const AriaBlockKeys &k, const uint8_t *in, uint8_t *out)
    {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out), crypt_block<L>(constants(), k.ek, k.rounds, x));
    }
    static void decrypt_block(const AriaBlockKeys &k, const uint8_t *in, uint8_t *out)
    {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out), crypt_block<L>(constants(), k.dk, k.rounds, x));
    }
    struct Chain {
        using Keys = AriaBlockKeys;
        using State = __m128i;
        static State load(const uint8_t *p) { return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)); }
        static void store(uint8_t *p, State s) { _mm_storeu_si128(reinterpret_cast<__m128i *>(p), s); }
        static State xor2(State a, State b) { return _mm_xor_si128(a, b); }
        static State encrypt(const Keys &k, State s) { return crypt_block<L>(constants(), k.ek, k.rounds, s); }
    };
    using Chains = ChainLoops<Chain>;
    using Loop = BlockLoop<AriaBlockKeys, 16, encrypt_block, decrypt_block, schedule>;

    // The descriptors: batch_blocks 1 (the latency path: the ARIA module offers these to the
    // chains, before aria/aesni-block); constant_time (above); rank 4, below aria/aesni-block,
    // so that no throughput default changes.
    static constexpr Kernel kernel(const char *name, uint32_t needs)
    {
        return {name, "aria", 16, 1, true, needs, 4, sizeof(AriaBlockKeys), supports, Loop::set_key, Loop::encrypt_blocks,
                Loop::decrypt_blocks, Loop::ctr_xor_blocks};
    }
    static constexpr ChainAccel chains(const Kernel *k, uint32_t needs)
    {
        return {k, needs, Chains::cbc, Chains::cfb, Chains::ofb};
    }
};

} // namespace
} // namespace kc

#endif // __x86_64__
