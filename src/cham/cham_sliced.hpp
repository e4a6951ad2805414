// Scalar parts shared by the word-sliced CHAM kernels (cham_x86_avx2.cpp, cham_x86_avx512.cpp,
// cham_x86_avx512_vbmi2.cpp, cham_neon.cpp): the round-key layout they derive from the family's one key
// schedule (cham_key.cpp), and the CTR precomputation.
//
// Everything here is plain baseline C++. The kernels call it only from their code outside
// the `KC_TARGET_PUSH` regions, so every out-of-line copy of these inline functions is
// baseline code (no AVX-512 copy can win at link time and fault on an older CPU).
//
// CTR precomputation (the "nonce-only part of the first rounds" of the ARX paper, kept exact
// for the full big-endian counter of the block's width): CHAM reads a block as four
// little-endian words (Koo et al., ICISC 2017, "encryption"), so X_3 holds the counter's low
// word (byte-swapped) and X_0..X_2 the rest. Within a run of blocks whose low word does not
// wrap (a "segment") X_0..X_2 are the same for every block. With s_0..s_3 the block's words
// and s_{i+4} = F_i(s_i, s_{i+1}) the word that round i makes, s_4, s_5 and s_8 depend on
// X_0..X_2 alone, and so does one operand of rounds 2, 3, 5, 7 and 8:
//
//   s_6  = ROL8(a2 + (ROL1(s_3) ^ RK_2))    a2 = s_2 ^ 2
//   s_7  = ROL1((s_3 ^ 3) + b3)             b3 = ROL8(s_4) ^ RK_3
//   s_9  = ROL1(a5 + (ROL8(s_6) ^ RK_5))    a5 = s_5 ^ 5
//   s_11 = ROL1((s_7 ^ 7) + b7)             b7 = ROL8(s_8) ^ RK_7
//   s_12 = ROL8(a8 + (ROL1(s_9) ^ RK_8))    a8 = s_8 ^ 8
//
// and rounds 6, 9, 10, 11 are whole. Rounds 0..11 then take 38 vector operations instead of
// 60 (CHAM-128/128: 538 instead of 560 per group). The counter is public, but these values
// depend on the key too: they come from XORs, additions and fixed rotations only, and the
// callers wipe them after use.
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cham/cham.hpp"
#include "cham/cham_key_step.hpp"
#include "core/bytes.hpp"
#include "core/counter.hpp"
#include "core/wipe.hpp"
#include "core/write_prefetch.hpp"

