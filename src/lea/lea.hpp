// LEA (TTAK.KO-12.0223 / KS X 3246 / ISO/IEC 29192-2:2019): the round keys every LEA kernel
// starts from, and the reference block functions.
//
// One key schedule serves every LEA kernel (DESIGN.md: "one key schedule per cipher"): SIMD
// and GPU kernels derive their own layout (broadcast, transposed, constant memory) from a
// LeaRoundKeys, never from the raw key.
//
// Byte order: LEA reads a 16-byte block as four little-endian 32-bit words P[0..3] and a key
// as 4/6/8 little-endian words K[0..]; the test-vector files are all byte arrays in that sense.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cipher.hpp"

namespace kc {

constexpr int lea_max_rounds = 32;

// RK_i = (RK_i[0], ..., RK_i[5]) for rounds i < rounds; rounds = 24, 28 or 32 for 128-, 192- and
// 256-bit keys. LEA-128 repeats T1 three times in each RK_i; it is stored expanded so that
// every kernel runs the same round function for all key sizes.
struct LeaRoundKeys {
    uint32_t rk[lea_max_rounds][6];
    int rounds;
};

// c is lea128, lea192 or lea256; key holds cipher_desc(c).key_bytes bytes.
void lea_key_schedule(Cipher c, const uint8_t *key, LeaRoundKeys *out);

// One 16-byte block; in == out is allowed.
void lea_encrypt_block(const LeaRoundKeys &rk, const uint8_t *in, uint8_t *out);
void lea_decrypt_block(const LeaRoundKeys &rk, const uint8_t *in, uint8_t *out);

// ECB of nblocks blocks with the key schedule fused into the rounds, no key state: the
// CTR_DRBG chain's Update blocks (lea_fused.cpp, src/kit/fused_ecb.hpp).
void lea_fused_ecb(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks);

} // namespace kc
