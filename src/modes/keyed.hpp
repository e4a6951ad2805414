// What the modes need of a keyed context: the kernel, its round keys, the cipher's real
// block size (a kernel such as cham/ref serves two block sizes) and the thread budget.
#pragma once

#include <cstddef>

#include "core/kernel.hpp"

namespace kc {

struct Keyed {
    const Kernel *kernel;
    const void *keys;
    size_t block_bytes;
    unsigned threads; // 0 = one per core
};

} // namespace kc
