// aria/neon-4pt: ARIA on ARMv8 NEON, four blocks in four registers (the ARM/GPU paper's 4-PT),
// S-boxes by TBL/TBX.
//
// Layout. One LD4 of four blocks (64 bytes, byte elements) puts byte 4w+r of block b into
// lane 4b+w of register r: every register holds the bytes of one residue r mod 4, so it takes
// one S-box (RFC 5794 section 2.3.2), and ST4 puts the blocks back. The round keys are stored
// in the same layout, so adding one is four XORs.
//
// Diffusion. A = W . P . W . M (the factorisation of aria_table.cpp), each step in this
// layout: M mixes the bytes of a word, which lie in one lane of the four registers (six XORs);
// W mixes the words of a block, the four lanes 4b..4b+3 of a register: each output lane is
// the XOR of three input lanes, three one-register TBL with constant indexes and two XORs;
// P exchanges bytes inside words 1..3, which moves lanes between registers: two rounds of
// masked exchanges (BSL). 62 instructions per round for four blocks, against 72 for 16 in
// the sliced layout of neon-16pt, which is why that one is faster.
//
// S-boxes: each register looks up its own 256-byte table in four 64-byte quarters (TBL, then
// TBX on the index minus 64, 128, 192), so a round loads all four tables for only four
// registers; neon-16pt shares each load among four.
//
// Constant-time: the tables are read whole, at fixed addresses; TBL and TBX index registers,
// not memory. Everything else is XOR, BSL and loads/stores at public addresses.
#if defined(__aarch64__)
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "aria/aria.hpp"
#include "core/ctr_via_ecb.hpp"
#include "core/kernel.hpp"
#include "core/wipe.hpp"

