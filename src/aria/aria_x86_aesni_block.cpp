// aria/aesni-block: ARIA one block at a time, the whole state in one xmm register, for the
// modes whose blocks form a chain (CBC encryption, CMAC, CCM's CBC-MAC, CFB and OFB): there only
// the latency of one block counts, and the byte-sliced kernels pay a whole 16- or 32-block step
// for it. Its ChainAccel runs those chains with the block inlined (kit/chain_accel.hpp).
//
// A round on the 16 bytes of the block (RFC 5794 section 2.3):
//   - the key addition, one XOR (folded into the XOR tree of the round before's A);
//   - the substitution layer: every byte through all four S-boxes at once, then each byte
//     position keeps its own by mask (SB1, SB2, SB3, SB4 at i mod 4 = 0..3 in the type 1 layer,
//     SB3, SB4, SB1, SB2 in the type 2 layer). SB1 is aesenclast and SB3 = SB1^-1 is
//     aesdeclast, with one byte shuffle before each that cancels the ShiftRows they apply;
//     SB2 = G(SB1) and SB4 = SB3(H(x)) with the affine maps G and H as two nibble lookups
//     (vpshufb), the byte-sliced kernels' maps (aria_x86_byteslice.hpp, Yoo, Kivilinna, Cho,
//     IEEE Access 2023, section IV-B);
//   - the diffusion layer A as seven byte shuffles XORed together (aria_x86_diffusion.cpp).
// The dependent path of one round (the key of the next round rides in A's XOR tree): shuffle,
// H map (3), aesdeclast (4), mask and merge (3) = 12 cycles for the substitution layer at
// Zen 3's latencies (AES 4, vector logic and shuffles 1), and A's seven shuffles on two
// shuffle pipes and its three-deep XOR tree 4 to 7: 16 to 19 cycles a round, 190 to 222 a
// block of ARIA-128 (11 rounds, the last layer and the loads). Per round 50 vector
// instructions, 13 of them shuffles. Measured, x = E(x) back to back: about 300 cycles a
// block on a Zen 3 EPYC (the shuffles of A and of the next layer contend for the two pipes),
// where the byte-sliced kernels take about three times as long for one block and aria/table,
// which is not constant-time, 1.3 times or more (docs/performance.md, "CCM and CMAC").
//
// Constant-time: no branch and no memory address depends on key or data. aesenclast and
// aesdeclast take the same time for every input; the lookups are vpshufb on tables held in
// registers (the data is the shuffle index, not an address); the rest is XOR, AND and fixed
// shuffles. valgrind runs this kernel: ct_check aria/aesni-block.
#if defined(__x86_64__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "aria/aria.hpp"
#include "aria/aria_x86_block_keys.hpp"
#include "aria/aria_x86_block_tables.hpp"
#include "core/kernel.hpp"
#include "core/target_region.hpp"
#include "core/wipe.hpp"
#include "kit/block_loop.hpp"

// Only this file's own functions take the target: the headers' inline functions above stay
// baseline code, whichever copy the linker keeps.
KC_TARGET_PUSH("ssse3,aes")
// Included in the region, so that its loops take the target and crypt_block inlines into them.
#include "kit/chain_accel.hpp"

namespace kc {
namespace {

struct Constants {
    __m128i g_lo, g_hi, h_lo, h_hi, nibble;
    __m128i enc_order, dec_order; // the shuffles before aesenclast and aesdeclast
    __m128i mask[4];              // byte i mod 4 == t
    __m128i perm[7];              // A = XOR of the seven byte permutations
};

inline __m128i row(const uint8_t *p) { return _mm_load_si128(reinterpret_cast<const __m128i *>(p)); }

// The tables of aria_x86_block_tables.hpp in registers.
inline Constants constants()
{
    Constants k;
    k.g_lo = row(aria_block::g_lo);
    k.g_hi = row(aria_block::g_hi);
    k.h_lo = row(aria_block::h_lo);
    k.h_hi = row(aria_block::h_hi);
    k.nibble = _mm_set1_epi8(0x0f);
    k.enc_order = row(aria_block::enc_order);
    k.dec_order = row(aria_block::dec_order);
    for (int t = 0; t < 4; t++)
        k.mask[t] = _mm_set1_epi32((int)(0xffu << (8 * t)));
    for (int i = 0; i < 7; i++)
        k.perm[i] = row(aria_block::perm[i]);
    return k;
}

inline __m128i affine(const Constants &k, __m128i y, __m128i lo, __m128i hi)
{
    const __m128i l = _mm_shuffle_epi8(lo, _mm_and_si128(y, k.nibble));
    const __m128i h = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(y, 4), k.nibble));
    return _mm_xor_si128(l, h);
}

