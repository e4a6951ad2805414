// Glue shared by the ARIA T-table CUDA kernels (aria_cuda_global.cu, aria_cuda_shared.cu,
// aria_cuda_x32.cu): a "device cipher" for grid_kernels.cuh over a table placement, the
// GpuOps that pick the round count, and the host-side key setup. A placement says where
// the tables (and round keys) live:
//
//   struct Place {
//       static constexpr size_t smem_bytes;       // dynamic shared memory per CUDA block
//       static constexpr unsigned default_threads; // threads per CUDA block by default
//       struct Ctx;                                // per-thread view, made once per CUDA block
//       __device__ static Ctx prepare(const AriaCudaKeys &, uint8_t *smem); // fills, syncs
//       __device__ static Tab tab(const Ctx &);    // a table layout (aria_cuda_table.cuh)
//       __device__ static KeyRows ek(const Ctx &, const AriaCudaKeys &); // and dk:
//                                                   // const uint32_t (*)[4], maybe volatile
//   };
#pragma once

#include "aria/aria.hpp"
#include "aria/aria_cuda_table.cuh"
#include "core/kernel.hpp"
#include "core/wipe.hpp"
#include "cuda/gcm_kernels.cuh"
#include "cuda/grid_kernels.cuh"
#include "cuda/xts_kernels.cuh"

