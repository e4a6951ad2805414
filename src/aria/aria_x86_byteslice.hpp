// Byte-sliced ARIA for x86 SIMD (Yoo, Kivilinna, Cho, "AVX-Based Acceleration of ARIA Block
// Cipher Algorithm", IEEE Access 2023), shared by the aria_x86_*.cpp kernels.
//
// Layout. A batch of N blocks (16 with xmm, 32 with ymm, 64 with zmm) is transposed so that
// vector x[j] holds byte j of every block of the batch (one byte per lane). Then:
//   - a round key addition is one XOR per byte position with the key byte broadcast;
//   - the substitution layer (RFC 5794 section 2.3.2) applies ONE S-box to a whole vector,
//     because byte position j always uses the same S-box (SB1..SB4 by j mod 4);
//   - the diffusion layer A (section 2.3.3) is XORs between whole vectors (see diffuse());
//     every output byte of A is a fixed XOR of input bytes, so no shuffle is needed.
// Lane L of a sliced vector is block 4(L mod 16) + L/16 of the batch for zmm (2(L mod 16) +
// L/16 for ymm, L for xmm): the in-lane 16x16 byte transpose below produces that order, and
// the CTR code builds its counters directly in it.
//
// Round keys are added where they cost nothing extra (aria_sliced_set_key says how per form),
// so that a GFNI round is the S-boxes plus the diffusion XORs: 24 GFNI instructions and 38
// XORs (3-input form, AVX-512) per round and batch.
//
// This header has two parts. The first (key layout, plain C++) is included like any header.
// The second (SIMD templates) is compiled only where the includer defines
// KC_ARIA_BYTESLICE_SIMD and includes this header again after its `KC_TARGET_PUSH`, so
// that the templates get that file's instruction set and internal linkage; each kernel file
// supplies the vector operations (a traits class V) for its width and ISA.
#if defined(__x86_64__) // x86 kernels only: the whole file
#ifndef KC_ARIA_X86_BYTESLICE_HPP
#define KC_ARIA_X86_BYTESLICE_HPP

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "aria/aria.hpp"
#include "core/wipe.hpp"

namespace kc {

// Where the round keys are folded in, which decides their layout.
enum class AriaKeyFold {
    // GFNI kernels: the affine constant of gf2p8affine is an immediate, so the key goes with
    // the diffusion: the next round's key is XORed into each output of A in the same 3-input
    // XOR (x <- A(SL(x)) ^ k), so key i is the RFC's key, unchanged.
    diffusion,
    // AES-NI kernels: aesenclast/aesdeclast add their round key after the S-box, and
    // A(s) ^ k = A(s ^ A(k)), so key i is stored as A(k) and given to the AES instruction.
    // Where S2 is computed as G(aesenclast(x, r)) (G affine), r is stored as G^-1's linear
    // part applied to the key byte, so that G turns it back into the key.
    sbox,
};

// Byte-sliced round keys. Entry j of a round is byte j of the key replicated into the four
// bytes of a dword, so that a 32-bit broadcast load (or an EVEX embedded broadcast) puts the
// byte in every lane without a shuffle. Round 0 is the plain first key (added before the
// first S-box layer), rounds 1..n-1 are folded as above, round n is the last key (folded into
// the final S-box layer for the AES-NI form, plain for the GFNI form).
struct AriaSlicedKeys {
    int rounds; // 12, 14 or 16
    alignas(64) uint32_t enc[aria_max_rounds + 1][16];
    alignas(64) uint32_t dec[aria_max_rounds + 1][16];
    alignas(16) uint8_t enc_first[16]; // ek1 as a block (CTR builds ctr ^ ek1)
    alignas(16) uint8_t enc_last[16];  // ek(n+1) as a block
};

// The same keys with every entry widened to a whole ymm row (the byte in all 32 lanes), for
// the AVX2 kernels: an instruction takes the row as its memory operand, where a 4-byte entry
// needs a broadcast first. On Zen 3 a broadcast from memory is a shuffle uop on the two pipes
// that also run vpshufb (2 of the 4 vector pipes), so the 32 per two rounds were a third of
// those pipes' work in aria/avx2-vaes; the memory operand also frees the register the
// broadcast held. 17 KiB per key instead of 2 KiB.
struct AriaSlicedKeysYmm {
    AriaSlicedKeys s; // first: the xmm kernels of a last partial batch read it as is
    alignas(32) uint8_t enc[aria_max_rounds + 1][16][32];
    alignas(32) uint8_t dec[aria_max_rounds + 1][16][32];
};

// From the RFC 5794 key schedule (aria_key_schedule), in aria_x86_byteslice.cpp. Constant-time
// past the shared key schedule: byte XORs and a bitwise GF(2) matrix product, no lookups.
// decryption = false: the encryption keys only (DrbgAccel::set_encrypt_key), ks->dec left as is.
void aria_sliced_set_key(AriaSlicedKeys *ks, Cipher c, const uint8_t *key, AriaKeyFold fold, bool decryption = true);

// The kernels' supports and set_key entry points (baseline code, in aria_x86_byteslice.cpp):
// ARIA-128/192/256, and the key layout of the GFNI (diffusion) or AES-NI (sbox) kernels.
bool aria_sliced_supports(Cipher c);
void aria_sliced_set_key_diffusion(void *state, Cipher c, const uint8_t *key);
void aria_sliced_set_key_sbox(void *state, Cipher c, const uint8_t *key);
void aria_sliced_set_encrypt_key_diffusion(void *state, Cipher c, const uint8_t *key);
void aria_sliced_set_encrypt_key_sbox(void *state, Cipher c, const uint8_t *key);
// The same for an AriaSlicedKeysYmm state (both tables: the dword one and its ymm rows).
void aria_sliced_set_key_diffusion_ymm(void *state, Cipher c, const uint8_t *key);
void aria_sliced_set_key_sbox_ymm(void *state, Cipher c, const uint8_t *key);
void aria_sliced_set_encrypt_key_diffusion_ymm(void *state, Cipher c, const uint8_t *key);
void aria_sliced_set_encrypt_key_sbox_ymm(void *state, Cipher c, const uint8_t *key);

// The GFNI S-boxes (Intel GFNI white paper; the paper's section IV-B1). gf2p8affineinvqb
// computes M.x^-1 ^ c and gf2p8affineqb computes M.x ^ c on every byte, x^-1 the inverse in
// GF(2^8) mod x^8+x^4+x^3+x+1 (AES's field, which is ARIA's). The 8x8 bit matrices are
// encoded as gf2p8affine expects (row i, the mask of input bits that make output bit i, in
// byte 7-i of the qword); they were derived from the S-box tables and are checked by every
// test against aria/ref:
//   SB1(x) = A1.x^-1 ^ 0x63        (the AES S-box)       one affineinv
//   SB2(x) = A2.x^-1 ^ 0xe2        (B.x^247 ^ b = B.(x^-1)^8 ^ b, and y -> y^8 is linear)
//   SB3(x) = (E.x ^ 0x05)^-1       (SB1^-1)               affine, then affineinv with I
//   SB4(x) = (F.x ^ 0x2c)^-1       (SB2^-1)
constexpr long long gf_sb1_post = 0xf1e3c78f1f3e7cf8LL;
constexpr long long gf_sb2_post = (long long)0xeafcb7c3c273c66fULL;
constexpr long long gf_sb3_pre = (long long)0xa44992254a942952ULL;
constexpr long long gf_sb4_pre = 0x186450c737d6bdc9LL;
constexpr long long gf_identity = 0x0102040810204080LL;

} // namespace kc

#endif // KC_ARIA_X86_BYTESLICE_HPP

