// hight/cuda-bitslice's key state on the GPU (GpuOps::set_keys): the masks its kernels read
// (KeyMasks: every bit of every whitening key and subkey as an all-zero or all-one word),
// one mask word per thread, since a key has 1096 of them and one thread writing 4 KiB would
// be the slow part. Subkey n is MK[source(n)] + δ_n, a byte addition (hight_key_step.hpp).
// Constant-time: the key bytes select no address or branch; indices depend on the thread.
#include "cuda/device_util.cuh"
#include "hight/hight_cuda_bitslice.cuh"
#include "hight/hight_key_step.hpp"

namespace kc {

namespace {

// Where each whitening key and subkey comes from, and δ: constants for the device.
struct HightKeyTables {
    uint8_t delta[128];
    uint8_t subkey_source[128];
    uint8_t whitening_source[8];
};

constexpr HightKeyTables make_tables()
{
    HightKeyTables t{};
    for (int n = 0; n < 128; n++) {
        t.delta[n] = hight_key::delta[n];
        t.subkey_source[n] = (uint8_t)hight_key::subkey_source(n);
    }
    for (int i = 0; i < 8; i++)
        t.whitening_source[i] = (uint8_t)hight_key::whitening_source(i);
    return t;
}

__constant__ const HightKeyTables dev_key_tables = make_tables();

// KeyMasks as a flat array of words: wk[8][8], then sk[128][8], then wk_byte[8].
constexpr uint32_t wk_words = 64, sk_words = 128 * 8, mask_words = wk_words + sk_words + 8;
static_assert(sizeof(hight_bs::KeyMasks) == 4 * mask_words, "KeyMasks layout");

__global__ void hight_set_keys_kernel(const uint8_t *raw, size_t raw_stride, uint64_t n, uint8_t *states,
                                      size_t state_stride)
{
    const uint64_t total = n * mask_words, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += stride) {
        const uint64_t key = t / mask_words;
        const uint32_t w = (uint32_t)(t % mask_words);
        const uint8_t *mk = raw + key * raw_stride;
        uint32_t v;
        if (w < wk_words) {
            v = 0u - ((mk[dev_key_tables.whitening_source[w / 8]] >> (w % 8)) & 1u);
        } else if (w < wk_words + sk_words) {
            const uint32_t s = w - wk_words, sub = s / 8;
            const uint8_t byte = (uint8_t)(mk[dev_key_tables.subkey_source[sub]] + dev_key_tables.delta[sub]);
            v = 0u - ((byte >> (s % 8)) & 1u);
        } else {
            v = mk[dev_key_tables.whitening_source[w - wk_words - sk_words]];
        }
        reinterpret_cast<uint32_t *>(states + key * state_stride)[w] = v;
    }
}

} // namespace

// The state is the kernel's HightBsKey, whose first member is the KeyMasks.
int hight_bs_set_keys(Cipher, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states, size_t state_stride,
                      void *stream)
{
    if (n == 0)
        return 0;
    if (state_stride < sizeof(hight_bs::KeyMasks) || state_stride % 4 != 0 || !cuda::is_aligned(states, 4))
        return cudaErrorInvalidValue;
    const cuda::Shape s = cuda::launch_shape(nullptr, n * mask_words, 256);
    hight_set_keys_kernel<<<s.blocks, s.threads, 0, (cudaStream_t)stream>>>(raw, raw_stride, n, states,
                                                                           state_stride);
    return cudaGetLastError();
}

} // namespace kc