namespace kc {
namespace {

using u8x16 = uint8x16_t;

// Round key i in the LD4 layout: key[i][r] lane 4b+w = byte 4w+r of the RFC's key.
struct FourPtKeys {
    int rounds;
    alignas(16) uint8_t enc[aria_max_rounds + 1][4][16];
    alignas(16) uint8_t dec[aria_max_rounds + 1][4][16];
};

inline u8x16 sbox(const uint8_t *table, u8x16 x)
{
    const u8x16 quarter = vdupq_n_u8(64);
    u8x16 y = vqtbl4q_u8(vld1q_u8_x4(table), x);
    for (int q = 1; q < 4; q++) {
        x = vsubq_u8(x, quarter);
        y = vqtbx4q_u8(y, vld1q_u8_x4(table + 64 * q), x);
    }
    return y;
}

// Key, then SL1 (SB1..SB4 on registers 0..3) or SL2 (SB3, SB4, SB1, SB2).
template <int Type> inline void substitute(u8x16 v[4], const uint8_t (*k)[16])
{
    static const uint8_t *const type1[4] = {aria_sb1, aria_sb2, aria_sb3, aria_sb4};
    static const uint8_t *const type2[4] = {aria_sb3, aria_sb4, aria_sb1, aria_sb2};
    for (int r = 0; r < 4; r++)
        v[r] = sbox(Type == 1 ? type1[r] : type2[r], veorq_u8(v[r], vld1q_u8(k[r])));
}

// W on every block of one register: lane w of a block <- XOR of the lanes of {0,1,2},
// {0,2,3}, {0,1,3}, {1,2,3} for w = 0..3.
inline u8x16 mix_words(u8x16 x)
{
    static const uint8_t first[16] = {0, 0, 0, 1, 4, 4, 4, 5, 8, 8, 8, 9, 12, 12, 12, 13};
    static const uint8_t second[16] = {1, 2, 1, 2, 5, 6, 5, 6, 9, 10, 9, 10, 13, 14, 13, 14};
    static const uint8_t third[16] = {2, 3, 3, 3, 6, 7, 7, 7, 10, 11, 11, 11, 14, 15, 15, 15};
    return veorq_u8(veorq_u8(vqtbl1q_u8(x, vld1q_u8(first)), vqtbl1q_u8(x, vld1q_u8(second))),
                    vqtbl1q_u8(x, vld1q_u8(third)));
}

// Exchanges a and b in the lanes where m is all ones.
inline void exchange(u8x16 m, u8x16 &a, u8x16 &b)
{
    const u8x16 na = vbslq_u8(m, b, a);
    b = vbslq_u8(m, a, b);
    a = na;
}

inline void diffuse(u8x16 v[4])
{
    // M: byte r of a word <- XOR of the other three
    const u8x16 p = veorq_u8(v[0], v[1]), q = veorq_u8(v[2], v[3]);
    const u8x16 n0 = veorq_u8(v[1], q), n1 = veorq_u8(v[0], q), n2 = veorq_u8(v[3], p);
    v[3] = veorq_u8(v[2], p), v[0] = n0, v[1] = n1, v[2] = n2;
    for (int r = 0; r < 4; r++)
        v[r] = mix_words(v[r]);
    // P: in word w, byte r <- byte r ^ w: exchange registers r, r^1 in the lanes of odd w,
    // then r, r^2 in the lanes of w >= 2
    static const uint8_t odd_words[16] = {0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff,
                                          0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff};
    static const uint8_t high_words[16] = {0, 0, 0xff, 0xff, 0, 0, 0xff, 0xff,
                                           0, 0, 0xff, 0xff, 0, 0, 0xff, 0xff};
    const u8x16 m1 = vld1q_u8(odd_words), m2 = vld1q_u8(high_words);
    exchange(m1, v[0], v[1]), exchange(m1, v[2], v[3]);
    exchange(m2, v[0], v[2]), exchange(m2, v[1], v[3]);
    for (int r = 0; r < 4; r++)
        v[r] = mix_words(v[r]);
}

// RFC 5794 section 2.2.2.1 on four blocks, keys k[0..n] in the LD4 layout.
void crypt4(const uint8_t (*k)[4][16], int rounds, const uint8_t *in, uint8_t *out)
{
    const uint8x16x4_t loaded = vld4q_u8(in);
    u8x16 v[4] = {loaded.val[0], loaded.val[1], loaded.val[2], loaded.val[3]};
    for (int i = 0; i < rounds - 1; i += 2) {
        substitute<1>(v, k[i]);
        diffuse(v);
        substitute<2>(v, k[i + 1]);
        if (i + 2 < rounds)
            diffuse(v);
    }
    uint8x16x4_t result;
    for (int r = 0; r < 4; r++)
        result.val[r] = veorq_u8(v[r], vld1q_u8(k[rounds][r]));
    vst4q_u8(out, result);
}

// Groups of four blocks; a last partial group on a zero-padded stack copy (wiped after).
void ecb(const uint8_t (*k)[4][16], int rounds, const uint8_t *in, uint8_t *out, size_t n)
{
    for (; n >= 4; n -= 4, in += 64, out += 64)
        crypt4(k, rounds, in, out);
    if (n == 0)
        return;
    alignas(16) uint8_t buf[64] = {};
    std::memcpy(buf, in, 16 * n);
    crypt4(k, rounds, buf, buf);
    std::memcpy(out, buf, 16 * n);
    secure_wipe(buf, sizeof buf);
}

void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    const auto &k = *static_cast<const FourPtKeys *>(state);
    ecb(k.enc, k.rounds, in, out, n);
}

void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    const auto &k = *static_cast<const FourPtKeys *>(state);
    ecb(k.dec, k.rounds, in, out, n);
}

void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                    size_t n)
{
    ctr_xor_via_ecb(encrypt_blocks, 16, state, ctr, in, out, n);
}

bool supports(Cipher c)
{
    return c == Cipher::aria128 || c == Cipher::aria192 || c == Cipher::aria256;
}

void to_ld4_layout(const uint8_t key[16], uint8_t (*out)[16])
{
    for (int r = 0; r < 4; r++)
        for (int b = 0; b < 4; b++)
            for (int w = 0; w < 4; w++)
                out[r][4 * b + w] = key[4 * w + r];
}

void set_key(void *state, Cipher c, const uint8_t *key)
{
    auto &k = *static_cast<FourPtKeys *>(state);
    AriaRoundKeys rk;
    aria_key_schedule(c, key, &rk);
    k.rounds = rk.rounds;
    for (int i = 0; i <= rk.rounds; i++) {
        to_ld4_layout(rk.ek[i], k.enc[i]);
        to_ld4_layout(rk.dk[i], k.dec[i]);
    }
    secure_wipe(&rk, sizeof rk);
}

} // namespace

// Descriptor: batch_blocks: one LD4 of four blocks; constant_time: TBL/TBX index registers, not
// memory; rank: above aria/table, below the 16-block kernels.
extern const Kernel aria_neon_4pt_kernel = {
    "aria/neon-4pt", "aria", 16, 4, true, feat_neon, 15, sizeof(FourPtKeys),
    supports, set_key, encrypt_blocks, decrypt_blocks, ctr_xor_blocks};

} // namespace kc

#endif // __aarch64__
