// aria/neon-16pt: ARIA on ARMv8 NEON, 16 blocks byte-sliced in 16 registers (the ARM/GPU
// paper's 16-PT), S-boxes by TBL/TBX. The layout, the diffusion and the batch driver are in
// aria_neon_byteslice.hpp.
//
// S-boxes. A register holds one byte position of 16 blocks, so it takes one S-box, looked up
// with the register as the index vector: a 256-byte table is four 64-byte quarters, each one
// TBL or TBX over four table registers (TBX leaves lanes whose index is out of range alone), and
// the index drops by 64 between quarters. The four registers that share an S-box go through
// each quarter together, so only four table registers are live next to the 16 of the state:
// per round and batch, 16 quarter loads (LD1 of four registers), 16 TBL, 48 TBX, 48 SUB, 16
// key XORs (LD1R broadcasts) and the 72 XORs of the diffusion.
//
// Constant-time: the tables are read whole, at fixed addresses, into registers; TBL and TBX
// index registers, not memory, and take the same time for every index. Everything else is
// XOR, SUB, TRN and loads/stores at addresses fixed by the public length.
#if defined(__aarch64__)
#include <arm_neon.h>

#include "aria/aria.hpp"
#include "aria/aria_neon_byteslice.hpp"
#include "core/ctr_via_ecb.hpp"
#include "core/kernel.hpp"

namespace kc {
namespace {

using aria_neon::u8x16;

// S(a..d) for one 256-byte S-box table, quarter by quarter.
inline void sbox4(const uint8_t *table, u8x16 &a, u8x16 &b, u8x16 &c, u8x16 &d)
{
    const u8x16 quarter = vdupq_n_u8(64);
    uint8x16x4_t t = vld1q_u8_x4(table);
    u8x16 ya = vqtbl4q_u8(t, a), yb = vqtbl4q_u8(t, b), yc = vqtbl4q_u8(t, c),
          yd = vqtbl4q_u8(t, d);
    for (int q = 1; q < 4; q++) {
        t = vld1q_u8_x4(table + 64 * q);
        a = vsubq_u8(a, quarter), b = vsubq_u8(b, quarter);
        c = vsubq_u8(c, quarter), d = vsubq_u8(d, quarter);
        ya = vqtbx4q_u8(ya, t, a), yb = vqtbx4q_u8(yb, t, b);
        yc = vqtbx4q_u8(yc, t, c), yd = vqtbx4q_u8(yd, t, d);
    }
    a = ya, b = yb, c = yc, d = yd;
}

struct TblSboxes {
    // Key k[i] as the RFC's bytes, then SL1 (SB1, SB2, SB3, SB4 by j mod 4) or SL2 (SB3, SB4,
    // SB1, SB2): the four registers j = r, r+4, r+8, r+12 share an S-box.
    template <int Type>
    static void layer(u8x16 x[16], const uint8_t k[16])
    {
        static const uint8_t *const type1[4] = {aria_sb1, aria_sb2, aria_sb3, aria_sb4};
        static const uint8_t *const type2[4] = {aria_sb3, aria_sb4, aria_sb1, aria_sb2};
        aria_neon::add_key(x, k);
        for (int r = 0; r < 4; r++)
            sbox4(Type == 1 ? type1[r] : type2[r], x[r], x[4 + r], x[8 + r], x[12 + r]);
    }
};

bool supports(Cipher c)
{
    return c == Cipher::aria128 || c == Cipher::aria192 || c == Cipher::aria256;
}

// The RFC's round keys serve as they are (the state is an AriaRoundKeys).
void set_key(void *state, Cipher c, const uint8_t *key)
{
    aria_key_schedule(c, key, static_cast<AriaRoundKeys *>(state));
}

void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    const auto &rk = *static_cast<const AriaRoundKeys *>(state);
    aria_neon::ecb<TblSboxes>(rk.ek, rk.rounds, in, out, n);
}

void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    const auto &rk = *static_cast<const AriaRoundKeys *>(state);
    aria_neon::ecb<TblSboxes>(rk.dk, rk.rounds, in, out, n);
}

void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                    size_t n)
{
    ctr_xor_via_ecb(encrypt_blocks, 16, state, ctr, in, out, n);
}

} // namespace

// Descriptor: batch_blocks: one byte position of 16 blocks per register; constant_time: TBL/TBX
// index registers, not memory; rank: above neon-4pt (table loads shared by four registers), below
// neon-aes.
extern const Kernel aria_neon_16pt_kernel = {
    "aria/neon-16pt", "aria", 16, 16, true, feat_neon, 20, sizeof(AriaRoundKeys),
    supports, set_key, encrypt_blocks, decrypt_blocks, ctr_xor_blocks};

} // namespace kc

#endif // __aarch64__
