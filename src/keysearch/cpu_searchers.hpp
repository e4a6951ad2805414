// The CPU multi-key searchers: one candidate key per SIMD lane, each lane's round keys
// derived on the fly from its key by the cipher's own key-schedule steps (lea_key_step.hpp,
// cham_key_step.hpp, hight_key_step.hpp, aria.hpp), as the GPU search does. The SIMD kernels
// of the registry are sliced across the blocks of ONE key, so a key search through them
// pays a whole key layout for one block; these test 8 to 64 keys per instruction instead
// (aria/table's, the portable fallback, one key at a time with an encryption-only schedule).
//
// Each searcher is the key-search form of one kernel's technique and instruction set, and is
// named after that kernel (`kernel`): cpu_search.cpp runs a searcher whenever the search is
// asked to run that kernel (the search's own pick measures every runnable kernel this way,
// so a searcher's kernel wins), and the kernel's per-key path otherwise, or where the machine
// lacks the searcher's features. One file per family and instruction set:
// src/<family>/<family>_x86_keysearch_<isa>.cpp (x86-64 only, like every *_x86_* file), the
// shared code of a family's widths in <family>_x86_keysearch.inc; aria_table_keysearch.cpp
// builds everywhere. The lane walk (groups of consecutive candidates) is lane_groups.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "core/cipher.hpp"
#include "core/kernel.hpp"
#include "keysearch/problem.hpp"

namespace kc::keysearch {

struct CpuSearcher {
    const char *name;   // "lea/avx512-keysearch"
    const char *kernel; // the kernel whose technique it uses: "lea/avx512"
    const char *family; // "lea": the ciphers it searches are cipher_desc(c).family's
    uint32_t requires;  // Feature bits (dispatch/features.hpp)
    // Tests candidates [first, first + count) of p against pairs[0] and appends the indices
    // whose whole block matches, in order. Any first and count (unaligned ranges are fine).
    void (*search)(const Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits);
};

// Every searcher built for this architecture, fastest first within a family.
const std::vector<const CpuSearcher *> &cpu_searchers();

// The first searcher for kernel k and cipher c that this machine runs, or nullptr.
const CpuSearcher *cpu_searcher_for(Cipher c, const Kernel &k);

// Defined by the per-family files (the *_x86_* ones in x86-64 builds only).
extern const CpuSearcher lea_x86_keysearch_avx512;
extern const CpuSearcher lea_x86_keysearch_avx2;
extern const CpuSearcher cham_x86_keysearch_avx512;
extern const CpuSearcher cham_x86_keysearch_avx2;
extern const CpuSearcher hight_x86_keysearch_avx512_gfni;
extern const CpuSearcher hight_x86_keysearch_avx2;
extern const CpuSearcher aria_x86_keysearch_avx512_gfni;
extern const CpuSearcher aria_table_keysearch; // portable (not constant-time)

} // namespace kc::keysearch
