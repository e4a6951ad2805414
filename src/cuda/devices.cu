// Device discovery through the CUDA runtime. No CUDA error escapes: a missing driver or
// GPU reads as zero devices, with the runtime's message kept for `kcipher info`.
#include "cuda/devices.hpp"

#include <cuda_runtime.h>

#include <string>

namespace kc {

static int count_devices(cudaError_t *err_out)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err_out)
        *err_out = err;
    if (err != cudaSuccess) {
        cudaGetLastError(); // clear the sticky error state for later callers
        return 0;
    }
    return n;
}

int cuda_device_count()
{
    static const int n = count_devices(nullptr);
    return n;
}

std::vector<GpuInfo> cuda_devices()
{
    std::vector<GpuInfo> out;
    for (int i = 0; i < cuda_device_count(); i++) {
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, i) != cudaSuccess)
            continue;
        int clock = 0;
        cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, i);
        out.push_back({i, p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem, clock});
    }
    return out;
}

std::string cuda_runtime_status()
{
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    cudaError_t err;
    int n = count_devices(&err);
    std::string s = "CUDA runtime " + std::to_string(rt / 1000) + "." + std::to_string(rt % 1000 / 10);
    if (drv > 0)
        s += ", driver " + std::to_string(drv / 1000) + "." + std::to_string(drv % 1000 / 10);
    else
        s += ", no driver";
    // No driver (the runtime then says "CUDA driver version is insufficient") or a driver
    // that sees no device: say what the user needs to know.
    if (drv == 0 || err == cudaErrorNoDevice)
        s += ": no NVIDIA GPU found";
    else if (err != cudaSuccess)
        s += std::string(": ") + cudaGetErrorString(err);
    else
        s += ": " + std::to_string(n) + " device(s)";
    return s;
}

} // namespace kc
