// aria/cuda-shared, aria/cuda-shared-nx256, aria/cuda-shared-256xn: the ARM/GPU paper's
// shared-memory placements of the four ARIA T-tables (aria_cuda_table.cuh), one block per
// thread. Every CUDA block copies the tables from global memory into shared memory once.
//
//   - shared: one copy, [4][256] words (4 KiB), and the round keys copied into shared
//     memory too, as in the paper. Lanes whose bytes are equal mod 32 (and differ) conflict.
//   - shared-nx256: N copies as [N][4][256], copy = lane % N. Each copy starts at bank 0,
//     so replication cannot spread a warp's lookups over more banks: the paper's layout,
//     kept to show that the layout, not the number of copies, removes conflicts.
//   - shared-256xn: N copies as [256][4][N], copy = lane % N: copy c of any entry is in bank
//     (q*N + c) mod 32, so at most 32/N lanes share a bank.
//
// N = 16 for both replicated kernels (64 KiB, equal footprints so that they compare
// layouts). For 256xn it is the largest N whose four tables still fit with more than one
// CUDA block per SM (N = 32 is aria/cuda-shared-4k-x32, 128 KiB), it bounds conflicts at
// 2-way (lanes l and l+16), and its 256-byte rows make a lookup's offset one PRMT,
// (x << 8) | (c << 2), with the table as an immediate; N = 8 would mean 4-way conflicts and a
// shift and a mask per lookup. 64 KiB per CUDA block allows two blocks per SM (three leave
// no room for 1024-thread blocks), and these kernels use 32 registers, so they default to
// 1024 threads per block: 2048 per SM, full occupancy.
//
// Not constant-time: the lookups' addresses are secret bytes.
#include "aria/aria_cuda_launch.cuh"

namespace kc {
namespace aria_cuda {
namespace {

constexpr unsigned replicas = 16;

// One copy of the tables and the round keys in shared memory: [4][256] words, then ek, dk.
struct SharedOnePlace {
    static constexpr uint32_t key_words = (aria_max_rounds + 1) * 4;
    static constexpr size_t smem_bytes = SharedOneTab::bytes + 2 * key_words * 4;
    static constexpr unsigned default_threads = 256;
    struct Ctx {
        const uint8_t *mem;
    };
    __device__ static Ctx prepare(const AriaCudaKeys &p, uint8_t *smem)
    {
        SharedOneTab::fill(smem, dev_ttables, threadIdx.x, blockDim.x);
        uint32_t *keys = reinterpret_cast<uint32_t *>(smem + SharedOneTab::bytes);
        for (unsigned e = threadIdx.x; e < key_words; e += blockDim.x) {
            keys[e] = p.ek[e / 4][e % 4];
            keys[key_words + e] = p.dk[e / 4][e % 4];
        }
        __syncthreads();
        return {smem};
    }
    __device__ static SharedOneTab tab(const Ctx &c) { return {c.mem}; }
    // Volatile: read from shared memory at each use, as the paper's kernel does. (Left to
    // itself, ptxas hoists all 136 words out of the CTR loop into registers: 96 per thread.)
    using SharedKeyRows = const volatile uint32_t (*)[4];
    __device__ static SharedKeyRows ek(const Ctx &c, const AriaCudaKeys &)
    {
        return reinterpret_cast<SharedKeyRows>(c.mem + SharedOneTab::bytes);
    }
    __device__ static SharedKeyRows dk(const Ctx &c, const AriaCudaKeys &)
    {
        return reinterpret_cast<SharedKeyRows>(c.mem + SharedOneTab::bytes + key_words * 4);
    }
};

using Nx256Place = SharedPlace<SharedNx256Tab<replicas>, DeviceTTables, 1024>;
using R256xNPlace = SharedPlace<Shared256xNTab<replicas>, DeviceTTables, 1024>;

} // namespace
} // namespace aria_cuda

extern const Kernel aria_cuda_shared_kernel =
    aria_cuda::table_kernel("aria/cuda-shared", &aria_cuda::AriaTableOps<aria_cuda::SharedOnePlace>::ops);
extern const Kernel aria_cuda_shared_nx256_kernel =
    aria_cuda::table_kernel("aria/cuda-shared-nx256", &aria_cuda::AriaTableOps<aria_cuda::Nx256Place>::ops);
extern const Kernel aria_cuda_shared_256xn_kernel =
    aria_cuda::table_kernel("aria/cuda-shared-256xn", &aria_cuda::AriaTableOps<aria_cuda::R256xNPlace>::ops, -13);

} // namespace kc