// The substitution layer of type 1 (odd = true: SB1, SB2, SB3, SB4 by i mod 4) or 2.
inline __m128i substitute(const Constants &k, __m128i x, bool odd)
{
    const __m128i zero = _mm_setzero_si128();
    const __m128i sb1 = _mm_aesenclast_si128(_mm_shuffle_epi8(x, k.enc_order), zero);
    const __m128i sb2 = affine(k, sb1, k.g_lo, k.g_hi);
    const __m128i d = _mm_shuffle_epi8(x, k.dec_order);
    const __m128i sb3 = _mm_aesdeclast_si128(d, zero);
    const __m128i sb4 = _mm_aesdeclast_si128(affine(k, d, k.h_lo, k.h_hi), zero);
    const int o = odd ? 0 : 2; // the mask of SB1 in this layer's order
    const __m128i a = _mm_xor_si128(_mm_and_si128(sb1, k.mask[o]), _mm_and_si128(sb2, k.mask[o + 1]));
    const __m128i b = _mm_xor_si128(_mm_and_si128(sb3, k.mask[(o + 2) % 4]), _mm_and_si128(sb4, k.mask[(o + 3) % 4]));
    return _mm_xor_si128(a, b);
}

// A(x) ^ key: the key of the next round as the eighth leaf of A's XOR tree, which stays three
// deep, so the key addition costs no latency.
inline __m128i diffuse_add(const Constants &k, __m128i x, __m128i key)
{
    __m128i p[7];
    for (int i = 0; i < 7; i++)
        p[i] = _mm_shuffle_epi8(x, k.perm[i]);
    const __m128i a = _mm_xor_si128(_mm_xor_si128(p[0], p[1]), _mm_xor_si128(p[2], p[3]));
    const __m128i b = _mm_xor_si128(_mm_xor_si128(p[4], p[5]), _mm_xor_si128(p[6], key));
    return _mm_xor_si128(a, b);
}

// Section 2.4: rounds 1 .. n-1 alternate FO and FE (n is even), the last is SL2 between two
// keys. Each round's key is added at the end of the round before.
inline __m128i crypt_block(const Constants &k, const __m128i *rk, int rounds, __m128i x)
{
    x = _mm_xor_si128(x, rk[0]);
    int r = 0;
    for (; r + 2 < rounds; r += 2) {
        x = diffuse_add(k, substitute(k, x, true), rk[r + 1]);
        x = diffuse_add(k, substitute(k, x, false), rk[r + 2]);
    }
    x = diffuse_add(k, substitute(k, x, true), rk[r + 1]);
    return _mm_xor_si128(substitute(k, x, false), rk[rounds]);
}

void encrypt_block(const AriaBlockKeys &k, const uint8_t *in, uint8_t *out)
{
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), crypt_block(constants(), k.ek, k.rounds, x));
}

void decrypt_block(const AriaBlockKeys &k, const uint8_t *in, uint8_t *out)
{
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), crypt_block(constants(), k.dk, k.rounds, x));
}

// CBC, CFB and OFB chains (kit/chain_accel.hpp) with the register in an xmm register.
struct AriaChainBlock {
    using Keys = AriaBlockKeys;
    using State = __m128i;
    static State load(const uint8_t *p) { return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)); }
    static void store(uint8_t *p, State s) { _mm_storeu_si128(reinterpret_cast<__m128i *>(p), s); }
    static State xor2(State a, State b) { return _mm_xor_si128(a, b); }
    static State encrypt(const Keys &k, State s) { return crypt_block(constants(), k.ek, k.rounds, s); }
};
using Chains = ChainLoops<AriaChainBlock>;

} // namespace
} // namespace kc

KC_TARGET_POP()

namespace kc {
namespace {

using Loop = BlockLoop<AriaBlockKeys, 16, encrypt_block, decrypt_block, schedule>;

} // namespace

// Descriptor: batch_blocks: 1 (the latency path: the ARIA module offers it to the chains);
// constant_time: AES-NI S-boxes, register-table vpshufb; rank: below aria/table, so that the
// throughput default stays as it was where no AVX kernel runs (not measured against it there).
extern const Kernel aria_aesni_block_kernel = {
    "aria/aesni-block", "aria", 16, 1, true, feat_ssse3 | feat_aesni, 5, sizeof(AriaBlockKeys),
    supports, Loop::set_key, Loop::encrypt_blocks, Loop::decrypt_blocks, Loop::ctr_xor_blocks};

// The chains' loops for the kernel above (kit/chain_accel.hpp).
extern const ChainAccel aria_aesni_block_chains = {&aria_aesni_block_kernel, feat_ssse3 | feat_aesni, Chains::cbc,
                                                   Chains::cfb, Chains::ofb};

} // namespace kc

#endif // __x86_64__
