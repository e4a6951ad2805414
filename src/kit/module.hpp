// A cipher family's module: everything the family offers, in one descriptor (libsodium's
// implementation structs, filled by field name). The registry (src/dispatch/registry.cpp)
// holds one line per module and is the only code that reads the machine's features and
// chooses among what the modules offer; the services (modes, CTR_DRBG, key search) ask it.
//
// Adding a cipher family = one folder with its module, and one line in the registry.
#pragma once

#include <cstdint>
#include <vector>

#include "core/kernel.hpp"
#include "kit/chain_accel.hpp"
#include "kit/drbg_accel.hpp"
#include "kit/fused_ecb.hpp"
#include "kit/known_answer.hpp"
#include "kit/search/cpu_searcher.hpp"
#include "kit/search/gpu_searcher.hpp"
#include "kit/xts/xts_accel.hpp"

namespace kc {

// Something a family can switch on for itself where the machine allows (the ARIA key
// schedule's GFNI S-box layers): the registry calls enable() once, when it first lists the
// modules, if the machine has every feature in `requires`.
struct FamilyOption {
    const char *name;
    uint32_t requires;
    void (*enable)();
};

struct CipherModule {
    const char *family = nullptr;                         // "aria": cipher_desc(c).family
    std::vector<const Kernel *> kernels;                  // every kernel built for this target
    std::vector<const keysearch::CpuSearcher *> cpu_searchers; // fastest first
    keysearch::cuda::GpuSearchFn gpu_search = nullptr;    // nullptr: no GPU key search
    std::vector<const DrbgAccel *> drbg_accels;           // CTR_DRBG's extras, at most one per kernel
    std::vector<FusedEcbEntry> fused_ecb;                 // CTR_DRBG chain's block functions, fastest first
    std::vector<const XtsAccel *> xts_accels;             // XTS's whitened ECB, at most one per kernel
    // The kernels with the lowest one-block latency, fastest first (each also in `kernels`):
    // CMAC and CCM's CBC-MAC are chains of single blocks, where a wide kernel pays a whole SIMD
    // step per block. The registry's chain_kernel() picks among them.
    std::vector<const Kernel *> chain_kernels;
    std::vector<const ChainAccel *> chain_accels; // the chains' loops, at most one per chain kernel
    std::vector<FamilyOption> options;
    std::vector<KnownAnswer> known_answers; // from <family>_known_answers.txt, for selftest
};

} // namespace kc
