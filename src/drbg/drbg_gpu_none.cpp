// Builds without CUDA: a GPU kernel given to kcipher_drbg_new serves single requests
// on the CPU and refuses large outputs with a clear status instead of silently using the CPU.
#include "drbg/drbg_gpu.hpp"

namespace kc::drbg {

kcipher_status run_segments_gpu(const Kernel &, Cipher, const Segment *, size_t, size_t, uint8_t *, int)
{
    return KCIPHER_ERR_NO_GPU;
}

} // namespace kc::drbg
