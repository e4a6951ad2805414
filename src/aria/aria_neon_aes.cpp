// aria/neon-aes: ARIA on ARMv8 with the AES instructions, 16 blocks byte-sliced (the layout,
// diffusion and driver of aria/neon-16pt, aria_neon_byteslice.hpp), S1 and its inverse from
// AESE/AESD, S2 and its inverse through one affine map each.
//
// S-boxes. SB1 is the AES S-box and SB3 = SB1^-1. AESE(x, k) = ShiftRows(SubBytes(x ^ k)) and
// AESD(x, k) = InvShiftRows(InvSubBytes(x ^ k)): the XOR comes first, as ARIA adds its round
// key before the substitution layer, so the round key is the instruction's own key and costs
// nothing. SB2 = G o SB1 and SB4 = SB3 o H with G = SB2 o SB3 and H = SB1 o SB4 = G^-1 affine;
// an affine map of a byte is two 16-entry TBL lookups of its nibbles (tables in registers).
// For SB4 the key goes in after H: SB4(x ^ k) = AESD(H(x), L(k)), L the linear part of H, so
// those key bytes are stored as L(k).
//
// ShiftRows. With a byte-sliced state every byte of a register takes the same S-box, so
// ShiftRows only moves blocks between lanes. AESE leaves a register's blocks moved by SR,
// AESD by SR^-1; all 16 registers must be moved alike before the diffusion, which combines
// lanes of different registers. In a type 1 layer one TBL by SR^2 takes the AESD registers
// from SR^-1 to SR; in a type 2 layer (entered in SR order) the AESD registers return to
// block order and one TBL by SR^2 takes the AESE ones from SR^2 there too. Layers alternate
// and end on type 2, so the blocks are in order at the end: 8 TBL per round, not 16. (The x86
// AES-NI kernels, aria_x86_byteslice.hpp, do the same with aesenclast/aesdeclast.)
//
// Per round and batch: 16 AESE/AESD, 8 affine maps of five instructions, 8 TBL for
// ShiftRows, the 72 XORs of the diffusion; no separate key XORs.
//
// Constant-time: AESE/AESD take the same time for every input; the affine maps and the
// ShiftRows fixes are TBL over registers; loads and stores at public addresses.
#if defined(__aarch64__)
// The whole file may use the ARMv8 AES instructions: the kernel requires them
// (feat_arm_aes), and GCC emits them only where an intrinsic asks for them.
#if !defined(__clang__)
#pragma GCC target("+crypto")
#endif
// clang (14) declares the AES and PMULL intrinsics only for a file compiled with them:
// src/CMakeLists.txt gives this file -march=armv8-a+crypto there. Safe for the shared inline
// functions too, since no compiler emits AES or PMULL unless an intrinsic asks.
#include <arm_neon.h>

#include <cstring>

#include "aria/aria.hpp"
#include "aria/aria_neon_byteslice.hpp"
#include "core/ctr_via_ecb.hpp"
#include "core/kernel.hpp"
#include "core/wipe.hpp"

