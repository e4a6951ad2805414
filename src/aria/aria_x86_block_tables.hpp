// Byte tables of ARIA on one block in one xmm register: the diffusion layer as seven
// shuffles, the ShiftRows-cancelling orders of aesenclast/aesdeclast and the nibble tables of
// the affine maps G and H. Data only (no functions), so that every file may include it inside
// its own target region: aria_x86_diffusion.cpp (the key schedules), aria/aesni-block and the
// GFNI one-block kernels (aria_x86_gfni_block.hpp).
#pragma once

#include <cstdint>

namespace kc {
namespace aria_block {

// The diffusion layer A (RFC 5794 section 2.3.3) as seven byte shuffles: each output byte is
// the XOR of seven input bytes, and each input byte feeds seven outputs, so the 0/1 matrix of
// A is the sum of seven permutation matrices (a 7-regular bipartite graph splits into seven
// perfect matchings). Row k is permutation k: out[i] ^= in[perm[k][i]]. The tests compare it
// with the byte-by-byte aria_diffusion on every unit vector (A is linear).
alignas(16) inline constexpr uint8_t perm[7][16] = {
    {8, 7, 4, 11, 14, 10, 9, 13, 15, 6, 3, 2, 12, 0, 5, 1},
    {14, 12, 10, 7, 15, 1, 0, 11, 4, 5, 13, 9, 6, 8, 3, 2},
    {3, 5, 11, 10, 0, 15, 7, 1, 13, 14, 8, 12, 2, 6, 9, 4},
    {13, 9, 1, 0, 8, 14, 2, 6, 7, 12, 15, 3, 11, 10, 4, 5},
    {6, 2, 15, 13, 11, 9, 10, 12, 1, 0, 5, 4, 7, 3, 14, 8},
    {4, 15, 12, 5, 2, 3, 13, 8, 0, 1, 6, 14, 9, 7, 11, 10},
    {9, 8, 6, 14, 5, 4, 12, 3, 10, 11, 2, 7, 1, 13, 0, 15},
};

// aesenclast reads byte sr[i] into byte i (ShiftRows, sr = 0 5 10 15 4 9 14 3 ...): shuffled by
// sr^-1 first, each byte comes back to its place; aesdeclast the other way round.
alignas(16) inline constexpr uint8_t enc_order[16] = {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3};
alignas(16) inline constexpr uint8_t dec_order[16] = {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11};

// G (SB2 = G o SB1) and H (SB4 = SB1^-1 o H) at the low and the high nibble, G's and H's
// constants folded into the low tables: aria_x86_byteslice.hpp's g_lo, g_hi, h_lo, h_hi.
alignas(16) inline constexpr uint8_t g_lo[16] = {0x88, 0x0d, 0x37, 0xb2, 0x00, 0x85, 0xbf, 0x3a,
                                                 0xa8, 0x2d, 0x17, 0x92, 0x20, 0xa5, 0x9f, 0x1a};
alignas(16) inline constexpr uint8_t g_hi[16] = {0x00, 0x3e, 0xd4, 0xea, 0x84, 0xba, 0x50, 0x6e,
                                                 0xcd, 0xf3, 0x19, 0x27, 0x49, 0x77, 0x9d, 0xa3};
alignas(16) inline constexpr uint8_t h_lo[16] = {0x04, 0x45, 0xee, 0xaf, 0x17, 0x56, 0xfd, 0xbc,
                                                 0x53, 0x12, 0xb9, 0xf8, 0x40, 0x01, 0xaa, 0xeb};
alignas(16) inline constexpr uint8_t h_hi[16] = {0x00, 0xb6, 0x08, 0xbe, 0xd6, 0x60, 0xde, 0x68,
                                                 0x53, 0xe5, 0x5b, 0xed, 0x85, 0x33, 0x8d, 0x3b};

} // namespace aria_block
} // namespace kc
