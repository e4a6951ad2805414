// Without CUDA there is no GPU search; callers report KCIPHER_ERR_NO_GPU.
#include "keysearch/search_gpu.hpp"

namespace kc::keysearch {

kcipher_status gpu_search_first_pair(const Problem &, uint64_t, uint64_t, int,
                                     std::vector<uint64_t> &)
{
    return KCIPHER_ERR_NO_GPU;
}

kcipher_status gpu_search_first_pair(const Problem &, uint64_t, uint64_t, int, std::vector<uint64_t> &,
                                     const GpuSearchShape &)
{
    return KCIPHER_ERR_NO_GPU;
}

} // namespace kc::keysearch
