// SEED key search on the GPU: one candidate per thread per step. Each round's two key words
// come from the key schedule's own step (seed_key_inputs.hpp) just before the round, so a
// thread holds the four key words and never a round-key table; G is the shared-memory lookup
// of seed/cuda (seed_cuda_g.cuh). The early reject reads ciphertext word 2, which the 15th
// round leaves final: the 16th round and its two key words are never computed.
#include "kit/search/gpu_search.cuh"
#include "kit/search/gpu_searcher.hpp"
#include "seed/seed_cuda_g.cuh"
#include "seed/seed_key_inputs.hpp"

namespace kc {
namespace seed_cuda {
namespace {

struct SeedSearch {
    struct Params {
        uint32_t pt[4]; // pairs[0]'s plaintext, big-endian words
        uint32_t ct2;   // word 2 of its ciphertext
    };
    static constexpr int KW = 4;
    static constexpr int group = 1;
    static constexpr unsigned threads = 1024;
    static constexpr size_t smem_bytes = SharedSs::bytes;
    using Ctx = SharedSs;

    __device__ static Ctx prepare(const Params &, uint8_t *smem) { return SharedSs::fill_and_get(smem); }

    __device__ static uint32_t test(const Ctx &g, const Params &p, const uint32_t *key)
    {
        SeedKeyStep ks;
#pragma unroll
        for (int j = 0; j < 4; j++)
            ks.k[j] = key[j];
        uint32_t l0 = p.pt[0], l1 = p.pt[1], r0 = p.pt[2], r1 = p.pt[3], a, b, t0, t1;
#pragma unroll
        for (int i = 0; i < seed_rounds - 1; i++) {
            ks.next(i, a, b);
            if (i % 2 == 0) {
                f_function(g, r0, r1, g(a), g(b), t0, t1);
                l0 ^= t0, l1 ^= t1;
            } else {
                f_function(g, l0, l1, g(a), g(b), t0, t1);
                r0 ^= t0, r1 ^= t1;
            }
        }
        return l0 == p.ct2 ? 1u : 0u; // after 16 rounds the ciphertext is R0 R1 L0 L1
    }
};

SeedSearch::Params make_params(const keysearch::Problem &p)
{
    SeedSearch::Params q{};
    for (int j = 0; j < 4; j++)
        q.pt[j] = cuda::bswap32(cuda::load_le32(p.pairs[0].pt + 4 * j));
    q.ct2 = cuda::bswap32(cuda::load_le32(p.pairs[0].ct + 8));
    return q;
}

} // namespace
} // namespace seed_cuda

namespace keysearch::cuda {

int seed_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l)
{
    return launch_search<seed_cuda::SeedSearch>(seed_cuda::make_params(p), r, h, l);
}

} // namespace keysearch::cuda
} // namespace kc
