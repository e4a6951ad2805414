// LEA key schedule (TTAK.KO-12.0223, "key schedule" for 128-, 192- and 256-bit keys), written
// as the standard states it: a key state T of 4/6/8 words, each update adding a rotated
// constant δ and rotating the result.
//
// Constant-time: only additions, fixed rotations and word copies; the rotation amounts and
// the word indices depend on the round number, which is public, never on the key.
#include "lea/lea.hpp"
#include "lea/lea_key_step.hpp"

#include "core/bytes.hpp"
#include "core/wipe.hpp"

namespace kc {

namespace {

using lea_key::update;

// LEA-128: 24 rounds, RK_i = (T0, T1, T2, T1, T3, T1).
void schedule_128(const uint32_t *key, LeaRoundKeys *out)
{
    uint32_t t[4] = {key[0], key[1], key[2], key[3]};
    for (int i = 0; i < 24; i++) {
        for (int k = 0; k < 4; k++)
            t[k] = update(t[k], 4, i, k);
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
        for (int k = 0; k < 6; k++) {
            t[k] = update(t[k], 6, i, k);
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
        for (int k = 0; k < 6; k++) {
            int j = lea_key::word_256(i, k);
            t[j] = update(t[j], 8, i, k);
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
