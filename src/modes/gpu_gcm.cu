// GCM over device memory: the cipher-independent part of the GPU's GCM. A call runs
//
//   1. tables: 64 KiB lookup tables of H^(2^j) for j < gcm_table_count, built on the device
//      from the host's powers (cuda/gf128_tables.cuh);
//   2. prep (the cipher's, GpuOps::gcm): each message's J0, E_K(J0) and segment count;
//      a scan gives each message its first segment; the host reads the total back;
//   3. crypt (the cipher's): CTR and GHASH fused, a warp per segment;
//   4. lift and finish (here): each segment's value times the power of H its place asks for,
//      then per message their XOR, the lengths block, the tag;
//      open compares it in constant time and zeroes the output of a message that failed;
//   5. every table, E_K(J0) and partial hash is wiped before the call returns.
//
// cuda/gcm_pass.hpp describes the segments.
#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>

#include <cstring>
#include <vector>

#include "core/wipe.hpp"
#include "cuda/gcm_pass.hpp"
#include "cuda/gcm_segment_owner.cuh"
#include "cuda/gf128_bmma.cuh"
#include "cuda/gf128_tables.cuh"
#include "modes/gpu_modes.hpp"
#include "modes/gpu_scratch.hpp"

namespace kc {

namespace {

using cuda::Gf128;

constexpr uint64_t gcm_max_text = ((uint64_t)1 << 36) - 32;

struct Powers {
    Gf128 p[gcm_table_count]; // H^(2^j)
};

// Thread per entry (power j, byte position i, byte value b): the XOR of the products of P_j
// with b's set bits. No entry reads another, so no thread waits on memory (built one from the
// next, each row was a chain of 255 dependent global-memory round trips: 47 us a call).
__global__ void gcm_tables_grid(Powers pw, uint4 *tables)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= gcm_table_count * cuda::gf_table_entries)
        return;
    const int j = t / cuda::gf_table_entries, i = t / 256 % 16, b = t % 256;
    Gf128 v = pw.p[j];
    for (int k = 0; k < 8 * i; k++)
        v = cuda::gf_mulx(v);
    Gf128 e{0, 0};
    for (int s = 7; s >= 0; s--) { // bit s of the byte at position i is x^(8i + 7 - s)
        const uint64_t take = 0 - (uint64_t)((b >> s) & 1);
        e.hi ^= v.hi & take;
        e.lo ^= v.lo & take;
        v = cuda::gf_mulx(v);
    }
    tables[t] = cuda::gf_to_words(e); // tables + j * entries + i * 256 + b
}

__device__ __forceinline__ const uint4 *table_of(const uint32_t *tables, int j)
{
    return reinterpret_cast<const uint4 *>(tables) + (size_t)j * cuda::gf_table_entries;
}

// Rejects what the standard or the memory rules refuse, per message, before any output.
__global__ void gcm_check_grid(kcipher_gpu_aead_msg *msgs, uint32_t n, bool open, size_t tag_len, int *worst)
{
    for (uint32_t m = blockIdx.x * blockDim.x + threadIdx.x; m < n; m += gridDim.x * blockDim.x) {
        kcipher_gpu_aead_msg &g = msgs[m];
        int st = KCIPHER_OK;
        const uint64_t in_len = g.len + (open ? tag_len : 0), out_len = g.len + (open ? 0 : tag_len);
        const uintptr_t a = reinterpret_cast<uintptr_t>(g.in), b = reinterpret_cast<uintptr_t>(g.out);
        if (g.iv == nullptr || (g.aad_len != 0 && g.aad == nullptr) || (in_len != 0 && g.in == nullptr) ||
            (out_len != 0 && g.out == nullptr))
            st = KCIPHER_ERR_NULL_POINTER;
        else if (g.iv_len == 0)
            st = KCIPHER_ERR_IV_LENGTH;
        else if (g.len > gcm_max_text || g.aad_len >= ((uint64_t)1 << 61) || g.iv_len >= ((uint64_t)1 << 61))
            st = KCIPHER_ERR_MODE_LIMIT;
        else if (a != b && in_len != 0 && out_len != 0 && a < b + out_len && b < a + in_len)
            st = KCIPHER_ERR_OVERLAP;
        g.status = st;
        if (st != KCIPHER_OK)
            atomicMax(worst, st);
    }
}

