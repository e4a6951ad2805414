// A copy for large outputs that the CPU will not read back soon: the GPU paths move bytes
// from pinned staging into the caller's buffer, and a plain memcpy first reads every
// destination line it writes (read for ownership). Non-temporal stores skip that read, one
// of four passes over host memory per byte (DMA write, copy read, RFO read, write), which
// is what bounds those paths.
#pragma once

#include <cstddef>

namespace kc {

// As memcpy (no overlap); non-temporal stores where the CPU has them and n is large.
void stream_copy(void *dst, const void *src, size_t n);

} // namespace kc
