// The chain's own block function (chain.cpp): the family's fused ECB (kit/fused_ecb.hpp says
// why the chain wants one), as the registry chooses it for this machine.
//
// Measured per request on the development VM (Zen 4; `kcipher bench --drbg`, chain column):
// docs/performance.md, "The chain's own block function".
#pragma once

#include "core/cipher.hpp"
#include "kit/fused_ecb.hpp"

namespace kc::drbg {

using kc::FusedEcb;

// The fused function for c on this machine (the registry's first runnable candidate);
// nullptr where there is none (then the chain uses the DRBG's kernel), or where
// KCIPHER_DRBG_CHAIN=kernel asks for the kernel (comparisons). Every candidate is
// kc::fused_ecb_candidates (dispatch/registry.hpp): the tests check them all, and
// bench/tools/drbg_fused_timing.cpp times them. LEA has only its scalar form: one with the
// blocks in AVX-512 lanes and the round keys broadcast from a table ran slower on both
// machines (Zen 4: 105-166 against 67-131 ns; the H100 host's Xeon: 175-311 against 113-327).
FusedEcb fused_ecb_for(Cipher c);

} // namespace kc::drbg
