// SEED-128 (RFC 4269; KISA TTAS.KO-12.0004/R1): the S-boxes and constants every SEED kernel
// starts from, the one key schedule, and the reference block functions.
//
// One key schedule serves every SEED kernel (DESIGN.md: "one key schedule per cipher"): SIMD
// and GPU kernels derive their own layout from a SeedRoundKeys, never from the raw key.
//
// Byte order: SEED reads a 16-byte block as four big-endian 32-bit words (L0 = bytes 0..7 as
// two words, R0 = bytes 8..15) and the key likewise as Key0..Key3; the KCMVP and RFC vectors
// are byte arrays in that sense.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/cipher.hpp"
#include "kit/gf256.hpp"

namespace kc {

namespace seed_spec {

// GF(2^8) of the S-boxes: polynomials over GF(2) modulo x^8 + x^6 + x^5 + x + 1 (RFC 4269,
// Appendix A; the S-box design in the KISA specification).
constexpr unsigned field_poly = 0x163;

constexpr uint8_t gf_mul(uint8_t a, uint8_t b) { return gf256::mul(a, b, field_poly); }
constexpr uint8_t gf_pow(uint8_t a, unsigned e) { return gf256::pow(a, e, field_poly); }

// An 8x8 matrix over GF(2) given by its columns: column j is the image of the basis bit 1<<j.
constexpr uint8_t mat_apply(const std::array<uint8_t, 8> &cols, uint8_t v)
{
    uint8_t r = 0;
    for (int j = 0; j < 8; j++)
        if ((v >> j) & 1)
            r ^= cols[j];
    return r;
}

// S1(x) = A1 . x^247 XOR 169 and S2(x) = A2 . x^251 XOR 56. The matrices A(1), A(2) are
// written here by their columns. They were recovered from eight entries each of RFC 4269's
// SS0 and SS1 tables (x -> x^e is a bijection here, gcd(247, 255) = gcd(251, 255) = 1, so
// the eight inputs whose powers are the basis bits fix the matrix), and the tables these
// definitions generate were then compared with all 256 entries of SS0 and SS1: they agree.
// test_seed_kat.cpp checks RFC values of S1, S2 and of the SS tables on every run.
constexpr std::array<uint8_t, 8> a1_cols = {0x2c, 0xd0, 0x69, 0xc2, 0x41, 0x44, 0x58, 0xe2};
constexpr std::array<uint8_t, 8> a2_cols = {0xd0, 0x2a, 0xe1, 0x2c, 0x21, 0x30, 0xa2, 0x6c};
constexpr unsigned s1_exponent = 247, s2_exponent = 251;
constexpr uint8_t s1_constant = 169, s2_constant = 56;

constexpr std::array<uint8_t, 256> make_sbox(const std::array<uint8_t, 8> &cols, unsigned e, uint8_t c)
{
    std::array<uint8_t, 256> s{};
    for (unsigned x = 0; x < 256; x++)
        s[x] = (uint8_t)(mat_apply(cols, gf_pow((uint8_t)x, e)) ^ c); // 0^e = 0: S(0) = c
    return s;
}

constexpr std::array<uint8_t, 256> s1 = make_sbox(a1_cols, s1_exponent, s1_constant);
constexpr std::array<uint8_t, 256> s2 = make_sbox(a2_cols, s2_exponent, s2_constant);

// The masks of the G function (RFC 4269 section 2.2): m0 = 0xfc, m1 = 0xf3, m2 = 0xcf,
// m3 = 0x3f.
constexpr std::array<uint8_t, 4> masks = {0xfc, 0xf3, 0xcf, 0x3f};

// The G function's four tables, SS_j[x] = the word G gives when byte j of its input is x and
// the other bytes contribute nothing (RFC 4269 Appendix A prints them): byte k of SS_j[x] is
// S_j(x) & m_{(j + k) mod 4}, with S_j = S1 for even j and S2 for odd j. G(X) is the XOR of
// SS_j[X_j] over the four bytes X_j of X (X_0 least significant).
constexpr std::array<std::array<uint32_t, 256>, 4> make_ss()
{
    std::array<std::array<uint32_t, 256>, 4> t{};
    for (int j = 0; j < 4; j++)
        for (unsigned x = 0; x < 256; x++) {
            const uint8_t s = (j % 2 == 0) ? s1[x] : s2[x];
            uint32_t w = 0;
            for (int k = 0; k < 4; k++)
                w |= (uint32_t)(s & masks[(j + k) % 4]) << (8 * k);
            t[j][x] = w;
        }
    return t;
}

constexpr std::array<std::array<uint32_t, 256>, 4> ss = make_ss();

// Key-schedule constants (RFC 4269 section 2.3): KC_1 = 0x9e3779b9 (the golden ratio's
// fraction), KC_{i+1} = KC_i <<< 1. kc[i] is KC_{i+1}.
constexpr std::array<uint32_t, 16> make_kc()
{
    std::array<uint32_t, 16> k{};
    uint32_t v = 0x9e3779b9u;
    for (int i = 0; i < 16; i++) {
        k[i] = v;
        v = (v << 1) | (v >> 31);
    }
    return k;
}

constexpr std::array<uint32_t, 16> kc = make_kc();

} // namespace seed_spec

constexpr int seed_rounds = 16;

// K_i = (K_{i,0}, K_{i,1}) for rounds i = 1..16, stored as k[i - 1][0..1].
struct SeedRoundKeys {
    uint32_t k[seed_rounds][2];
};

// Every SEED kernel's Kernel::supports.
inline bool seed_supports(Cipher c) { return c == Cipher::seed128; }

// c is seed128; key holds 16 bytes.
void seed_key_schedule(Cipher c, const uint8_t *key, SeedRoundKeys *out);

// One 16-byte block; in == out is allowed.
void seed_encrypt_block(const SeedRoundKeys &rk, const uint8_t *in, uint8_t *out);
void seed_decrypt_block(const SeedRoundKeys &rk, const uint8_t *in, uint8_t *out);

} // namespace kc
