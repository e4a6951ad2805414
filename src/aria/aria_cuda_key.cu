// The ARIA table kernels' key schedule on the GPU (GpuOps::set_keys): encryption round keys
// only, one key per thread, with the key search's derivation (aria_cuda_keysearch.cuh: three
// ARIA rounds on the T-tables, then 128-bit rotations), laid out as keys_from_schedule lays
// them. CTR never reads the decryption keys, so they are left as they were. Not constant-time
// (T-table lookups at key-dependent addresses), like the kernels it serves.
#include "aria/aria_cuda_keysearch.cuh"
#include "aria/aria_cuda_launch.cuh"
#include "cuda/key_states.cuh"

namespace kc::aria_cuda {

namespace {

template <int R, int KW> struct AriaKeyOnDevice {
    AriaSearchParams p; // only ck: the key constants

    __device__ void operator()(const uint8_t *raw, uint8_t *state) const
    {
        AriaCudaKeys &out = *reinterpret_cast<AriaCudaKeys *>(state);
        uint32_t key[KW], w[4][4];
#pragma unroll
        for (int j = 0; j < KW; j++)
            key[j] = cuda::bswap32(cuda::load_le32(raw + 4 * j)); // big-endian words
        key_words<KW>(FlatTab<DeviceTTables>{}, p, key, w);
        uint32_t k[R + 1][4];
        round_keys<0, R>(w, k);
#pragma unroll
        for (int j = 0; j < 4; j++) // the search reads round 0's key big-endian, the kernels little-endian
            k[0][j] = cuda::bswap32(k[0][j]);
#pragma unroll
        for (int i = 0; i <= R; i++)
#pragma unroll
            for (int j = 0; j < 4; j++)
                out.ek[i][j] = k[i][j];
        out.rounds = R;
    }
};

} // namespace

int set_keys(Cipher c, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states, size_t state_stride,
             void *stream)
{
    AriaSearchParams p{};
    set_key_constants(c, p);
    switch (c) {
    case Cipher::aria128:
        return cuda::launch_set_keys<AriaCudaKeys>(AriaKeyOnDevice<12, 4>{p}, raw, raw_stride, n, states,
                                                   state_stride, stream);
    case Cipher::aria192:
        return cuda::launch_set_keys<AriaCudaKeys>(AriaKeyOnDevice<14, 6>{p}, raw, raw_stride, n, states,
                                                   state_stride, stream);
    case Cipher::aria256:
        return cuda::launch_set_keys<AriaCudaKeys>(AriaKeyOnDevice<16, 8>{p}, raw, raw_stride, n, states,
                                                   state_stride, stream);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace kc::aria_cuda
