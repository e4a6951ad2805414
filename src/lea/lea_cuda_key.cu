// lea/cuda's key schedule on the GPU (GpuOps::set_keys): the host's schedule, one key per
// thread, from the same step function (lea_key_step.hpp); fully unrolled, so every δ
// rotation is a constant. Constant-time: ARX on the key words, fixed indices.
#include "cuda/key_states.cuh"
#include "lea/lea.hpp"
#include "lea/lea_key_step.hpp"

namespace kc {

namespace {

template <int KW, int R> struct LeaKeyOnDevice {
    __device__ void operator()(const uint8_t *raw, uint8_t *state) const
    {
        LeaRoundKeys &out = *reinterpret_cast<LeaRoundKeys *>(state);
        uint32_t t[KW];
#pragma unroll
        for (int k = 0; k < KW; k++)
            t[k] = cuda::load_le32(raw + 4 * k);
#pragma unroll
        for (int i = 0; i < R; i++)
            lea_key::next_round_key<KW>(t, i, out.rk[i]);
        out.rounds = R;
    }
};

} // namespace

int lea_cuda_set_keys(Cipher c, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states,
                      size_t state_stride, void *stream)
{
    switch (c) {
    case Cipher::lea128:
        return cuda::launch_set_keys<LeaRoundKeys>(LeaKeyOnDevice<4, 24>{}, raw, raw_stride, n, states, state_stride,
                                                   stream);
    case Cipher::lea192:
        return cuda::launch_set_keys<LeaRoundKeys>(LeaKeyOnDevice<6, 28>{}, raw, raw_stride, n, states, state_stride,
                                                   stream);
    case Cipher::lea256:
        return cuda::launch_set_keys<LeaRoundKeys>(LeaKeyOnDevice<8, 32>{}, raw, raw_stride, n, states, state_stride,
                                                   stream);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace kc
