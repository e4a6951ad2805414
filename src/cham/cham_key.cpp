// CHAM key schedule (Koo et al., ICISC 2017, "key schedule"; unchanged by the 2019 revision):
// the k/w key words K_i give 2k/w round keys
//   RK_i             = K_i ^ ROL1(K_i) ^ ROL8(K_i)
//   RK_{(i+k/w) ^ 1} = K_i ^ ROL1(K_i) ^ ROL11(K_i)        for 0 <= i < k/w.
//
// Constant-time: XORs and fixed rotations; the indices are functions of i only.
#include "cham/cham.hpp"
#include "cham/cham_key_step.hpp"

namespace kc {

namespace {

template <typename W> void schedule(const uint8_t *key, int key_words, ChamRoundKeys *out)
{
    for (int i = 0; i < key_words; i++) {
        W k = cham_word::load_le<W>(key + sizeof(W) * i);
        out->rk[i] = cham_key::rk_first<W>(k);
        out->rk[cham_key::second_index(i, key_words)] = cham_key::rk_second<W>(k);
    }
}

} // namespace

int cham_revised_rounds(Cipher c)
{
    return c == Cipher::cham64_128 ? 88 : c == Cipher::cham128_128 ? 112 : 120;
}

int cham_original_rounds(Cipher c) { return c == Cipher::cham128_256 ? 96 : 80; }

void cham_key_schedule(Cipher c, const uint8_t *key, ChamRoundKeys *out, int rounds)
{
    const CipherDesc &d = cipher_desc(c);
    out->cipher = c;
    out->block_bytes = (int)d.block_bytes;
    out->word_bits = d.block_bytes == 8 ? 16 : 32;
    out->rounds = rounds;
    int key_words = (int)d.key_bytes * 8 / out->word_bits;
    out->nrk = 2 * key_words;
    if (out->word_bits == 16)
        schedule<uint16_t>(key, key_words, out);
    else
        schedule<uint32_t>(key, key_words, out);
}

void cham_set_rounds_for_test(void *state, int rounds)
{
    static_cast<ChamRoundKeys *>(state)->rounds = rounds;
}

} // namespace kc
