// aria/cuda-shared-1k-x32 and aria/cuda-shared-4k-x32: ARIA T-table kernels whose shared
// tables have one copy per bank, the copy read by lane l sitting in bank l, so a warp's 32
// lookups hit 32 different banks whatever the data: no bank conflict, ever (layouts in
// aria_cuda_table.cuh).
//
//   - 1k-x32: the ARIA-CTR paper's design: one 1 KiB combined table (SB1..SB4 of x in one
//     word) in 32 copies; a PRMT rebuilds each T-table word from the entry. Rows of 256
//     bytes (half of each unused, 64 KiB) so that a lookup's offset is one PRMT as well.
//   - 4k-x32: the four T-tables in 32 copies, 128 KiB, which GH100's 228 KiB of shared
//     memory per SM allows: no rebuild at all. One CUDA block fits per SM, so it runs 1024
//     threads per block.
//
// The 1k kernel's 64 KiB allow two CUDA blocks of 1024 threads per SM: 2048 threads, full
// occupancy at its 32 registers. (The 4k kernel, at one block per SM, runs at half.)
//
// Not constant-time: the lookups' addresses are secret bytes (one entry of 256 per copy).
#include "aria/aria_cuda_launch.cuh"

namespace kc {
namespace aria_cuda {
namespace {

static __device__ const CombinedTable dev_combined = make_combined_table();

struct DeviceCombined {
    __device__ static const CombinedTable &table() { return dev_combined; }
};

using Combined1kPlace = SharedPlace<Combined1kX32Tab<256>, DeviceCombined, 1024>;
using TTables4kPlace = SharedPlace<TTables4kX32Tab, DeviceTTables, 1024>;

} // namespace
} // namespace aria_cuda

extern const Kernel aria_cuda_shared_1k_x32_kernel =
    aria_cuda::table_kernel("aria/cuda-shared-1k-x32", &aria_cuda::AriaTableOps<aria_cuda::Combined1kPlace>::ops, -12);
extern const Kernel aria_cuda_shared_4k_x32_kernel =
    aria_cuda::table_kernel("aria/cuda-shared-4k-x32", &aria_cuda::AriaTableOps<aria_cuda::TTables4kPlace>::ops, -10);

} // namespace kc
