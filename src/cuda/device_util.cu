#include "cuda/device_util.cuh"

namespace kc::cuda {

Shape launch_shape(const GpuLaunch *launch, size_t work_items, unsigned default_threads, const void *kernel,
                   size_t smem)
{
    unsigned threads = launch && launch->threads ? launch->threads : default_threads;
    if (launch && launch->blocks)
        return {threads, launch->blocks};
    int dev = 0, sms = 132;
    if (cudaGetDevice(&dev) == cudaSuccess)
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    size_t need = (work_items + threads - 1) / threads;
    int per_sm = 0;
    if (kernel == nullptr ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)threads, smem) != cudaSuccess ||
        per_sm <= 0) {
        cudaGetLastError();
        per_sm = (int)(2048 / threads); // an SM holds 2048 threads
    }
    size_t cap = (size_t)sms * (size_t)per_sm;
    size_t blocks = need < cap ? need : cap;
    return {threads, blocks ? (unsigned)blocks : 1u};
}

} // namespace kc::cuda