#if defined(KC_ARIA_BYTESLICE_SIMD) && !defined(KC_ARIA_X86_BYTESLICE_SIMD_DONE)
#define KC_ARIA_X86_BYTESLICE_SIMD_DONE

namespace kc {
namespace {
namespace aria_bs {

// Everything below works on the 16 vectors of a batch, which must stay in registers: a call
// boundary would pass them through memory. So all of it is forced inline into the one batch
// function per width that a kernel file instantiates.
#define KC_ARIA_BS_INLINE inline __attribute__((always_inline))

// How a kernel reads its round keys. By default a round is 16 dwords (AriaSlicedKeys) and a
// key byte reaches the lanes through V::bcast32; a V that declares key_row (the ymm rows of
// AriaSlicedKeysYmm) reads them itself: V::key(row, j), V::enc_rows(ks), V::dec_rows(ks).
template <class V, class = void>
struct KeyAccess {
    using row = uint32_t[16];
    static KC_ARIA_BS_INLINE typename V::vec key(const row &r, int j) { return V::bcast32(&r[j]); }
    static const row *enc(const AriaSlicedKeys &ks) { return ks.enc; }
    static const row *dec(const AriaSlicedKeys &ks) { return ks.dec; }
};
template <class V>
struct KeyAccess<V, std::void_t<typename V::key_row>> {
    using row = typename V::key_row;
    static KC_ARIA_BS_INLINE typename V::vec key(const row &r, int j) { return V::key(r, j); }
    static const row *enc(const AriaSlicedKeys &ks) { return V::enc_rows(ks); }
    static const row *dec(const AriaSlicedKeys &ks) { return V::dec_rows(ks); }
};
template <class V>
using key_row_t = typename KeyAccess<V>::row;

// The traits class V (one per vector width and ISA) provides, for its vector type V::vec:
//   blocks                        lanes = blocks per batch (16, 32 or 64)
//   ternary                       whether xor3 is one instruction (vpternlogd, AVX-512VL)
//   xor2(a, b), xor3(a, b, c)     XOR of two or three vectors
//   bcast32(const uint32_t *)     a dword broadcast to every lane (a load, no shuffle)
//   bcast64(v), bcast128(p)       a qword constant, a 16-byte row, in every lane / 128 bits
//   unpacklo8(a, b), unpackhi8    vpunpck[lh]bw within each 128-bit lane
//   loadu(p), storeu(p, v)        unaligned vector load and store
//   affine<c>, affineinv<c>       gf2p8affineqb / gf2p8affineinvqb (GFNI kernels)
//   set1_8, add8, lane_offsets, carry, carry_of, blend, no_carry   CTR counters (below)
// and, for the AES-NI kernels, the operations AesniSboxes lists.

// The 16x16 byte transpose inside every 128-bit lane, as four rounds of the same perfect
// shuffle: pairing vector i with i+8 and interleaving their bytes maps (vector, byte) index
// bits (v3 v2 v1 v0, b3 b2 b1 b0) to (v2 v1 v0 b3, b2 b1 b0 v3), a rotation of the 8-bit
// index, so four of them swap vector and byte. It is its own inverse: the same function
// slices a batch and puts it back.
template <class V>
KC_ARIA_BS_INLINE void transpose(typename V::vec x[16])
{
    using vec = typename V::vec;
    for (int round = 0; round < 4; round++) {
        vec t[16];
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++) {
            t[2 * i] = V::unpacklo8(x[i], x[i + 8]);
            t[2 * i + 1] = V::unpackhi8(x[i], x[i + 8]);
        }
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++)
            x[i] = t[i];
    }
}

// x[j] ^= key byte j (a round key in the sliced layout).
template <class V>
KC_ARIA_BS_INLINE void add_key(typename V::vec x[16], const key_row_t<V> &k)
{
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++)
        x[j] = V::xor2(x[j], KeyAccess<V>::key(k, j));
}

// a ^ b ^ key byte j (or a ^ b without a key).
template <class V>
KC_ARIA_BS_INLINE typename V::vec output(typename V::vec a, typename V::vec b,
                                         const key_row_t<V> *k, int j)
{
    return k != nullptr ? V::xor3(a, b, KeyAccess<V>::key(*k, j)) : V::xor2(a, b);
}

// The diffusion layer A of RFC 5794 section 2.3.3 plus the round key k (or none), x <- A(x) ^ k,
// with 3-input XORs. Every output byte of A is the XOR of seven input bytes; sharing sub-sums
// between outputs, this takes 22 XORs of two or three input bytes or earlier sums, then one
// 3-input XOR per output that also adds its key byte: 38 operations, at most three deep
// (the word factorisation W.P.W.M below costs 56 in 3-input XORs, and so does building each
// output from pairs of bytes; W.P.W.M also waits twice for a whole step, which idles the
// GFNI port). The sub-sums were found by a randomised greedy search over the rows of the
// RFC's table, keeping the shortest program of depth 3 and checking it against the table;
// the tests check every kernel against aria/ref.
template <class V>
KC_ARIA_BS_INLINE void diffuse_short(typename V::vec x[16], const key_row_t<V> *k)
{
    using vec = typename V::vec;
    const vec t0 = V::xor3(x[2], x[5], x[15]), t1 = V::xor3(x[6], x[8], x[13]);
    const vec t2 = V::xor3(x[7], x[9], x[12]), t3 = V::xor3(x[0], x[11], x[14]);
    const vec t4 = V::xor3(x[1], x[4], x[10]), t5 = V::xor3(x[3], x[4], x[9]);
    const vec t6 = V::xor2(x[15], t4), t7 = V::xor2(x[5], t3), t8 = V::xor2(x[3], t1);
    const vec t9 = V::xor2(x[2], t2), t10 = V::xor2(x[8], t0);
    const vec t11 = V::xor3(x[1], x[11], x[12]), t12 = V::xor3(x[1], x[6], x[12]);
    const vec t13 = V::xor3(x[0], x[7], x[10]), t14 = V::xor3(x[7], x[10], x[13]);
    const vec t15 = V::xor3(x[0], x[7], x[13]), t16 = V::xor3(x[1], x[6], x[11]);
    const vec t17 = V::xor3(x[3], x[9], x[14]), t18 = V::xor3(x[6], x[11], x[12]);
    const vec t19 = V::xor3(x[0], x[10], x[13]), t20 = V::xor3(x[14], t5, t1);
    const vec t21 = V::xor3(x[3], x[4], x[14]);
    x[0] = k != nullptr ? V::xor2(t20, KeyAccess<V>::key(*k, 0)) : t20;
    x[1] = output<V>(t2, t10, k, 1);
    x[2] = output<V>(t18, t6, k, 2);
    x[3] = output<V>(t14, t7, k, 3);
    x[4] = output<V>(t3, t10, k, 4);
    x[5] = output<V>(t17, t6, k, 5);
    x[6] = output<V>(t19, t9, k, 6);
    x[7] = output<V>(t11, t8, k, 7);
    x[8] = output<V>(t15, t6, k, 8);
    x[9] = output<V>(t12, t7, k, 9);
    x[10] = output<V>(t0, t8, k, 10);
    x[11] = output<V>(t21, t9, k, 11);
    x[12] = output<V>(t16, t9, k, 12);
    x[13] = output<V>(t13, t8, k, 13);
    x[14] = output<V>(t5, t7, k, 14);
    x[15] = output<V>(t4, t10, k, 15);
}

