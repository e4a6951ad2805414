// seed/cuda: SEED on the GPU, one block per thread at a time, G by lookups in the four SS
// tables held in shared memory as 32 conflict-free copies (seed_cuda_g.cuh).
//
//   - Work per block: 48 G of four lookups each (192 shared-memory loads, each after one PRMT
//     that forms its address), the XORs that merge them, 48 additions and the round keys'
//     XORs. Round keys are launch parameters in the constant bank (broadcast reads).
//   - CTR builds the counter block in registers, one block per loop turn: two per turn
//     spilled at the 32 registers ptxas allots for 1024-thread blocks.
//   - The key schedule runs on the host for a launch (set_key) and on the device for the
//     DRBG's many keys (set_keys: one key per thread, its 32 G from global memory).
//
// Not constant-time: the table lookups' addresses are secret bytes.
#include "core/kernel.hpp"
#include "core/wipe.hpp"
#include "cuda/gpu_ops.hpp"
#include "cuda/gcm_kernels.cuh"
#include "cuda/grid_kernels.cuh"
#include "cuda/key_states.cuh"
#include "cuda/xts_kernels.cuh"
#include "seed/seed.hpp"
#include "seed/seed_cuda_g.cuh"
#include "seed/seed_key_inputs.hpp"

namespace kc {
namespace {

using cuda::bswap32;
using seed_cuda::SharedSs;

// This kernel's key state (host and device): the 32 round-key words in encryption order and
// in decryption order (the pairs reversed).
struct SeedCudaKeys {
    uint32_t enc[2 * seed_rounds];
    uint32_t dec[2 * seed_rounds];
};

struct SeedPre {
    uint32_t w[3]; // the counter's fixed big-endian words 0..2
};

struct SeedDev {
    static constexpr int NW = 4;
    static constexpr size_t smem_bytes = SharedSs::bytes;
    static constexpr unsigned default_threads = 1024;
    using Params = SeedCudaKeys;
    using Pre = SeedPre;
    using Ctx = SharedSs;

    __device__ static Ctx prepare(const Params &, uint8_t *smem) { return SharedSs::fill_and_get(smem); }

    static Pre precompute(const Params &, const uint32_t w[4])
    {
        return {{bswap32(w[0]), bswap32(w[1]), bswap32(w[2])}};
    }

    __device__ static void ctr_block(const Ctx &g, const Params &p, const Pre &pre, uint32_t ctr_lo, uint32_t ks[4])
    {
        uint32_t x[4] = {pre.w[0], pre.w[1], pre.w[2], ctr_lo};
        seed_cuda::rounds(g, p.enc, x);
        for (int j = 0; j < 4; j++)
            ks[j] = bswap32(x[j]);
    }

    __device__ static void crypt(const Ctx &g, const uint32_t *rk, uint32_t w[4])
    {
        uint32_t x[4];
        for (int j = 0; j < 4; j++)
            x[j] = bswap32(w[j]);
        seed_cuda::rounds(g, rk, x);
        for (int j = 0; j < 4; j++)
            w[j] = bswap32(x[j]);
    }
    __device__ static void encrypt(const Ctx &g, const Params &p, uint32_t w[4]) { crypt(g, p.enc, w); }
    __device__ static void decrypt(const Ctx &g, const Params &p, uint32_t w[4]) { crypt(g, p.dec, w); }
};

// G from the global-memory tables, for the key schedule on the device.
struct GlobalG {
    __device__ uint32_t operator()(uint32_t x) const
    {
        const seed_cuda::SsTables &s = seed_cuda::dev_ss;
        return s.t[0][x & 255] ^ s.t[1][(x >> 8) & 255] ^ s.t[2][(x >> 16) & 255] ^ s.t[3][x >> 24];
    }
};

struct SeedKeyOnDevice {
    __device__ void operator()(const uint8_t *raw, uint8_t *state) const
    {
        SeedCudaKeys &k = *reinterpret_cast<SeedCudaKeys *>(state);
        uint32_t in[2 * seed_rounds];
        seed_key_schedule_inputs(raw, in);
        const GlobalG g;
#pragma unroll
        for (int i = 0; i < 2 * seed_rounds; i++)
            k.enc[i] = g(in[i]);
    }
};

int seed_cuda_ecb(const void *params, bool decrypt, const uint8_t *in, uint8_t *out, size_t n, void *stream,
                  const GpuLaunch *l)
{
    return cuda::launch_ecb<SeedDev>(*static_cast<const SeedCudaKeys *>(params), decrypt, in, out, n, stream, l);
}

int seed_cuda_ctr(const void *params, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nbytes,
                  void *stream, const GpuLaunch *l)
{
    return cuda::launch_ctr<SeedDev>(*static_cast<const SeedCudaKeys *>(params), ctr, in, out, nbytes, stream, l);
}

int seed_cuda_ctr_segments(const void *, const uint8_t *keys, size_t key_stride, const uint8_t *ctrs, size_t nseg,
                           size_t seg_bytes, size_t last_bytes, uint8_t *out, void *stream)
{
    return cuda::launch_ctr_segments<SeedDev>(keys, key_stride, ctrs, nseg, seg_bytes, last_bytes, out, stream);
}

int seed_cuda_set_keys(Cipher c, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states,
                       size_t state_stride, void *stream)
{
    if (c != Cipher::seed128)
        return cudaErrorInvalidValue;
    return cuda::launch_set_keys<SeedCudaKeys>(SeedKeyOnDevice{}, raw, raw_stride, n, states, state_stride, stream);
}

int seed_cuda_gcm(const void *params, const GcmPass &pass, void *stream)
{
    return cuda::launch_gcm<SeedDev>(*static_cast<const SeedCudaKeys *>(params), pass, stream);
}

int seed_cuda_xts(const void *params, const void *tweak_params, const XtsPass &pass, void *stream)
{
    return cuda::launch_xts<SeedDev>(*static_cast<const SeedCudaKeys *>(params),
                                     *static_cast<const SeedCudaKeys *>(tweak_params), pass, stream);
}

const GpuOps seed_cuda_ops = {seed_cuda_ecb, seed_cuda_ctr, seed_cuda_ctr_segments, seed_cuda_set_keys, seed_cuda_gcm,
                              seed_cuda_xts};

void seed_cuda_set_key(void *state, Cipher c, const uint8_t *key)
{
    SeedCudaKeys &k = *static_cast<SeedCudaKeys *>(state);
    SeedRoundKeys rk;
    seed_key_schedule(c, key, &rk);
    for (int r = 0; r < seed_rounds; r++)
        for (int j = 0; j < 2; j++) {
            k.enc[2 * r + j] = rk.k[r][j];
            k.dec[2 * r + j] = rk.k[seed_rounds - 1 - r][j];
        }
    secure_wipe(&rk, sizeof rk);
}

} // namespace

// The descriptor: 16-byte blocks; a GPU wants at least 2^20 in flight; not constant-time
// (shared-memory lookups at secret indices); rank -10, never the default for host memory
// (docs/usage.md: --gpu); host entry points null, the modes go through seed_cuda_ops.
extern const Kernel seed_cuda_kernel = {
    "seed/cuda", "seed", 16, 1u << 20, false, feat_cuda_gpu, -10, sizeof(SeedCudaKeys), seed_supports,
    seed_cuda_set_key, nullptr, nullptr, nullptr, &seed_cuda_ops};

} // namespace kc
