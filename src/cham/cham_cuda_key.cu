// cham/cuda's key schedule on the GPU (GpuOps::set_keys): the host's schedule, one key per
// thread, from the same round-key functions (cham_key_step.hpp). Constant-time: XORs and
// fixed rotations.
#include "cham/cham.hpp"
#include "cham/cham_key_step.hpp"
#include "cuda/key_states.cuh"

namespace kc {

namespace {

// W: the word type (uint16_t for CHAM-64/128); KW key words; R rounds (the revised count).
template <typename W, int KW, int R, Cipher C> struct ChamKeyOnDevice {
    __device__ void operator()(const uint8_t *raw, uint8_t *state) const
    {
        ChamRoundKeys &out = *reinterpret_cast<ChamRoundKeys *>(state);
        uint32_t rk[16] = {};
#pragma unroll
        for (int i = 0; i < KW; i++) {
            const uint8_t *b = raw + sizeof(W) * i;
            const W k = sizeof(W) == 2 ? (W)(b[0] | b[1] << 8) : (W)cuda::load_le32(b);
            rk[i] = cham_key::rk_first<W>(k);
            rk[cham_key::second_index(i, KW)] = cham_key::rk_second<W>(k);
        }
#pragma unroll
        for (int i = 0; i < 16; i++) // all 16, as set_key leaves zeroed storage
            out.rk[i] = rk[i];
        out.nrk = 2 * KW;
        out.rounds = R;
        out.word_bits = 8 * sizeof(W);
        out.block_bytes = sizeof(W) == 2 ? 8 : 16;
        out.cipher = C;
    }
};

} // namespace

int cham_cuda_set_keys(Cipher c, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states,
                       size_t state_stride, void *stream)
{
    switch (c) {
    case Cipher::cham64_128:
        return cuda::launch_set_keys<ChamRoundKeys>(ChamKeyOnDevice<uint16_t, 8, 88, Cipher::cham64_128>{}, raw,
                                                    raw_stride, n, states, state_stride, stream);
    case Cipher::cham128_128:
        return cuda::launch_set_keys<ChamRoundKeys>(ChamKeyOnDevice<uint32_t, 4, 112, Cipher::cham128_128>{}, raw,
                                                    raw_stride, n, states, state_stride, stream);
    case Cipher::cham128_256:
        return cuda::launch_set_keys<ChamRoundKeys>(ChamKeyOnDevice<uint32_t, 8, 120, Cipher::cham128_256>{}, raw,
                                                    raw_stride, n, states, state_stride, stream);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace kc