namespace kc::aria_cuda {

using KeyRows = const uint32_t (*)[4];

// The T-tables in global memory: the source that shared-memory placements copy from, and
// the table of aria/cuda-global. Constant-initialised, so no upload per device.
static __device__ const TTables dev_ttables = make_ttables();

template <class Place, int R> struct AriaTableDev {
    static constexpr int NW = 4;
    static constexpr size_t smem_bytes = Place::smem_bytes;
    static constexpr unsigned default_threads = Place::default_threads;
    using Params = AriaCudaKeys;
    using Pre = AriaCtrPre;
    using Ctx = typename Place::Ctx;

    __device__ static Ctx prepare(const Params &p, uint8_t *smem) { return Place::prepare(p, smem); }

    static Pre precompute(const Params &p, const uint32_t w[4]) { return ctr_precompute(HostTab{}, p, w); }

    __device__ static void ctr_block(const Ctx &c, const Params &p, const Pre &pre, uint32_t ctr_lo, uint32_t ks[4])
    {
        ctr_keystream<R>(Place::tab(c), Place::ek(c, p), pre, ctr_lo, ks);
    }

    __device__ static void encrypt(const Ctx &c, const Params &p, uint32_t w[4])
    {
        crypt_block<R>(Place::tab(c), Place::ek(c, p), w);
    }

    __device__ static void decrypt(const Ctx &c, const Params &p, uint32_t w[4])
    {
        crypt_block<R>(Place::tab(c), Place::dk(c, p), w);
    }
};

// Whether a placement reads round keys from the launch's Params (Place::keys_in_params).
template <class Place, class = void> struct keys_in_params : std::false_type {};
template <class Place>
struct keys_in_params<Place, std::void_t<decltype(Place::keys_in_params)>> : std::bool_constant<Place::keys_in_params> {};
template <class Place> inline constexpr bool keys_in_params_v = keys_in_params<Place>::value;

// GpuOps::set_keys for the placements that read round keys from the launch's Params
// (aria_cuda_key.cu).
int set_keys(Cipher c, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states, size_t state_stride,
             void *stream);

// The rounds are a template argument (fully unrolled, keys as constant-bank operands).
template <class Place> struct AriaTableOps {
    static int ecb(const void *params, bool decrypt, const uint8_t *in, uint8_t *out, size_t n, void *stream,
                   const GpuLaunch *l)
    {
        const AriaCudaKeys &p = *static_cast<const AriaCudaKeys *>(params);
        switch (p.rounds) {
        case 12: return cuda::launch_ecb<AriaTableDev<Place, 12>>(p, decrypt, in, out, n, stream, l);
        case 14: return cuda::launch_ecb<AriaTableDev<Place, 14>>(p, decrypt, in, out, n, stream, l);
        default: return cuda::launch_ecb<AriaTableDev<Place, 16>>(p, decrypt, in, out, n, stream, l);
        }
    }

    static int ctr(const void *params, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nbytes,
                   void *stream, const GpuLaunch *l)
    {
        const AriaCudaKeys &p = *static_cast<const AriaCudaKeys *>(params);
        switch (p.rounds) {
        case 12: return cuda::launch_ctr<AriaTableDev<Place, 12>>(p, ctr, in, out, nbytes, stream, l);
        case 14: return cuda::launch_ctr<AriaTableDev<Place, 14>>(p, ctr, in, out, nbytes, stream, l);
        default: return cuda::launch_ctr<AriaTableDev<Place, 16>>(p, ctr, in, out, nbytes, stream, l);
        }
    }

    // Only placements that read the round keys from the launch's Params (not a copy made
    // once per CUDA block) can change keys between segments.
    static int ctr_segments(const void *params, const uint8_t *keys, size_t key_stride, const uint8_t *ctrs,
                            size_t nseg, size_t seg_bytes, size_t last_bytes, uint8_t *out, void *stream)
    {
        switch (static_cast<const AriaCudaKeys *>(params)->rounds) {
        case 12: return cuda::launch_ctr_segments<AriaTableDev<Place, 12>>(keys, key_stride, ctrs, nseg, seg_bytes, last_bytes, out, stream);
        case 14: return cuda::launch_ctr_segments<AriaTableDev<Place, 14>>(keys, key_stride, ctrs, nseg, seg_bytes, last_bytes, out, stream);
        default: return cuda::launch_ctr_segments<AriaTableDev<Place, 16>>(keys, key_stride, ctrs, nseg, seg_bytes, last_bytes, out, stream);
        }
    }

    static int gcm(const void *params, const GcmPass &pass, void *stream)
    {
        const AriaCudaKeys &p = *static_cast<const AriaCudaKeys *>(params);
        switch (p.rounds) {
        case 12: return cuda::launch_gcm<AriaTableDev<Place, 12>>(p, pass, stream);
        case 14: return cuda::launch_gcm<AriaTableDev<Place, 14>>(p, pass, stream);
        default: return cuda::launch_gcm<AriaTableDev<Place, 16>>(p, pass, stream);
        }
    }

    static int xts(const void *params, const void *tweak_params, const XtsPass &pass, void *stream)
    {
        const AriaCudaKeys &p = *static_cast<const AriaCudaKeys *>(params);
        const AriaCudaKeys &t = *static_cast<const AriaCudaKeys *>(tweak_params);
        switch (p.rounds) {
        case 12: return cuda::launch_xts<AriaTableDev<Place, 12>>(p, t, pass, stream);
        case 14: return cuda::launch_xts<AriaTableDev<Place, 14>>(p, t, pass, stream);
        default: return cuda::launch_xts<AriaTableDev<Place, 16>>(p, t, pass, stream);
        }
    }

    static constexpr GpuOps ops = {ecb, ctr, keys_in_params_v<Place> ? ctr_segments : nullptr,
                                   keys_in_params_v<Place> ? set_keys : nullptr, gcm, xts};
};

inline bool aria_cuda_supports(Cipher c)
{
    return c == Cipher::aria128 || c == Cipher::aria192 || c == Cipher::aria256;
}

inline void aria_cuda_set_key(void *state, Cipher c, const uint8_t *key)
{
    AriaRoundKeys rk;
    aria_key_schedule(c, key, &rk);
    keys_from_schedule(rk, static_cast<AriaCudaKeys *>(state));
    secure_wipe(&rk, sizeof rk);
}

// A descriptor: all these kernels differ only in name and placement.
// rank orders the GPU kernels among themselves for kcipher_default_gpu_kernel (all below 0:
// never the default for host memory): by the keystream rate measured on an H100
// (docs/performance.md).
constexpr Kernel table_kernel(const char *name, const GpuOps *ops, int rank = -20)
{
    return Kernel{
        name,
        "aria",
        16,
        1u << 20, // batch_blocks: a GPU wants at least this many blocks in flight
        false,    // constant_time: T-table lookups at secret-dependent addresses
        feat_cuda_gpu,
        rank,
        sizeof(AriaCudaKeys),
        aria_cuda_supports,
        aria_cuda_set_key,
        nullptr,
        nullptr,
        nullptr,
        ops,
    };
}

} // namespace kc::aria_cuda

namespace kc::aria_cuda {

// Tables in dynamic shared memory, filled by every CUDA block from Src::table() (global
// memory), round keys as kernel parameters. Tab is one of the shared layouts of
// aria_cuda_table.cuh; the copy a thread reads is chosen by its lane.
template <class Tab, class Src, unsigned Threads> struct SharedPlace {
    static constexpr bool keys_in_params = true;
    static constexpr size_t smem_bytes = Tab::bytes;
    static constexpr unsigned default_threads = Threads;
    struct Ctx {
        Tab tab;
    };
    __device__ static Ctx prepare(const AriaCudaKeys &, uint8_t *smem)
    {
        Tab::fill(smem, Src::table(), threadIdx.x, blockDim.x);
        __syncthreads();
        return {Tab::at(smem, threadIdx.x % 32)};
    }
    __device__ static Tab tab(const Ctx &c) { return c.tab; }
    __device__ static KeyRows ek(const Ctx &, const AriaCudaKeys &p) { return p.ek; }
    __device__ static KeyRows dk(const Ctx &, const AriaCudaKeys &p) { return p.dk; }
};

struct DeviceTTables {
    __device__ static const TTables &table() { return dev_ttables; }
};

} // namespace kc::aria_cuda
