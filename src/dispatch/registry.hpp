// The registry and dispatch: every cipher family's module (kit/module.hpp), which of the
// kernels, key searchers and accelerations they offer this machine can run, and which to use.
// The only code that reads the machine's features (dispatch/features.hpp) and chooses.
#pragma once

#include <string_view>
#include <vector>

#include "core/kernel.hpp"
#include "dispatch/features.hpp"
#include "kit/ghash/ghash.hpp"
#include "kit/module.hpp"
#include "kcipher/kcipher.h"

namespace kc {

const std::vector<const CipherModule *> &modules(); // enables the runnable FamilyOptions once
const CipherModule *module_of(Cipher c);           // nullptr for a cipher no module offers
bool runnable(uint32_t requires);                   // the machine has every feature in the mask

const std::vector<const Kernel *> &all_kernels();
const Kernel *find_kernel(std::string_view name); // nullptr when unknown
bool kernel_runnable(const Kernel &k);            // the machine has every feature it requires
const Kernel *reference_kernel(Cipher c);         // the oracle: "<family>/ref"

// Picks the kernel for cipher c: `forced` when not empty, else KCIPHER_KERNEL's entry for
// this family, else the highest-ranked runnable kernel. Explains refusals by status.
kcipher_status select_kernel(Cipher c, std::string_view forced, const Kernel **out);

// The highest-ranked runnable CPU kernel, and GPU kernel (nullptr when there is none). GPU
// kernels are ranked among themselves by `rank` (all below 0, so never chosen by default).
const Kernel *best_cpu_kernel(Cipher c);
const Kernel *best_gpu_kernel(Cipher c);

// The kernel that the chains of single blocks (CMAC, CCM's CBC-MAC) run on for a context whose
// CPU kernel is k: the first of c's module's chain_kernels (kit/module.hpp) that this machine
// runs, that supports c, and that is constant-time where k is; k itself where none is. Never
// a GPU kernel.
const Kernel &chain_kernel(Cipher c, const Kernel &k);

// What kernel k's family offers the chains for it (kit/chain_accel.hpp), where this machine runs
// it; nullptr otherwise (the chains then call the block interface a block at a time).
const ChainAccel *chain_accel_for(const Kernel &k);

// Every CPU key searcher built for this architecture, by module, fastest first within one;
// and the first for kernel k and cipher c that this machine runs, or nullptr.
const std::vector<const keysearch::CpuSearcher *> &all_cpu_searchers();
const keysearch::CpuSearcher *cpu_searcher_for(Cipher c, const Kernel &k);

// The family's GPU key search, or nullptr where it has none (the search must refuse).
keysearch::cuda::GpuSearchFn gpu_search_for(Cipher c);

// Every CTR_DRBG chain block function for c that this machine runs, the fastest first; and
// the one the DRBG uses (the first), chosen once per process, or nullptr where there is none.
std::vector<FusedEcb> fused_ecb_candidates(Cipher c);
FusedEcb drbg_fused_ecb(Cipher c);

// What kernel k's family offers CTR_DRBG for it (kit/drbg_accel.hpp), where this machine runs
// it; nullptr otherwise (the DRBG then uses the block interface alone).
const DrbgAccel *drbg_accel_for(const Kernel &k);

// What kernel k's family offers XTS for it (kit/xts/xts_accel.hpp), where this machine runs it;
// nullptr otherwise (XTS then whitens in passes around the block interface).
const XtsAccel *xts_accel_for(const Kernel &k);

// Every GHASH implementation built for this architecture (kit/ghash/ghash.hpp), and the
// highest-ranked one this machine runs, which GCM and GMAC use (chosen once per process;
// KCIPHER_CPU_FEATURES applies: -pclmul selects ghash/portable).
const std::vector<const GhashKernel *> &all_ghash_kernels();
const GhashKernel &ghash_kernel();

} // namespace kc
