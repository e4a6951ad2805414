// What the modes need of a keyed context: the kernel, its round keys, the cipher's real
// block size (a kernel such as cham/ref serves two block sizes), the thread budget and, for a
// chain kernel, its loops.
#pragma once

#include <cstddef>

#include "core/kernel.hpp"

namespace kc {

struct ChainAccel;

struct Keyed {
    const Kernel *kernel;
    const void *keys;
    size_t block_bytes;
    unsigned threads; // 0 = one per core
    // The chain kernel's loops (kit/chain_accel.hpp), where this is a chain kernel that has
    // them; nullptr: the chains call the block interface a block at a time.
    const ChainAccel *chain = nullptr;
};

} // namespace kc
