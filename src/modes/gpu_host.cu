// Host memory through the GPU: each GPU gets a lane of slots (a stream, a pinned staging
// buffer and a device buffer each, kept for the life of the process), and a job is cut into
// 4 MiB chunks that worker threads, one per slot, take in turn, so that copies in, kernels,
// copies out and the host's share of different chunks overlap.
//
//   ECB: the CPU copies a chunk into pinned memory, the GPU copies it over, encrypts it and
//        copies it back, the CPU copies it out: PCIe carries the data both ways.
//   CTR: the GPU writes keystream and copies it back; the CPU XORs it into the data. PCIe
//        carries the data one way only, and the plaintext never leaves the host.
//   XTS: as ECB, on chunks cut on data-unit boundaries (modes/xts_cut.hpp; a unit larger
//        than a chunk is cut between its blocks and the chunk told where it starts).
//   GCM: CTR, and the worker that XORs a chunk also hashes its ciphertext (GHASH from zero,
//        piece by piece while it is in cache) into the chunk's partial hash, which
//        modes/gpu_host_gcm.cu combines.
//
// Several GPUs: the job is split into one contiguous part per GPU, each run by its own host
// thread; CTR counters are derived per part, so the bytes do not depend on the split.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/counter.hpp"
#include "core/stream_copy.hpp"
#include "modes/gcm_parts.hpp"
#include "cuda/devices.hpp"
#include "modes/gpu_modes.hpp"
#include "modes/parallel.hpp"
#include "modes/xts_cut.hpp"

namespace kc {

namespace {

// Each worker thread owns a slot: a stream, a pinned buffer and a device buffer of
// chunk_bytes. Workers take chunks in turn, so that while one XORs or copies on the CPU,
// the others' kernels and copies keep the GPU and the PCIe link busy; no thread is started
// per chunk and no chunk waits for another.
constexpr int max_workers = 16;
// 4 MiB: measured on an H100 host against 0.5–16 MiB (docs/performance.md): smaller chunks
// pay per-chunk launch and synchronisation, larger ones leave the keystream out of cache
// by the time the CPU XORs it.
constexpr size_t chunk_bytes = size_t(4) << 20;

struct Slot {
    cudaStream_t stream = nullptr;
    uint8_t *pinned = nullptr;
    uint8_t *dev = nullptr;
};

struct Lane {
    std::mutex busy; // one job at a time per GPU; others wait
    int ready = 0;
    Slot slot[max_workers];

    // Allocated on first use and never freed: pinned memory is costly to allocate, and
    // freeing it from a static destructor races the CUDA runtime's own teardown.
    kcipher_status init(int workers)
    {
        for (; ready < workers; ready++) {
            Slot &s = slot[ready];
            int err = cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking);
            if (!err)
                err = cudaHostAlloc((void **)&s.pinned, chunk_bytes, cudaHostAllocDefault);
            if (!err)
                err = cudaMalloc((void **)&s.dev, chunk_bytes);
            if (err)
                return gpu_status(err);
        }
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

// out = in ^ ks; out may be in. Written so that the compiler vectorises it.
void xor_into(uint8_t *out, const uint8_t *in, const uint8_t *__restrict ks, size_t n)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t a[8], b[8];
        std::memcpy(a, in + i, 64);
        std::memcpy(b, ks + i, 64);
        for (int j = 0; j < 8; j++)
            a[j] ^= b[j];
        std::memcpy(out + i, a, 64);
    }
    for (; i < n; i++)
        out[i] = in[i] ^ ks[i];
}

// One GPU's part of a job.
struct Part {
    const GpuJob *job;
    bool ctr, decrypt;
    const uint8_t *in;
    uint8_t *out;
    size_t len;
    uint8_t ctr0[16];
    unsigned threads;
    // GCM: the hash, whether it takes the input (opening) or the output, and 16 bytes per
    // chunk for the partial hashes; null for ECB and CTR.
    const GhashKernel *g = nullptr;
    const GhashKey *hk = nullptr;
    bool hash_in = false;
    uint8_t *partials = nullptr;
    // XTS: the job's cut, this part's chunks [first_chunk, first_chunk + xts_chunks) of it,
    // the tweak key's state and the job's first tweak; null for the other modes.
    const XtsCut *xts = nullptr;
    const void *tweak_keys = nullptr;
    const uint8_t *tweak = nullptr;
    size_t first_chunk = 0, xts_chunks = 0;

