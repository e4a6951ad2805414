// ARIA (RFC 5794) pieces that every ARIA kernel shares, whatever its technique: the key
// schedule (section 2.2.1), the four S-boxes (section 2.3.2) and the byte-level round
// functions of the reference (section 2.3), which the key schedule itself needs.
//
// Kernels derive their own round-key layout (words, byte-sliced, device constant memory) from
// AriaRoundKeys in their set_key; nothing else computes ARIA round keys.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cipher.hpp"

namespace kc {

constexpr int aria_max_rounds = 16;

// Round keys numbered as the RFC numbers them, from 0: ek[0] is ek1, ek[rounds] is ek(n+1).
// Entries past ek[rounds] and dk[rounds] stay zero.
struct AriaRoundKeys {
    int rounds;                          // 12, 14 or 16 for 128-, 192- and 256-bit keys
    uint8_t ek[aria_max_rounds + 1][16]; // encryption round keys
    uint8_t dk[aria_max_rounds + 1][16]; // decryption round keys
};

// Number of rounds n for an ARIA cipher (RFC 5794 section 2.2).
int aria_rounds(Cipher c);

// Section 2.2.1, shared by the key schedule below and the GPU key search, which derives
// round keys on the fly (aria_cuda_keysearch.cu):
//   - the constants C1, C2, C3; CK1, CK2, CK3 are C(first), C(first+1), C(first+2) mod 3;
//   - ek(k+1) = W(k mod 4) ^ (W((k+1) mod 4) >>> aria_ek_rotation(k / 4)).
extern const uint8_t aria_key_constants[3][16];
int aria_first_constant(Cipher c);
#ifdef __CUDACC__
__host__ __device__
#endif
constexpr unsigned aria_ek_rotation(int group)
{
    return group == 0 ? 19 : group == 1 ? 31 : group == 2 ? 128 - 61 : group == 3 ? 128 - 31 : 128 - 19;
}

// RFC 5794 section 2.2.1: encryption and decryption round keys from the master key, whose
// length is cipher_desc(c).key_bytes. c must be aria128, aria192 or aria256.
void aria_key_schedule(Cipher c, const uint8_t *key, AriaRoundKeys *rk);
// The encryption keys only (dk left zero): for layouts that never decrypt.
void aria_encryption_key_schedule(Cipher c, const uint8_t *key, AriaRoundKeys *rk);

// The key schedule's substitution layer (layer 1 or 2) with GFNI, in aria_x86_key_gfni.cpp
// (x86 only); aria_key_schedule uses it once the registry has enabled it (the ARIA module's
// option, where the machine has GFNI), else it scans the tables.
void aria_key_layer_gfni(const uint8_t in[16], int layer, uint8_t out[16]);
// aria_diffusion as seven SSSE3 byte shuffles, in the same file; the key schedule uses it
// where it uses the GFNI layer (every GFNI CPU has SSSE3). out may equal in.
void aria_diffusion_ssse3(const uint8_t in[16], uint8_t out[16]);
// The valgrind constant-time check turns the GFNI layer off (valgrind cannot run GFNI), so
// that it checks the scanning layer. Default: allowed.
void aria_key_schedule_allow_gfni(bool allow);
// Called by the registry (the module's option) where the machine runs GFNI and SSSE3.
void aria_key_schedule_enable_gfni();
// Whether aria_key_schedule takes the GFNI path now (enabled and allowed).
bool aria_key_schedule_uses_gfni();

// The S-boxes (RFC 5794 section 2.3.2), defined in aria_sbox.cpp. SB3 = SB1^-1, SB4 = SB2^-1.
extern const uint8_t aria_sb1[256], aria_sb2[256], aria_sb3[256], aria_sb4[256];

// RFC 5794 section 2.3, byte by byte, defined in aria_ref.cpp. out may equal any input.
void aria_diffusion(const uint8_t x[16], uint8_t y[16]);                  // A (2.3.3)
void aria_fo(const uint8_t d[16], const uint8_t rk[16], uint8_t out[16]); // FO (2.3.1)
void aria_fe(const uint8_t d[16], const uint8_t rk[16], uint8_t out[16]); // FE (2.3.1)

// ECB of nblocks blocks with the key schedule in registers, no key state, with GFNI and
// AVX-512VL (x86 only): the CTR_DRBG chain's Update blocks (aria_x86_fused_gfni.cpp,
// src/kit/fused_ecb.hpp).
void aria_fused_ecb_gfni(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks);

} // namespace kc
