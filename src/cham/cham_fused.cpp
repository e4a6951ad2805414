// CHAM for the CTR_DRBG chain (src/kit/fused_ecb.hpp): ECB of the few blocks of an Update
// straight from the raw key. The 8 or 16 round keys are a few XORs and rotations each, kept in
// registers rather than laid out in a key state; the rounds are fully unrolled so that each
// reads its round key and round number as constants. The chain runs one call per request,
// one after the other: the two or three blocks are independent dependency chains side by
// side, and each round's word is read again only three rounds later, so the core overlaps
// consecutive rounds too.
//
// Constant-time: ARX only, as cham/ref.
#include "cham/cham.hpp"
#include "cham/cham_key_step.hpp"

#include "core/wipe.hpp"

namespace kc {

namespace {

using cham_word::load_le;
using cham_word::rotl;
using cham_word::store_le;

template <typename W, int KW, int ROUNDS, int N> void fused(const uint8_t *key, const uint8_t *in, uint8_t *out)
{
    constexpr int bb = 4 * sizeof(W), nrk = 2 * KW;
    W rk[nrk], x[N][4];
    for (int i = 0; i < KW; i++) {
        const W k = load_le<W>(key + sizeof(W) * i);
        rk[i] = cham_key::rk_first<W>(k);
        rk[cham_key::second_index(i, KW)] = cham_key::rk_second<W>(k);
    }
    for (int b = 0; b < N; b++)
        for (int j = 0; j < 4; j++)
            x[b][j] = load_le<W>(in + bb * b + sizeof(W) * j);
    // Round i writes word i mod 4 (the reference's shift of the four words, renamed away).
#pragma GCC unroll 128
    for (int i = 0; i < ROUNDS; i++) {
        for (int b = 0; b < N; b++) {
            W *w = x[b];
            const W s = (W)((w[i & 3] ^ (W)i) + (rotl<W>(w[(i + 1) & 3], i & 1 ? 8 : 1) ^ rk[i & (nrk - 1)]));
            w[i & 3] = rotl<W>(s, i & 1 ? 1 : 8);
        }
    }
    // After ROUNDS rounds (a multiple of 4: 88, 112, 120) the words are back in order.
    static_assert(ROUNDS % 4 == 0, "word order");
    for (int b = 0; b < N; b++)
        for (int j = 0; j < 4; j++)
            store_le(out + bb * b + sizeof(W) * j, x[b][j]);
    secure_wipe(rk, sizeof rk);
    secure_wipe(x, sizeof x);
}

template <typename W, int KW, int ROUNDS>
void fused_n(const uint8_t *key, const uint8_t *in, uint8_t *out, size_t n)
{
    constexpr size_t bb = 4 * sizeof(W);
    for (; n >= 3; n -= 3, in += 3 * bb, out += 3 * bb)
        fused<W, KW, ROUNDS, 3>(key, in, out);
    if (n == 2)
        fused<W, KW, ROUNDS, 2>(key, in, out);
    else if (n == 1)
        fused<W, KW, ROUNDS, 1>(key, in, out);
}

} // namespace

void cham_fused_ecb(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    if (c == Cipher::cham64_128)
        fused_n<uint16_t, 8, 88>(key, in, out, nblocks);
    else if (c == Cipher::cham128_128)
        fused_n<uint32_t, 4, 112>(key, in, out, nblocks);
    else
        fused_n<uint32_t, 8, 120>(key, in, out, nblocks);
}

} // namespace kc
