// Large DRBG outputs on a GPU (chain.hpp): the CPU has walked the chain of (Key, V) updates
// into segments; here every segment's key state is laid out by the GPU kernel's own set_key,
// and one launch of the kernel's ctr_segments computes all segments' blocks in parallel,
// each CUDA block reading its segment's round keys from shared memory. Host memory: keys
// and counters go up, keystream comes down. The key states are secret (they are the DRBG's
// Keys): the host copies are wiped, the device copy zeroed before it is freed.
#include <cstring>
#include <vector>

#include "core/key_state.hpp"
#include "core/wipe.hpp"
#include "cuda/gpu_modes.hpp"
#include "cuda/gpu_ops.hpp"
#include "drbg/drbg_gpu.hpp"

namespace kc::drbg {

namespace {

// Device buffers of one call, zeroed (keys) and freed on every path.
struct DeviceBuffers {
    uint8_t *keys = nullptr, *ctrs = nullptr, *out = nullptr;
    size_t key_bytes = 0;
    cudaStream_t stream = nullptr;
    ~DeviceBuffers()
    {
        if (keys != nullptr) {
            cudaMemsetAsync(keys, 0, key_bytes, stream);
            cudaStreamSynchronize(stream);
        }
        cudaFree(keys);
        cudaFree(ctrs);
        cudaFree(out);
        if (stream != nullptr)
            cudaStreamDestroy(stream);
    }
};

// Every segment's key state in the kernel's layout, `stride` bytes apart (16-aligned).
bool key_states(const Kernel &k, Cipher c, const Segment *segments, size_t count, size_t stride,
                std::vector<uint8_t> &out)
{
    out.assign(count * stride, 0);
    KeyState ks;
    for (size_t s = 0; s < count; s++) {
        if (!ks.init(k, c, segments[s].key))
            return false;
        std::memcpy(out.data() + s * stride, ks.get(), k.key_state_bytes);
    }
    return true;
}

} // namespace

kcipher_status run_segments_gpu(const Kernel &gpu_kernel, Cipher c, const Segment *segments, size_t count,
                                size_t stride, uint8_t *out, int device)
{
    if (count == 0)
        return KCIPHER_OK;
    if (gpu_kernel.gpu == nullptr || gpu_kernel.gpu->ctr_segments == nullptr)
        return KCIPHER_ERR_KERNEL_UNAVAILABLE;
    const size_t block = cipher_desc(c).block_bytes;
    const size_t last = segments[count - 1].bytes;
    for (size_t s = 0; s + 1 < count; s++)
        if (segments[s].bytes != stride)
            return KCIPHER_ERR_INTERNAL; // the chain makes every request but the last full
    GpuDeviceScope scope(device < 0 ? 0 : device);
    if (scope.status() != KCIPHER_OK)
        return scope.status();

    const size_t key_stride = (gpu_kernel.key_state_bytes + 15) / 16 * 16;
    std::vector<uint8_t> keys, ctrs(count * block);
    for (size_t s = 0; s < count; s++)
        std::memcpy(ctrs.data() + s * block, segments[s].counter, block);
    if (!key_states(gpu_kernel, c, segments, count, key_stride, keys)) {
        secure_wipe(keys.data(), keys.size());
        return KCIPHER_ERR_NO_MEMORY;
    }

    DeviceBuffers d;
    d.key_bytes = keys.size();
    const size_t total = (count - 1) * stride + last;
    int e = cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = cudaMalloc(&d.keys, keys.size());
    if (e == cudaSuccess)
        e = cudaMalloc(&d.ctrs, ctrs.size());
    if (e == cudaSuccess)
        e = cudaMalloc(&d.out, count * stride);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(d.keys, keys.data(), keys.size(), cudaMemcpyHostToDevice, d.stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(d.ctrs, ctrs.data(), ctrs.size(), cudaMemcpyHostToDevice, d.stream);
    if (e == cudaSuccess)
        e = gpu_kernel.gpu->ctr_segments(keys.data(), d.keys, key_stride, d.ctrs, count, stride, last, d.out, d.stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(out, d.out, total, cudaMemcpyDeviceToHost, d.stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(d.stream);
    secure_wipe(keys.data(), keys.size());
    return gpu_status(e);
}

} // namespace kc::drbg
