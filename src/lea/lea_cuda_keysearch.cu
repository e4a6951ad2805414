// LEA key search on the GPU: one candidate per thread per step; the round keys come from
// the key schedule's own update (lea_key_step.hpp), one step ahead of each round, so a
// thread holds the 4-8 key-state words and never a round-key table. The early reject reads
// ciphertext word 3, which is word 0 before the last round: ptxas drops the last round and
// two thirds of the one before.
#include "kit/search/gpu_search.cuh"
#include "kit/search/gpu_searcher.hpp"
#include "lea/lea_cuda_round.cuh"
#include "lea/lea_key_step.hpp"

namespace kc {
namespace lea_cuda {
namespace {

struct LeaSearchParams {
    uint32_t pt[4]; // pairs[0]'s plaintext, little-endian words
    uint32_t ct3;   // word 3 of its ciphertext
};

// Round i's key from the key state t (updated in place): LEA-128 RK_i = (T0, T1, T2, T1,
// T3, T1); LEA-192 (T0..T5); LEA-256 six of eight words from 6i mod 8.
template <int KW> KC_HD void next_round_key(uint32_t *t, int i, uint32_t *rk)
{
    if constexpr (KW == 4) {
#pragma unroll
        for (int k = 0; k < 4; k++)
            t[k] = lea_key::update(t[k], 4, i, k);
        rk[0] = t[0], rk[1] = t[1], rk[2] = t[2], rk[3] = t[1], rk[4] = t[3], rk[5] = t[1];
    } else {
#pragma unroll
        for (int k = 0; k < 6; k++) {
            const int j = KW == 6 ? k : lea_key::word_256(i, k);
            t[j] = lea_key::update(t[j], KW, i, k);
            rk[k] = t[j];
        }
    }
}

template <int R, int KeyWords> struct LeaSearch {
    static constexpr int KW = KeyWords;
    static constexpr int group = 1;
    static constexpr unsigned threads = 256;
    static constexpr size_t smem_bytes = 0;
    using Params = LeaSearchParams;
    struct Ctx {};

    __device__ static Ctx prepare(const Params &, uint8_t *) { return {}; }

    __device__ static uint32_t test(const Ctx &, const Params &p, const uint32_t *key)
    {
        uint32_t t[KW], rk[6];
#pragma unroll
        for (int j = 0; j < KW; j++)
            t[j] = cuda::bswap32(key[j]); // LEA reads the key as little-endian words
        uint32_t a = p.pt[0], b = p.pt[1], c = p.pt[2], d = p.pt[3];
#pragma unroll
        for (int i = 0; i < R; i++) {
            next_round_key<KW>(t, i, rk);
            round(rk, a, b, c, d);
        }
        return d == p.ct3 ? 1u : 0u;
    }
};

LeaSearchParams make_params(const keysearch::Problem &p)
{
    LeaSearchParams q{};
    for (int j = 0; j < 4; j++)
        q.pt[j] = cuda::load_le32(p.pairs[0].pt + 4 * j);
    q.ct3 = cuda::load_le32(p.pairs[0].ct + 12);
    return q;
}

} // namespace
} // namespace lea_cuda

namespace keysearch::cuda {

int lea_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l)
{
    const lea_cuda::LeaSearchParams q = lea_cuda::make_params(p);
    switch (p.cipher) {
    case Cipher::lea128: return launch_search<lea_cuda::LeaSearch<24, 4>>(q, r, h, l);
    case Cipher::lea192: return launch_search<lea_cuda::LeaSearch<28, 6>>(q, r, h, l);
    default: return launch_search<lea_cuda::LeaSearch<32, 8>>(q, r, h, l);
    }
}

} // namespace keysearch::cuda
} // namespace kc
