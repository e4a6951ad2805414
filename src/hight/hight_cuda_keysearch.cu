// HIGHT key search on the GPU: 32 candidates per thread per step, bitsliced
// (hight_cuda_keysearch.cuh); the walk steps the key by 32 candidates at a time.
#include "hight/hight_cuda_keysearch.cuh"
#include "kit/search/gpu_search.cuh"
#include "kit/search/gpu_searcher.hpp"

namespace kc {
namespace hight_bs {
namespace {

struct HightSearch {
    static constexpr int KW = 4;
    static constexpr int group = 32;
    static constexpr unsigned threads = 256;
    static constexpr size_t smem_bytes = 0;
    using Params = HightSearchParams;
    struct Ctx {};

    __device__ static Ctx prepare(const Params &, uint8_t *) { return {}; }

    __device__ static uint32_t test(const Ctx &, const Params &p, const uint32_t *key)
    {
        return search_test32(key, p);
    }
};

} // namespace
} // namespace hight_bs

namespace keysearch::cuda {

int hight_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l)
{
    const hight_bs::HightSearchParams q = hight_bs::search_params(p.pairs[0].pt, p.pairs[0].ct, r.mask);
    return launch_search<hight_bs::HightSearch>(q, r, h, l);
}

} // namespace keysearch::cuda
} // namespace kc