// The word-level factorisation of A from aria_table.cpp, for 2-input XORs and 16 registers:
//   A = W . P . W . M
//   M  inside each word, every byte becomes the XOR of the other three;
//   W  word mixing: (w0, w1, w2, w3) -> (w0^w1^w2, w0^w2^w3, w0^w1^w3, w1^w2^w3), bytewise;
//   P  a byte permutation per word: w1 abcd -> badc, w2 abcd -> cdab, w3 abcd -> dcba.
// Every step works in place on a few vectors (M: 6 XORs per word, W: 6 per byte column, P:
// renaming), so the state stays close to 16 live vectors; the short form above keeps twice as
// many alive, which only AVX-512's 32 registers hold without spills. 72 XORs, 88 with the key,
// against the short form's 54 and 70 (diffuse() says which kernel takes which).
template <class V>
KC_ARIA_BS_INLINE void diffuse_words(typename V::vec x[16], const key_row_t<V> *k)
{
    using vec = typename V::vec;
#pragma GCC unroll 4
    for (int w = 0; w < 4; w++) { // M
        vec &a = x[4 * w], &b = x[4 * w + 1], &c = x[4 * w + 2], &d = x[4 * w + 3];
        const vec p = V::xor2(a, b), q = V::xor2(c, d);
        const vec na = V::xor2(b, q), nb = V::xor2(a, q), nc = V::xor2(d, p), nd = V::xor2(c, p);
        a = na, b = nb, c = nc, d = nd;
    }
    auto mix_words = [](vec &w0, vec &w1, vec &w2, vec &w3) { // W on one byte column
        w1 = V::xor2(w1, w2);
        w2 = V::xor2(w2, w3);
        w0 = V::xor2(w0, w1);
        w3 = V::xor2(w3, w1);
        w2 = V::xor2(w2, w0);
        w1 = V::xor2(w1, w2);
    };
#pragma GCC unroll 4
    for (int b = 0; b < 4; b++)
        mix_words(x[b], x[4 + b], x[8 + b], x[12 + b]);
    vec t; // P
    t = x[4], x[4] = x[5], x[5] = t;
    t = x[6], x[6] = x[7], x[7] = t;
    t = x[8], x[8] = x[10], x[10] = t;
    t = x[9], x[9] = x[11], x[11] = t;
    t = x[12], x[12] = x[15], x[15] = t;
    t = x[13], x[13] = x[14], x[14] = t;
#pragma GCC unroll 4
    for (int b = 0; b < 4; b++)
        mix_words(x[b], x[4 + b], x[8 + b], x[12 + b]);
    if (k != nullptr)
        add_key<V>(x, *k);
}

// x <- A(x) ^ k (or A(x) when k is null), in the form that suits the vector ISA and core.
// With 3-input XORs (AVX-512) the short form. With 16 registers it is a trade, which a traits
// class states by short_diffusion: the short form's 54 two-input XORs against the word form's
// 72, for the spills of the sub-sums it keeps alive. Built with GCC's pressure-aware
// scheduling (src/CMakeLists.txt) the short form spills little, and wins on every core
// measured: aria/avx2-vaes, 16 KiB, ECB / CTR, Zen 5 VM 1.28 -> 0.95 / 1.22 -> 0.91 c/B, the
// Xeon host 1.41 -> 1.33 / 1.30 -> 1.09 (fastest of 5 alternated runs each); llvm-mca's Zen 3
// model, two rounds of its ECB loop, 87 -> 73 cycles. (aria/avx2-vaes had the word form from a Zen 3
// measurement of code built before that scheduling, 1.64 -> 1.82 c/B for the short form then;
// no Zen 3 was at hand to measure it again.) The xmm kernels keep the word form.
// aria/avx2-gfni runs on Intel cores (no AMD core has GFNI without AVX-512); aria/avx2-vaes
// chiefly on Zen 3 (every Intel core with VAES has GFNI).
template <class V>
KC_ARIA_BS_INLINE void diffuse(typename V::vec x[16], const key_row_t<V> *k)
{
    if constexpr (V::ternary)
        diffuse_short<V>(x, k);
    else if constexpr (V::short_diffusion)
        diffuse_short<V>(x, k);
    else
        diffuse_words<V>(x, k);
}

// The rounds of RFC 5794 section 2.2.2.1 on a sliced batch that already holds P ^ ek1:
// FO, FE, ..., FO (n-1 rounds), then the final S-box layer. S is the S-box technique; it
// knows where its form of the key goes:
//   S::odd(x, k)   round i odd:  x <- A(SL1(x)) ^ key(i+1)   (FO then the next key)
//   S::even(x, k)  round i even: x <- A(SL2(x)) ^ key(i+1)
//   S::last(x, k)  x <- SL2(x) ^ key(n+1), or SL2(x) alone when k is null (a GFNI caller
//                  that adds the last key to whole blocks after the transpose instead)
template <class V, class S>
KC_ARIA_BS_INLINE void crypt_sliced(typename V::vec x[16], const key_row_t<V> *k, int rounds,
                                    const key_row_t<V> *last_key)
{
    for (int i = 1; i < rounds - 1; i += 2) {
        S::odd(x, k[i]);
        S::even(x, k[i + 1]);
    }
    S::odd(x, k[rounds - 1]);
    S::last(x, last_key);
}

// The same from round 2 on, for a batch that already holds round 1's output (ctr_batch_span).
template <class V, class S>
KC_ARIA_BS_INLINE void crypt_sliced_from2(typename V::vec x[16], const key_row_t<V> *k,
                                          int rounds, const key_row_t<V> *last_key)
{
    S::even(x, k[2]);
    for (int i = 3; i < rounds - 1; i += 2) {
        S::odd(x, k[i]);
        S::even(x, k[i + 1]);
    }
    S::odd(x, k[rounds - 1]);
    S::last(x, last_key);
}


// The five matrices in memory, for GfniSboxes::layer.
alignas(64) const long long gf_matrices[5] = {
    gf_sb1_post, gf_sb2_post, gf_sb3_pre, gf_sb4_pre, gf_identity,
};

template <class V>
struct GfniSboxes {
    using vec = typename V::vec;
    // Section 2.3.2: type 1 is SB1, SB2, SB3, SB4 by byte position mod 4; type 2 is
    // SB3, SB4, SB1, SB2. The affine steps of SB3 and SB4 come first, so that no inversion
    // waits at the end of the layer for an affine step still in flight (GFNI has a latency
    // of 5 cycles and, with 512-bit vectors, one port).
    // The matrices are loaded in each layer rather than held in five registers for the whole
    // batch (the empty asm hides that they are the same each time): with 16 registers (AVX2)
    // that saves spills, with 32 it leaves room for the diffusion's pair sums.
    template <int sb3_at, int sb4_at, int sb1_at, int sb2_at>
    KC_ARIA_BS_INLINE static void layer(vec x[16])
    {
        const long long *m = gf_matrices;
        __asm__("" : "+r"(m));
        const vec pre3 = V::bcast64(m[2]), pre4 = V::bcast64(m[3]);
#pragma GCC unroll 4
        for (int w = 0; w < 4; w++) {
            x[4 * w + sb3_at] = V::template affine<0x05>(x[4 * w + sb3_at], pre3);
            x[4 * w + sb4_at] = V::template affine<0x2c>(x[4 * w + sb4_at], pre4);
        }
        const vec post1 = V::bcast64(m[0]), post2 = V::bcast64(m[1]);
        const vec identity = V::bcast64(m[4]);
#pragma GCC unroll 4
        for (int w = 0; w < 4; w++) {
            x[4 * w + sb1_at] = V::template affineinv<0x63>(x[4 * w + sb1_at], post1);
            x[4 * w + sb2_at] = V::template affineinv<0xe2>(x[4 * w + sb2_at], post2);
            x[4 * w + sb3_at] = V::template affineinv<0x00>(x[4 * w + sb3_at], identity);
            x[4 * w + sb4_at] = V::template affineinv<0x00>(x[4 * w + sb4_at], identity);
        }
    }
    KC_ARIA_BS_INLINE static void layer1(vec x[16])
    {
        layer<2, 3, 0, 1>(x);
    }
    KC_ARIA_BS_INLINE static void layer2(vec x[16])
    {
        layer<0, 1, 2, 3>(x);
    }

