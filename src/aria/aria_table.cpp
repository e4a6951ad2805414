// aria/table: ARIA on 32-bit words with T-tables, the technique of OpenSSL's and the Linux
// kernel's generic ARIA (written here from the algebra below, not from their code).
//
// The state is four big-endian words, w_k = bytes 4k..4k+3. The diffusion layer A of RFC 5794
// section 2.3.3 factors into word-level steps (checked by exhaustive search over the byte
// permutations, and by the tests against aria/ref):
//
//   A = W . P . W . M
//
//   M  inside each word, every output byte is the XOR of the other three input bytes;
//   W  word mixing: (w0, w1, w2, w3) -> (w0^w1^w2, w0^w2^w3, w0^w1^w3, w1^w2^w3);
//   P  a byte permutation per word: w0 kept, w1 abcd -> badc, w2 abcd -> cdab, w3 abcd -> dcba.
//
// M is linear, so M(S(x)) for a word is the XOR of four table entries, one per byte: entry x
// of table p holds S_p(x) in every byte except byte p. One round is then a key addition,
// 16 lookups, and W, P, W on the four words. The odd and even substitution layers (section
// 2.3.2) use different S-boxes in each byte position, so each has its own four tables (8 KiB
// in all, built once from the S-boxes on first use; C++ guarantees that initialisation is
// thread-safe).
//
// Not constant-time: the table indexes are secret bytes, so which cache lines are loaded
// depends on key and data (cache-timing attacks apply). Use a bitsliced or AES-NI/GFNI
// kernel where that matters.
#include <cstring>

#include "aria/aria.hpp"
#include "core/bytes.hpp"
#include "core/ctr_via_ecb.hpp"
#include "core/kernel.hpp"
#include "core/wipe.hpp"