// Thread per segment s (q-th of its message's nseg): V_s <- V_s * M^(nseg - 1 - q), M = H^G,
// G = 2^log2_seg, through the tables of H^(2^(log2_seg + l)) for the exponent's set bits l.
// Then a message's sum of X_v H^(n-1-v) is the XOR of its segments' values, which finish
// takes in any order. The exponents are lengths, not secrets. The tables suffice (log2_seg +
// l < gcm_table_count) while a message has fewer than 2^34 blocks (256 GiB), more than a GPU
// holds: log2_seg is at most 25 with at most 2^9 segments, or 11 for a batch.
__global__ void __launch_bounds__(256) gcm_lift_grid(GcmPass pass, uint64_t total)
{
    uint4 *values = reinterpret_cast<uint4 *>(pass.seg_values);
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t s = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; s < total; s += stride) {
        const GcmSegmentOwner own = gcm_segment_owner(pass, s);
        uint64_t e = pass.work[own.m].nseg - 1 - (s - own.first);
        if (e == 0)
            continue;
        uint4 v = values[s];
        for (uint32_t l = pass.log2_seg; e != 0 && l < gcm_table_count; l++, e >>= 1)
            if (e & 1)
                v = cuda::gf_mul_global(v, table_of(pass.tables, (int)l));
        values[s] = v;
    }
}

// CUDA block (256 threads) per message: the XOR of its lifted segment values (a tree in
// shared memory), then the lengths block and the tag.
__global__ void __launch_bounds__(256) gcm_finish_grid(GcmPass pass, uint32_t tag_len, int *failed)
{
    __shared__ uint4 vals[256];
    __shared__ int bad;
    const unsigned t = threadIdx.x;
    const uint4 *values = reinterpret_cast<const uint4 *>(pass.seg_values);
    for (uint32_t m = blockIdx.x; m < pass.n; m += gridDim.x) {
        const kcipher_gpu_aead_msg &msg = pass.msgs[m];
        const GcmWork &wk = pass.work[m];
        const uint64_t first = m ? pass.seg_end[m - 1] : 0, nseg = wk.nseg;
        uint4 r = make_uint4(0, 0, 0, 0);
        if (nseg == 1) { // a batch's short messages: no tree
            r = values[first];
        } else if (nseg > 1) {
            for (uint64_t q = t; q < nseg; q += blockDim.x)
                r = cuda::xor4(r, values[first + q]);
            vals[t] = r;
            __syncthreads();
            for (unsigned half = 128; half > 0; half /= 2) {
                if (t < half)
                    vals[t] = cuda::xor4(vals[t], vals[t + half]);
                __syncthreads();
            }
            r = vals[0];
        }
        if (t == 0) {
            // GHASH = (R * H ^ [len(A)]64 || [len(C)]64) * H, R the sum of X_q H^(n-1-q).
            const uint4 *h1 = table_of(pass.tables, 0);
            uint4 y = cuda::gf_mul_global(r, h1);
            const uint64_t abits = msg.aad_len * 8, cbits = msg.len * 8;
            y = cuda::xor4(y, make_uint4(cuda::bswap32((uint32_t)(abits >> 32)), cuda::bswap32((uint32_t)abits),
                                         cuda::bswap32((uint32_t)(cbits >> 32)), cuda::bswap32((uint32_t)cbits)));
            y = cuda::gf_mul_global(y, h1);
            const uint32_t tag[4] = {y.x ^ wk.ek_j0[0], y.y ^ wk.ek_j0[1], y.z ^ wk.ek_j0[2], y.w ^ wk.ek_j0[3]};
            uint32_t diff = 0;
            for (uint32_t k = 0; k < tag_len; k++) {
                const uint8_t b = (uint8_t)(tag[k / 4] >> (8 * (k % 4)));
                if (pass.kind == GcmPass::open)
                    diff |= (uint32_t)(b ^ msg.in[msg.len + k]);
                else
                    msg.out[msg.len + k] = b;
            }
            bad = diff != 0;
            if (pass.kind == GcmPass::open)
                pass.msgs[m].status = bad ? KCIPHER_ERR_AUTH : KCIPHER_OK;
            if (bad)
                atomicOr(failed, 1);
        }
        __syncthreads();
        if (bad) // never release unverified plaintext
            for (uint64_t k = t; k < msg.len; k += blockDim.x)
                msg.out[k] = 0;
        __syncthreads();
    }
}

