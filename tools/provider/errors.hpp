// Taking the core's error functions once, at provider init.
#pragma once

#include "provider.hpp"

namespace kcprov {
void take_core_error_functions(const OSSL_DISPATCH *in);
}
