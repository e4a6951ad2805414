// HIGHT key schedule (TTAS.KO-12.0040/R1, key schedule: whitening-key generation and subkey
// generation): the standard's formulas, computed eight subkeys at a time.
//
// Constant-time: byte copies, fixed rotations and additions mod 2^8. The constants δ_i come
// from a table built at compile time from the standard's LFSR and are read at indexes that
// depend on the loop counters only, so no address depends on the key.
#include <array>

#include "core/wipe.hpp"
#include "hight/hight.hpp"
#include "hight/hight_key_step.hpp"

namespace kc {

namespace {

uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

void store_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

// δ as little-endian 64-bit words, δ_{8w} in the low byte of word w: built at compile time, so
// the additions below take their constants as immediates.
constexpr std::array<uint64_t, 16> make_delta_words()
{
    std::array<uint64_t, 16> d{};
    for (int w = 0; w < 16; w++)
        for (int b = 7; b >= 0; b--)
            d[w] = d[w] << 8 | hight_key::delta[8 * w + b];
    return d;
}

constexpr std::array<uint64_t, 16> delta_words = make_delta_words();

// Eight additions mod 2^8 at once: the low seven bits of each byte add without reaching the
// next byte, and the top bit is the XOR of the two top bits and the carry into it.
uint64_t add_bytes(uint64_t a, uint64_t b)
{
    const uint64_t top = 0x8080808080808080u;
    return ((a & ~top) + (b & ~top)) ^ ((a ^ b) & top);
}

} // namespace

// Row i of the subkeys (SK_{16i} .. SK_{16i+15}) is each half of MK rotated by i bytes
// (SK_{16i+j} = MK_{(j-i) mod 8} + δ_{16i+j}, hight_key_step.hpp), plus δ: in 64-bit words,
// one rotation and one bytewise addition per half. The key schedule runs on every CTR_DRBG
// request (one rekey each), where the byte-by-byte form cost five times as much.
void hight_key_schedule(const uint8_t *mk, HightRoundKeys *out)
{
    for (int i = 0; i < 8; i++)
        out->wk[i] = mk[hight_key::whitening_source(i)];
    uint64_t half[2] = {load_le64(mk), load_le64(mk + 8)};
    for (int i = 0; i < 8; i++) {
        for (int h = 0; h < 2; h++) {
            // Byte j of the little-endian word is MK_{8h + j}; rotating left by i bytes puts
            // MK_{8h + (j-i) mod 8} there.
            const uint64_t row = i == 0 ? half[h] : half[h] << (8 * i) | half[h] >> (64 - 8 * i);
            store_le64(out->sk + 16 * i + 8 * h, add_bytes(row, delta_words[2 * i + h]));
        }
    }
    secure_wipe(half, sizeof half);
}

} // namespace kc