    // AriaKeyFold::diffusion: the key goes into the diffusion's last XOR.
    // The last key can go on whole blocks after the transpose (CTR: one 3-input XOR with the
    // data instead of 16 more XORs in the sliced rounds).
    static constexpr bool last_key_on_blocks = V::ternary;

    KC_ARIA_BS_INLINE static void odd(vec x[16], const key_row_t<V> &k)
    {
        odd_sbox(x, k);
        odd_mix(x, k);
    }
    KC_ARIA_BS_INLINE static void even(vec x[16], const key_row_t<V> &k)
    {
        layer2(x);
        diffuse<V>(x, &k);
    }
    // odd() in its two halves, and the first half for byte 15 alone (type 1 there is SB4),
    // for ctr_batch_span.
    KC_ARIA_BS_INLINE static void odd_sbox(vec x[16], const key_row_t<V> &) { layer1(x); }
    KC_ARIA_BS_INLINE static void odd_mix(vec x[16], const key_row_t<V> &k) { diffuse<V>(x, &k); }
    // The order of the blocks in the state after an odd layer, applied to a vector of
    // per-block bytes in block order (mix_spans): GFNI keeps blocks in place.
    KC_ARIA_BS_INLINE static vec in_odd_order(vec blocks) { return blocks; }
    KC_ARIA_BS_INLINE static vec odd_sbox15(vec v, const key_row_t<V> &)
    {
        const long long *m = gf_matrices;
        __asm__("" : "+r"(m));
        return V::template affineinv<0x00>(V::template affine<0x2c>(v, V::bcast64(m[3])),
                                           V::bcast64(m[4]));
    }
    KC_ARIA_BS_INLINE static void last(vec x[16], const key_row_t<V> *k)
    {
        layer2(x);
        if (k != nullptr)
            add_key<V>(x, *k);
    }
};

// The AES-NI S-boxes (the paper's section IV-B1, with two changes said below). With a
// sliced state every byte of a vector takes the same S-box, so ShiftRows, which aesenclast
// and aesdeclast apply to each 128-bit lane, only moves blocks between lanes:
//   aesenclast(x, r) = SR(SB1(x)) ^ r          aesdeclast(x, r) = SR^-1(SB1^-1(x)) ^ r
// (SR = ShiftRows as a lane permutation, SB3 = SB1^-1). S2 and S2^-1 come from them through
// one combined affine map each, G and H, as the paper does:
//   SB2 = G o SB1 (G = SB2 o SB3)         SB4 = SB3 o H (H = SB1 o SB4 = G^-1)
// and an affine map of a byte is two 16-entry lookups of its nibbles with vpshufb (the
// tables are in registers and the index is the data: no memory address depends on it):
//   G(y) = G_lo[y & 15] ^ G_hi[y >> 4], the constant of G folded into G_lo.
// Change 1: the paper undoes ShiftRows with a shuffle after each of the 16 AES instructions.
// Here the blocks may stay moved, as long as all 16 vectors are moved alike (the diffusion
// combines lanes of different vectors): in a type 1 layer the SB1/SB2 vectors are in SR order,
// and one shuffle by SR^2 brings the SB3/SB4 vectors from SR^-1 to SR too; in a type 2 layer
// SR^2 brings the SB1/SB2 vectors to SR^-1. Odd and even layers alternate and n is even, so
// the blocks are back in place after the last layer: 8 shuffles per round instead of 16.
// Change 2: the round key is the AES instruction's own key (AriaKeyFold::sbox), so adding it
// costs nothing.
// The tables are G and H at the 16 low nibbles and the 16 high nibbles (G(y) = SB2(SB3(y)),
// H(y) = SB1(SB4(y)) from the RFC's S-boxes), the high ones without the constant.
alignas(16) const uint8_t g_lo[16] = {0x88, 0x0d, 0x37, 0xb2, 0x00, 0x85, 0xbf, 0x3a,
                                      0xa8, 0x2d, 0x17, 0x92, 0x20, 0xa5, 0x9f, 0x1a};
alignas(16) const uint8_t g_hi[16] = {0x00, 0x3e, 0xd4, 0xea, 0x84, 0xba, 0x50, 0x6e,
                                      0xcd, 0xf3, 0x19, 0x27, 0x49, 0x77, 0x9d, 0xa3};
alignas(16) const uint8_t h_lo[16] = {0x04, 0x45, 0xee, 0xaf, 0x17, 0x56, 0xfd, 0xbc,
                                      0x53, 0x12, 0xb9, 0xf8, 0x40, 0x01, 0xaa, 0xeb};
alignas(16) const uint8_t h_hi[16] = {0x00, 0xb6, 0x08, 0xbe, 0xd6, 0x60, 0xde, 0x68,
                                      0x53, 0xe5, 0x5b, 0xed, 0x85, 0x33, 0x8d, 0x3b};
// ShiftRows twice, as a vpshufb index (byte r + 4c of the AES state is row r, column c; row r
// moves by 2r columns): an involution.
alignas(16) const uint8_t shift_rows_twice[16] = {0, 9, 2,  11, 4,  13, 6,  15,
                                                  8, 1, 10, 3,  12, 5,  14, 7};
// ShiftRows itself (aesenclast's: byte i of the result comes from byte shift_rows[i]).
alignas(16) const uint8_t shift_rows[16] = {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11};

// V adds to the vector operations: aesenclast(x, r), aesdeclast(x, r) on each 128-bit lane,
// pshufb(table, index), and2(a, b), shift_nibbles(x) (x >> 4 on 16-bit lanes).
template <class V>
struct AesniSboxes {
    using vec = typename V::vec;
    static constexpr bool last_key_on_blocks = false; // the last key goes into aesenclast

    KC_ARIA_BS_INLINE static vec affine(vec y, const uint8_t *lo, const uint8_t *hi)
    {
        const vec low_nibbles = V::set1_8(0x0f);
        const vec l = V::pshufb(V::bcast128(lo), V::and2(y, low_nibbles));
        const vec h = V::pshufb(V::bcast128(hi), V::and2(V::shift_nibbles(y), low_nibbles));
        return V::xor2(l, h);
    }
    KC_ARIA_BS_INLINE static vec sb1(vec x, vec r) { return V::aesenclast(x, r); }
    KC_ARIA_BS_INLINE static vec sb2(vec x, vec r)
    {
        return affine(V::aesenclast(x, r), g_lo, g_hi);
    }
    KC_ARIA_BS_INLINE static vec sb3(vec x, vec r) { return V::aesdeclast(x, r); }
    KC_ARIA_BS_INLINE static vec sb4(vec x, vec r)
    {
        return V::aesdeclast(affine(x, h_lo, h_hi), r);
    }

