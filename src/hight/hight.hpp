// HIGHT (TTAS.KO-12.0040/R1, ISO/IEC 18033-3:2010): the round keys every HIGHT kernel starts
// from, and the reference block functions.
//
// Byte order: the standard numbers key bytes MK_15..MK_0 and block bytes P_7..P_0 and prints
// them most-significant first; kcipher, like KISA's reference code, Crypto++ and the KCMVP
// KAT files, takes byte i of the array as MK_i / P_i / C_i (tests/vectors/README.md, "HIGHT").
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cipher.hpp"

namespace kc {

struct HightRoundKeys {
    uint8_t wk[8];   // whitening keys WK_0..WK_7
    uint8_t sk[128]; // subkeys SK_0..SK_127, four per round
};

// key: 16 bytes MK_0..MK_15.
void hight_key_schedule(const uint8_t *key, HightRoundKeys *out);

// One 8-byte block; in == out is allowed.
void hight_encrypt_block(const HightRoundKeys &rk, const uint8_t *in, uint8_t *out);
void hight_decrypt_block(const HightRoundKeys &rk, const uint8_t *in, uint8_t *out);

// ECB of nblocks blocks straight from the raw key, no key state, with AVX-512VL/BW and GFNI
// (x86 only): the CTR_DRBG chain's Update blocks (hight_x86_fused_gfni.cpp,
// src/kit/fused_ecb.hpp). The Cipher argument is unused (HIGHT has one variant).
void hight_fused_ecb_gfni(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks);

} // namespace kc
