// HIGHT's F0 and F1 as GF2P8AFFINEQB matrices, for every x86 kernel that computes them with
// GFNI (the byte-sliced kernel, its key search, the DRBG chain's fused function). Plain
// constant expressions: no intrinsics, so any file can include it.
#pragma once

#include <cstdint>

namespace kc::hight_gf {

// The matrix of x -> ROL_a(x) ^ ROL_b(x) ^ ROL_c(x): byte 7-i of the matrix is the row that
// gives result bit i, and ROL_k takes result bit i from input bit i-k (mod 8).
constexpr uint64_t rotations_matrix(int a, int b, int c)
{
    uint64_t m = 0;
    for (int i = 0; i < 8; i++) {
        unsigned row = (1u << ((i - a) & 7)) ^ (1u << ((i - b) & 7)) ^ (1u << ((i - c) & 7));
        m |= (uint64_t)row << (8 * (7 - i));
    }
    return m;
}

constexpr uint64_t f0_matrix = rotations_matrix(1, 2, 7); // F0 = ROL1 ^ ROL2 ^ ROL7
constexpr uint64_t f1_matrix = rotations_matrix(3, 4, 6); // F1 = ROL3 ^ ROL4 ^ ROL6

} // namespace kc::hight_gf
