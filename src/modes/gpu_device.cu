// ECB and CTR over the caller's device memory: split into launches the kernels accept and
// queue them on the caller's stream.
#include <cuda_runtime.h>

#include <cstring>

#include "core/counter.hpp"
#include "modes/gpu_modes.hpp"

namespace kc {

namespace {

// Launches index blocks with 32-bit counters; 2^30 keeps i + stride far from overflow.
constexpr size_t max_launch_blocks = size_t(1) << 30;

thread_local char last_error[256];

uint32_t low32_be(const uint8_t *ctr, size_t bs)
{
    const uint8_t *p = ctr + bs - 4;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

} // namespace

void gpu_set_error(const char *message)
{
    std::strncpy(last_error, message, sizeof last_error - 1);
    last_error[sizeof last_error - 1] = 0;
}

const char *gpu_last_error() { return last_error; }

kcipher_status gpu_status(int err)
{
    if (err == cudaSuccess)
        return KCIPHER_OK;
    gpu_set_error(cudaGetErrorString((cudaError_t)err));
    cudaGetLastError(); // clear a non-sticky error so later calls start clean
    return err == cudaErrorMemoryAllocation ? KCIPHER_ERR_NO_MEMORY : KCIPHER_ERR_CUDA;
}

GpuDeviceScope::GpuDeviceScope(int device)
{
    if (cudaGetDevice(&previous_) != cudaSuccess)
        previous_ = -1;
    if (previous_ != device)
        status_ = gpu_status(cudaSetDevice(device));
}

GpuDeviceScope::~GpuDeviceScope()
{
    int now = -1;
    if (previous_ >= 0 && cudaGetDevice(&now) == cudaSuccess && now != previous_)
        cudaSetDevice(previous_);
}

static kcipher_status pointer_device(const void *p, int *device)
{
    cudaPointerAttributes a{};
    cudaError_t err = cudaPointerGetAttributes(&a, p);
    if (err != cudaSuccess) {
        cudaGetLastError();
        return err == cudaErrorInvalidValue ? KCIPHER_ERR_NOT_DEVICE_MEMORY : gpu_status(err);
    }
    if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)
        return KCIPHER_ERR_NOT_DEVICE_MEMORY;
    *device = a.device;
    return KCIPHER_OK;
}

kcipher_status gpu_pointers_device(const void *in, const void *out, int *device)
{
    kcipher_status st = pointer_device(out, device);
    if (st != KCIPHER_OK || in == nullptr || in == out)
        return st;
    int din = -1;
    st = pointer_device(in, &din);
    if (st == KCIPHER_OK && din != *device)
        return KCIPHER_ERR_NOT_DEVICE_MEMORY;
    return st;
}

kcipher_status gpu_device_ecb(const GpuJob &j, bool decrypt, const uint8_t *in, uint8_t *out, size_t len,
                              void *stream, const GpuLaunch *launch)
{
    const size_t bs = j.block_bytes;
    for (size_t done = 0, n = len / bs; done < n;) {
        size_t count = n - done < max_launch_blocks ? n - done : max_launch_blocks;
        int err = j.kernel->gpu->ecb(j.keys, decrypt, in + done * bs, out + done * bs, count, stream, launch);
        if (err != 0)
            return gpu_status(err);
        done += count;
    }
    return KCIPHER_OK;
}

// Each launch stops where the counter's low 32 bits would wrap, so that the kernels may
// treat the higher words as fixed (GpuOps::ctr); the bytes are those of one long run.
kcipher_status gpu_device_ctr(const GpuJob &j, const uint8_t *ctr0, const uint8_t *in, uint8_t *out,
                              size_t len, void *stream, const GpuLaunch *launch)
{
    const size_t bs = j.block_bytes;
    uint8_t ctr[16];
    std::memcpy(ctr, ctr0, bs);
    size_t done = 0;
    while (done < len) {
        size_t left_blocks = (len - done + bs - 1) / bs;
        size_t until_wrap = (size_t)((uint64_t(1) << 32) - low32_be(ctr, bs));
        size_t blocks = left_blocks;
        if (blocks > until_wrap)
            blocks = until_wrap;
        if (blocks > max_launch_blocks)
            blocks = max_launch_blocks;
        size_t bytes = blocks * bs < len - done ? blocks * bs : len - done;
        int err = j.kernel->gpu->ctr(j.keys, ctr, in ? in + done : nullptr, out + done, bytes, stream, launch);
        if (err != 0)
            return gpu_status(err);
        counter_add(ctr, bs, blocks);
        done += bytes;
    }
    return KCIPHER_OK;
}

} // namespace kc