    // Type 1 layer and the key: SB1, SB2 leave their blocks in SR order, SB3, SB4 in SR^-1
    // order, which one more SR^2 turns into SR.
    KC_ARIA_BS_INLINE static void layer1(vec x[16], const key_row_t<V> &k)
    {
        const vec sr2 = V::bcast128(shift_rows_twice);
#pragma GCC unroll 4
        for (int w = 0; w < 4; w++) {
            const int j = 4 * w;
            x[j] = sb1(x[j], KeyAccess<V>::key(k, j));
            x[j + 1] = sb2(x[j + 1], KeyAccess<V>::key(k, j + 1));
            x[j + 2] = V::pshufb(sb3(x[j + 2], KeyAccess<V>::key(k, j + 2)), sr2);
            x[j + 3] = V::pshufb(sb4(x[j + 3], KeyAccess<V>::key(k, j + 3)), sr2);
        }
    }
    // Type 2 layer and the key: SB3, SB4 leave SR^-1 order; SR^2 turns SB1, SB2's SR into it.
    KC_ARIA_BS_INLINE static void layer2(vec x[16], const key_row_t<V> &k)
    {
        const vec sr2 = V::bcast128(shift_rows_twice);
#pragma GCC unroll 4
        for (int w = 0; w < 4; w++) {
            const int j = 4 * w;
            x[j] = sb3(x[j], KeyAccess<V>::key(k, j));
            x[j + 1] = sb4(x[j + 1], KeyAccess<V>::key(k, j + 1));
            x[j + 2] = V::pshufb(sb1(x[j + 2], KeyAccess<V>::key(k, j + 2)), sr2);
            x[j + 3] = V::pshufb(sb2(x[j + 3], KeyAccess<V>::key(k, j + 3)), sr2);
        }
    }

    // AriaKeyFold::sbox: k is A(next key), given to the AES instructions; the diffusion then
    // turns it into the next key.
    KC_ARIA_BS_INLINE static void odd(vec x[16], const key_row_t<V> &k)
    {
        odd_sbox(x, k);
        odd_mix(x, k);
    }
    // odd() in its two halves, and the first half for byte 15 alone (type 1 there is SB4,
    // brought to SR order like the other SB3/SB4 vectors), for ctr_batch_span.
    KC_ARIA_BS_INLINE static void odd_sbox(vec x[16], const key_row_t<V> &k) { layer1(x, k); }
    KC_ARIA_BS_INLINE static void odd_mix(vec x[16], const key_row_t<V> &) { diffuse<V>(x, nullptr); }
    KC_ARIA_BS_INLINE static vec odd_sbox15(vec v, const key_row_t<V> &k)
    {
        return V::pshufb(sb4(v, KeyAccess<V>::key(k, 15)), V::bcast128(shift_rows_twice));
    }
    // The order of the blocks in the state after an odd layer (SR: byte i of each 128-bit lane
    // holds the block at shift_rows[i]), applied to a vector of per-block bytes in block order
    // (mix_spans).
    KC_ARIA_BS_INLINE static vec in_odd_order(vec blocks) { return V::pshufb(blocks, V::bcast128(shift_rows)); }
    KC_ARIA_BS_INLINE static void even(vec x[16], const key_row_t<V> &k)
    {
        layer2(x, k);
        diffuse<V>(x, nullptr);
    }
    KC_ARIA_BS_INLINE static void last(vec x[16], const key_row_t<V> *k)
    {
        layer2(x, *k);
    }
};

// Encrypts or decrypts one sliced batch in registers: loads through `load` (which fills
// x[0..15] with the batch's 16 * V::blocks bytes, vector i = bytes [i*W, (i+1)*W) for W the
// vector width), and stores through `store`. Decryption is the same with the decryption keys.
// One batch at a time: two with their rounds interleaved (so that one fills the other's
// latency) ran slower with 16 registers, the second state's spills costing more than the wait
// they hid (Xeon avx2-gfni, medians of 5: ECB 1.36 -> 1.40 c/B, CTR 1.05 -> 1.13; Zen 3 likewise).
template <class V, class S, class Load, class Store>
KC_ARIA_BS_INLINE void ecb_batch(const key_row_t<V> *k, int rounds, Load load, Store store)
{
    typename V::vec x[16];
    load(x);
    transpose<V>(x);
    add_key<V>(x, k[0]);
    crypt_sliced<V, S>(x, k, rounds, &k[rounds]);
    transpose<V>(x);
    store(x);
}

// offset(L) of the layout above: the block of the batch that lane L of a sliced vector holds,
// for a vector of B bytes (B/16 blocks per input vector).
template <size_t B>
struct LaneOffsets {
    alignas(64) uint8_t v[B];
    constexpr LaneOffsets() : v()
    {
        for (size_t lane = 0; lane < B; lane++)
            v[lane] = (uint8_t)(B / 16 * (lane % 16) + lane / 16);
    }
};
template <size_t B>
constexpr LaneOffsets<B> lane_offset_table{};

// The counter blocks ctr + offset(L) of one batch, sliced, with ek1 already added (CTR mode,
// full 128-bit big-endian counter, wrapping at 2^128). Only the last byte differs between
// lanes: byte 15 is c15 + offset(L) (mod 256), and the lanes where that wrapped carry into
// byte 14, then on through every byte that is 0xff. So byte j < 15 is either c_j ^ k_j or
// (c_j + 1) ^ k_j, picked per lane by its carry: both are 32-bit broadcasts from a small
// table built once per batch, and the pick is a masked blend. The counter is public in CTR
// (only key and data are secret) but is V in CTR_DRBG: docs/architecture.md says what a
// branch on it can show.
// V provides: set1_8, add8, lane_offsets() (offset(L) as bytes), carry_of(sum, addend)
// (lanes where sum wrapped), blend(carry, a, b) (b where carry), and no_carry.
template <class V>
KC_ARIA_BS_INLINE void sliced_counters(typename V::vec x[16], const uint8_t ctr[16],
                                       const AriaSlicedKeys &ks)
{
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(ctr));
    const __m128i k = _mm_load_si128(reinterpret_cast<const __m128i *>(ks.enc_first));
    const __m128i plain = _mm_xor_si128(c, k);
    const __m128i carried = _mm_xor_si128(_mm_add_epi8(c, _mm_set1_epi8(1)), k);
    alignas(16) uint32_t rep_plain[16], rep_carried[16];
    for (int q = 0; q < 4; q++) { // byte 4q+i replicated into dword i of the store
        const __m128i spread = _mm_setr_epi8(
            (char)(4 * q), (char)(4 * q), (char)(4 * q), (char)(4 * q), (char)(4 * q + 1),
            (char)(4 * q + 1), (char)(4 * q + 1), (char)(4 * q + 1), (char)(4 * q + 2),
            (char)(4 * q + 2), (char)(4 * q + 2), (char)(4 * q + 2), (char)(4 * q + 3),
            (char)(4 * q + 3), (char)(4 * q + 3), (char)(4 * q + 3));
        _mm_store_si128(reinterpret_cast<__m128i *>(rep_plain + 4 * q),
                        _mm_shuffle_epi8(plain, spread));
        _mm_store_si128(reinterpret_cast<__m128i *>(rep_carried + 4 * q),
                        _mm_shuffle_epi8(carried, spread));
    }
    // The stores above are read back below as 32-bit broadcasts, which cost only a load each;
    // without this compiler barrier GCC forwards them through shuffles (two vector ALU
    // operations per byte instead).
    __asm__ volatile("" ::: "memory");
    const typename V::vec c15 = V::set1_8(ctr[15]);
    const typename V::vec low = V::add8(c15, V::lane_offsets());
    typename V::carry carry = V::carry_of(low, c15);
    x[15] = V::xor2(low, V::bcast32(&ks.enc[0][15]));
    x[14] = V::blend(carry, V::bcast32(&rep_plain[14]), V::bcast32(&rep_carried[14]));
    if (ctr[14] != 0xff) { // the usual case: no lane carries past byte 14
#pragma GCC unroll 14
        for (int j = 13; j >= 0; j--)
            x[j] = V::bcast32(&rep_plain[j]);
        return;
    }
#pragma GCC unroll 14
    for (int j = 13; j >= 0; j--) {
        carry = ctr[j + 1] == 0xff ? carry : V::no_carry();
        x[j] = V::blend(carry, V::bcast32(&rep_plain[j]), V::bcast32(&rep_carried[j]));
    }
}

