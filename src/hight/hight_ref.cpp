// hight/ref: the reference HIGHT kernel, one 8-byte block at a time, following the standard
// (TTAS.KO-12.0040/R1, encryption: initial transformation, 32 rounds, final transformation;
// decryption: their inverses in reverse order). The oracle for every other HIGHT kernel.
//
// Constant-time: HIGHT is ARX on bytes. F0 and F1 are XORs of fixed byte rotations, the
// rounds add and XOR subkeys, and the subkeys are read at indices 4i..4i+3 of the public
// round number i. There is no S-box or other table indexed by data or key, and no branch on
// secret values.
#include "hight/hight.hpp"

#include "core/bytes.hpp"
#include "core/kernel.hpp"
#include "kit/block_loop.hpp"

namespace kc {

namespace {

// The two auxiliary functions of the round function.
inline uint8_t f0(uint8_t x) { return (uint8_t)(rotl8(x, 1) ^ rotl8(x, 2) ^ rotl8(x, 7)); }
inline uint8_t f1(uint8_t x) { return (uint8_t)(rotl8(x, 3) ^ rotl8(x, 4) ^ rotl8(x, 6)); }

struct HightState {
    uint8_t x[8]; // X_{i,0}..X_{i,7}
};

// Initial transformation: X_0 = (P0 + WK0, P1, P2 ^ WK1, P3, P4 + WK2, P5, P6 ^ WK3, P7).
HightState initial_transform(const uint8_t *p, const uint8_t *wk)
{
    HightState s;
    for (int j = 0; j < 8; j++)
        s.x[j] = p[j];
    s.x[0] = (uint8_t)(p[0] + wk[0]);
    s.x[2] = (uint8_t)(p[2] ^ wk[1]);
    s.x[4] = (uint8_t)(p[4] + wk[2]);
    s.x[6] = (uint8_t)(p[6] ^ wk[3]);
    return s;
}

// Round i = 0..30: the four updated bytes move one place to the left (byte rotation of the
// state), the others move to the odd positions.
//   X_{i+1,0} = X_{i,7} ^ (F0(X_{i,6}) + SK_{4i+3})     X_{i+1,1} = X_{i,0}
//   X_{i+1,2} = X_{i,1} + (F1(X_{i,0}) ^ SK_{4i})       X_{i+1,3} = X_{i,2}
//   X_{i+1,4} = X_{i,3} ^ (F0(X_{i,2}) + SK_{4i+1})     X_{i+1,5} = X_{i,4}
//   X_{i+1,6} = X_{i,5} + (F1(X_{i,4}) ^ SK_{4i+2})     X_{i+1,7} = X_{i,6}
HightState encrypt_round(const HightState &s, const uint8_t *sk)
{
    const uint8_t *x = s.x;
    HightState n;
    n.x[0] = (uint8_t)(x[7] ^ (uint8_t)(f0(x[6]) + sk[3]));
    n.x[1] = x[0];
    n.x[2] = (uint8_t)(x[1] + (f1(x[0]) ^ sk[0]));
    n.x[3] = x[2];
    n.x[4] = (uint8_t)(x[3] ^ (uint8_t)(f0(x[2]) + sk[1]));
    n.x[5] = x[4];
    n.x[6] = (uint8_t)(x[5] + (f1(x[4]) ^ sk[2]));
    n.x[7] = x[6];
    return n;
}

// Round 31, the last, updates the odd bytes in place, with no byte rotation:
//   X_{32,1} = X_{31,1} + (F1(X_{31,0}) ^ SK_124)   X_{32,3} = X_{31,3} ^ (F0(X_{31,2}) + SK_125)
//   X_{32,5} = X_{31,5} + (F1(X_{31,4}) ^ SK_126)   X_{32,7} = X_{31,7} ^ (F0(X_{31,6}) + SK_127)
HightState encrypt_last_round(const HightState &s, const uint8_t *sk)
{
    HightState n = s;
    n.x[1] = (uint8_t)(s.x[1] + (f1(s.x[0]) ^ sk[0]));
    n.x[3] = (uint8_t)(s.x[3] ^ (uint8_t)(f0(s.x[2]) + sk[1]));
    n.x[5] = (uint8_t)(s.x[5] + (f1(s.x[4]) ^ sk[2]));
    n.x[7] = (uint8_t)(s.x[7] ^ (uint8_t)(f0(s.x[6]) + sk[3]));
    return n;
}

// Final transformation: C = (X0 + WK4, X1, X2 ^ WK5, X3, X4 + WK6, X5, X6 ^ WK7, X7).
void final_transform(const HightState &s, const uint8_t *wk, uint8_t *c)
{
    for (int j = 0; j < 8; j++)
        c[j] = s.x[j];
    c[0] = (uint8_t)(s.x[0] + wk[4]);
    c[2] = (uint8_t)(s.x[2] ^ wk[5]);
    c[4] = (uint8_t)(s.x[4] + wk[6]);
    c[6] = (uint8_t)(s.x[6] ^ wk[7]);
}

// Decryption: each step above undone, in reverse order.

HightState undo_final_transform(const uint8_t *c, const uint8_t *wk)
{
    HightState s;
    for (int j = 0; j < 8; j++)
        s.x[j] = c[j];
    s.x[0] = (uint8_t)(c[0] - wk[4]);
    s.x[2] = (uint8_t)(c[2] ^ wk[5]);
    s.x[4] = (uint8_t)(c[4] - wk[6]);
    s.x[6] = (uint8_t)(c[6] ^ wk[7]);
    return s;
}

HightState decrypt_last_round(const HightState &n, const uint8_t *sk)
{
    HightState s = n;
    s.x[1] = (uint8_t)(n.x[1] - (f1(n.x[0]) ^ sk[0]));
    s.x[3] = (uint8_t)(n.x[3] ^ (uint8_t)(f0(n.x[2]) + sk[1]));
    s.x[5] = (uint8_t)(n.x[5] - (f1(n.x[4]) ^ sk[2]));
    s.x[7] = (uint8_t)(n.x[7] ^ (uint8_t)(f0(n.x[6]) + sk[3]));
    return s;
}

// X_i from X_{i+1}: the even bytes of X_i are the odd bytes of X_{i+1}, and each odd byte of
// X_i comes back by subtracting (or XORing) the same F-value the encryption added.
HightState decrypt_round(const HightState &n, const uint8_t *sk)
{
    HightState s;
    s.x[0] = n.x[1];
    s.x[2] = n.x[3];
    s.x[4] = n.x[5];
    s.x[6] = n.x[7];
    s.x[7] = (uint8_t)(n.x[0] ^ (uint8_t)(f0(s.x[6]) + sk[3]));
    s.x[1] = (uint8_t)(n.x[2] - (f1(s.x[0]) ^ sk[0]));
    s.x[3] = (uint8_t)(n.x[4] ^ (uint8_t)(f0(s.x[2]) + sk[1]));
    s.x[5] = (uint8_t)(n.x[6] - (f1(s.x[4]) ^ sk[2]));
    return s;
}

void undo_initial_transform(const HightState &s, const uint8_t *wk, uint8_t *p)
{
    for (int j = 0; j < 8; j++)
        p[j] = s.x[j];
    p[0] = (uint8_t)(s.x[0] - wk[0]);
    p[2] = (uint8_t)(s.x[2] ^ wk[1]);
    p[4] = (uint8_t)(s.x[4] - wk[2]);
    p[6] = (uint8_t)(s.x[6] ^ wk[3]);
}

} // namespace

void hight_encrypt_block(const HightRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    HightState s = initial_transform(in, rk.wk);
    for (int i = 0; i < 31; i++)
        s = encrypt_round(s, rk.sk + 4 * i);
    s = encrypt_last_round(s, rk.sk + 4 * 31);
    final_transform(s, rk.wk, out);
}

void hight_decrypt_block(const HightRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    HightState s = undo_final_transform(in, rk.wk);
    s = decrypt_last_round(s, rk.sk + 4 * 31);
    for (int i = 30; i >= 0; i--)
        s = decrypt_round(s, rk.sk + 4 * i);
    undo_initial_transform(s, rk.wk, out);
}

namespace {

bool hight_supports(Cipher c) { return c == Cipher::hight; }

void hight_set_key(void *state, Cipher, const uint8_t *key)
{
    hight_key_schedule(key, static_cast<HightRoundKeys *>(state));
}

using Loop = BlockLoop<HightRoundKeys, 8, hight_encrypt_block, hight_decrypt_block>;

} // namespace

// Descriptor: constant_time: ARX on bytes, no tables indexed by secrets (see the file header);
// requires: portable C++; rank: the fallback every machine can run.
extern const Kernel hight_ref_kernel = {
    "hight/ref", "hight", 8, 1, true, 0, 0, sizeof(HightRoundKeys),
    hight_supports, hight_set_key, Loop::encrypt_blocks, Loop::decrypt_blocks, Loop::ctr_xor_blocks};

} // namespace kc
