// HIGHT's key-schedule constants and subkey sources (TTAS.KO-12.0040/R1), shared by the host
// key schedule (hight_key.cpp) and the GPU key search, which derives every candidate's
// subkeys on the fly (hight_cuda_keysearch.cuh). Everything here is a constant expression,
// so device code reads it as immediates.
#pragma once

#include <array>
#include <cstdint>

namespace kc::hight_key {

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

inline constexpr std::array<uint8_t, 128> delta = make_delta();
// First row of the standard's table (5a 6d 36 1b 0d 06 03 41 ...); the LFSR has period 127.
static_assert(delta[1] == 0x6d && delta[7] == 0x41 && delta[15] == 0x2c && delta[127] == 0x5a,
              "HIGHT δ constants");

// Subkey n = 16i + j (i, j = 0..7) and n + 8: SK_{16i+j} = MK_{(j-i) mod 8} + δ_{16i+j},
// SK_{16i+j+8} = MK_{((j-i) mod 8)+8} + δ_{16i+j+8}. The master-key byte subkey n adds δ_n to:
constexpr int subkey_source(int n)
{
    const int i = n / 16, j = n % 16;
    return j < 8 ? ((j - i) & 7) : ((j - 8 - i) & 7) + 8;
}

// Whitening keys: WK_i = MK_{i+12} for i = 0..3, WK_i = MK_{i-4} for i = 4..7.
constexpr int whitening_source(int i) { return i < 4 ? i + 12 : i - 4; }

} // namespace kc::hight_key