namespace kc {

// Round tables hold this many rounds: the revised 120 and the original 80/96 fit.
constexpr int cham_sliced_max_rounds = 128;

// The x86 kernels' key state. The vector code XORs RK_{i mod 2k/w} and the round number i of
// round i as EVEX/VEX broadcasts of one 32-bit table entry, so both are laid out per round
// (the round numbers in a constant table, ChamSlicedRoundConstants, that no rekey writes); a
// 16-bit word (CHAM-64/128) is stored in both halves of its entry, so that one 32-bit
// broadcast fills every 16-bit lane.
//
// Decryption keeps u_j = s_j ^ j in its registers instead of the words s_j: inverse round i
// is then
//   u_i = (ROR_{R2}(u_{i+4}) ^ dc_i) - (ROL_{R1}(u_{i+1}) ^ dk_i),
//   dc_i = ROR_{R2}(i + 4),  dk_i = RK_i ^ ROL_{R1}(i + 1),
// the same five operations as s_i = (ROR_{R2}(s_{i+4}) - (ROL_{R1}(s_{i+1}) ^ RK_i)) ^ i, but
// the chain from one inverse round to the next (u_{i+1} -> u_i) is three operations long
// instead of four: the chain of inverse rounds is sequential, unlike encryption's.
struct ChamSlicedKeys {
    ChamRoundKeys base; // first, so that the state is also a ChamRoundKeys (the round-count
                        // test hook, cham_set_rounds_for_test, works on it)
    alignas(64) uint32_t rk[16]; // RK_{i mod 2k/w} for i = 0..15: it repeats every 16 rounds
    uint32_t dk[cham_sliced_max_rounds];
    uint32_t dc[cham_sliced_max_rounds];
};

inline bool cham_sliced_supports(Cipher c)
{
    return c == Cipher::cham64_128 || c == Cipher::cham128_128 || c == Cipher::cham128_256;
}

// The vector code runs rounds in fours from round 12 on (after the CTR head), so it relies on
// a round count that is a multiple of four, at least 12 and at most 124 (decryption reads
// ri[rounds + 3]): the revised 88, 112, 120 and the original 80, 96 (test hook) all are.

// The uniform operands of rounds 0..11 of one CTR segment (see the file header), and the
// counter's low word as a number: block b of the segment has X_3 = byteswap(low + b).
template <class W> struct ChamCtrHead {
    W a2, b3, a5, b7, a8;
    W low;
};

template <class W> constexpr W cham_sliced_rotl(W x, unsigned r)
{
    constexpr unsigned bits = 8 * sizeof(W);
    return (W)((W)(x << r) | (W)(x >> (bits - r)));
}

// Word round i of the spec: F_i(a, b) = ROL_{R2}((a ^ i) + (ROL_{R1}(b) ^ RK_i)), with
// (R1, R2) = (1, 8) for even i and (8, 1) for odd i.
template <class W> inline W cham_sliced_round(const ChamSlicedKeys &k, int i, W a, W b)
{
    const unsigned r1 = i % 2 == 0 ? 1 : 8, r2 = 9 - r1;
    return cham_sliced_rotl<W>((W)((W)(a ^ (W)i) + (W)(cham_sliced_rotl<W>(b, r1) ^ (W)k.rk[i])), r2);
}

// The key-independent per-round tables: ri (read by the kernels from here), dc, and the
// rotated round number that dk XORs into the round key. Built at compile time, so that a
// rekey (one per CTR_DRBG request) only spreads the 2k/w round keys over the rounds.
struct ChamSlicedRoundConstants {
    uint32_t ri[cham_sliced_max_rounds];
    uint32_t dc[cham_sliced_max_rounds];
    uint32_t dk_round[cham_sliced_max_rounds]; // ROL_{R1}(i + 1): dk_i = RK_i ^ dk_round[i]
};

template <class W> constexpr ChamSlicedRoundConstants cham_sliced_make_round_constants()
{
    const uint32_t twice = sizeof(W) == 2 ? 0x10001u : 1u;
    ChamSlicedRoundConstants c{};
    for (int i = 0; i < cham_sliced_max_rounds; i++) {
        const unsigned r1 = i % 2 == 0 ? 1 : 8, r2 = 9 - r1;
        c.ri[i] = (uint32_t)i * twice;
        c.dc[i] = cham_sliced_rotl<W>((W)(i + 4), 8 * sizeof(W) - r2) * twice;
        c.dk_round[i] = cham_sliced_rotl<W>((W)(i + 1), r1) * twice;
    }
    return c;
}

template <class W>
inline constexpr ChamSlicedRoundConstants cham_sliced_round_constants = cham_sliced_make_round_constants<W>();

// The per-round tables of ChamSlicedKeys from the key schedule in k.base. A 16-bit word times
// 0x10001 is the word in both halves, and (a ^ b) * 0x10001 = a * 0x10001 ^ b * 0x10001.
template <class W> inline void cham_sliced_round_tables(ChamSlicedKeys &k, bool decryption = true)
{
    const uint32_t twice = sizeof(W) == 2 ? 0x10001u : 1u;
    const ChamSlicedRoundConstants &c = cham_sliced_round_constants<W>;
    // RK_{i mod 2k/w} repeats every 16 rounds (2k/w is 8 or 16): the encryption table is one
    // period (the kernels read entry i mod 16), so a rekey writes 64 bytes of it.
    for (int j = 0; j < 16; j++)
        k.rk[j] = (W)k.base.rk[j & (k.base.nrk - 1)] * twice;
    if (decryption) {
        for (int i = 0; i < cham_sliced_max_rounds; i++)
            k.dk[i] = k.rk[i & 15] ^ c.dk_round[i];
        std::memcpy(k.dc, c.dc, sizeof k.dc);
    }
}

inline void cham_sliced_set_key(void *state, Cipher c, const uint8_t *key)
{
    ChamSlicedKeys &k = *static_cast<ChamSlicedKeys *>(state);
    cham_key_schedule(c, key, &k.base);
    if (k.base.word_bits == 16)
        cham_sliced_round_tables<uint16_t>(k);
    else
        cham_sliced_round_tables<uint32_t>(k);
}

#if defined(__SSE2__)
// CHAM-64/128's key schedule and encryption table in one pass over the eight key words, held
// in one SSE2 register (baseline x86-64): RK_i = K_i ^ ROL1 ^ ROL8 and RK_{(i+8)^1} = K_i ^
// ROL1 ^ ROL11 for all i at once, the second set's adjacent words swapped, each round key
// widened into base.rk and doubled into rk. CTR_DRBG rekeys for every 1 KiB request, and the
// generic schedule and table loop took about 10 ns of CHAM-64/128's 160 per request on Zen 4.
inline void cham64_x86_set_encrypt_key(ChamSlicedKeys &k, const uint8_t *key)
{
    const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i *>(key)); // K_0..K_7, little-endian
    const __m128i x1 = _mm_xor_si128(w, _mm_or_si128(_mm_slli_epi16(w, 1), _mm_srli_epi16(w, 15)));
    const __m128i first = _mm_xor_si128(x1, _mm_or_si128(_mm_slli_epi16(w, 8), _mm_srli_epi16(w, 8)));
    const __m128i second = _mm_xor_si128(x1, _mm_or_si128(_mm_slli_epi16(w, 11), _mm_srli_epi16(w, 5)));
    const __m128i swapped = _mm_shufflehi_epi16(_mm_shufflelo_epi16(second, 0xb1), 0xb1); // RK_{(i+8)^1}
    const __m128i zero = _mm_setzero_si128();
    __m128i *base = reinterpret_cast<__m128i *>(k.base.rk), *rk = reinterpret_cast<__m128i *>(k.rk);
    _mm_storeu_si128(base + 0, _mm_unpacklo_epi16(first, zero));
    _mm_storeu_si128(base + 1, _mm_unpackhi_epi16(first, zero));
    _mm_storeu_si128(base + 2, _mm_unpacklo_epi16(swapped, zero));
    _mm_storeu_si128(base + 3, _mm_unpackhi_epi16(swapped, zero));
    _mm_store_si128(rk + 0, _mm_unpacklo_epi16(first, first)); // RK * 0x10001: the word twice
    _mm_store_si128(rk + 1, _mm_unpackhi_epi16(first, first));
    _mm_store_si128(rk + 2, _mm_unpacklo_epi16(swapped, swapped));
    _mm_store_si128(rk + 3, _mm_unpackhi_epi16(swapped, swapped));
    k.base.cipher = Cipher::cham64_128;
    k.base.block_bytes = 8;
    k.base.word_bits = 16;
    k.base.nrk = 16;
    k.base.rounds = cham_revised_rounds(Cipher::cham64_128);
}
#endif

