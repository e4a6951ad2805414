// The kernel registry and dispatch: every kernel kcipher has, which of them this machine
// can run, and which one to use for a cipher.
#pragma once

#include <string_view>
#include <vector>

#include "core/kernel.hpp"
#include "kcipher/kcipher.h"

namespace kc {

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

} // namespace kc
