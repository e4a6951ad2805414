// One LEA round as the GPU kernels compute it (lea_cuda.cu, lea_cuda_keysearch.cu):
// funnel-shift rotations, the state rotated by renaming.
#pragma once

#include "cuda/device_util.cuh"

namespace kc::lea_cuda {

KC_HD void round(const uint32_t *rk, uint32_t &a, uint32_t &b, uint32_t &c, uint32_t &d)
{
    const uint32_t n0 = cuda::rotl32((a ^ rk[0]) + (b ^ rk[1]), 9);
    const uint32_t n1 = cuda::rotr32((b ^ rk[2]) + (c ^ rk[3]), 5);
    const uint32_t n2 = cuda::rotr32((c ^ rk[4]) + (d ^ rk[5]), 3);
    d = a, a = n0, b = n1, c = n2;
}

} // namespace kc::lea_cuda
