// aria/cuda-global and aria/cuda-constant: the ARM/GPU paper's first two placements of the
// four ARIA T-tables (4 KiB, aria_cuda_table.cuh), one block per thread, round keys as kernel
// parameters (the constant bank, read by all lanes at one address: a broadcast).
//
//   - global: the tables are __device__ data read through the read-only path (LDG.CONSTANT);
//     after the first touches they live in L1, but every lookup still costs an L1 access
//     with 32 lanes at scattered addresses.
//   - constant: the tables are __constant__ data. The constant cache serves one address per
//     cycle, so a warp whose lanes read different entries is serialised up to 32 ways: the
//     paper's example of a placement that looks right and is slow. Kept to measure it.
//
// Not constant-time: the lookups' addresses are secret bytes.
#include "aria/aria_cuda_launch.cuh"

namespace kc {
namespace aria_cuda {
namespace {

__constant__ const TTables const_ttables = make_ttables();

struct GlobalSrc {
    __device__ static const TTables &table() { return dev_ttables; }
};
struct ConstantSrc {
    __device__ static const TTables &table() { return const_ttables; }
};

template <class Src> struct FlatPlace {
    static constexpr bool keys_in_params = true;
    static constexpr size_t smem_bytes = 0;
    static constexpr unsigned default_threads = 256;
    struct Ctx {};
    __device__ static Ctx prepare(const AriaCudaKeys &, uint8_t *) { return {}; }
    __device__ static FlatTab<Src> tab(const Ctx &) { return {}; }
    __device__ static KeyRows ek(const Ctx &, const AriaCudaKeys &p) { return p.ek; }
    __device__ static KeyRows dk(const Ctx &, const AriaCudaKeys &p) { return p.dk; }
};

} // namespace
} // namespace aria_cuda

extern const Kernel aria_cuda_global_kernel =
    aria_cuda::table_kernel("aria/cuda-global", &aria_cuda::AriaTableOps<aria_cuda::FlatPlace<aria_cuda::GlobalSrc>>::ops);
extern const Kernel aria_cuda_constant_kernel =
    aria_cuda::table_kernel("aria/cuda-constant", &aria_cuda::AriaTableOps<aria_cuda::FlatPlace<aria_cuda::ConstantSrc>>::ops);

} // namespace kc
