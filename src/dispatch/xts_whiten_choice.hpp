// Which XTS whitening implementation runs (kit/xts/xts_whiten.hpp): chosen once, as the
// GHASH implementation is, from the features the machine has.
#pragma once

#include <vector>

#include "kit/xts/xts_whiten.hpp"

namespace kc {

const std::vector<const XtsWhitenKernel *> &all_xts_whiten_kernels();
const XtsWhitenKernel &xts_whiten_kernel(); // the highest-ranked runnable one

} // namespace kc