namespace kc {
namespace {

// The round keys of aria_key_schedule as big-endian words, the layout the rounds XOR in.
struct AriaWordKeys {
    int rounds;
    uint32_t ek[aria_max_rounds + 1][4];
    uint32_t dk[aria_max_rounds + 1][4];
};

// sl1[p][x] = M applied to S(x) placed in byte p, for S the S-box the type 1 layer uses in
// byte position p (SB1, SB2, SB3, SB4); sl2 likewise for the type 2 layer (SB3, SB4, SB1, SB2).
struct TTables {
    uint32_t sl1[4][256];
    uint32_t sl2[4][256];
};

// s in every byte of the word except byte p (byte 0 is the most significant).
uint32_t spread_except(uint8_t s, int p)
{
    return (0x01010101u ^ (0x01000000u >> (8 * p))) * s;
}

TTables make_tables()
{
    const uint8_t *const layer1[4] = {aria_sb1, aria_sb2, aria_sb3, aria_sb4};
    const uint8_t *const layer2[4] = {aria_sb3, aria_sb4, aria_sb1, aria_sb2};
    TTables t;
    for (int p = 0; p < 4; p++) {
        for (int x = 0; x < 256; x++) {
            t.sl1[p][x] = spread_except(layer1[p][x], p);
            t.sl2[p][x] = spread_except(layer2[p][x], p);
        }
    }
    return t;
}

const TTables &tables()
{
    static const TTables t = make_tables();
    return t;
}

struct State {
    uint32_t w0, w1, w2, w3;
};

// M(S(w)) for one word through the four tables of a substitution layer.
inline uint32_t substitute_mix(const uint32_t (*t)[256], uint32_t w)
{
    return t[0][w >> 24] ^ t[1][(w >> 16) & 0xff] ^ t[2][(w >> 8) & 0xff] ^ t[3][w & 0xff];
}

// W, as six XORs in place.
inline void mix_words(State &s)
{
    s.w1 ^= s.w2;
    s.w2 ^= s.w3;
    s.w0 ^= s.w1;
    s.w3 ^= s.w1;
    s.w2 ^= s.w0;
    s.w1 ^= s.w2;
}

// P: w1 abcd -> badc, w2 abcd -> cdab, w3 abcd -> dcba (w0 unchanged).
// (Compilers turn the last into one bswap.)
inline void permute_bytes(State &s)
{
    s.w1 = ((s.w1 & 0x00ff00ffu) << 8) | ((s.w1 >> 8) & 0x00ff00ffu);
    s.w2 = rotl32(s.w2, 16);
    s.w3 = (s.w3 >> 24) | ((s.w3 >> 8) & 0xff00u) | ((s.w3 & 0xff00u) << 8) | (s.w3 << 24);
}

// FO or FE (section 2.3.1) depending on the tables: A(SL(s ^ rk)).
inline void round_function(State &s, const uint32_t rk[4], const uint32_t (*t)[256])
{
    State r;
    r.w0 = substitute_mix(t, s.w0 ^ rk[0]);
    r.w1 = substitute_mix(t, s.w1 ^ rk[1]);
    r.w2 = substitute_mix(t, s.w2 ^ rk[2]);
    r.w3 = substitute_mix(t, s.w3 ^ rk[3]);
    mix_words(r);
    permute_bytes(r);
    mix_words(r);
    s = r;
}

// The type 2 substitution layer alone, for the last round (which has no diffusion).
inline uint32_t substitute2(uint32_t w)
{
    return (uint32_t)aria_sb3[w >> 24] << 24 | (uint32_t)aria_sb4[(w >> 16) & 0xff] << 16 |
           (uint32_t)aria_sb1[(w >> 8) & 0xff] << 8 | aria_sb2[w & 0xff];
}

// Section 2.2.2.1: n-1 rounds alternating FO and FE (n is even, so they start and end with FO),
// then C = SL2(P(n-1) ^ kn) ^ k(n+1). Decryption is the same with the decryption keys.
void crypt_block(const TTables &t, const uint32_t (*keys)[4], int rounds, const uint8_t *in,
                 uint8_t *out)
{
    State s = {load_be32(in), load_be32(in + 4), load_be32(in + 8), load_be32(in + 12)};
    for (int i = 0; i < rounds - 1; i++) // one call site, so the round is inlined
        round_function(s, keys[i], (i % 2 == 0) ? t.sl1 : t.sl2);
    const uint32_t *kn = keys[rounds - 1], *kl = keys[rounds];
    store_be32(out, substitute2(s.w0 ^ kn[0]) ^ kl[0]);
    store_be32(out + 4, substitute2(s.w1 ^ kn[1]) ^ kl[1]);
    store_be32(out + 8, substitute2(s.w2 ^ kn[2]) ^ kl[2]);
    store_be32(out + 12, substitute2(s.w3 ^ kn[3]) ^ kl[3]);
}

bool supports(Cipher c)
{
    return c == Cipher::aria128 || c == Cipher::aria192 || c == Cipher::aria256;
}

void set_key(void *state, Cipher c, const uint8_t *key)
{
    auto *wk = static_cast<AriaWordKeys *>(state);
    AriaRoundKeys rk;
    aria_key_schedule(c, key, &rk);
    wk->rounds = rk.rounds;
    for (int r = 0; r <= rk.rounds; r++) {
        for (int j = 0; j < 4; j++) {
            wk->ek[r][j] = load_be32(rk.ek[r] + 4 * j);
            wk->dk[r][j] = load_be32(rk.dk[r] + 4 * j);
        }
    }
    secure_wipe(&rk, sizeof rk);
}

void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const auto *wk = static_cast<const AriaWordKeys *>(state);
    const TTables &t = tables();
    for (size_t b = 0; b < nblocks; b++)
        crypt_block(t, wk->ek, wk->rounds, in + 16 * b, out + 16 * b);
}

void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const auto *wk = static_cast<const AriaWordKeys *>(state);
    const TTables &t = tables();
    for (size_t b = 0; b < nblocks; b++)
        crypt_block(t, wk->dk, wk->rounds, in + 16 * b, out + 16 * b);
}

void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                    size_t nblocks)
{
    ctr_xor_via_ecb(encrypt_blocks, 16, state, ctr, in, out, nblocks);
}

} // namespace

// Descriptor: constant_time: table lookups indexed by secret bytes; requires: portable C++; rank:
// faster than aria/ref.
extern const Kernel aria_table_kernel = {
    "aria/table", "aria", 16, 1, false, 0, 10, sizeof(AriaWordKeys),
    supports, set_key, encrypt_blocks, decrypt_blocks, ctr_xor_blocks};

} // namespace kc
