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

// The added constants ROL_{i+k}(δ[i mod n]) of every update, computed at compile time, so
// that an update is one addition and one rotation by a constant: a rekey (one per CTR_DRBG
// request) costs a third of what the rotation by a variable amount made it cost.
template <int N, int Rounds, int PerRound> struct Deltas {
    uint32_t d[Rounds][PerRound];
};

template <int N, int Rounds, int PerRound> constexpr Deltas<N, Rounds, PerRound> make_deltas()
{
    Deltas<N, Rounds, PerRound> t{};
    for (int i = 0; i < Rounds; i++)
        for (int k = 0; k < PerRound; k++)
            t.d[i][k] = lea_key::rol(lea_key::delta(i % N), (unsigned)(i + k));
    return t;
}

constexpr Deltas<4, 24, 4> deltas_128 = make_deltas<4, 24, 4>();
constexpr Deltas<6, 28, 6> deltas_192 = make_deltas<6, 28, 6>();
constexpr Deltas<8, 32, 6> deltas_256 = make_deltas<8, 32, 6>();

// T <- ROL_{step_rot(k)}(T + c): the k-th update of a step with its constant c.
template <int K> inline uint32_t step(uint32_t t, uint32_t c)
{
    return lea_key::rol(t + c, lea_key::step_rot(K));
}

// LEA-128: 24 rounds, RK_i = (T0, T1, T2, T1, T3, T1).
void schedule_128(const uint32_t *key, LeaRoundKeys *out)
{
    uint32_t t[4] = {key[0], key[1], key[2], key[3]};
    for (int i = 0; i < 24; i++) {
        const uint32_t *c = deltas_128.d[i];
        t[0] = step<0>(t[0], c[0]);
        t[1] = step<1>(t[1], c[1]);
        t[2] = step<2>(t[2], c[2]);
        t[3] = step<3>(t[3], c[3]);
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
        const uint32_t *c = deltas_192.d[i];
        t[0] = step<0>(t[0], c[0]);
        t[1] = step<1>(t[1], c[1]);
        t[2] = step<2>(t[2], c[2]);
        t[3] = step<3>(t[3], c[3]);
        t[4] = step<4>(t[4], c[4]);
        t[5] = step<5>(t[5], c[5]);
        for (int k = 0; k < 6; k++)
            out->rk[i][k] = t[k];
    }
    out->rounds = 28;
    secure_wipe(t, sizeof t);
}

// Step i of LEA-256, i = P mod 4, on words 6P + k mod 8 (lea_key::word_256).
template <int P> inline void step_256(uint32_t (&t)[8], int i, LeaRoundKeys *out)
{
    constexpr int w0 = lea_key::word_256(P, 0), w1 = lea_key::word_256(P, 1), w2 = lea_key::word_256(P, 2);
    constexpr int w3 = lea_key::word_256(P, 3), w4 = lea_key::word_256(P, 4), w5 = lea_key::word_256(P, 5);
    const uint32_t *c = deltas_256.d[i];
    uint32_t *rk = out->rk[i];
    rk[0] = t[w0] = step<0>(t[w0], c[0]);
    rk[1] = t[w1] = step<1>(t[w1], c[1]);
    rk[2] = t[w2] = step<2>(t[w2], c[2]);
    rk[3] = t[w3] = step<3>(t[w3], c[3]);
    rk[4] = t[w4] = step<4>(t[w4], c[4]);
    rk[5] = t[w5] = step<5>(t[w5], c[5]);
}

// LEA-256: 32 rounds over an 8-word state, six words per round starting at 6i mod 8:
// T[(6i+k) mod 8] is updated with ROL_{i+k}(δ[i mod 8]) and becomes RK_i[k].
void schedule_256(const uint32_t *key, LeaRoundKeys *out)
{
    uint32_t t[8];
    for (int k = 0; k < 8; k++)
        t[k] = key[k];
    for (int i = 0; i < 32; i += 4) { // 6i mod 8 repeats every 4 steps: constant indices
        step_256<0>(t, i, out);
        step_256<1>(t, i + 1, out);
        step_256<2>(t, i + 2, out);
        step_256<3>(t, i + 3, out);
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