Powers powers_of(const uint8_t h[16])
{
    Powers pw;
    pw.p[0] = cuda::gf_from_bytes(h);
    for (int j = 1; j < gcm_table_count; j++)
        pw.p[j] = cuda::gf_mul_slow(pw.p[j - 1], pw.p[j - 1]);
    return pw;
}

unsigned grid_for(size_t n, unsigned threads)
{
    size_t b = (n + threads - 1) / threads;
    return (unsigned)(b < 65535 ? (b ? b : 1) : 65535);
}

// The passes, with scratch that is wiped and freed on the stream when this returns.
kcipher_status run_batch(const GpuJob &j, const uint8_t h[16], bool open, kcipher_gpu_aead_msg *msgs, size_t n,
                         size_t tag_len, cudaStream_t stream, const uint32_t *host_j0, uint64_t total_blocks,
                         bool *any_failed)
{
    int err = cudaSuccess;
    Scratch scratch(stream);
    uint32_t *tables = scratch.get<uint32_t>((size_t)gcm_table_count * cuda::gf_table_entries * 4, err);
    GcmWork *work = scratch.get<GcmWork>(n, err);
    uint64_t *seg_end = scratch.get<uint64_t>(n, err);
    int *flags = scratch.get<int>(2, err); // [0]: the worst argument status, [1]: a tag failed
    if (err != cudaSuccess)
        return gpu_status(err);
    err = cudaMemsetAsync(flags, 0, 2 * sizeof(int), stream);
    if (!err)
        gcm_check_grid<<<grid_for(n, 256), 256, 0, stream>>>(msgs, (uint32_t)n, open, tag_len, flags);
    int worst = 0;
    if (!err)
        err = cudaMemcpyAsync(&worst, flags, sizeof worst, cudaMemcpyDeviceToHost, stream);
    if (!err)
        err = cudaStreamSynchronize(stream);
    if (err)
        return gpu_status(err);
    if (worst != KCIPHER_OK)
        return (kcipher_status)worst;

    // Segments of 2^log2_seg blocks: for one message, about one per warp the GPU holds
    // (132 SMs x 32 warps); for a batch, 2048 blocks, so that a 16 KiB message is one.
    uint32_t log2_seg = 11;
    if (host_j0 != nullptr)
        for (log2_seg = 10; log2_seg < 25 && ((uint64_t)1 << log2_seg) * 4096 < total_blocks;)
            log2_seg++;
    Powers pw = powers_of(h);
    const unsigned entries = gcm_table_count * cuda::gf_table_entries;
    gcm_tables_grid<<<(entries + 255) / 256, 256, 0, stream>>>(pw, reinterpret_cast<uint4 *>(tables));
    err = cudaGetLastError();
    // H^32's MMA operand. A copy from pageable memory returns once the source is staged, so
    // the host's copy can be wiped at once.
    uint32_t bm[gcm_round * cuda::bmma_words]; // slot r: H^(32 (gcm_round - r))
    {
        Gf128 pr = pw.p[gcm_chain_power];
        for (int r = gcm_round - 1; r >= 0; r--) {
            cuda::bmma_matrix(pr, bm + r * cuda::bmma_words);
            pr = cuda::gf_mul_slow(pr, pw.p[gcm_chain_power]);
        }
        secure_wipe(&pr, sizeof pr);
    }
    secure_wipe(&pw, sizeof pw);
    uint32_t *dev_bm = scratch.get<uint32_t>(gcm_round * cuda::bmma_words, err);
    if (!err)
        err = cudaMemcpyAsync(dev_bm, bm, sizeof bm, cudaMemcpyHostToDevice, stream);
    secure_wipe(bm, sizeof bm);
    GcmPass pass{GcmPass::prep, msgs, (uint32_t)n, work, seg_end, nullptr, tables, dev_bm, log2_seg, host_j0};
    if (!err)
        err = j.kernel->gpu->gcm(j.keys, pass, stream);
    size_t temp_bytes = 0;
    if (!err)
        err = cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, seg_end, seg_end, (int)n, stream);
    void *temp = scratch.get<uint8_t>(temp_bytes, err);
    if (!err)
        err = cub::DeviceScan::InclusiveSum(temp, temp_bytes, seg_end, seg_end, (int)n, stream);
    uint64_t total = 0;
    if (!err)
        err = cudaMemcpyAsync(&total, seg_end + n - 1, sizeof total, cudaMemcpyDeviceToHost, stream);
    if (!err)
        err = cudaStreamSynchronize(stream);
    pass.seg_values = scratch.get<uint32_t>(4 * (total ? total : 1), err);
    pass.kind = open ? GcmPass::open : GcmPass::seal;
    if (!err && total != 0)
        err = j.kernel->gpu->gcm(j.keys, pass, stream);
    if (!err && total != 0) {
        gcm_lift_grid<<<grid_for(total, 256), 256, 0, stream>>>(pass, total);
        err = cudaGetLastError();
    }
    if (!err) {
        gcm_finish_grid<<<grid_for(n, 1), 256, 0, stream>>>(pass, (uint32_t)tag_len, flags + 1);
        err = cudaGetLastError();
    }
    int failed = 0;
    if (!err)
        err = cudaMemcpyAsync(&failed, flags + 1, sizeof failed, cudaMemcpyDeviceToHost, stream);
    if (!err)
        err = cudaStreamSynchronize(stream);
    if (err)
        return gpu_status(err);
    *any_failed = failed != 0;
    return failed ? KCIPHER_ERR_AUTH : KCIPHER_OK;
}

} // namespace

