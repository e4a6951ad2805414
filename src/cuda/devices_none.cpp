// Stand-in for builds without CUDA.
#include "cuda/devices.hpp"

namespace kc {

int cuda_device_count() { return 0; }
std::vector<GpuInfo> cuda_devices() { return {}; }
std::string cuda_runtime_status() { return "built without CUDA"; }

} // namespace kc
