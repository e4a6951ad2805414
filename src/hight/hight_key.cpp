// HIGHT key schedule (TTAS.KO-12.0040/R1, key schedule: whitening-key generation and subkey
// generation), as the standard states it.
//
// Constant-time: byte copies and additions mod 2^8. The constants δ_i come from a table
// built at compile time from the standard's LFSR and are read at index 16i+j, a function of
// the loop counters only, so no address depends on the key.
#include "hight/hight.hpp"

#include <array>

namespace kc {

namespace {

// δ_0..δ_127 from the LFSR of the standard: bits s_0..s_6 = 0,1,0,1,1,0,1 (δ_0 = 0x5a), then
// s_{i+6} = s_{i+2} XOR s_{i-1}, and δ_i = (s_{i+6} ... s_i) read as a 7-bit number. In terms
// of δ: δ_{i+1} = δ_i >> 1 with bit 6 set to s_{i+7} = s_{i+3} XOR s_i, that is, to
// bit 3 XOR bit 0 of δ_i.
constexpr std::array<uint8_t, 128> make_delta()
{
    std::array<uint8_t, 128> d{};
    uint8_t s = 0x5a;
    for (int i = 0; i < 128; i++) {
        d[i] = s;
        uint8_t bit6 = (uint8_t)(((s >> 3) ^ s) & 1);
        s = (uint8_t)((s >> 1) | (bit6 << 6));
    }
    return d;
}

constexpr std::array<uint8_t, 128> delta = make_delta();
// First row of the standard's table (5a 6d 36 1b 0d 06 03 41 ...); the LFSR has period 127.
static_assert(delta[1] == 0x6d && delta[7] == 0x41 && delta[15] == 0x2c && delta[127] == 0x5a,
              "HIGHT δ constants");

} // namespace

void hight_key_schedule(const uint8_t *mk, HightRoundKeys *out)
{
    // Whitening keys: WK_i = MK_{i+12} for i = 0..3, WK_i = MK_{i-4} for i = 4..7.
    for (int i = 0; i < 4; i++) {
        out->wk[i] = mk[i + 12];
        out->wk[i + 4] = mk[i];
    }
    // Subkeys, for i, j = 0..7:
    //   SK_{16i+j}   = MK_{(j-i) mod 8}     + δ_{16i+j}
    //   SK_{16i+j+8} = MK_{((j-i) mod 8)+8} + δ_{16i+j+8}
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            int m = (j - i) & 7;
            out->sk[16 * i + j] = (uint8_t)(mk[m] + delta[16 * i + j]);
            out->sk[16 * i + j + 8] = (uint8_t)(mk[m + 8] + delta[16 * i + j + 8]);
        }
    }
}

} // namespace kc
