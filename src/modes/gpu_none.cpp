// Builds without CUDA: no kernel has GPU entry points, so no context reaches these except
// through the device-memory calls, which the API refuses first (KCIPHER_ERR_NOT_GPU_KERNEL).
#include "modes/gpu_modes.hpp"

namespace kc {

kcipher_status gpu_device_ecb(const GpuJob &, bool, const uint8_t *, uint8_t *, size_t, void *, const GpuLaunch *)
{
    return KCIPHER_ERR_NO_GPU;
}
kcipher_status gpu_device_ctr(const GpuJob &, const uint8_t *, const uint8_t *, uint8_t *, size_t, void *,
                              const GpuLaunch *)
{
    return KCIPHER_ERR_NO_GPU;
}
kcipher_status gpu_host_ecb(const GpuJob &, bool, const uint8_t *, uint8_t *, size_t, int, unsigned)
{
    return KCIPHER_ERR_NO_GPU;
}
kcipher_status gpu_host_ctr(const GpuJob &, const uint8_t *, const uint8_t *, uint8_t *, size_t, int, unsigned)
{
    return KCIPHER_ERR_NO_GPU;
}
kcipher_status gpu_device_gcm(const GpuJob &, const uint8_t *, bool, kcipher_gpu_aead_msg *, size_t, size_t, void *,
                              const uint32_t *, uint64_t, bool *)
{
    return KCIPHER_ERR_NO_GPU;
}
kcipher_status gpu_device_gcm_one(const GpuJob &, const uint8_t *, const uint8_t *, bool, const uint8_t *, size_t,
                                  const uint8_t *, size_t, const uint8_t *, size_t, uint8_t *, size_t, void *)
{
    return KCIPHER_ERR_NO_GPU;
}
kcipher_status gpu_device_xts(const GpuJob &, const void *, bool, const uint8_t *, size_t, const uint8_t *, uint8_t *,
                              size_t, void *, uint64_t)
{
    return KCIPHER_ERR_NO_GPU;
}
kcipher_status gpu_host_xts(const GpuJob &, const void *, bool, const uint8_t *, size_t, const uint8_t *, uint8_t *,
                            size_t, int, unsigned)
{
    return KCIPHER_ERR_NO_GPU;
}
size_t gpu_host_chunk_bytes() { return 0; }
kcipher_status gpu_host_ctr_hash(const GpuJob &, const uint8_t *, const uint8_t *, uint8_t *, size_t, int, unsigned,
                                 const GhashKernel &, const GhashKey &, bool, uint8_t *)
{
    return KCIPHER_ERR_NO_GPU;
}
kcipher_status gpu_host_gcm(const GpuJob &, const Keyed &, const GcmKey &, bool, const uint8_t *, size_t,
                            const uint8_t *, size_t, const uint8_t *, uint8_t *, size_t, int, unsigned, uint8_t *)
{
    return KCIPHER_ERR_NO_GPU;
}
kcipher_status gpu_status(int err) { return err == 0 ? KCIPHER_OK : KCIPHER_ERR_CUDA; }
void gpu_set_error(const char *) {}
const char *gpu_last_error() { return ""; }
kcipher_status gpu_pointers_device(const void *, const void *, int *) { return KCIPHER_ERR_NO_GPU; }
GpuDeviceScope::GpuDeviceScope(int) { status_ = KCIPHER_ERR_NO_GPU; }
GpuDeviceScope::~GpuDeviceScope() {}

} // namespace kc
