// LEA key schedule (TTAK.KO-12.0223, "key schedule" for 128-, 192- and 256-bit keys), written
// as the standard states it: a key state T of 4/6/8 words, each update adding a rotated
// constant δ and rotating the result.
//
// Constant-time: only additions, fixed rotations and word copies; the rotation amounts and
// the word indices depend on the round number, which is public, never on the key.
#include "lea/lea.hpp"

#include "core/bytes.hpp"
#include "core/wipe.hpp"

namespace kc {

namespace {

// δ[i]: the standard's key-schedule constants, the first 256 bits of the fractional part of
// sqrt(766965) in hexadecimal (76, 69, 65 = "LEA" in ASCII): nothing-up-my-sleeve numbers.
constexpr uint32_t delta[8] = {
    0xc3efe9db, 0x44626b02, 0x79e27c8a, 0x78df30ec,
    0x715ea49e, 0xc785da0a, 0xe04ef22a, 0xe5c40957,
};

// The rotation applied after each of the six additions of one key-schedule step.
constexpr unsigned step_rot[6] = {1, 3, 6, 11, 13, 17};

// T[j] <- ROL_{rot}(T[j] + ROL_{i+k}(δ[i mod n])): the k-th update of step i.
inline uint32_t update(uint32_t t, uint32_t d, int i, int k)
{
    return rotl32(t + rotl32(d, (unsigned)(i + k)), step_rot[k]);
}

// LEA-128: 24 rounds, RK_i = (T0, T1, T2, T1, T3, T1).
void schedule_128(const uint32_t *key, LeaRoundKeys *out)
{
    uint32_t t[4] = {key[0], key[1], key[2], key[3]};
    for (int i = 0; i < 24; i++) {
        uint32_t d = delta[i % 4];
        for (int k = 0; k < 4; k++)
            t[k] = update(t[k], d, i, k);
        uint32_t *rk = out->rk[i];
        rk[0] = t[0];
        rk[1] = t[1];
        rk[2] = t[2];
        rk[3] = t[1];
        rk[4] = t[3];
        rk[5] = t[1];
    }
    out->rounds = 24;
    secure_wipe(t, sizeof t);
}

// LEA-192: 28 rounds, RK_i = (T0, ..., T5).
void schedule_192(const uint32_t *key, LeaRoundKeys *out)
{
    uint32_t t[6];
    for (int k = 0; k < 6; k++)
        t[k] = key[k];
    for (int i = 0; i < 28; i++) {
        uint32_t d = delta[i % 6];
        for (int k = 0; k < 6; k++) {
            t[k] = update(t[k], d, i, k);
            out->rk[i][k] = t[k];
        }
    }
    out->rounds = 28;
    secure_wipe(t, sizeof t);
}

// LEA-256: 32 rounds over an 8-word state, six words per round starting at 6i mod 8:
// T[(6i+k) mod 8] is updated with ROL_{i+k}(δ[i mod 8]) and becomes RK_i[k].
void schedule_256(const uint32_t *key, LeaRoundKeys *out)
{
    uint32_t t[8];
    for (int k = 0; k < 8; k++)
        t[k] = key[k];
    for (int i = 0; i < 32; i++) {
        uint32_t d = delta[i % 8];
        for (int k = 0; k < 6; k++) {
            int j = (6 * i + k) % 8;
            t[j] = update(t[j], d, i, k);
            out->rk[i][k] = t[j];
        }
    }
    out->rounds = 32;
    secure_wipe(t, sizeof t);
}

} // namespace

void lea_key_schedule(Cipher c, const uint8_t *key, LeaRoundKeys *out)
{
    uint32_t k[8] = {};
    size_t nwords = cipher_desc(c).key_bytes / 4;
    for (size_t i = 0; i < nwords; i++)
        k[i] = load_le32(key + 4 * i);
    if (c == Cipher::lea128)
        schedule_128(k, out);
    else if (c == Cipher::lea192)
        schedule_192(k, out);
    else
        schedule_256(k, out);
    secure_wipe(k, sizeof k);
}

} // namespace kc