// The end of a CTR batch: the sliced keystream x back to blocks, XORed into the data.
template <class V, class S, class Load, class Store>
KC_ARIA_BS_INLINE void keystream_out(const AriaSlicedKeys &ks, typename V::vec x[16], Load load,
                                     Store store)
{
    using vec = typename V::vec;
    vec d[16];
    transpose<V>(x);
    load(d);
    if constexpr (S::last_key_on_blocks) { // one 3-input XOR: data ^ keystream ^ ek(n+1)
        const vec last = V::bcast128(ks.enc_last);
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++)
            d[i] = V::xor3(d[i], x[i], last);
    } else {
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++)
            d[i] = V::xor2(d[i], x[i]);
    }
    store(d);
}

// CTR on one batch: keystream for counters ctr, ctr+1, ... XORed into the data, which `load`
// reads into x[0..15] in block order (as ecb_batch's load) and `store` writes back.
template <class V, class S, class Load, class Store>
KC_ARIA_BS_INLINE void ctr_batch(const AriaSlicedKeys &ks, const uint8_t ctr[16], Load load,
                                 Store store)
{
    typename V::vec x[16];
    sliced_counters<V>(x, ctr, ks);
    const int n = ks.rounds;
    const key_row_t<V> *k = KeyAccess<V>::enc(ks);
    crypt_sliced<V, S>(x, k, n, S::last_key_on_blocks ? nullptr : &k[n]);
    keystream_out<V, S>(ks, x, load, store);
}

// Round 1 of CTR once per 256 counters. While the 16-byte counter's byte 15 does not wrap
// inside a batch, bytes 0..14 of every counter of the batch are the same, and so are all but
// one input byte of round 1: its S-box outputs at positions 0..14 are constants of the span
// of counters that share bytes 0..14, and, the diffusion being linear, round 1's output is
//   y_i = C_i ^ (SL(x_15) if output i takes byte 15 else 0),
// C = round 1 of the batch with byte 15's S-box output set to zero (key included). CtrSpan
// keeps C as 16 vectors; a batch then costs one S-box vector and seven XORs for round 1
// instead of a round (ARIA-128: 12 rounds and the transpose per batch), and C one round per
// span (8 batches of 32 blocks). Which span and whether a batch wraps are branches on the
// counter, like sliced_counters' (public in CTR; docs/architecture.md for CTR_DRBG's V).
// Outputs of A (RFC 5794 section 2.3.3) that take input byte 15.
constexpr bool takes_byte15[16] = {false, true, true, false, true, true, false, false,
                                   true, false, true, false, false, false, false, true};

template <class V>
struct CtrSpan {
    typename V::vec c[16];
    uint8_t hi[15]; // counter bytes 0..14 of the span
    bool valid = false;
};

// Whether the batch from ctr stays in one span (byte 15 does not wrap inside it).
template <class V>
KC_ARIA_BS_INLINE bool in_one_span(const uint8_t ctr[16])
{
    return ctr[15] <= 256 - V::blocks;
}

// C for the span of ctr (a batch that does not wrap).
template <class V, class S>
__attribute__((noinline)) void ctr_span_prepare(CtrSpan<V> &span, const AriaSlicedKeys &ks,
                                                const uint8_t ctr[16])
{
    typename V::vec x[16];
    sliced_counters<V>(x, ctr, ks);
    const key_row_t<V> *k = KeyAccess<V>::enc(ks);
    S::odd_sbox(x, k[1]);
    x[15] = V::set1_8(0);
    S::odd_mix(x, k[1]);
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        span.c[i] = x[i];
    std::memcpy(span.hi, ctr, 15);
    span.valid = true;
}

// ctr_batch for a batch inside the span whose C `span` holds.
template <class V, class S, class Load, class Store>
KC_ARIA_BS_INLINE void ctr_batch_span(const AriaSlicedKeys &ks, const CtrSpan<V> &span,
                                      const uint8_t ctr[16], Load load, Store store)
{
    typename V::vec x[16];
    const key_row_t<V> *k = KeyAccess<V>::enc(ks);
    const typename V::vec x15 = V::xor2(V::add8(V::set1_8(ctr[15]), V::lane_offsets()),
                                        V::bcast32(&ks.enc[0][15]));
    const typename V::vec v = S::odd_sbox15(x15, k[1]);
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        x[i] = takes_byte15[i] ? V::xor2(span.c[i], v) : span.c[i];
    const int n = ks.rounds;
    crypt_sliced_from2<V, S>(x, k, n, S::last_key_on_blocks ? nullptr : &k[n]);
    keystream_out<V, S>(ks, x, load, store);
}

// ctr += n, big-endian over the whole block (wraps at 2^128).
KC_ARIA_BS_INLINE void advance_counter(uint8_t ctr[16], uint64_t n)
{
    uint64_t hi, lo;
    std::memcpy(&hi, ctr, 8);
    std::memcpy(&lo, ctr + 8, 8);
    hi = __builtin_bswap64(hi);
    lo = __builtin_bswap64(lo);
    lo += n;
    hi += lo < n;
    hi = __builtin_bswap64(hi);
    lo = __builtin_bswap64(lo);
    std::memcpy(ctr, &hi, 8);
    std::memcpy(ctr + 8, &lo, 8);
}

// A whole batch's plain loads (x[0..15] from in, block order) and stores, for the batch
// functions' Load and Store.
template <class V>
KC_ARIA_BS_INLINE auto plain_load(const uint8_t *in)
{
    return [in](typename V::vec x[16]) {
#pragma GCC unroll 16
        for (size_t i = 0; i < 16; i++)
            x[i] = V::loadu(in + i * sizeof(typename V::vec));
    };
}
template <class V>
KC_ARIA_BS_INLINE auto plain_store(uint8_t *out)
{
    return [out](const typename V::vec x[16]) {
#pragma GCC unroll 16
        for (size_t i = 0; i < 16; i++)
            V::storeu(out + i * sizeof(typename V::vec), x[i]);
    };
}

// The same with XTS's whitening (kit/xts/xts_accel.hpp): x[i] = in ^ tw on the way in, out =
// x ^ tw on the way out, the tweaks a memory operand of each XOR.
template <class V>
KC_ARIA_BS_INLINE auto whitened_load(const uint8_t *in, const uint8_t *tw)
{
    return [in, tw](typename V::vec x[16]) {
#pragma GCC unroll 16
        for (size_t i = 0; i < 16; i++)
            x[i] = V::xor2(V::loadu(in + i * sizeof(typename V::vec)), V::loadu(tw + i * sizeof(typename V::vec)));
    };
}
template <class V>
KC_ARIA_BS_INLINE auto whitened_store(uint8_t *out, const uint8_t *tw)
{
    return [out, tw](const typename V::vec x[16]) {
#pragma GCC unroll 16
        for (size_t i = 0; i < 16; i++)
            V::storeu(out + i * sizeof(typename V::vec),
                      V::xor2(x[i], V::loadu(tw + i * sizeof(typename V::vec))));
    };
}

// One whole batch of V::blocks blocks, ECB or CTR, with plain loads and stores. Not inlined:
// the drivers below call the same one for whole batches and for padded partial ones.
template <class V, class S>
__attribute__((noinline)) void ecb_whole(const key_row_t<V> *k, int rounds, const uint8_t *in,
                                         uint8_t *out)
{
    ecb_batch<V, S>(k, rounds, plain_load<V>(in), plain_store<V>(out));
}

template <class V, class S>
__attribute__((noinline)) void xts_whole(const key_row_t<V> *k, int rounds, const uint8_t *tw,
                                         const uint8_t *in, uint8_t *out)
{
    ecb_batch<V, S>(k, rounds, whitened_load<V>(in, tw), whitened_store<V>(out, tw));
}