// DrbgAccel::set_encrypt_key: the encryption tables only (CTR_DRBG rekeys on every request and
// never decrypts), dk and dc left as they are.
inline void cham_sliced_set_encrypt_key(void *state, Cipher c, const uint8_t *key)
{
    ChamSlicedKeys &k = *static_cast<ChamSlicedKeys *>(state);
#if defined(__SSE2__)
    if (c == Cipher::cham64_128) {
        cham64_x86_set_encrypt_key(k, key);
        return;
    }
#endif
    cham_key_schedule(c, key, &k.base);
    if (k.base.word_bits == 16)
        cham_sliced_round_tables<uint16_t>(k, false);
    else
        cham_sliced_round_tables<uint32_t>(k, false);
}

// The head of the segment that starts at counter block ctr.
template <class W>
inline ChamCtrHead<W> cham_sliced_ctr_head(const ChamSlicedKeys &k, const uint8_t *ctr)
{
    W s[4];
    for (int j = 0; j < 4; j++)
        s[j] = sizeof(W) == 2 ? (W)load_le16(ctr + 2 * j) : (W)load_le32(ctr + 4 * j);
    const W s4 = cham_sliced_round<W>(k, 0, s[0], s[1]);
    const W s5 = cham_sliced_round<W>(k, 1, s[1], s[2]);
    const W s8 = cham_sliced_round<W>(k, 4, s4, s5);
    ChamCtrHead<W> h;
    h.a2 = (W)(s[2] ^ 2);
    h.b3 = (W)(cham_sliced_rotl<W>(s4, 8) ^ (W)k.rk[3]);
    h.a5 = (W)(s5 ^ 5);
    h.b7 = (W)(cham_sliced_rotl<W>(s8, 8) ^ (W)k.rk[7]);
    h.a8 = (W)(s8 ^ 8);
    h.low = sizeof(W) == 2 ? (W)(s[3] << 8 | s[3] >> 8) : (W)load_be32(ctr + 12);
    return h;
}

// CTR over nblocks (in == nullptr: the keystream itself): splits the call into segments of
// constant upper counter words and calls
// segment(keys, head, in, out, n) for each, with the head computed once per segment.
template <class W, class Segment>
void cham_sliced_ctr_segments(const ChamSlicedKeys &k, const uint8_t *ctr, const uint8_t *in,
                           uint8_t *out, size_t nblocks, Segment segment)
{
    constexpr size_t bs = 4 * sizeof(W);
    uint8_t next[16];
    std::memcpy(next, ctr, bs);
    while (nblocks > 0) {
        ChamCtrHead<W> h = cham_sliced_ctr_head<W>(k, next);
        const uint64_t room = (uint64_t{1} << (8 * sizeof(W))) - h.low;
        const size_t n = nblocks < room ? nblocks : (size_t)room;
        segment(k, h, in, out, n);
        secure_wipe_inline(h);
        counter_add(next, bs, n);
        if (in != nullptr) // nullptr: the keystream itself
            in += bs * n;
        out += bs * n;
        nblocks -= n;
    }
}

} // namespace kc
