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
    uint32_t mul[3];   // 2^9, 2^27, 2^29: rotations as IMAD.WIDE (a parameter, so that ptxas
                       // cannot turn the multiplication back into shifts)
};

// A 32-bit value kept as two halves whose XOR it is: a rotation done as one 32x32->64
// multiplication by 2^r (IMAD.WIDE, on the FMA pipe) leaves the halves apart, and the next
// XOR with a round key joins them in one 3-input LOP3.
struct Split {
    uint32_t lo, hi;
};

KC_HD uint32_t xor3(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    return a ^ b ^ c;
#endif
}

KC_HD Split rotl_wide(uint32_t x, uint32_t pow2)
{
#ifdef __CUDA_ARCH__
    uint64_t r;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(r) : "r"(x), "r"(pow2));
#else
    const uint64_t r = (uint64_t)x * pow2;
#endif
    return {(uint32_t)r, (uint32_t)(r >> 32)};
}

// Rotation of position j (0: rotl 9, 1: rotr 5, 2: rotr 3) in round r: on the FMA pipe where
// Sel says so (bits 0..2: positions; bit 3: odd rounds only), else a funnel shift.
template <int Sel> KC_HD Split rot_sel(int r, int j, uint32_t x, const uint32_t *mul)
{
    const bool fma = (Sel >> j & 1) && (!(Sel & 8) || (r & 1));
    if (fma)
        return rotl_wide(x, mul[j]);
    static constexpr int amount[3] = {9, 27, 29};
    return {rotl32(x, amount[j]), 0};
}

template <int R, int Sel = 0> struct LeaDev {
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
        pre.mul[0] = 1u << 9, pre.mul[1] = 1u << 27, pre.mul[2] = 1u << 29;
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
        if (Sel == 0) {
#pragma unroll
            for (int r = 2; r < R; r++)
                round(rk[r], a, b, c, d);
            ks[0] = a, ks[1] = b, ks[2] = c, ks[3] = d;
            return;
        }
        Split sa{a, 0}, sb{b, 0}, sc{c, 0}, sd{d, 0};
#pragma unroll
        for (int r = 2; r < R; r++) {
            const uint32_t *k = rk[r];
            const Split n0 = rot_sel<Sel>(r, 0, xor3(sa.lo, sa.hi, k[0]) + xor3(sb.lo, sb.hi, k[1]), pre.mul);
            const Split n1 = rot_sel<Sel>(r, 1, xor3(sb.lo, sb.hi, k[2]) + xor3(sc.lo, sc.hi, k[3]), pre.mul);
            const Split n2 = rot_sel<Sel>(r, 2, xor3(sc.lo, sc.hi, k[4]) + xor3(sd.lo, sd.hi, k[5]), pre.mul);
            sd = sa, sa = n0, sb = n1, sc = n2;
        }
        ks[0] = sa.lo ^ sa.hi, ks[1] = sb.lo ^ sb.hi, ks[2] = sc.lo ^ sc.hi, ks[3] = sd.lo ^ sd.hi;
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

template <int Sel>
int lea_cuda_ctr(const void *params, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nbytes,
                 void *stream, const GpuLaunch *l)
{
    const LeaRoundKeys &p = *static_cast<const LeaRoundKeys *>(params);
    switch (p.rounds) {
    case 24: return cuda::launch_ctr<LeaDev<24, Sel>>(p, ctr, in, out, nbytes, stream, l);
    case 28: return cuda::launch_ctr<LeaDev<28, Sel>>(p, ctr, in, out, nbytes, stream, l);
    default: return cuda::launch_ctr<LeaDev<32, Sel>>(p, ctr, in, out, nbytes, stream, l);
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

const GpuOps lea_cuda_ops = {lea_cuda_ecb, lea_cuda_ctr<0>, lea_cuda_ctr_segments};
// EXPERIMENT (to be removed): rotations on the FMA pipe.
const GpuOps lea_cuda_ops_x1 = {lea_cuda_ecb, lea_cuda_ctr<1>, lea_cuda_ctr_segments};
const GpuOps lea_cuda_ops_x2 = {lea_cuda_ecb, lea_cuda_ctr<1 | 8>, lea_cuda_ctr_segments};
const GpuOps lea_cuda_ops_x3 = {lea_cuda_ecb, lea_cuda_ctr<1 | 4>, lea_cuda_ctr_segments};
const GpuOps lea_cuda_ops_x4 = {lea_cuda_ecb, lea_cuda_ctr<5 | 8>, lea_cuda_ctr_segments};
const GpuOps lea_cuda_ops_x5 = {lea_cuda_ecb, lea_cuda_ctr<7 | 8>, lea_cuda_ctr_segments};

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

extern const Kernel lea_cuda_x1_kernel = {
    "lea/cuda-x1", "lea", 16, 1u << 20, true, feat_cuda_gpu, -11, sizeof(LeaRoundKeys),
    lea_supports, lea_set_key, nullptr, nullptr, nullptr, &lea_cuda_ops_x1,
};
extern const Kernel lea_cuda_x2_kernel = {
    "lea/cuda-x2", "lea", 16, 1u << 20, true, feat_cuda_gpu, -11, sizeof(LeaRoundKeys),
    lea_supports, lea_set_key, nullptr, nullptr, nullptr, &lea_cuda_ops_x2,
};
extern const Kernel lea_cuda_x3_kernel = {
    "lea/cuda-x3", "lea", 16, 1u << 20, true, feat_cuda_gpu, -11, sizeof(LeaRoundKeys),
    lea_supports, lea_set_key, nullptr, nullptr, nullptr, &lea_cuda_ops_x3,
};
extern const Kernel lea_cuda_x4_kernel = {
    "lea/cuda-x4", "lea", 16, 1u << 20, true, feat_cuda_gpu, -11, sizeof(LeaRoundKeys),
    lea_supports, lea_set_key, nullptr, nullptr, nullptr, &lea_cuda_ops_x4,
};
extern const Kernel lea_cuda_x5_kernel = {
    "lea/cuda-x5", "lea", 16, 1u << 20, true, feat_cuda_gpu, -11, sizeof(LeaRoundKeys),
    lea_supports, lea_set_key, nullptr, nullptr, nullptr, &lea_cuda_ops_x5,
};

} // namespace kc