template <class V, class S>
__attribute__((noinline)) void ctr_whole(const AriaSlicedKeys &ks, const uint8_t ctr[16],
                                         const uint8_t *in, uint8_t *out)
{
    ctr_batch<V, S>(ks, ctr, plain_load<V>(in), plain_store<V>(out));
}

template <class V, class S>
__attribute__((noinline)) void ctr_whole_span(const AriaSlicedKeys &ks, const CtrSpan<V> &span,
                                              const uint8_t ctr[16], const uint8_t *in,
                                              uint8_t *out)
{
    ctr_batch_span<V, S>(ks, span, ctr, plain_load<V>(in), plain_store<V>(out));
}

// A partial batch (n < V::blocks) without masked loads and stores (AVX, AVX2): the blocks go
// through a zero-padded buffer on the stack, which is wiped afterwards (it held data or
// keystream). The batch costs what a whole one does, which is still far from block-at-a-time.
template <class V, class Batch>
inline void through_buffer(const uint8_t *in, uint8_t *out, size_t n, Batch batch)
{
    alignas(64) uint8_t buf[16 * V::blocks] = {};
    std::memcpy(buf, in, 16 * n);
    batch(buf, buf);
    std::memcpy(out, buf, 16 * n);
    secure_wipe(buf, sizeof buf);
}

// ECB over n blocks for kernels without masks: whole batches of Wide (the kernel's width),
// then the rest on the narrowest of Wide and Narrow that holds it.
template <class Wide, class Narrow, template <class> class S>
inline void ecb_blocks(const AriaSlicedKeys &ks, bool decrypt, const uint8_t *in, uint8_t *out,
                       size_t n)
{
    const int rounds = ks.rounds;
    const key_row_t<Wide> *kw = decrypt ? KeyAccess<Wide>::dec(ks) : KeyAccess<Wide>::enc(ks);
    const key_row_t<Narrow> *kn = decrypt ? KeyAccess<Narrow>::dec(ks) : KeyAccess<Narrow>::enc(ks);
    for (; n >= Wide::blocks; n -= Wide::blocks, in += 16 * Wide::blocks, out += 16 * Wide::blocks)
        ecb_whole<Wide, S<Wide>>(kw, rounds, in, out);
    auto wide = [&](const uint8_t *i, uint8_t *o) { ecb_whole<Wide, S<Wide>>(kw, rounds, i, o); };
    auto narrow = [&](const uint8_t *i, uint8_t *o) {
        ecb_whole<Narrow, S<Narrow>>(kn, rounds, i, o);
    };
    if (n > Narrow::blocks)
        through_buffer<Wide>(in, out, n, wide);
    else if (n == Narrow::blocks)
        narrow(in, out);
    else if (n > 0)
        through_buffer<Narrow>(in, out, n, narrow);
}

// XTS's whitened ECB over n blocks (kit/xts/xts_accel.hpp): whole batches of Wide with the XORs
// in their loads and stores; the rest (fewer than Wide::blocks) whitened around ecb_blocks.
template <class Wide, class Narrow, template <class> class S>
inline void whitened_blocks(const AriaSlicedKeys &ks, bool decrypt, const uint8_t *tw,
                            const uint8_t *in, uint8_t *out, size_t n)
{
    const key_row_t<Wide> *kw = decrypt ? KeyAccess<Wide>::dec(ks) : KeyAccess<Wide>::enc(ks);
    for (; n >= Wide::blocks; n -= Wide::blocks, in += 16 * Wide::blocks, out += 16 * Wide::blocks,
                              tw += 16 * Wide::blocks)
        xts_whole<Wide, S<Wide>>(kw, ks.rounds, tw, in, out);
    if (n == 0)
        return;
    alignas(64) uint8_t buf[16 * Wide::blocks];
    for (size_t i = 0; i < 16 * n; i++)
        buf[i] = in[i] ^ tw[i];
    ecb_blocks<Wide, Narrow, S>(ks, decrypt, buf, buf, n);
    for (size_t i = 0; i < 16 * n; i++)
        out[i] = buf[i] ^ tw[i];
    secure_wipe(buf, 16 * n);
}

// A batch across two spans (byte 15 wraps after its first p blocks): C lane by lane, the
// first p blocks from span a, the rest from the next span b, into mixed (mixed may be a).
// Within a span C is the same in every lane (only byte 15 differs, and C leaves it out), so
// the batch's C is a select of the two, and the batch runs as a span batch: cheaper than round
// 1 on its counters, and b is the next batches' span anyway. Which lanes take b depends on the
// counter alone (public).
template <class V, class S>
__attribute__((noinline)) void mix_spans(CtrSpan<V> &mixed, const CtrSpan<V> &a, const CtrSpan<V> &b, size_t p)
{
    // Lane L holds block offset(L) (lane_offsets): offset(L) + (256 - p) wraps where offset(L) >= p.
    const typename V::vec to_wrap = V::set1_8((uint8_t)(256 - p));
    const typename V::vec take_b = S::in_odd_order(V::carry_of(V::add8(V::lane_offsets(), to_wrap), to_wrap));
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        mixed.c[i] = V::blend(take_b, a.c[i], b.c[i]);
    mixed.valid = true;
}

// CTR over n blocks from counter ctr, likewise.
template <class Wide, class Narrow, template <class> class S>
inline void ctr_blocks(const AriaSlicedKeys &ks, const uint8_t *ctr, const uint8_t *in,
                       uint8_t *out, size_t n)
{
    alignas(16) uint8_t c[16];
    std::memcpy(c, ctr, 16);
    CtrSpan<Wide> span, next;
    for (; n >= Wide::blocks;
         n -= Wide::blocks, in += 16 * Wide::blocks, out += 16 * Wide::blocks) {
        if (!span.valid || std::memcmp(span.hi, c, 15) != 0)
            ctr_span_prepare<Wide, S<Wide>>(span, ks, c);
        if (in_one_span<Wide>(c)) {
            ctr_whole_span<Wide, S<Wide>>(ks, span, c, in, out);
        } else {
            const size_t p = 256 - c[15];
            alignas(16) uint8_t c2[16];
            std::memcpy(c2, c, 16);
            advance_counter(c2, p); // byte 15 now 0: the next span's first counter
            ctr_span_prepare<Wide, S<Wide>>(next, ks, c2);
            // The same code as every other batch (a path of its own, taken once in eight
            // batches, ran cold: 1.4-1.6 times a span batch on Zen 3).
            mix_spans<Wide, S<Wide>>(span, span, next, p);
            ctr_whole_span<Wide, S<Wide>>(ks, span, c, in, out);
            span = next;
        }
        advance_counter(c, Wide::blocks);
    }
    if (span.valid)
        secure_wipe(&span, sizeof span); // round-1 values of the keystream
    if (next.valid)
        secure_wipe(&next, sizeof next);
    auto wide = [&](const uint8_t *i, uint8_t *o) { ctr_whole<Wide, S<Wide>>(ks, c, i, o); };
    auto narrow = [&](const uint8_t *i, uint8_t *o) { ctr_whole<Narrow, S<Narrow>>(ks, c, i, o); };
    if (n > Narrow::blocks)
        through_buffer<Wide>(in, out, n, wide);
    else if (n == Narrow::blocks)
        narrow(in, out);
    else if (n > 0)
        through_buffer<Narrow>(in, out, n, narrow);
}

