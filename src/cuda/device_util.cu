#include "cuda/device_util.cuh"

#include <mutex>
#include <vector>

namespace kc::cuda {

namespace {

// What a launch asks the CUDA runtime about its kernel, kept per device and kernel: the
// occupancy query, the SM count and the shared-memory attribute took the CUDA DRBG's
// submitter thread microseconds per launch, on a core that the chain's core may share.
enum class Asked { sm_count, occupancy, smem_allowed };

struct Known {
    Asked what;
    int device;
    const void *kernel; // nullptr for the SM count
    unsigned threads;   // occupancy only
    size_t smem;        // occupancy: dynamic shared memory; smem_allowed: the bytes allowed
    int value;          // the SM count, blocks per SM, or 1 (allowed)
};

class LaunchCache {
  public:
    bool find(const Known &k, int &value)
    {
        std::lock_guard<std::mutex> l(m_);
        for (const Known &x : known_)
            if (x.what == k.what && x.device == k.device && x.kernel == k.kernel && x.threads == k.threads &&
                x.smem == k.smem) {
                value = x.value;
                return true;
            }
        return false;
    }
    void put(const Known &k)
    {
        std::lock_guard<std::mutex> l(m_);
        try {
            known_.push_back(k);
        } catch (...) { // asked again next time
        }
    }

  private:
    std::mutex m_;
    std::vector<Known> known_; // a few dozen kernels: a linear search
};

LaunchCache &launch_cache()
{
    static LaunchCache c;
    return c;
}

} // namespace

Shape launch_shape(const GpuLaunch *launch, size_t work_items, unsigned default_threads, const void *kernel,
                   size_t smem)
{
    unsigned threads = launch && launch->threads ? launch->threads : default_threads;
    if (launch && launch->blocks)
        return {threads, launch->blocks};
    int dev = 0, sms = 132;
    const bool have_dev = cudaGetDevice(&dev) == cudaSuccess;
    if (have_dev && !launch_cache().find({Asked::sm_count, dev, nullptr, 0, 0, 0}, sms)) {
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess)
            launch_cache().put({Asked::sm_count, dev, nullptr, 0, 0, sms});
        else
            sms = 132;
    }
    size_t need = (work_items + threads - 1) / threads;
    int per_sm = 0;
    if (kernel == nullptr || !have_dev || !launch_cache().find({Asked::occupancy, dev, kernel, threads, smem, 0}, per_sm)) {
        if (kernel == nullptr ||
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)threads, smem) != cudaSuccess ||
            per_sm <= 0) {
            cudaGetLastError();
            per_sm = (int)(2048 / threads); // an SM holds 2048 threads
        } else if (have_dev) {
            launch_cache().put({Asked::occupancy, dev, kernel, threads, smem, per_sm});
        }
    }
    size_t cap = (size_t)sms * (size_t)per_sm;
    size_t blocks = need < cap ? need : cap;
    return {threads, blocks ? (unsigned)blocks : 1u};
}

cudaError_t allow_dynamic_smem(const void *kernel, size_t bytes)
{
    if (bytes <= 48 * 1024)
        return cudaSuccess;
    int dev = 0, done = 0;
    const bool have_dev = cudaGetDevice(&dev) == cudaSuccess;
    if (have_dev && launch_cache().find({Asked::smem_allowed, dev, kernel, 0, bytes, 0}, done))
        return cudaSuccess;
    const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (e == cudaSuccess && have_dev)
        launch_cache().put({Asked::smem_allowed, dev, kernel, 0, bytes, 1});
    return e;
}

} // namespace kc::cuda
