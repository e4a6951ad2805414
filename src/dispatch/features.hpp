// What the machine can run, detected once at run time (CPUID and XGETBV on x86-64,
// getauxval on aarch64, the CUDA runtime for GPUs), less what the user removes with the
// environment variable KCIPHER_CPU_FEATURES (like OpenSSL's OPENSSL_ia32cap and libgcrypt's
// --disable-hwf). Kernels name what they require as a mask of these bits; dispatch never
// picks one the machine lacks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/features.hpp"

namespace kc {

uint32_t machine_features();               // detected, less the mask; computed once, cached
uint32_t machine_cpu_features();           // the same without asking the CUDA runtime (no feat_cuda_gpu)
uint32_t detected_features();              // detected, before the mask
std::string feature_names(uint32_t mask);  // "avx2 gfni", in a fixed order

// KCIPHER_CPU_FEATURES="-avx512f,-gfni": a comma- or space-separated list of `-name`
// entries, names as feature_names prints them, or `-all` for every CPU feature. Parses
// `spec` into the bits it removes; false (and *error says why) for anything else.
bool parse_feature_mask(std::string_view spec, uint32_t *removed, std::string *error);

// `have` less `removed` and less every feature that needs a removed one (AVX2 needs AVX,
// the AVX-512 extensions need AVX512F, ...): removing AVX removes AVX2, VAES and AVX-512,
// as no CPU has those without it and kernels that use them use AVX too.
uint32_t remove_features(uint32_t have, uint32_t removed);

// The environment's mask: empty when KCIPHER_CPU_FEATURES is unset or valid, else why it
// cannot be used. While it is invalid machine_features() keeps no optional CPU feature (the
// user asked to remove something; nothing unasked-for runs) and dispatch refuses to choose
// (KCIPHER_ERR_CPU_FEATURES), so that a typo is an error, not ignored.
const std::string &feature_mask_error();

} // namespace kc
