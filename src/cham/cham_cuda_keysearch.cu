// CHAM key search on the GPU: one candidate per thread per step. A CHAM key of k/w words
// gives 2k/w round keys (cham_key_step.hpp, the host schedule's own functions), three
// operations each, computed once per candidate; the 88-120 rounds are cham_cuda's. The
// early reject reads ciphertext word 0 (CHAM-64: words 0 and 1, 32 bits), which the round
// three (two) from the end already fixed: ptxas drops the rounds after it.
#include "cham/cham_cuda_round.cuh"
#include "cham/cham_key_step.hpp"
#include "kit/search/gpu_search.cuh"
#include "kit/search/gpu_searcher.hpp"

namespace kc {
namespace cham_cuda {
namespace {

struct ChamSearchParams {
    uint32_t pt[4]; // pairs[0]'s plaintext as the rounds' words (16-bit words for CHAM-64)
    uint32_t ct0;   // its ciphertext's first 32 bits, little-endian
};

// W16: CHAM-64/128 (16-bit words, KW = 4 big-endian 32-bit key words = 8 key words).
template <bool W16, int R, int KeyWords> struct ChamSearch {
    static constexpr int KW = KeyWords;
    static constexpr int NK = W16 ? 2 * KW : KW; // CHAM key words
    static constexpr int group = 1;
    static constexpr unsigned threads = 256;
    static constexpr size_t smem_bytes = 0;
    using Params = ChamSearchParams;
    struct Ctx {};

    __device__ static Ctx prepare(const Params &, uint8_t *) { return {}; }

    __device__ static void round_keys(const uint32_t *key, uint32_t *rk)
    {
#pragma unroll
        for (int i = 0; i < NK; i++) {
            if constexpr (W16) {
                // Key bytes b0 b1 b2 b3 of a big-endian word hold K = b0 | b1 << 8, then b2 | b3 << 8.
                const uint16_t k = (uint16_t)cuda::byte_perm(key[i / 2], 0, i % 2 ? 0x4401 : 0x4423);
                rk[i] = cham_key::rk_first<uint16_t>(k);
                rk[cham_key::second_index(i, NK)] = cham_key::rk_second<uint16_t>(k);
            } else {
                const uint32_t k = cuda::bswap32(key[i]);
                rk[i] = cham_key::rk_first<uint32_t>(k);
                rk[cham_key::second_index(i, NK)] = cham_key::rk_second<uint32_t>(k);
            }
        }
    }

    __device__ static uint32_t test(const Ctx &, const Params &p, const uint32_t *key)
    {
        uint32_t rk[2 * NK];
        round_keys(key, rk);
        uint32_t x[4] = {p.pt[0], p.pt[1], p.pt[2], p.pt[3]};
#pragma unroll
        for (int i = 0; i < R; i++)
            cham_round<W16>(x, i, rk[i % (2 * NK)]);
        const uint32_t c0 = W16 ? x[0] | x[1] << 16 : x[0];
        return c0 == p.ct0 ? 1u : 0u;
    }
};

ChamSearchParams make_params(const keysearch::Problem &p)
{
    ChamSearchParams q{};
    const uint8_t *b = p.pairs[0].pt;
    if (p.cipher == Cipher::cham64_128) {
        for (int j = 0; j < 4; j++)
            q.pt[j] = (uint32_t)b[2 * j] | (uint32_t)b[2 * j + 1] << 8;
    } else {
        for (int j = 0; j < 4; j++)
            q.pt[j] = cuda::load_le32(b + 4 * j);
    }
    q.ct0 = cuda::load_le32(p.pairs[0].ct);
    return q;
}

} // namespace
} // namespace cham_cuda

namespace keysearch::cuda {

int cham_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l)
{
    const cham_cuda::ChamSearchParams q = cham_cuda::make_params(p);
    switch (p.cipher) {
    case Cipher::cham64_128: return launch_search<cham_cuda::ChamSearch<true, 88, 4>>(q, r, h, l);
    case Cipher::cham128_128: return launch_search<cham_cuda::ChamSearch<false, 112, 4>>(q, r, h, l);
    default: return launch_search<cham_cuda::ChamSearch<false, 120, 8>>(q, r, h, l);
    }
}

} // namespace keysearch::cuda
} // namespace kc
