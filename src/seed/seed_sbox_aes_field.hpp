// SEED's S-boxes through the AES field, for kernels that compute them with GFNI or the AES
// instructions instead of tables (constant-time).
//
// S1(x) = A1 . x^247 ^ 169 in SEED's field GF(2^8)/(x^8+x^6+x^5+x+1). x^247 = (x^-1)^8, and
// raising to the 8th power is linear over GF(2), so S1 is an affine map of the inverse in
// SEED's field; likewise S2 (x^251 = (x^-1)^4). A field isomorphism phi into the AES field
// GF(2^8)/(x^8+x^4+x^3+x+1) (x -> beta^x's bits, beta a root there of SEED's polynomial) is
// linear and carries inverses to inverses, so
//     S(x) = L(inv_aes(phi(x))) ^ c,   L linear,
// which is one GF2P8AFFINEQB (phi) and one GF2P8AFFINEINVQB (L, c), or, with AESENCLAST
// (which gives AES's SubBytes = A_aes(inv_aes(.)) ^ 0x63), phi before and L . A_aes^-1 after
// as vpshufb nibble lookups. Everything here is computed at compile time from the field
// definitions and seed_spec's S-boxes, and checked against them by the static_asserts below
// (and by every test of the kernels that use it).
#pragma once

#include <array>
#include <cstdint>

#include "kit/gf256.hpp"
#include "seed/seed.hpp"

namespace kc::seed_aes_field {

constexpr unsigned aes_poly = 0x11b; // x^8 + x^4 + x^3 + x + 1

constexpr uint8_t aes_pow(uint8_t a, unsigned e) { return gf256::pow(a, e, aes_poly); }

constexpr uint8_t aes_inv(uint8_t x) { return aes_pow(x, 254); } // 0 -> 0

constexpr uint8_t rotl8(uint8_t b, int n) { return (uint8_t)((b << n) | (b >> (8 - n))); }

// AES SubBytes (FIPS 197): A_aes(inv(x)) ^ 0x63.
constexpr uint8_t aes_sbox(uint8_t x)
{
    uint8_t v = aes_inv(x);
    return (uint8_t)(v ^ rotl8(v, 1) ^ rotl8(v, 2) ^ rotl8(v, 3) ^ rotl8(v, 4) ^ 0x63);
}

// The smallest root of SEED's polynomial in the AES field.
constexpr uint8_t find_beta()
{
    for (unsigned b = 2; b < 256; b++) {
        uint8_t v = (uint8_t)b;
        if ((aes_pow(v, 8) ^ aes_pow(v, 6) ^ aes_pow(v, 5) ^ v ^ 1) == 0)
            return v;
    }
    return 0;
}

constexpr uint8_t beta = find_beta();

// phi's columns: the image of SEED's basis bit 1<<i is beta^i.
constexpr std::array<uint8_t, 8> phi_cols()
{
    std::array<uint8_t, 8> c{};
    for (int i = 0; i < 8; i++)
        c[i] = aes_pow(beta, (unsigned)i);
    return c;
}

constexpr uint8_t phi(uint8_t x) { return seed_spec::mat_apply(phi_cols(), x); }

// The function f with f(t(x)) = S(x) for all x, where t(x) is the value the instruction
// yields: inv_aes(phi(x)) for GFNI, aes_sbox(phi(x)) for AESENCLAST. t is a bijection, so f
// is a table; it is affine (checked below).
constexpr std::array<uint8_t, 256> after(const std::array<uint8_t, 256> &s, bool through_sbox)
{
    std::array<uint8_t, 256> f{};
    for (unsigned x = 0; x < 256; x++) {
        uint8_t p = phi((uint8_t)x);
        f[through_sbox ? aes_sbox(p) : aes_inv(p)] = s[x];
    }
    return f;
}

constexpr std::array<uint8_t, 8> linear_cols(const std::array<uint8_t, 256> &f)
{
    std::array<uint8_t, 8> c{};
    for (int i = 0; i < 8; i++)
        c[i] = (uint8_t)(f[1u << i] ^ f[0]);
    return c;
}

constexpr bool is_affine(const std::array<uint8_t, 256> &f)
{
    const std::array<uint8_t, 8> c = linear_cols(f);
    for (unsigned y = 0; y < 256; y++)
        if (f[y] != (seed_spec::mat_apply(c, (uint8_t)y) ^ f[0]))
            return false;
    return true;
}

// A linear map as GF2P8AFFINEQB's 64-bit matrix operand: bit i of the result is the parity of
// (byte 7 - i of the operand) & x, so byte 7 - i holds row i.
constexpr uint64_t gfni_matrix(const std::array<uint8_t, 8> &cols)
{
    uint64_t q = 0;
    for (int i = 0; i < 8; i++) {
        unsigned row = 0;
        for (int j = 0; j < 8; j++)
            row |= ((cols[j] >> i) & 1u) << j;
        q |= (uint64_t)row << (8 * (7 - i));
    }
    return q;
}

constexpr std::array<uint8_t, 256> s1_after_inv = after(seed_spec::s1, false);
constexpr std::array<uint8_t, 256> s2_after_inv = after(seed_spec::s2, false);
constexpr std::array<uint8_t, 256> s1_after_sbox = after(seed_spec::s1, true);
constexpr std::array<uint8_t, 256> s2_after_sbox = after(seed_spec::s2, true);
static_assert(is_affine(s1_after_inv) && is_affine(s2_after_inv), "S = L(inv(phi x)) ^ c");
static_assert(is_affine(s1_after_sbox) && is_affine(s2_after_sbox), "S = L'(SubBytes(phi x)) ^ c'");

// GFNI: t = gf2p8affine(x, phi_matrix, 0); S1 = gf2p8affineinv(t, s1_matrix, s1_constant).
constexpr uint64_t phi_matrix = gfni_matrix(phi_cols());
constexpr uint64_t s1_matrix = gfni_matrix(linear_cols(s1_after_inv));
constexpr uint64_t s2_matrix = gfni_matrix(linear_cols(s2_after_inv));
constexpr uint8_t s1_constant = s1_after_inv[0];
constexpr uint8_t s2_constant = s2_after_inv[0];

// vpshufb nibble tables of an affine map f: f(v) = lo[v & 15] ^ hi[v >> 4].
struct NibbleTables {
    std::array<uint8_t, 16> lo, hi;
};

constexpr NibbleTables nibble_tables(const std::array<uint8_t, 256> &f)
{
    NibbleTables t{};
    for (unsigned n = 0; n < 16; n++) {
        t.lo[n] = f[n];
        t.hi[n] = (uint8_t)(f[n << 4] ^ f[0]);
    }
    return t;
}

constexpr std::array<uint8_t, 256> phi_table()
{
    std::array<uint8_t, 256> f{};
    for (unsigned x = 0; x < 256; x++)
        f[x] = phi((uint8_t)x);
    return f;
}

// AES instructions: u = phi(x) by nibble lookups; s = AESENCLAST(ShiftRows^-1(u), 0) =
// SubBytes(u); S1 = f1(s), S2 = f2(s) by nibble lookups.
constexpr NibbleTables phi_nibbles = nibble_tables(phi_table());
constexpr NibbleTables s1_nibbles = nibble_tables(s1_after_sbox);
constexpr NibbleTables s2_nibbles = nibble_tables(s2_after_sbox);

} // namespace kc::seed_aes_field