namespace kc {
namespace {

using aria_neon::u8x16;

// G and H at the 16 low nibbles (with the map's constant) and the 16 high nibbles (without):
// G(y) = SB2(SB3(y)), H(y) = SB1(SB4(y)) from the RFC's tables; the tests hold them to aria/ref.
alignas(16) const uint8_t g_lo[16] = {0x88, 0x0d, 0x37, 0xb2, 0x00, 0x85, 0xbf, 0x3a,
                                      0xa8, 0x2d, 0x17, 0x92, 0x20, 0xa5, 0x9f, 0x1a};
alignas(16) const uint8_t g_hi[16] = {0x00, 0x3e, 0xd4, 0xea, 0x84, 0xba, 0x50, 0x6e,
                                      0xcd, 0xf3, 0x19, 0x27, 0x49, 0x77, 0x9d, 0xa3};
alignas(16) const uint8_t h_lo[16] = {0x04, 0x45, 0xee, 0xaf, 0x17, 0x56, 0xfd, 0xbc,
                                      0x53, 0x12, 0xb9, 0xf8, 0x40, 0x01, 0xaa, 0xeb};
alignas(16) const uint8_t h_hi[16] = {0x00, 0xb6, 0x08, 0xbe, 0xd6, 0x60, 0xde, 0x68,
                                      0x53, 0xe5, 0x5b, 0xed, 0x85, 0x33, 0x8d, 0x3b};
// ShiftRows applied twice, as a TBL index (AES byte r + 4c is row r, column c): an involution.
alignas(16) const uint8_t shift_rows_twice[16] = {0, 9, 2, 11, 4, 13, 6, 15,
                                                  8, 1, 10, 3, 12, 5, 14, 7};

inline u8x16 affine(u8x16 y, const uint8_t *lo, const uint8_t *hi)
{
    const u8x16 l = vqtbl1q_u8(vld1q_u8(lo), vandq_u8(y, vdupq_n_u8(0x0f)));
    const u8x16 h = vqtbl1q_u8(vld1q_u8(hi), vshrq_n_u8(y, 4));
    return veorq_u8(l, h);
}

// S(x ^ k) for each S-box, k the key byte in every lane (for sb4, L(k)).
inline u8x16 sb1(u8x16 x, u8x16 k) { return vaeseq_u8(x, k); }
inline u8x16 sb2(u8x16 x, u8x16 k) { return affine(vaeseq_u8(x, k), g_lo, g_hi); }
inline u8x16 sb3(u8x16 x, u8x16 k) { return vaesdq_u8(x, k); }
inline u8x16 sb4(u8x16 x, u8x16 k) { return vaesdq_u8(affine(x, h_lo, h_hi), k); }

struct AesSboxes {
    template <int Type>
    static void layer(u8x16 x[16], const uint8_t k[16])
    {
        const u8x16 sr2 = vld1q_u8(shift_rows_twice);
        for (int j = 0; j < 16; j += 4) {
            const u8x16 k0 = vld1q_dup_u8(k + j), k1 = vld1q_dup_u8(k + j + 1);
            const u8x16 k2 = vld1q_dup_u8(k + j + 2), k3 = vld1q_dup_u8(k + j + 3);
            if (Type == 1) { // SB1, SB2 (AESE: SR order); SB3, SB4 (AESD) moved to SR
                x[j] = sb1(x[j], k0);
                x[j + 1] = sb2(x[j + 1], k1);
                x[j + 2] = vqtbl1q_u8(sb3(x[j + 2], k2), sr2);
                x[j + 3] = vqtbl1q_u8(sb4(x[j + 3], k3), sr2);
            } else { // SB3, SB4 (AESD: back in order); SB1, SB2 (AESE) moved back too
                x[j] = sb3(x[j], k0);
                x[j + 1] = sb4(x[j + 1], k1);
                x[j + 2] = vqtbl1q_u8(sb1(x[j + 2], k2), sr2);
                x[j + 3] = vqtbl1q_u8(sb2(x[j + 3], k3), sr2);
            }
        }
    }
};

// Round keys as the AES instructions take them: the RFC's bytes, except where the layer of
// round i applies SB4 (byte 3 mod 4 in a type 1 layer, i even; 1 mod 4 in type 2), which
// hold L(k). The last key, added after the last layer, is plain.
struct AesKeys {
    int rounds;
    alignas(16) uint8_t enc[aria_max_rounds + 1][16];
    alignas(16) uint8_t dec[aria_max_rounds + 1][16];
};

// L, the linear part of H: bit i of v selects column i. Bitwise, so no lookup is indexed by
// the key byte.
uint8_t h_linear(uint8_t v)
{
    static const uint8_t column[8] = {0x41, 0xea, 0x13, 0x57, 0xb6, 0x08, 0xd6, 0x53};
    uint8_t r = 0;
    for (int i = 0; i < 8; i++)
        r ^= column[i] & (uint8_t)(0u - ((v >> i) & 1u));
    return r;
}

void fold_keys(const uint8_t (*k)[16], int rounds, uint8_t (*out)[16])
{
    for (int i = 0; i <= rounds; i++) {
        std::memcpy(out[i], k[i], 16);
        if (i == rounds)
            break;
        for (int j = i % 2 == 0 ? 3 : 1; j < 16; j += 4)
            out[i][j] = h_linear(k[i][j]);
    }
}

void set_key(void *state, Cipher c, const uint8_t *key)
{
    auto &k = *static_cast<AesKeys *>(state);
    AriaRoundKeys rk;
    aria_key_schedule(c, key, &rk);
    k.rounds = rk.rounds;
    fold_keys(rk.ek, rk.rounds, k.enc);
    fold_keys(rk.dk, rk.rounds, k.dec);
    secure_wipe(&rk, sizeof rk);
}

bool supports(Cipher c)
{
    return c == Cipher::aria128 || c == Cipher::aria192 || c == Cipher::aria256;
}

void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    const auto &k = *static_cast<const AesKeys *>(state);
    aria_neon::ecb<AesSboxes>(k.enc, k.rounds, in, out, n);
}

void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    const auto &k = *static_cast<const AesKeys *>(state);
    aria_neon::ecb<AesSboxes>(k.dec, k.rounds, in, out, n);
}

void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                    size_t n)
{
    ctr_xor_via_ecb(encrypt_blocks, 16, state, ctr, in, out, n);
}

} // namespace

// Descriptor: batch_blocks: one byte position of 16 blocks per register; constant_time: AES
// instructions and register TBL only; rank: fewest instructions per block of the ARIA NEON kernels.
extern const Kernel aria_neon_aes_kernel = {
    "aria/neon-aes", "aria", 16, 16, true, feat_neon | feat_arm_aes, 30, sizeof(AesKeys),
    supports, set_key, encrypt_blocks, decrypt_blocks, ctr_xor_blocks};

} // namespace kc

#endif // __aarch64__
