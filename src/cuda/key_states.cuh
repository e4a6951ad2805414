// GpuOps::set_keys, the shared part: a grid-stride loop over raw keys in device memory, one
// thread deriving one key state with the kernel's own key schedule (a functor F with a
// __device__ operator()(raw key, state)). A key schedule is tens to a few hundred operations,
// and the DRBG asks for one per request (64 KiB or 1 KiB of output): the GPU does it in
// a few microseconds per batch, where the host spent a core or two.
#pragma once

#include "cuda/device_util.cuh"

namespace kc::cuda {

template <class F>
__global__ void set_keys_grid(const F f, const uint8_t *raw, size_t raw_stride, uint32_t n, uint8_t *states,
                              size_t state_stride)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        f(raw + (size_t)i * raw_stride, states + (size_t)i * state_stride);
}

// State is the key-state struct F writes: states and state_stride keep it aligned.
template <class State, class F>
int launch_set_keys(const F &f, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states,
                    size_t state_stride, void *stream)
{
    if (n == 0)
        return 0;
    if (n > 0xffffffffu || state_stride < sizeof(State) || state_stride % alignof(State) != 0 ||
        !is_aligned(states, alignof(State)))
        return cudaErrorInvalidValue;
    const Shape s = launch_shape(nullptr, n, 128);
    set_keys_grid<F><<<s.blocks, s.threads, 0, (cudaStream_t)stream>>>(f, raw, raw_stride, (uint32_t)n, states,
                                                                       state_stride);
    return cudaGetLastError();
}

} // namespace kc::cuda
