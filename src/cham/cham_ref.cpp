// cham/ref: the reference revised-CHAM kernel, one block at a time, the round function as the
// paper writes it (Koo et al., ICISC 2017, "encryption"; round counts of Roh et al., ICISC 2019).
// The oracle for every other CHAM kernel. One template serves 16-bit (CHAM-64/128) and 32-bit
// (CHAM-128/*) words.
//
// Block size: the Kernel descriptor says 16 for the family, but CHAM-64/128 has 8-byte blocks.
// Every function here takes the block size from the key state (ChamRoundKeys::block_bytes),
// which the layers above must match with cipher_desc(c).block_bytes.
//
// Constant-time: CHAM is ARX. A round XORs the public round number into a word, adds,
// rotates by fixed amounts and XORs a round key chosen by the public round number
// (RK_{i mod 2k/w}). No table, no branch on data or key.
#include "cham/cham.hpp"

#include <cstring>
#include <utility>

#include "core/ctr_via_ecb.hpp"
#include "core/kernel.hpp"
#include "kit/chain_accel.hpp"

namespace kc {

namespace {

using cham_word::load_le;
using cham_word::rotl;
using cham_word::rotr;
using cham_word::store_le;

// Round i (from 0), X = (X_0, X_1, X_2, X_3):
//   even i: X_3' = ROL8((X_0 ^ i) + (ROL1(X_1) ^ RK_{i mod 2k/w}))
//   odd i:  X_3' = ROL1((X_0 ^ i) + (ROL8(X_1) ^ RK_{i mod 2k/w}))
//   (X_0', X_1', X_2') = (X_1, X_2, X_3)
// R1 rotates X_1, R2 the sum: (1, 8) in even rounds, (8, 1) in odd ones; template arguments so
// that every rotation is by a constant. The new word returned.
template <typename W, unsigned R1, unsigned R2> W encrypt_word(W x0, W x1, int i, W rk)
{
    return rotl<W>((W)((x0 ^ (W)i) + (rotl<W>(x1, R1) ^ rk)), R2);
}

// The inverse of round i: (X_1, X_2, X_3) = (X_0', X_1', X_2') and
// X_0 = (ROR_{R2}(X_3') - (ROL_{R1}(X_1) ^ RK)) ^ i.
template <typename W, unsigned R1, unsigned R2> void decrypt_round(W *x, int i, W rk)
{
    W x0 = (W)((W)(rotr<W>(x[3], R2) - (rotl<W>(x[0], R1) ^ rk)) ^ (W)i);
    x[3] = x[2];
    x[2] = x[1];
    x[1] = x[0];
    x[0] = x0;
}

// Four rounds make a turn of the words: each round's new X_3 takes the place of the X_0 it
// consumed, so after four the names are back in order and no word moves. A round then waits
// only on the word made three rounds before (ROL, XOR, add, ROL; GCC merges the two rotations
// on that path into one). The revised variants' rounds are unrolled whole (fixed_rounds), their
// round numbers and key offsets constants: five operations a round, where the loop that moved
// the words, branched on each round's parity and indexed each key ran about twice as many.
// This is CHAM's one-block path for the chains too (CMAC, CBC, CFB, OFB, CCM's MAC, GCM's
// E_K(J0); cham_module.cpp). Other round counts (the original ones, in the tests) run a loop.
template <typename W, int i, int nrk> void four_rounds(W &a, W &b, W &c, W &d, const uint32_t *rk)
{
    a = encrypt_word<W, 1, 8>(a, b, i, (W)rk[i % nrk]);
    b = encrypt_word<W, 8, 1>(b, c, i + 1, (W)rk[(i + 1) % nrk]);
    c = encrypt_word<W, 1, 8>(c, d, i + 2, (W)rk[(i + 2) % nrk]);
    d = encrypt_word<W, 8, 1>(d, a, i + 3, (W)rk[(i + 3) % nrk]);
}

template <typename W, int nrk, int... T>
void fixed_rounds(W &a, W &b, W &c, W &d, const uint32_t *rk, std::integer_sequence<int, T...>)
{
    (four_rounds<W, 4 * T, nrk>(a, b, c, d, rk), ...);
}

// The rounds on the four words, in place.
template <typename W> inline void encrypt_words(const ChamRoundKeys &rk, W &a, W &b, W &c, W &d)
{
    const int mask = rk.nrk - 1; // 2k/w is 8 or 16, so i mod 2k/w = i & mask
    if (sizeof(W) == 2 && rk.rounds == 88 && rk.nrk == 16) { // CHAM-64/128
        fixed_rounds<W, 16>(a, b, c, d, rk.rk, std::make_integer_sequence<int, 22>());
    } else if (sizeof(W) == 4 && rk.rounds == 112 && rk.nrk == 8) { // CHAM-128/128
        fixed_rounds<W, 8>(a, b, c, d, rk.rk, std::make_integer_sequence<int, 28>());
    } else if (sizeof(W) == 4 && rk.rounds == 120 && rk.nrk == 16) { // CHAM-128/256
        fixed_rounds<W, 16>(a, b, c, d, rk.rk, std::make_integer_sequence<int, 30>());
    } else {
        for (int i = 0; i < rk.rounds; i++) {
            const W t = i & 1 ? encrypt_word<W, 8, 1>(a, b, i, (W)rk.rk[i & mask])
                              : encrypt_word<W, 1, 8>(a, b, i, (W)rk.rk[i & mask]);
            a = b, b = c, c = d, d = t;
        }
    }
}

template <typename W> void encrypt(const ChamRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    W a = load_le<W>(in), b = load_le<W>(in + sizeof(W)), c = load_le<W>(in + 2 * sizeof(W)),
      d = load_le<W>(in + 3 * sizeof(W));
    encrypt_words<W>(rk, a, b, c, d);
    store_le(out, a);
    store_le(out + sizeof(W), b);
    store_le(out + 2 * sizeof(W), c);
    store_le(out + 3 * sizeof(W), d);
}

template <typename W> void decrypt(const ChamRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    W x[4];
    for (int j = 0; j < 4; j++)
        x[j] = load_le<W>(in + sizeof(W) * j);
    const int mask = rk.nrk - 1;
    for (int i = rk.rounds - 1; i >= 0; i--) {
        if (i & 1)
            decrypt_round<W, 8, 1>(x, i, (W)rk.rk[i & mask]);
        else
            decrypt_round<W, 1, 8>(x, i, (W)rk.rk[i & mask]);
    }
    for (int j = 0; j < 4; j++)
        store_le(out + sizeof(W) * j, x[j]);
}

} // namespace

void cham_encrypt_block(const ChamRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    if (rk.word_bits == 16)
        encrypt<uint16_t>(rk, in, out);
    else
        encrypt<uint32_t>(rk, in, out);
}

void cham_decrypt_block(const ChamRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    if (rk.word_bits == 16)
        decrypt<uint16_t>(rk, in, out);
    else
        decrypt<uint32_t>(rk, in, out);
}

namespace {

bool cham_supports(Cipher c)
{
    return c == Cipher::cham64_128 || c == Cipher::cham128_128 || c == Cipher::cham128_256;
}

void cham_set_key(void *state, Cipher c, const uint8_t *key)
{
    cham_key_schedule(c, key, static_cast<ChamRoundKeys *>(state), cham_revised_rounds(c));
}

void cham_encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const ChamRoundKeys &rk = *static_cast<const ChamRoundKeys *>(state);
    const size_t bb = (size_t)rk.block_bytes;
    for (size_t b = 0; b < nblocks; b++)
        cham_encrypt_block(rk, in + bb * b, out + bb * b);
}

void cham_decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const ChamRoundKeys &rk = *static_cast<const ChamRoundKeys *>(state);
    const size_t bb = (size_t)rk.block_bytes;
    for (size_t b = 0; b < nblocks; b++)
        cham_decrypt_block(rk, in + bb * b, out + bb * b);
}

