// Host memory through the GPU: each GPU gets a lane of pinned staging buffers, device
// buffers and streams (kept for the life of the process), and a job is cut into chunks that
// rotate over the lane's slots, so that copies in, kernels and copies out of different
// chunks overlap.
//
//   ECB: the CPU copies a chunk into pinned memory, the GPU copies it over, encrypts it and
//        copies it back, the CPU copies it out: PCIe carries the data both ways.
//   CTR: the GPU writes keystream and copies it back; the CPU XORs it into the data. PCIe
//        carries the data one way only, and the plaintext never leaves the host.
//
// Several GPUs: the job is split into one contiguous part per GPU, each run by its own host
// thread; CTR counters are derived per part, so the bytes do not depend on the split.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/counter.hpp"
#include "cuda/devices.hpp"
#include "cuda/gpu_modes.hpp"
#include "modes/parallel.hpp"

namespace kc {

namespace {

constexpr int slots = 3;
constexpr size_t chunk_bytes = size_t(32) << 20; // 32 MiB: long kernels, short pipeline fill

struct Lane {
    std::mutex busy; // one job at a time per GPU; others wait
    bool ready = false;
    cudaStream_t stream[slots] = {};
    cudaEvent_t done[slots] = {};
    uint8_t *pinned[slots] = {};
    uint8_t *dev[slots] = {};

    // Allocated on first use and never freed: pinned memory is costly to allocate, and
    // freeing it from a static destructor races the CUDA runtime's own teardown.
    kcipher_status init()
    {
        if (ready)
            return KCIPHER_OK;
        for (int s = 0; s < slots; s++) {
            int err = cudaStreamCreateWithFlags(&stream[s], cudaStreamNonBlocking);
            if (!err)
                err = cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming);
            if (!err)
                err = cudaHostAlloc((void **)&pinned[s], chunk_bytes, cudaHostAllocDefault);
            if (!err)
                err = cudaMalloc((void **)&dev[s], chunk_bytes);
            if (err)
                return gpu_status(err);
        }
        ready = true;
        return KCIPHER_OK;
    }
};

Lane &lane(int device)
{
    static std::vector<std::unique_ptr<Lane>> lanes = [] {
        std::vector<std::unique_ptr<Lane>> v;
        for (int i = 0; i < cuda_device_count(); i++)
            v.push_back(std::make_unique<Lane>());
        return v;
    }();
    return *lanes[(size_t)device];
}

// fn(offset, length) over [0, bytes) on `threads` threads, 4 KiB-aligned pieces.
template <class Fn> void split_threads(size_t bytes, unsigned threads, Fn fn)
{
    size_t n = threads;
    if (n > bytes / (1 << 20))
        n = bytes / (1 << 20); // below 1 MiB a piece, a thread is not worth starting
    if (n <= 1) {
        fn(size_t(0), bytes);
        return;
    }
    size_t per = (bytes / n + 4095) / 4096 * 4096;
    std::vector<std::thread> pool;
    for (size_t off = per; off < bytes; off += per)
        pool.emplace_back(fn, off, std::min(per, bytes - off));
    fn(size_t(0), std::min(per, bytes));
    for (std::thread &t : pool)
        t.join();
}

void xor_into(uint8_t *out, const uint8_t *in, const uint8_t *ks, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t a, b;
        std::memcpy(&a, in + i, 8);
        std::memcpy(&b, ks + i, 8);
        a ^= b;
        std::memcpy(out + i, &a, 8);
    }
    for (; i < n; i++)
        out[i] = in[i] ^ ks[i];
}

// One GPU's part of a job: chunk c runs in slot c % slots; before a slot is reused, the
// host finishes the chunk that last ran in it.
struct Part {
    const GpuJob *job;
    bool ctr, decrypt;
    const uint8_t *in;
    uint8_t *out;
    size_t len;
    uint8_t ctr0[16];
    unsigned threads;
};