// The encrypt, decrypt, CTR and XTS entry points of a kernel without masks (Wide, Narrow and S as
// for ecb_blocks), compiled in the includer's target region like the rest of this part.
template <class Wide, class Narrow, template <class> class S> struct MasklessEntry {
    static void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
    {
        const auto &ks = *static_cast<const AriaSlicedKeys *>(state);
        ecb_blocks<Wide, Narrow, S>(ks, false, in, out, n);
    }
    static void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
    {
        const auto &ks = *static_cast<const AriaSlicedKeys *>(state);
        ecb_blocks<Wide, Narrow, S>(ks, true, in, out, n);
    }
    static void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in,
                               uint8_t *out, size_t n)
    {
        ctr_blocks<Wide, Narrow, S>(*static_cast<const AriaSlicedKeys *>(state), ctr, in, out, n);
    }
    static void xts_blocks(const void *state, bool decrypt, const uint8_t *tw, const uint8_t *in,
                           uint8_t *out, size_t n)
    {
        whitened_blocks<Wide, Narrow, S>(*static_cast<const AriaSlicedKeys *>(state), decrypt, tw, in, out, n);
    }
};

// 128-bit VEX vectors (AVX; no AVX-512): 16 blocks per batch. No 3-input XOR, no masks: the
// CTR carry is a byte vector (0xff where a lane carries).
struct VexXmm {
    using vec = __m128i;
    using carry = __m128i;
    static constexpr size_t blocks = 16;
    static constexpr bool ternary = false;
    static constexpr bool short_diffusion = false; // see diffuse()
    static vec xor2(vec a, vec b) { return _mm_xor_si128(a, b); }
    static vec xor3(vec a, vec b, vec c) { return _mm_xor_si128(_mm_xor_si128(a, b), c); }
    // vbroadcastss from memory: a load alone (GCC turns _mm_set1_epi32 of a loaded value
    // into vmovd + vpshufd, a shuffle uop per key byte)
    static vec bcast32(const uint32_t *p)
    {
        return _mm_castps_si128(_mm_broadcast_ss(reinterpret_cast<const float *>(p)));
    }
    static vec bcast64(long long v) { return _mm_set1_epi64x(v); }
    static vec bcast128(const uint8_t *p)
    {
        return _mm_load_si128(reinterpret_cast<const __m128i *>(p));
    }
    static vec unpacklo8(vec a, vec b) { return _mm_unpacklo_epi8(a, b); }
    static vec unpackhi8(vec a, vec b) { return _mm_unpackhi_epi8(a, b); }
    template <int c>
    static vec affine(vec x, vec m)
    {
        return _mm_gf2p8affine_epi64_epi8(x, m, c);
    }
    template <int c>
    static vec affineinv(vec x, vec m)
    {
        return _mm_gf2p8affineinv_epi64_epi8(x, m, c);
    }
    static vec set1_8(uint8_t v) { return _mm_set1_epi8((char)v); }
    static vec add8(vec a, vec b) { return _mm_add_epi8(a, b); }
    static vec lane_offsets()
    {
        return _mm_load_si128(reinterpret_cast<const __m128i *>(lane_offset_table<16>.v));
    }
    // sum < addend (unsigned) as a signed compare after flipping the top bits.
    static carry carry_of(vec sum, vec addend)
    {
        const vec top = _mm_set1_epi8((char)0x80);
        return _mm_cmpgt_epi8(_mm_xor_si128(addend, top), _mm_xor_si128(sum, top));
    }
    static vec blend(carry m, vec a, vec b) { return _mm_blendv_epi8(a, b, m); }
    static carry no_carry() { return _mm_setzero_si128(); }
    static vec loadu(const uint8_t *p)
    {
        return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    }
    static void storeu(uint8_t *p, vec v) { _mm_storeu_si128(reinterpret_cast<__m128i *>(p), v); }
};

#ifdef KC_ARIA_BYTESLICE_AES // defined by the includers whose target has AES-NI
// 128-bit vectors with the AES round instructions and byte shuffles, for AesniSboxes.
struct AesXmm : VexXmm {
    static vec aesenclast(vec x, vec r) { return _mm_aesenclast_si128(x, r); }
    static vec aesdeclast(vec x, vec r) { return _mm_aesdeclast_si128(x, r); }
    static vec pshufb(vec table, vec index) { return _mm_shuffle_epi8(table, index); }
    static vec and2(vec a, vec b) { return _mm_and_si128(a, b); }
    static vec shift_nibbles(vec x) { return _mm_srli_epi16(x, 4); }
};
#endif

#ifdef KC_ARIA_BYTESLICE_YMM // defined by the includers whose target has AVX2
// 256-bit VEX vectors: 32 blocks per batch (two per input vector, one per 128-bit lane).
struct VexYmm {
    using vec = __m256i;
    using carry = __m256i;
    static constexpr size_t blocks = 32;
    static constexpr bool ternary = false;
    static constexpr bool short_diffusion = false; // see diffuse()
    static vec xor2(vec a, vec b) { return _mm256_xor_si256(a, b); }
    static vec xor3(vec a, vec b, vec c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
    static vec bcast32(const uint32_t *p)
    {
        return _mm256_castps_si256(_mm256_broadcast_ss(reinterpret_cast<const float *>(p)));
    }
    static vec bcast64(long long v) { return _mm256_set1_epi64x(v); }
    static vec bcast128(const uint8_t *p)
    {
        return _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i *>(p)));
    }
    static vec unpacklo8(vec a, vec b) { return _mm256_unpacklo_epi8(a, b); }
    static vec unpackhi8(vec a, vec b) { return _mm256_unpackhi_epi8(a, b); }
    template <int c>
    static vec affine(vec x, vec m)
    {
        return _mm256_gf2p8affine_epi64_epi8(x, m, c);
    }
    template <int c>
    static vec affineinv(vec x, vec m)
    {
        return _mm256_gf2p8affineinv_epi64_epi8(x, m, c);
    }
    static vec set1_8(uint8_t v) { return _mm256_set1_epi8((char)v); }
    static vec add8(vec a, vec b) { return _mm256_add_epi8(a, b); }
    static vec lane_offsets()
    {
        return _mm256_load_si256(reinterpret_cast<const __m256i *>(lane_offset_table<32>.v));
    }
    // sum < addend (unsigned) as a signed compare after flipping the top bits.
    static carry carry_of(vec sum, vec addend)
    {
        const vec top = _mm256_set1_epi8((char)0x80);
        return _mm256_cmpgt_epi8(_mm256_xor_si256(addend, top), _mm256_xor_si256(sum, top));
    }
    static vec blend(carry m, vec a, vec b) { return _mm256_blendv_epi8(a, b, m); }
    static carry no_carry() { return _mm256_setzero_si256(); }
    static vec loadu(const uint8_t *p)
    {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    }
    static void storeu(uint8_t *p, vec v)
    {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), v);
    }
};

// Round keys as whole ymm rows (AriaSlicedKeysYmm), for a traits class that derives from this
// too: each key byte is a 32-byte load that the compiler folds into the XOR or AES
// instruction that uses it.
struct YmmRowKeys {
    using key_row = uint8_t[16][32];
    static __m256i key(const key_row &r, int j)
    {
        return _mm256_load_si256(reinterpret_cast<const __m256i *>(r[j]));
    }
    // ks is the first member of an AriaSlicedKeysYmm (the kernel's state).
    static const key_row *enc_rows(const AriaSlicedKeys &ks)
    {
        return reinterpret_cast<const AriaSlicedKeysYmm *>(&ks)->enc;
    }
    static const key_row *dec_rows(const AriaSlicedKeys &ks)
    {
        return reinterpret_cast<const AriaSlicedKeysYmm *>(&ks)->dec;
    }
};
#endif

} // namespace aria_bs
} // namespace
} // namespace kc

#endif // KC_ARIA_BYTESLICE_SIMD

#endif // __x86_64__
