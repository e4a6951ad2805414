// lea/cuda: LEA on the GPU, one block per thread at a time (the ARX paper's design, carried
// further).
//
//   - Round keys are launch parameters: they sit in the constant bank, read by every thread
//     at the same address (a broadcast), and ptxas folds them into the XORs as c[][] operands.
//   - Rotations are funnel shifts (SHF), the rounds fully unrolled (R is a template argument).
//   - CTR: the counter's low 32 bits are word 3 of the block; words 0..2 are fixed for the
//     launch. What rounds 0..3 compute from fixed words alone the host does once per launch
//     (LeaPre); a thread runs 21 of those rounds' 36 ALU operations.
//   - CTR runs four blocks per loop turn, so that the loop's own work is shared.
//
// Constant-time: ARX only, as lea/ref.
#include "core/kernel.hpp"
#include "cuda/gcm_kernels.cuh"
#include "cuda/grid_kernels.cuh"
#include "cuda/xts_kernels.cuh"
#include "lea/lea.hpp"
#include "lea/lea_cuda_round.cuh"

namespace kc {

int lea_cuda_set_keys(Cipher c, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states,
                      size_t state_stride, void *stream); // lea_cuda_key.cu

namespace {

using cuda::rotl32;
using cuda::rotr32;

// The values of CTR rounds 0..3 that depend on the fixed words 0..2 alone (each already
// XORed with the round-key word it meets), computed once per launch. With X = (a, b, c, d)
// the state, round r makes a' = ROL9((a ^ k0) + (b ^ k1)), b' = ROR5((b ^ k2) + (c ^ k3)),
// c' = ROR3((c ^ k4) + (d ^ k5)), d' = a. Only c depends on the counter after round 0, and b
// after round 1, so of rounds 0..3's 36 ALU operations a thread runs 21.
struct LeaPre {
    uint32_t r0_c;    // round 0: c ^ k4
    uint32_t r1_a;    // a after round 1
    uint32_t r1_bk;   // round 1: b ^ k2 (b after round 0)
    uint32_t r1_dk;   // round 1: d ^ k5 (d after round 0 = input a)
    uint32_t r2_ak;   // round 2: a ^ k0 (a after round 1)
    uint32_t r2_dk;   // round 2: d ^ k5 (d after round 1 = a after round 0)
    uint32_t r3_dk;   // round 3: d ^ k5 (d after round 2 = a after round 1)
};

template <int R> struct LeaDev {
    static constexpr int NW = 4;
    static constexpr size_t smem_bytes = 0;
    // Four blocks per loop turn (grid_kernels.cuh: unroll_of): the loop's own work (bound
    // test, addresses, counter) and the round keys' constant loads are shared by four
    // blocks. Measured on the H100 (keystream, LEA-128): 1 block 9.05 Tbps, 2 blocks 9.71,
    // 4 blocks 10.06-10.12; ncu: ALU pipe 95% busy at 4.
    static constexpr int unroll = 4;
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
        const uint32_t a0 = rotl32((w[0] ^ rk[0][0]) + (w[1] ^ rk[0][1]), 9);
        const uint32_t b0 = rotr32((w[1] ^ rk[0][2]) + (w[2] ^ rk[0][3]), 5);
        const uint32_t a1 = rotl32((a0 ^ rk[1][0]) + (b0 ^ rk[1][1]), 9);
        Pre pre;
        pre.r0_c = w[2] ^ rk[0][4];
        pre.r1_a = a1;
        pre.r1_bk = b0 ^ rk[1][2];
        pre.r1_dk = w[0] ^ rk[1][5];
        pre.r2_ak = a1 ^ rk[2][0];
        pre.r2_dk = a0 ^ rk[2][5];
        pre.r3_dk = a1 ^ rk[3][5];
        return pre;
    }

    __device__ static void ctr_block(const Ctx &, const Params &p, const Pre &pre, uint32_t ctr_lo,
                                     uint32_t ks[4])
    {
        const uint32_t(*rk)[6] = p.rk;
        // Round 0: only c depends on the counter (word 3).
        const uint32_t c0 = rotr32(pre.r0_c + (cuda::bswap32(ctr_lo) ^ rk[0][5]), 3);
        // Round 1: a is fixed; b and c take c0.
        const uint32_t b1 = rotr32(pre.r1_bk + (c0 ^ rk[1][3]), 5);
        const uint32_t c1 = rotr32((c0 ^ rk[1][4]) + pre.r1_dk, 3);
        // Round 2: a ^ k0 and d ^ k5 are fixed.
        uint32_t a = rotl32(pre.r2_ak + (b1 ^ rk[2][1]), 9);
        uint32_t b = rotr32((b1 ^ rk[2][2]) + (c1 ^ rk[2][3]), 5);
        uint32_t c = rotr32((c1 ^ rk[2][4]) + pre.r2_dk, 3);
        // Round 3: d (a after round 1) is fixed.
        const uint32_t a3 = rotl32((a ^ rk[3][0]) + (b ^ rk[3][1]), 9);
        const uint32_t b3 = rotr32((b ^ rk[3][2]) + (c ^ rk[3][3]), 5);
        const uint32_t c3 = rotr32((c ^ rk[3][4]) + pre.r3_dk, 3);
        uint32_t d = a;
        a = a3, b = b3, c = c3;
#pragma unroll
        for (int r = 4; r < R; r++)
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

int lea_cuda_gcm(const void *params, const GcmPass &pass, void *stream)
{
    const LeaRoundKeys &p = *static_cast<const LeaRoundKeys *>(params);
    switch (p.rounds) {
    case 24: return cuda::launch_gcm<LeaDev<24>>(p, pass, stream);
    case 28: return cuda::launch_gcm<LeaDev<28>>(p, pass, stream);
    default: return cuda::launch_gcm<LeaDev<32>>(p, pass, stream);
    }
}

int lea_cuda_xts(const void *params, const void *tweak_params, const XtsPass &pass, void *stream)
{
    const LeaRoundKeys &p = *static_cast<const LeaRoundKeys *>(params);
    const LeaRoundKeys &t = *static_cast<const LeaRoundKeys *>(tweak_params);
    switch (p.rounds) {
    case 24: return cuda::launch_xts<LeaDev<24>>(p, t, pass, stream);
    case 28: return cuda::launch_xts<LeaDev<28>>(p, t, pass, stream);
    default: return cuda::launch_xts<LeaDev<32>>(p, t, pass, stream);
    }
}

const GpuOps lea_cuda_ops = {lea_cuda_ecb, lea_cuda_ctr, lea_cuda_ctr_segments, lea_cuda_set_keys, lea_cuda_gcm,
                             lea_cuda_xts};

bool lea_supports(Cipher c) { return c == Cipher::lea128 || c == Cipher::lea192 || c == Cipher::lea256; }

void lea_set_key(void *state, Cipher c, const uint8_t *key)
{
    lea_key_schedule(c, key, static_cast<LeaRoundKeys *>(state));
}

} // namespace

// Descriptor: batch_blocks: a GPU wants at least this many blocks in flight; constant_time: ARX,
// round keys read at public indices; rank: never the default for host memory (see docs/usage.md:
// --gpu).
extern const Kernel lea_cuda_kernel = {
    "lea/cuda", "lea", 16, 1u << 20, true, feat_cuda_gpu, -10, sizeof(LeaRoundKeys),
    lea_supports, lea_set_key, nullptr, nullptr, nullptr, &lea_cuda_ops};

} // namespace kc
