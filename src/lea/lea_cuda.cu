// lea/cuda: LEA on the GPU, one block per thread (the ARX paper's design, carried further).
//
//   - Round keys are launch parameters: they sit in the constant bank, read by every thread
//     at the same address (a broadcast), and ptxas folds them into the XORs as c[][] operands.
//   - Rotations are funnel shifts (SHF), the rounds fully unrolled (R is a template argument).
//   - CTR: the counter's low 32 bits are word 3 of the block; words 0..2 are fixed for the
//     launch. Round 0 then computes two of its three additions from fixed words, and round 1
//     one more: the host does that once per launch (Pre), each thread does the rest.
//
// Constant-time: ARX only, as lea/ref.
#include "core/kernel.hpp"
#include "cuda/grid_kernels.cuh"
#include "lea/lea.hpp"
#include "lea/lea_cuda_round.cuh"

namespace kc {

namespace {

using cuda::rotl32;
using cuda::rotr32;

struct LeaPre {
    uint32_t x0_1;     // word 0 after round 1 (fixed)
    uint32_t x1_0_k;   // word 1 after round 0, XOR RK_1[2]
    uint32_t x2_k;     // input word 2 XOR RK_0[4]
    uint32_t x3_0;     // word 3 after round 0 = input word 0 (fixed)
    uint32_t x3_0_k;   // the same XOR RK_1[5]
    uint32_t x3_1;     // word 3 after round 1 = word 0 after round 0 (fixed)
};

template <int R> struct LeaDev {
    static constexpr int NW = 4;
    static constexpr size_t smem_bytes = 0;
    static constexpr int unroll = 2; // two blocks per loop turn (grid_kernels.cuh: unroll_of)
    using Params = LeaRoundKeys;
    using Pre = LeaPre;
    struct Ctx {};

    __device__ static Ctx prepare(const Params &, uint8_t *) { return {}; }

    KC_HD static void round(const uint32_t *rk, uint32_t &a, uint32_t &b, uint32_t &c, uint32_t &d)
    {
        lea_cuda::round(rk, a, b, c, d);
    }

    static Pre precompute(const Params &p, const uint32_t w[4])
    {
        const uint32_t(*rk)[6] = p.rk;
        uint32_t a0 = rotl32((w[0] ^ rk[0][0]) + (w[1] ^ rk[0][1]), 9);
        uint32_t b0 = rotr32((w[1] ^ rk[0][2]) + (w[2] ^ rk[0][3]), 5);
        Pre pre;
        pre.x2_k = w[2] ^ rk[0][4];
        pre.x3_0 = w[0];
        pre.x0_1 = rotl32((a0 ^ rk[1][0]) + (b0 ^ rk[1][1]), 9);
        pre.x1_0_k = b0 ^ rk[1][2];
        pre.x3_0_k = w[0] ^ rk[1][5];
        pre.x3_1 = a0;
        return pre;
    }

    __device__ static void ctr_block(const Ctx &, const Params &p, const Pre &pre, uint32_t ctr_lo,
                                     uint32_t ks[4])
    {
        const uint32_t(*rk)[6] = p.rk;
        // Round 0: only word 2 depends on the counter word.
        uint32_t c0 = rotr32(pre.x2_k + (cuda::bswap32(ctr_lo) ^ rk[0][5]), 3);
        // Round 1: word 0 is fixed; words 1 and 2 take c0.
        uint32_t a = pre.x0_1;
        uint32_t b = rotr32(pre.x1_0_k + (c0 ^ rk[1][3]), 5);
        uint32_t c = rotr32((c0 ^ rk[1][4]) + pre.x3_0_k, 3);
        uint32_t d = pre.x3_1;
#pragma unroll
        for (int r = 2; r < R; r++)
            round(rk[r], a, b, c, d);
        ks[0] = a, ks[1] = b, ks[2] = c, ks[3] = d;
    }

    __device__ static void encrypt(const Ctx &, const Params &p, uint32_t w[4])
    {
#pragma unroll
        for (int r = 0; r < R; r++)
            round(p.rk[r], w[0], w[1], w[2], w[3]);
    }

    __device__ static void decrypt(const Ctx &, const Params &p, uint32_t w[4])
    {
#pragma unroll
        for (int r = R - 1; r >= 0; r--) {
            const uint32_t *rk = p.rk[r];
            uint32_t x0 = w[3];
            uint32_t x1 = (rotr32(w[0], 9) - (x0 ^ rk[0])) ^ rk[1];
            uint32_t x2 = (rotl32(w[1], 5) - (x1 ^ rk[2])) ^ rk[3];
            uint32_t x3 = (rotl32(w[2], 3) - (x2 ^ rk[4])) ^ rk[5];
            w[0] = x0, w[1] = x1, w[2] = x2, w[3] = x3;
        }
    }
};

int lea_cuda_ecb(const void *params, bool decrypt, const uint8_t *in, uint8_t *out, size_t n,
                 void *stream, const GpuLaunch *l)
{
    const LeaRoundKeys &p = *static_cast<const LeaRoundKeys *>(params);
    switch (p.rounds) {
    case 24: return cuda::launch_ecb<LeaDev<24>>(p, decrypt, in, out, n, stream, l);
    case 28: return cuda::launch_ecb<LeaDev<28>>(p, decrypt, in, out, n, stream, l);
    default: return cuda::launch_ecb<LeaDev<32>>(p, decrypt, in, out, n, stream, l);
    }
}

int lea_cuda_ctr(const void *params, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nbytes,
                 void *stream, const GpuLaunch *l)
{
    const LeaRoundKeys &p = *static_cast<const LeaRoundKeys *>(params);
    switch (p.rounds) {
    case 24: return cuda::launch_ctr<LeaDev<24>>(p, ctr, in, out, nbytes, stream, l);
    case 28: return cuda::launch_ctr<LeaDev<28>>(p, ctr, in, out, nbytes, stream, l);
    default: return cuda::launch_ctr<LeaDev<32>>(p, ctr, in, out, nbytes, stream, l);
    }
}

int lea_cuda_ctr_segments(const void *params, const uint8_t *keys, size_t key_stride, const uint8_t *ctrs,
                          size_t nseg, size_t seg_bytes, size_t last_bytes, uint8_t *out, void *stream)
{
    switch (static_cast<const LeaRoundKeys *>(params)->rounds) {
    case 24: return cuda::launch_ctr_segments<LeaDev<24>>(keys, key_stride, ctrs, nseg, seg_bytes, last_bytes, out, stream);
    case 28: return cuda::launch_ctr_segments<LeaDev<28>>(keys, key_stride, ctrs, nseg, seg_bytes, last_bytes, out, stream);
    default: return cuda::launch_ctr_segments<LeaDev<32>>(keys, key_stride, ctrs, nseg, seg_bytes, last_bytes, out, stream);
    }
}

const GpuOps lea_cuda_ops = {lea_cuda_ecb, lea_cuda_ctr, lea_cuda_ctr_segments};

bool lea_supports(Cipher c) { return c == Cipher::lea128 || c == Cipher::lea192 || c == Cipher::lea256; }

void lea_set_key(void *state, Cipher c, const uint8_t *key)
{
    lea_key_schedule(c, key, static_cast<LeaRoundKeys *>(state));
}

} // namespace

extern const Kernel lea_cuda_kernel = {
    "lea/cuda",
    "lea",
    16,
    1u << 20, // batch_blocks: a GPU wants at least this many blocks in flight
    true,     // constant_time: ARX, round keys read at public indices
    feat_cuda_gpu,
    -10, // rank: never the default for host memory (see docs/usage.md: --gpu)
    sizeof(LeaRoundKeys),
    lea_supports,
    lea_set_key,
    nullptr,
    nullptr,
    nullptr,
    &lea_cuda_ops,
};

} // namespace kc
