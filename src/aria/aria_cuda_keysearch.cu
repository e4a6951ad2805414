// ARIA key search on the GPU (the ARIA CTR/ES paper's design, on aria/cuda-shared-4k-x32's
// tables): one candidate per thread per step, round keys derived on the fly
// (aria_cuda_keysearch.cuh), the four T-tables in shared memory once per bank so that no
// lookup conflicts. With 128 KiB of tables one CUDA block fits per SM, so it runs 1024
// threads by default (the paper's shape, 512, runs too: the bench measures both).
#include "aria/aria_cuda_keysearch.cuh"
#include "aria/aria_cuda_launch.cuh"
#include "kit/search/gpu_search.cuh"
#include "kit/search/gpu_searcher.hpp"

namespace kc {
namespace aria_cuda {
namespace {

template <int R, int KeyWords> struct AriaSearch {
    static constexpr int KW = KeyWords;
    static constexpr int group = 1;
    static constexpr unsigned threads = 1024; // the paper ran 512; one block per SM either way
    static constexpr size_t smem_bytes = TTables4kX32Tab::bytes;
    using Params = AriaSearchParams;
    struct Ctx {
        TTables4kX32Tab tab;
    };

    __device__ static Ctx prepare(const Params &, uint8_t *smem)
    {
        TTables4kX32Tab::fill(smem, dev_ttables, threadIdx.x, blockDim.x);
        __syncthreads();
        return {TTables4kX32Tab::at(smem, threadIdx.x % 32)};
    }

    __device__ static uint32_t test(const Ctx &c, const Params &p, const uint32_t *key)
    {
        return search_test<R, KW>(c.tab, p, key) ? 1u : 0u;
    }
};

uint32_t be32(const uint8_t *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]; }

AriaSearchParams make_params(const keysearch::Problem &p)
{
    AriaSearchParams q{};
    for (int j = 0; j < 4; j++)
        q.pt[j] = be32(p.pairs[0].pt + 4 * j);
    q.ct0 = cuda::load_le32(p.pairs[0].ct);
    set_key_constants(p.cipher, q);
    return q;
}

} // namespace
} // namespace aria_cuda

namespace keysearch::cuda {

int aria_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l)
{
    const aria_cuda::AriaSearchParams q = aria_cuda::make_params(p);
    switch (p.cipher) {
    case Cipher::aria128: return launch_search<aria_cuda::AriaSearch<12, 4>>(q, r, h, l);
    case Cipher::aria192: return launch_search<aria_cuda::AriaSearch<14, 6>>(q, r, h, l);
    default: return launch_search<aria_cuda::AriaSearch<16, 8>>(q, r, h, l);
    }
}

} // namespace keysearch::cuda
} // namespace kc
