// LEA for the CTR_DRBG chain (src/kit/fused_ecb.hpp): ECB of the few blocks of an Update
// straight from the raw key, each round key derived as the rounds reach it (lea_key_step.hpp)
// and no key state written. The chain runs one such call per request, one after the other,
// so latency is what counts: the key-schedule words and the two or three blocks are
// independent dependency chains that the core runs side by side. Fully unrolled, every
// rotation of δ is a constant.
//
// Constant-time: ARX only, as lea/ref; nothing is indexed by key or data.
#include "lea/lea.hpp"
#include "lea/lea_key_step.hpp"

#include "core/bytes.hpp"
#include "core/wipe.hpp"

namespace kc {

namespace {

template <int KW, int ROUNDS, int N> void fused(const uint8_t *key, const uint8_t *in, uint8_t *out)
{
    uint32_t t[KW], x[N][4];
    for (int k = 0; k < KW; k++)
        t[k] = load_le32(key + 4 * k);
    for (int b = 0; b < N; b++)
        for (int j = 0; j < 4; j++)
            x[b][j] = load_le32(in + 16 * b + 4 * j);
#pragma GCC unroll 32
    for (int i = 0; i < ROUNDS; i++) {
        uint32_t rk[6];
        lea_key::next_round_key<KW>(t, i, rk);
        for (int b = 0; b < N; b++) {
            const uint32_t x0 = x[b][0];
            x[b][0] = rotl32((x[b][0] ^ rk[0]) + (x[b][1] ^ rk[1]), 9);
            x[b][1] = rotr32((x[b][1] ^ rk[2]) + (x[b][2] ^ rk[3]), 5);
            x[b][2] = rotr32((x[b][2] ^ rk[4]) + (x[b][3] ^ rk[5]), 3);
            x[b][3] = x0;
        }
    }
    for (int b = 0; b < N; b++)
        for (int j = 0; j < 4; j++)
            store_le32(out + 16 * b + 4 * j, x[b][j]);
    secure_wipe(t, sizeof t);
    secure_wipe(x, sizeof x);
}

template <int KW, int ROUNDS> void fused_n(const uint8_t *key, const uint8_t *in, uint8_t *out, size_t n)
{
    for (; n >= 3; n -= 3, in += 48, out += 48)
        fused<KW, ROUNDS, 3>(key, in, out);
    if (n == 2)
        fused<KW, ROUNDS, 2>(key, in, out);
    else if (n == 1)
        fused<KW, ROUNDS, 1>(key, in, out);
}

} // namespace

void lea_fused_ecb(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    if (c == Cipher::lea128)
        fused_n<4, 24>(key, in, out, nblocks);
    else if (c == Cipher::lea192)
        fused_n<6, 28>(key, in, out, nblocks);
    else
        fused_n<8, 32>(key, in, out, nblocks);
}

} // namespace kc