kcipher_status run_part(int device, const Part &p)
{
    GpuDeviceScope scope(device);
    if (scope.status() != KCIPHER_OK)
        return scope.status();
    Lane &L = lane(device);
    std::lock_guard<std::mutex> hold(L.busy);
    kcipher_status st = L.init();
    if (st != KCIPHER_OK)
        return st;

    const size_t bs = p.job->block_bytes;
    const size_t nchunks = (p.len + chunk_bytes - 1) / chunk_bytes;
    auto chunk_len = [&](size_t c) { return std::min(chunk_bytes, p.len - c * chunk_bytes); };

    // The host's side of chunk c once its slot's event has fired.
    auto finish = [&](size_t c) -> kcipher_status {
        int s = (int)(c % slots);
        if (int err = cudaEventSynchronize(L.done[s]))
            return gpu_status(err);
        size_t off = c * chunk_bytes, n = chunk_len(c);
        split_threads(n, p.threads, [&](size_t o, size_t m) {
            if (p.ctr)
                xor_into(p.out + off + o, p.in + off + o, L.pinned[s] + o, m);
            else
                std::memcpy(p.out + off + o, L.pinned[s] + o, m);
        });
        return KCIPHER_OK;
    };

    for (size_t c = 0; c < nchunks && st == KCIPHER_OK; c++) {
        int s = (int)(c % slots);
        if (c >= (size_t)slots)
            st = finish(c - slots);
        if (st != KCIPHER_OK)
            break;
        size_t off = c * chunk_bytes, n = chunk_len(c);
        cudaStream_t stream = L.stream[s];
        if (p.ctr) {
            uint8_t ctr[16];
            std::memcpy(ctr, p.ctr0, bs);
            counter_add(ctr, bs, off / bs);
            st = gpu_device_ctr(*p.job, ctr, nullptr, L.dev[s], n, stream);
        } else {
            split_threads(n, p.threads, [&](size_t o, size_t m) { std::memcpy(L.pinned[s] + o, p.in + off + o, m); });
            st = gpu_status(cudaMemcpyAsync(L.dev[s], L.pinned[s], n, cudaMemcpyHostToDevice, stream));
            if (st == KCIPHER_OK)
                st = gpu_device_ecb(*p.job, p.decrypt, L.dev[s], L.dev[s], n, stream);
        }
        if (st == KCIPHER_OK)
            st = gpu_status(cudaMemcpyAsync(L.pinned[s], L.dev[s], n, cudaMemcpyDeviceToHost, stream));
        if (st == KCIPHER_OK)
            st = gpu_status(cudaEventRecord(L.done[s], stream));
    }
    size_t first_open = nchunks > (size_t)slots ? nchunks - slots : 0;
    for (size_t c = first_open; c < nchunks && st == KCIPHER_OK; c++)
        st = finish(c);
    if (st != KCIPHER_OK)
        for (int s = 0; s < slots; s++)
            cudaStreamSynchronize(L.stream[s]); // leave nothing running on our buffers
    (void)bs;
    return st;
}

kcipher_status run_job(const Part &whole, int device)
{
    const int ngpu = cuda_device_count();
    if (ngpu == 0 || device >= ngpu)
        return KCIPHER_ERR_NO_GPU;
    const unsigned threads = resolve_threads(whole.threads);
    // One GPU unless asked for all and the job is worth splitting (a chunk per GPU at least).
    int first = device < 0 ? 0 : device;
    int count = device < 0 ? (int)std::min<size_t>((size_t)ngpu, std::max<size_t>(1, whole.len / chunk_bytes)) : 1;
    if (count == 1) {
        Part p = whole;
        p.threads = threads;
        return run_part(first, p);
    }
    const size_t bs = whole.job->block_bytes;
    const size_t per = (whole.len / count + chunk_bytes - 1) / chunk_bytes * chunk_bytes; // a multiple of bs
    std::vector<kcipher_status> result((size_t)count, KCIPHER_OK);
    std::vector<std::thread> pool;
    for (int g = 0; g < count; g++) {
        size_t off = (size_t)g * per;
        if (off >= whole.len)
            break;
        Part p = whole;
        p.in = whole.in + off;
        p.out = whole.out + off;
        p.len = std::min(per, whole.len - off);
        p.threads = std::max(1u, threads / (unsigned)count);
        counter_add(p.ctr0, bs, off / bs);
        pool.emplace_back([&result, g, p] { result[(size_t)g] = run_part(g, p); });
    }
    for (std::thread &t : pool)
        t.join();
    for (kcipher_status s : result)
        if (s != KCIPHER_OK)
            return s;
    return KCIPHER_OK;
}

} // namespace

kcipher_status gpu_host_ecb(const GpuJob &j, bool decrypt, const uint8_t *in, uint8_t *out, size_t len,
                            int device, unsigned threads)
{
    Part p{&j, false, decrypt, in, out, len, {0}, threads};
    return run_job(p, device);
}

kcipher_status gpu_host_ctr(const GpuJob &j, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t len,
                            int device, unsigned threads)
{
    Part p{&j, true, false, in, out, len, {0}, threads};
    std::memcpy(p.ctr0, ctr, j.block_bytes);
    return run_job(p, device);
}

} // namespace kc
