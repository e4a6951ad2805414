// cham/cuda: revised CHAM (all three variants) on the GPU, one block per thread.
//
//   - Round keys are launch parameters (the constant bank, broadcast to every thread); the
//     112 or 120 rounds are unrolled so that RK_{i mod 2k/w} and the round number i are
//     immediates.
//   - Rotations of 32-bit words are funnel shifts; for 16-bit words ROL8 is a byte permute
//     (PRMT) and ROL1 a shift pair.
//   - CTR: the counter's low 32 bits are the last word(s) of the block. Rounds 0 and 1 of
//     CHAM-128 read only words 0..2, which are fixed for the launch, and round 0 of CHAM-64
//     reads only words 0 and 1: the host computes those rounds once per launch (Pre).
//
// Constant-time: ARX only, as cham/ref.
#include "cham/cham.hpp"
#include "cham/cham_cuda_round.cuh"
#include "core/kernel.hpp"
#include "cuda/gcm_kernels.cuh"
#include "cuda/grid_kernels.cuh"
#include "cuda/xts_kernels.cuh"

namespace kc {

int cham_cuda_set_keys(Cipher c, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states,
                       size_t state_stride, void *stream); // cham_cuda_key.cu

namespace {

using namespace cham_cuda;

struct ChamPre {
    uint32_t x[4]; // the state after the rounds computed once per launch (x[fixed..] pending)
};

// W16: CHAM-64/128 (NW = 2, four 16-bit words in two registers); else CHAM-128/* (NW = 4).
// R rounds, NRK round keys.
template <bool W16, int R, int NRK> struct ChamDev {
    static constexpr int NW = W16 ? 2 : 4;
    static constexpr int PRE = W16 ? 1 : 2; // rounds that read only fixed words
    static constexpr size_t smem_bytes = 0;
    static constexpr int unroll = 2; // two blocks per loop turn (grid_kernels.cuh: unroll_of)
    using Params = ChamRoundKeys;
    using Pre = ChamPre;
    struct Ctx {};

    __device__ static Ctx prepare(const Params &, uint8_t *) { return {}; }

    KC_HD static void unpack(const uint32_t *w, uint32_t *x)
    {
        if (W16)
            x[0] = w[0] & 0xffff, x[1] = w[0] >> 16, x[2] = w[1] & 0xffff, x[3] = w[1] >> 16;
        else
            x[0] = w[0], x[1] = w[1], x[2] = w[2], x[3] = w[3];
    }

    KC_HD static void pack(const uint32_t *x, uint32_t *w)
    {
        if (W16)
            w[0] = x[0] | x[1] << 16, w[1] = x[2] | x[3] << 16;
        else
            w[0] = x[0], w[1] = x[1], w[2] = x[2], w[3] = x[3];
    }

    // Rounds 0..PRE-1 on the fixed words; the words that hold the counter are left as they
    // come in (they are only read from round PRE on).
    static Pre precompute(const Params &p, const uint32_t w[NW])
    {
        uint32_t x[4];
        unpack(w, x);
        for (int i = 0; i < PRE; i++)
            cham_round<W16>(x, i, p.rk[i % NRK]);
        return {{x[0], x[1], x[2], x[3]}};
    }

    __device__ static void ctr_block(const Ctx &, const Params &p, const Pre &pre, uint32_t ctr_lo,
                                     uint32_t ks[NW])
    {
        const uint32_t lo = cuda::bswap32(ctr_lo); // the last 32-bit word as read little-endian
        uint32_t x[4] = {pre.x[0], pre.x[1], pre.x[2], pre.x[3]};
        // After PRE rounds the counter words sit at positions 4-PRE-... : CHAM-128 (PRE 2):
        // (X2, X3, t0, t1) with X3 the counter word; CHAM-64 (PRE 1): (X1, X2, X3, t0) with
        // X2, X3 the low and high halves of the counter word.
        if (W16)
            x[1] = lo & 0xffff, x[2] = lo >> 16;
        else
            x[1] = lo;
#pragma unroll
        for (int i = PRE; i < R; i++)
            cham_round<W16>(x, i, p.rk[i % NRK]);
        pack(x, ks);
    }

    __device__ static void encrypt(const Ctx &, const Params &p, uint32_t w[NW])
    {
        uint32_t x[4];
        unpack(w, x);
#pragma unroll
        for (int i = 0; i < R; i++)
            cham_round<W16>(x, i, p.rk[i % NRK]);
        pack(x, w);
    }

    __device__ static void decrypt(const Ctx &, const Params &p, uint32_t w[NW])
    {
        uint32_t x[4];
        unpack(w, x);
#pragma unroll
        for (int i = R - 1; i >= 0; i--)
            cham_unround<W16>(x, i, p.rk[i % NRK]);
        pack(x, w);
    }
};

using Cham64 = ChamDev<true, 88, 16>;
using Cham128 = ChamDev<false, 112, 8>;
using Cham256 = ChamDev<false, 120, 16>;

int cham_cuda_ecb(const void *params, bool decrypt, const uint8_t *in, uint8_t *out, size_t n,
                  void *stream, const GpuLaunch *l)
{
    const ChamRoundKeys &p = *static_cast<const ChamRoundKeys *>(params);
    switch (p.cipher) {
    case Cipher::cham64_128: return cuda::launch_ecb<Cham64>(p, decrypt, in, out, n, stream, l);
    case Cipher::cham128_128: return cuda::launch_ecb<Cham128>(p, decrypt, in, out, n, stream, l);
    default: return cuda::launch_ecb<Cham256>(p, decrypt, in, out, n, stream, l);
    }
}

int cham_cuda_ctr(const void *params, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nbytes,
                  void *stream, const GpuLaunch *l)
{
    const ChamRoundKeys &p = *static_cast<const ChamRoundKeys *>(params);
    switch (p.cipher) {
    case Cipher::cham64_128: return cuda::launch_ctr<Cham64>(p, ctr, in, out, nbytes, stream, l);
    case Cipher::cham128_128: return cuda::launch_ctr<Cham128>(p, ctr, in, out, nbytes, stream, l);
    default: return cuda::launch_ctr<Cham256>(p, ctr, in, out, nbytes, stream, l);
    }
}

int cham_cuda_ctr_segments(const void *params, const uint8_t *keys, size_t key_stride, const uint8_t *ctrs,
                           size_t nseg, size_t seg_bytes, size_t last_bytes, uint8_t *out, void *stream)
{
    switch (static_cast<const ChamRoundKeys *>(params)->cipher) {
    case Cipher::cham64_128:
        return cuda::launch_ctr_segments<Cham64>(keys, key_stride, ctrs, nseg, seg_bytes, last_bytes, out, stream);
    case Cipher::cham128_128:
        return cuda::launch_ctr_segments<Cham128>(keys, key_stride, ctrs, nseg, seg_bytes, last_bytes, out, stream);
    default:
        return cuda::launch_ctr_segments<Cham256>(keys, key_stride, ctrs, nseg, seg_bytes, last_bytes, out, stream);
    }
}

// GCM: the 128-bit-block variants only (the C API refuses CHAM-64 before this).
int cham_cuda_gcm(const void *params, const GcmPass &pass, void *stream)
{
    const ChamRoundKeys &p = *static_cast<const ChamRoundKeys *>(params);
    switch (p.cipher) {
    case Cipher::cham128_128: return cuda::launch_gcm<Cham128>(p, pass, stream);
    case Cipher::cham128_256: return cuda::launch_gcm<Cham256>(p, pass, stream);
    default: return cudaErrorInvalidValue;
    }
}

// XTS: the 128-bit-block variants only (kcipher_new refuses an XTS key for CHAM-64).
int cham_cuda_xts(const void *params, const void *tweak_params, const XtsPass &pass, void *stream)
{
    const ChamRoundKeys &p = *static_cast<const ChamRoundKeys *>(params);
    const ChamRoundKeys &t = *static_cast<const ChamRoundKeys *>(tweak_params);
    switch (p.cipher) {
    case Cipher::cham128_128: return cuda::launch_xts<Cham128>(p, t, pass, stream);
    case Cipher::cham128_256: return cuda::launch_xts<Cham256>(p, t, pass, stream);
    default: return cudaErrorInvalidValue;
    }
}

const GpuOps cham_cuda_ops = {cham_cuda_ecb, cham_cuda_ctr, cham_cuda_ctr_segments, cham_cuda_set_keys, cham_cuda_gcm,
                              cham_cuda_xts};

bool cham_supports(Cipher c)
{
    return c == Cipher::cham64_128 || c == Cipher::cham128_128 || c == Cipher::cham128_256;
}

void cham_set_key(void *state, Cipher c, const uint8_t *key)
{
    cham_key_schedule(c, key, static_cast<ChamRoundKeys *>(state), cham_revised_rounds(c));
}

} // namespace

// Descriptor: block_bytes: the family's largest block; CHAM-64/128's 8 comes from the key state, as
// on the CPU; constant_time: ARX, round keys at public indices.
extern const Kernel cham_cuda_kernel = {
    "cham/cuda", "cham", 16, 1u << 20, true, feat_cuda_gpu, -10, sizeof(ChamRoundKeys),
    cham_supports, cham_set_key, nullptr, nullptr, nullptr, &cham_cuda_ops};

} // namespace kc
