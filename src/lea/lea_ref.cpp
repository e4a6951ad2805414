// lea/ref: the reference LEA kernel, one block at a time, the round function written as the
// standard writes it (TTAK.KO-12.0223, encryption and decryption procedures). It is the
// oracle every other LEA kernel is tested against.
//
// Constant-time: LEA is ARX. A round is six XORs with round keys, three 32-bit additions
// (subtractions when decrypting) and three rotations by fixed amounts; there is no table,
// so no memory address depends on a secret, and no branch depends on anything but the
// public round counter and block count.
#include "lea/lea.hpp"

#include <cstring>

#include "core/bytes.hpp"
#include "core/kernel.hpp"
#include "kit/block_loop.hpp"
#include "kit/chain_accel.hpp"

namespace kc {

namespace {

struct LeaState {
    uint32_t x[4];
};

LeaState load_block(const uint8_t *in)
{
    return {{load_le32(in), load_le32(in + 4), load_le32(in + 8), load_le32(in + 12)}};
}

void store_block(const LeaState &s, uint8_t *out)
{
    for (int j = 0; j < 4; j++)
        store_le32(out + 4 * j, s.x[j]);
}

// X_{i+1} from X_i:
//   X_{i+1}[0] = ROL9((X_i[0] ^ RK_i[0]) + (X_i[1] ^ RK_i[1]))
//   X_{i+1}[1] = ROR5((X_i[1] ^ RK_i[2]) + (X_i[2] ^ RK_i[3]))
//   X_{i+1}[2] = ROR3((X_i[2] ^ RK_i[4]) + (X_i[3] ^ RK_i[5]))
//   X_{i+1}[3] = X_i[0]
LeaState encrypt_round(const LeaState &s, const uint32_t *rk)
{
    LeaState n;
    n.x[0] = rotl32((s.x[0] ^ rk[0]) + (s.x[1] ^ rk[1]), 9);
    n.x[1] = rotr32((s.x[1] ^ rk[2]) + (s.x[2] ^ rk[3]), 5);
    n.x[2] = rotr32((s.x[2] ^ rk[4]) + (s.x[3] ^ rk[5]), 3);
    n.x[3] = s.x[0];
    return n;
}

// X_i from X_{i+1}, the inverse of encrypt_round, each word recovered from the one before:
//   X_i[0] = X_{i+1}[3]
//   X_i[1] = (ROR9(X_{i+1}[0]) - (X_i[0] ^ RK_i[0])) ^ RK_i[1]
//   X_i[2] = (ROL5(X_{i+1}[1]) - (X_i[1] ^ RK_i[2])) ^ RK_i[3]
//   X_i[3] = (ROL3(X_{i+1}[2]) - (X_i[2] ^ RK_i[4])) ^ RK_i[5]
LeaState decrypt_round(const LeaState &s, const uint32_t *rk)
{
    LeaState p;
    p.x[0] = s.x[3];
    p.x[1] = (rotr32(s.x[0], 9) - (p.x[0] ^ rk[0])) ^ rk[1];
    p.x[2] = (rotl32(s.x[1], 5) - (p.x[1] ^ rk[2])) ^ rk[3];
    p.x[3] = (rotl32(s.x[2], 3) - (p.x[2] ^ rk[4])) ^ rk[5];
    return p;
}

} // namespace

// The words in locals, not a LeaState passed from round to round: as a struct they went
// through the stack at both ends and out byte by byte. A one-block call is GCM's E_K(J0) (this
// is LEA's one-block kernel): LEA-128-GCM at 1 KiB went from 1.04 to 0.87 c/B on a Zen 5.
void lea_encrypt_block(const LeaRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    uint32_t x0 = load_le32(in), x1 = load_le32(in + 4), x2 = load_le32(in + 8), x3 = load_le32(in + 12);
    for (int i = 0; i < rk.rounds; i++) {
        const LeaState n = encrypt_round({{x0, x1, x2, x3}}, rk.rk[i]);
        x0 = n.x[0], x1 = n.x[1], x2 = n.x[2], x3 = n.x[3];
    }
    store_le32(out, x0);
    store_le32(out + 4, x1);
    store_le32(out + 8, x2);
    store_le32(out + 12, x3);
}

void lea_decrypt_block(const LeaRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    LeaState s = load_block(in);
    for (int i = rk.rounds - 1; i >= 0; i--)
        s = decrypt_round(s, rk.rk[i]);
    store_block(s, out);
}

namespace {

bool lea_supports(Cipher c)
{
    return c == Cipher::lea128 || c == Cipher::lea192 || c == Cipher::lea256;
}

using Loop = BlockLoop<LeaRoundKeys, 16, lea_encrypt_block, lea_decrypt_block, lea_key_schedule>;

// The round for the chains, the same words as encrypt_round, written word 2 first, then 1, then
// 0. A round is a chain of three dependent steps (XOR, add, rotate) per word, three cycles at
// best, but its three rotates run on two ports (Intel's p0 and p6) and cannot all run in the
// same cycle; the schedule that keeps three cycles a round staggers the words, word 2's rotate
// a cycle before word 1's (which needs word 2) and that a cycle before word 0's (which needs
// word 1). The core issues the oldest ready instruction first, so the program order decides.
inline void chain_round(uint32_t &x0, uint32_t &x1, uint32_t &x2, uint32_t &x3, const uint32_t *rk)
{
    const uint32_t n2 = rotr32((x2 ^ rk[4]) + (x3 ^ rk[5]), 3);
    const uint32_t n1 = rotr32((x1 ^ rk[2]) + (x2 ^ rk[3]), 5);
    const uint32_t n0 = rotl32((x0 ^ rk[0]) + (x1 ^ rk[1]), 9);
    x3 = x0;
    x0 = n0;
    x1 = n1;
    x2 = n2;
}

// CBC, CFB and OFB chains (kit/chain_accel.hpp) with the words in general registers.
struct LeaChainBlock {
    using Keys = LeaRoundKeys;
    using State = LeaState;
    // The words in host order, which is LEA's little-endian one (asserted below): byte-wise
    // stores were merged back into words with shifts, on every block.
    static State load(const uint8_t *p)
    {
        State s;
        std::memcpy(s.x, p, 16);
        return s;
    }
    static void store(uint8_t *p, const State &s) { std::memcpy(p, s.x, 16); }
    // b (the loaded block, in every loop) pinned to general registers: otherwise GCC's SLP
    // vectorizer made CFB's four XORs one PXOR, and the chain went from general registers into
    // an xmm register and back through the stack on every block (Zen 5 VM: CFB 6.0 c/B beside
    // CBC's and OFB's 4.9).
    static State xor2(const State &a, const State &b)
    {
        uint32_t b0 = b.x[0], b1 = b.x[1], b2 = b.x[2], b3 = b.x[3];
        asm("" : "+r"(b0), "+r"(b1), "+r"(b2), "+r"(b3));
        return {{a.x[0] ^ b0, a.x[1] ^ b1, a.x[2] ^ b2, a.x[3] ^ b3}};
    }
    // Two rounds a turn. A standalone copy of this chain, cycles a round with turns of two /
    // four / all rounds unrolled: medians 4.00 / 4.12 / 4.19 over six quieter cores of the H100
    // host's Xeon (the standard's order, four a turn: 4.36), 3.2 / 3.1 / 3.0 on a Zen 5. Against
    // four rounds a turn in the standard's order, LEA-128 CMAC, CFB, OFB: Zen 5 VM 5.3 / 6.3 /
    // 5.2 -> 5.0 / 6.0 / 5.0 c/B; the Xeon, alternated pairs on three cores, new over old,
    // medians 0.89-0.96 / 0.91-0.95 / 0.93-0.98.
    static State encrypt(const Keys &rk, State s)
    {
        uint32_t x0 = s.x[0], x1 = s.x[1], x2 = s.x[2], x3 = s.x[3];
        for (int i = 0; i < rk.rounds; i += 2) {
            chain_round(x0, x1, x2, x3, rk.rk[i]);
            chain_round(x0, x1, x2, x3, rk.rk[i + 1]);
        }
        return {{x0, x1, x2, x3}};
    }
};
using Chains = ChainLoops<LeaChainBlock>;
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "LeaChainBlock reads words in host order");

} // namespace

// Descriptor: constant_time: ARX only (see the file header); requires: portable C++; rank: the
// fallback every machine can run.
extern const Kernel lea_ref_kernel = {
    "lea/ref", "lea", 16, 1, true, 0, 0, sizeof(LeaRoundKeys),
    lea_supports, Loop::set_key, Loop::encrypt_blocks, Loop::decrypt_blocks, Loop::ctr_xor_blocks};

// The chains' loops for the kernel above (kit/chain_accel.hpp): lea/ref is LEA's chain kernel.
extern const ChainAccel lea_ref_chains = {&lea_ref_kernel, 0, Chains::cbc, Chains::cfb, Chains::ofb};

} // namespace kc