kcipher_status gpu_device_gcm(const GpuJob &j, const uint8_t h[16], bool open, kcipher_gpu_aead_msg *msgs, size_t n,
                              size_t tag_len, void *stream_arg, const uint32_t *host_j0, uint64_t total_blocks,
                              bool *any_failed)
{
    *any_failed = false;
    if (j.kernel->gpu->gcm == nullptr)
        return KCIPHER_ERR_UNSUPPORTED;
    if (n == 0)
        return KCIPHER_OK;
    if (n > 0xffffffffu)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    cudaStream_t stream = (cudaStream_t)stream_arg;
    const kcipher_status st = run_batch(j, h, open, msgs, n, tag_len, stream, host_j0, total_blocks, any_failed);
    const int e = cudaStreamSynchronize(stream); // the scratch is wiped and freed
    return st == KCIPHER_OK && e ? gpu_status(e) : st;
}

kcipher_status gpu_device_gcm_one(const GpuJob &j, const uint8_t h[16], const uint8_t j0[16], bool open,
                                  const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                                  const uint8_t *in, size_t len, uint8_t *out, size_t tag_len, void *stream_arg)
{
    cudaStream_t stream = (cudaStream_t)stream_arg;
    int err = cudaSuccess;
    kcipher_status st;
    {
        Scratch scratch(stream);
        uint8_t *dev_iv = scratch.get<uint8_t>(iv_len, err);
        uint8_t *dev_aad = scratch.get<uint8_t>(aad_len, err);
        kcipher_gpu_aead_msg *dev_msg = scratch.get<kcipher_gpu_aead_msg>(1, err);
        kcipher_gpu_aead_msg msg{dev_iv, aad_len ? dev_aad : nullptr, in, out, iv_len, aad_len, len, 0, 0};
        if (!err)
            err = cudaMemcpyAsync(dev_iv, iv, iv_len, cudaMemcpyHostToDevice, stream);
        if (!err && aad_len)
            err = cudaMemcpyAsync(dev_aad, aad, aad_len, cudaMemcpyHostToDevice, stream);
        if (!err)
            err = cudaMemcpyAsync(dev_msg, &msg, sizeof msg, cudaMemcpyHostToDevice, stream);
        if (err)
            return gpu_status(err);
        uint32_t words[4];
        for (int k = 0; k < 4; k++)
            words[k] = (uint32_t)j0[4 * k] | (uint32_t)j0[4 * k + 1] << 8 | (uint32_t)j0[4 * k + 2] << 16 |
                       (uint32_t)j0[4 * k + 3] << 24;
        bool failed = false;
        st = gpu_device_gcm(j, h, open, dev_msg, 1, tag_len, stream, words,
                            (aad_len + 15) / 16 + (len + 15) / 16, &failed);
    }
    const int e = cudaStreamSynchronize(stream); // the scratch is wiped and freed
    return st == KCIPHER_OK && e ? gpu_status(e) : st;
}

} // namespace kc
