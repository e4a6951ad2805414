// The slot a family fills to offer a CPU multi-key searcher: one candidate key per SIMD lane,
// each lane's round keys derived on the fly from its key by the cipher's own key-schedule
// steps (lea_key_step.hpp, cham_key_step.hpp, hight_key_step.hpp, aria.hpp), as the GPU
// search does. The SIMD kernels are sliced across the blocks of ONE key, so a key search
// through them pays a whole key layout for one block; searchers test 8 to 64 keys per
// instruction instead (aria/table's, the portable fallback, one key at a time with an
// encryption-only schedule).
//
// Each searcher is the key-search form of one kernel's technique and instruction set, and is
// named after that kernel (`kernel`): the key search (src/keysearch/cpu_search.cpp) runs a
// searcher whenever it is asked to run that kernel and the registry finds the searcher
// runnable (dispatch/registry.hpp, cpu_searcher_for), and the kernel's per-key path
// otherwise. A family lists its searchers in its module (src/<family>/<family>_module.cpp);
// the lane walk (groups of consecutive candidates) is lane_groups.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "kit/search/problem.hpp"

namespace kc::keysearch {

struct CpuSearcher {
    const char *name;   // "lea/avx512-keysearch"
    const char *kernel; // the kernel whose technique it uses: "lea/avx512"
    const char *family; // "lea": the ciphers it searches are cipher_desc(c).family's
    uint32_t requires;  // Feature bits (core/features.hpp)
    // Tests candidates [first, first + count) of p against pairs[0] and appends the indices
    // whose whole block matches, in order. Any first and count (unaligned ranges are fine).
    void (*search)(const Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits);
};

} // namespace kc::keysearch
