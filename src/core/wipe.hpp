// Wiping key material: a store the compiler may not remove as dead.
#pragma once

#include <cstddef>

namespace kc {

void secure_wipe(void *p, size_t n);

} // namespace kc
