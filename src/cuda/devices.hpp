// GPUs visible to this process. Built from devices.cu when CUDA is enabled, from
// devices_none.cpp otherwise; either way a machine without a GPU (or without a driver)
// reports zero devices and nothing fails.
#pragma once

#include <string>
#include <vector>

namespace kc {

struct GpuInfo {
    int index;
    std::string name;
    int sm_major, sm_minor;
    int multiprocessors;
    size_t global_memory_bytes;
    int clock_khz;
};

int cuda_device_count();            // 0 when there is no GPU, driver or CUDA build
std::vector<GpuInfo> cuda_devices();
std::string cuda_runtime_status();  // "CUDA 13.0 runtime, driver ..." or why none

} // namespace kc