    size_t chunks() const { return xts ? xts_chunks : (len + chunk_bytes - 1) / chunk_bytes; }
};

// XTS chunk c of the part: the piece's tweak is the job's plus its first unit.
void tweak_add(uint8_t t[16], uint64_t v)
{
    for (int k = 0; k < 16 && v != 0; k++) {
        v += t[k];
        t[k] = (uint8_t)v;
        v >>= 8;
    }
}

kcipher_status run_xts_chunk(const Part &p, const Slot &s, size_t c)
{
    const XtsPiece pc = p.xts->piece(p.first_chunk + c);
    uint8_t tweak[16];
    std::memcpy(tweak, p.tweak, 16);
    tweak_add(tweak, pc.unit);
    std::memcpy(s.pinned, p.in + pc.offset, pc.len);
    kcipher_status st = gpu_status(cudaMemcpyAsync(s.dev, s.pinned, pc.len, cudaMemcpyHostToDevice, s.stream));
    if (st == KCIPHER_OK)
        st = gpu_device_xts(*p.job, p.tweak_keys, p.decrypt, tweak, pc.unit_bytes, s.dev, s.dev, pc.len, s.stream,
                            pc.first_block);
    if (st == KCIPHER_OK)
        st = gpu_status(cudaMemcpyAsync(s.pinned, s.dev, pc.len, cudaMemcpyDeviceToHost, s.stream));
    if (st == KCIPHER_OK)
        st = gpu_status(cudaStreamSynchronize(s.stream));
    if (st == KCIPHER_OK)
        stream_copy(p.out + pc.offset, s.pinned, pc.len);
    return st;
}

// out = in ^ keystream for one chunk; with GCM, its partial hash, a 64 KiB piece at a time
// (the ciphertext is hashed while it is in cache: before the XOR when opening, after when
// sealing, so that in == out works).
void finish_ctr_chunk(const Part &p, size_t c, size_t off, size_t n, const uint8_t *ks)
{
    if (p.partials == nullptr) {
        xor_into(p.out + off, p.in + off, ks, n);
        return;
    }
    uint8_t *y = p.partials + 16 * c;
    std::memset(y, 0, 16);
    constexpr size_t piece = size_t(64) << 10; // a multiple of the block
    for (size_t at = 0; at < n; at += piece) {
        const size_t k = std::min(piece, n - at);
        if (p.hash_in)
            ghash_bytes(*p.g, *p.hk, y, p.in + off + at, k);
        xor_into(p.out + off + at, p.in + off + at, ks + at, k);
        if (!p.hash_in)
            ghash_bytes(*p.g, *p.hk, y, p.out + off + at, k);
    }
}

// Chunk c of the part through slot s, start to finish.
kcipher_status run_chunk(const Part &p, const Slot &s, size_t c)
{
    if (p.xts)
        return run_xts_chunk(p, s, c);
    const size_t bs = p.job->block_bytes;
    const size_t off = c * chunk_bytes, n = std::min(chunk_bytes, p.len - off);
    kcipher_status st;
    if (p.ctr) {
        uint8_t ctr[16];
        std::memcpy(ctr, p.ctr0, bs);
        counter_add(ctr, bs, off / bs);
        st = gpu_device_ctr(*p.job, ctr, nullptr, s.dev, n, s.stream);
    } else {
        std::memcpy(s.pinned, p.in + off, n);
        st = gpu_status(cudaMemcpyAsync(s.dev, s.pinned, n, cudaMemcpyHostToDevice, s.stream));
        if (st == KCIPHER_OK)
            st = gpu_device_ecb(*p.job, p.decrypt, s.dev, s.dev, n, s.stream);
    }
    if (st == KCIPHER_OK)
        st = gpu_status(cudaMemcpyAsync(s.pinned, s.dev, n, cudaMemcpyDeviceToHost, s.stream));
    if (st == KCIPHER_OK)
        st = gpu_status(cudaStreamSynchronize(s.stream));
    if (st != KCIPHER_OK)
        return st;
    if (p.ctr)
        finish_ctr_chunk(p, c, off, n, s.pinned);
    else
        stream_copy(p.out + off, s.pinned, n);
    return KCIPHER_OK;
}

kcipher_status run_part(int device, const Part &p)
{
    GpuDeviceScope scope(device);
    if (scope.status() != KCIPHER_OK)
        return scope.status();
    Lane &L = lane(device);
    std::lock_guard<std::mutex> hold(L.busy);
    const size_t nchunks = p.chunks();
    const int workers = (int)std::min<size_t>({(size_t)max_workers, (size_t)std::max(1u, p.threads), nchunks});
    kcipher_status st = L.init(workers);
    if (st != KCIPHER_OK)
        return st;
    std::atomic<size_t> next{0};
    std::atomic<int> failed{KCIPHER_OK};
    std::string message; // the first failure's CUDA message, for the caller's thread
    auto work = [&](int w) {
        cudaSetDevice(device); // the current device is per host thread
        for (size_t c; failed.load() == KCIPHER_OK && (c = next.fetch_add(1)) < nchunks;) {
            kcipher_status r = run_chunk(p, L.slot[w], c);
            int ok = KCIPHER_OK;
            if (r != KCIPHER_OK && failed.compare_exchange_strong(ok, r))
                message = gpu_last_error(); // only the thread that set `failed` writes it
        }
    };
    std::vector<std::thread> pool;
    for (int w = 1; w < workers; w++)
        pool.emplace_back(work, w);
    work(0);
    for (std::thread &t : pool)
        t.join();
    if (failed.load() != KCIPHER_OK)
        gpu_set_error(message.c_str());
    return (kcipher_status)failed.load();
}

kcipher_status run_job(const Part &whole, int device)
{
    const int ngpu = cuda_device_count();
    if (ngpu == 0 || device >= ngpu)
        return KCIPHER_ERR_NO_GPU;
    const unsigned threads = resolve_threads(whole.threads);
    // One GPU unless asked for all and the job is worth splitting (a chunk per GPU at least).
    int first = device < 0 ? 0 : device;
    const size_t worth = whole.xts ? whole.chunks() : whole.len / chunk_bytes;
    int count = device < 0 ? (int)std::min<size_t>((size_t)ngpu, std::max<size_t>(1, worth)) : 1;
    if (count == 1) {
        Part p = whole;
        p.threads = threads;
        return run_part(first, p);
    }
    const size_t bs = whole.job->block_bytes;
    const size_t per = (whole.len / count + chunk_bytes - 1) / chunk_bytes * chunk_bytes; // a multiple of bs
    std::vector<kcipher_status> result((size_t)count, KCIPHER_OK);
    std::vector<std::string> messages((size_t)count); // CUDA messages are per thread
    std::vector<std::thread> pool;
    const size_t xts_per = (whole.chunks() + count - 1) / count; // XTS: chunks of the cut per GPU
    for (int g = 0; g < count; g++) {
        size_t off = (size_t)g * per;
        if (whole.xts ? (size_t)g * xts_per >= whole.chunks() : off >= whole.len)
            break;
        Part p = whole;
        if (whole.xts) { // the cut's offsets are the job's: pointers stay
            p.first_chunk = (size_t)g * xts_per;
            p.xts_chunks = std::min(xts_per, whole.chunks() - p.first_chunk);
            off = 0;
        }
        p.in = whole.in + off;
        p.out = whole.out + off;
        p.len = whole.xts ? whole.len : std::min(per, whole.len - off);
        p.threads = std::max(1u, threads / (unsigned)count);
        counter_add(p.ctr0, bs, off / bs);
        if (p.partials)
            p.partials += 16 * (off / chunk_bytes);
        pool.emplace_back([&result, &messages, g, p] {
            result[(size_t)g] = run_part(g, p);
            messages[(size_t)g] = gpu_last_error();
        });
    }
    for (std::thread &t : pool)
        t.join();
    for (int g = 0; g < count; g++)
        if (result[(size_t)g] != KCIPHER_OK) {
            gpu_set_error(messages[(size_t)g].c_str());
            return result[(size_t)g];
        }
    return KCIPHER_OK;
}

} // namespace

size_t gpu_host_chunk_bytes() { return chunk_bytes; }

kcipher_status gpu_host_ctr_hash(const GpuJob &j, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t len,
                                 int device, unsigned threads, const GhashKernel &g, const GhashKey &hk, bool hash_in,
                                 uint8_t *partials)
{
    Part p{&j, true, false, in, out, len, {0}, threads, &g, &hk, hash_in, partials};
    std::memcpy(p.ctr0, ctr, j.block_bytes);
    return run_job(p, device);
}

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

kcipher_status gpu_host_xts(const GpuJob &j, const void *tweak_keys, bool decrypt, const uint8_t tweak[16],
                            size_t data_unit, const uint8_t *in, uint8_t *out, size_t len, int device, unsigned threads)
{
    if (len == 0)
        return KCIPHER_OK;
    const XtsCut cut(len, data_unit, chunk_bytes);
    Part p{&j, false, decrypt, in, out, len, {0}, threads};
    p.xts = &cut;
    p.tweak_keys = tweak_keys;
    p.tweak = tweak;
    p.xts_chunks = cut.count();
    return run_job(p, device);
}

} // namespace kc