// The counter is the whole block (8 or 16 bytes) as one big-endian integer.
void cham_ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                         size_t nblocks)
{
    const ChamRoundKeys &rk = *static_cast<const ChamRoundKeys *>(state);
    ctr_xor_via_ecb(cham_encrypt_blocks, (size_t)rk.block_bytes, state, ctr, in, out, nblocks);
}

// CBC, CFB and OFB chains (kit/chain_accel.hpp) with the words in general registers, the
// rounds inlined into each loop: through encrypt_blocks each block was a call that loaded and
// stored its words by bytes. The words are in host order, which is CHAM's little-endian one.
template <typename W> struct ChamChainBlock {
    using Keys = ChamRoundKeys;
    struct State {
        W x[4];
    };
    static State load(const uint8_t *p)
    {
        State s;
        std::memcpy(s.x, p, sizeof s.x);
        return s;
    }
    static void store(uint8_t *p, const State &s) { std::memcpy(p, s.x, sizeof s.x); }
    static State xor2(const State &a, const State &b)
    {
        return {{(W)(a.x[0] ^ b.x[0]), (W)(a.x[1] ^ b.x[1]), (W)(a.x[2] ^ b.x[2]), (W)(a.x[3] ^ b.x[3])}};
    }
    static State encrypt(const Keys &rk, State s)
    {
        encrypt_words<W>(rk, s.x[0], s.x[1], s.x[2], s.x[3]);
        return s;
    }
};
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ChamChainBlock reads words in host order");

// One ChainAccel for both word sizes: the key state says which block the chain runs.
template <void (*F16)(const void *, uint8_t *, const uint8_t *, uint8_t *, size_t),
          void (*F32)(const void *, uint8_t *, const uint8_t *, uint8_t *, size_t)>
void by_word(const void *keys, uint8_t *x, const uint8_t *in, uint8_t *out, size_t n)
{
    (static_cast<const ChamRoundKeys *>(keys)->word_bits == 16 ? F16 : F32)(keys, x, in, out, n);
}

using Chains16 = ChainLoops<ChamChainBlock<uint16_t>>;
using Chains32 = ChainLoops<ChamChainBlock<uint32_t>>;

} // namespace

// Descriptor: block_bytes: CHAM-128/*; CHAM-64/128 uses 8 (cipher_desc(c).block_bytes decides);
// constant_time: ARX only (see the file header); requires: portable C++; rank: the fallback every
// machine can run.
extern const Kernel cham_ref_kernel = {
    "cham/ref", "cham", 16, 1, true, 0, 0, sizeof(ChamRoundKeys),
    cham_supports, cham_set_key, cham_encrypt_blocks, cham_decrypt_blocks, cham_ctr_xor_blocks};

// The chains' loops for the kernel above: cham/ref is CHAM's chain kernel (cham_module.cpp).
extern const ChainAccel cham_ref_chains = {&cham_ref_kernel, 0, by_word<Chains16::cbc, Chains32::cbc>,
                                           by_word<Chains16::cfb, Chains32::cfb>, by_word<Chains16::ofb, Chains32::ofb>};

} // namespace kc
