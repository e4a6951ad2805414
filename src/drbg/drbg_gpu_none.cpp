// Builds without CUDA: no kernel has GPU entry points, so the API refuses GPU calls before
// they get here (KCIPHER_ERR_NOT_GPU_KERNEL); these answer KCIPHER_ERR_NO_GPU all the same.
#include "drbg/drbg_gpu.hpp"

namespace kc::drbg {

class GpuWorkspace {};

void free_gpu_workspace(GpuWorkspace *ws) { delete ws; }

unsigned gpu_key_threads(unsigned) { return 1; }

std::vector<SecretRegion> gpu_workspace_secrets(const GpuWorkspace *) { return {}; }
ChainWalk gpu_last_chain_walk(const GpuWorkspace *) { return {0, 0}; }

kcipher_status generate_gpu(Drbg &, const Accelerations &, const Kernel &, GpuWorkspace *&, const GpuOutput &, size_t, bool)
{
    return KCIPHER_ERR_NO_GPU;
}

kcipher_status multi_generate_gpu(const Kernel &, Cipher, GpuWorkspace *&, const GpuOutput &, const MultiJob &)
{
    return KCIPHER_ERR_NO_GPU;
}

} // namespace kc::drbg
