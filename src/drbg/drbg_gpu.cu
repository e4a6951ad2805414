// The GPU path of the DRBG (see drbg_gpu.hpp for the two modes). Host code only: the
// kernels are the GPU kernels' own ctr_segments launches (src/cuda/grid_kernels.cuh and the
// kernels' files); a GPU kernel without one runs each request through its plain CTR launch.
//
// One call runs as a pipeline of items (a batch of one DRBG's requests, or one round of a
// group of instances) through nslots slots. The calling thread drives it: for item k it
// takes slot k % nslots (waiting for what that slot held), has the key-schedule threads lay
// out the item's key states into the slot's pinned memory (single mode: the raw Keys, from
// the chain's thread, which walks the next batches meanwhile), then queues on the slot's
// stream: keys and counters up (single mode: the key-state launch, GpuOps::set_keys), the
// launch(es), and for host memory the copy back into pinned staging; the copy threads
// wait for the slot's event and move the bytes on into the caller's memory. So batch k's
// host copies, batch k+1's kernel and copy back, and batch k+2's chain run at once.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <time.h>

#include "core/counter.hpp"
#include "core/key_state.hpp"
#include "core/stream_copy.hpp"
#include "core/wipe.hpp"
#include "modes/gpu_modes.hpp"
#include "cuda/gpu_ops.hpp"
#include "drbg/chain.hpp"
#include "drbg/chain_ahead.hpp"
#include "drbg/drbg_gpu.hpp"
#include "drbg/gpu_threads.hpp"
#include "modes/parallel.hpp"

namespace kc::drbg {

namespace {

using namespace pipeline; // Countdown, Pool, spin_until; ChainAhead, Batch, Ring; clk, since

// Adds the time of its scope to one of the call's report fields (gpu_observer.hpp).
class Timed {
  public:
    explicit Timed(double &to) : to_(to) {}
    ~Timed() { to_ += since(t0_); }
    Timed(const Timed &) = delete;
    Timed &operator=(const Timed &) = delete;

  private:
    double &to_;
    clk::time_point t0_ = clk::now();
};

// Items in flight: one being prepared, one in its kernel, one in its copy back, others in
// their host copies (which take about as long as the copy back).
constexpr int nslots = 6;
// Per item: at most this much output and this much of key states (HIGHT's bitsliced key
// state is 4.5 KiB per 1 KiB request). 8 MiB of output is 128 requests of 64 KiB: the chain
// of a batch takes tens of microseconds or more, against a few for a launch.
constexpr size_t out_batch_bytes = size_t(8) << 20;
// Into device memory (no staging per slot): each batch costs the submitter tens of
// microseconds of CUDA calls (memcpy, two launches, an event), and on a virtualized host that
// work slows the chain when the hypervisor runs the submitter beside the chain's core (a CUDA
// loop on one vCPU has doubled LEA-128's chain on another: bench/tools/
// drbg_chain_interference.cu measures it). Batches of 2048 LEA-128 requests make those calls
// a quarter as often as 512 did; the call's tail stays short because the last batches are
// halved (batch_at).
constexpr size_t device_batch_bytes = size_t(128) << 20;
constexpr size_t key_batch_bytes = size_t(8) << 20;
constexpr size_t device_key_batch_bytes = size_t(64) << 20; // key states derived on the GPU
constexpr size_t copy_piece_bytes = size_t(1) << 20; // one copy task
constexpr size_t key_task_states = 16;               // key states per key-schedule task
// Many instances whose key states the GPU derives: a task only copies raw Keys and counters
// (and reseeds the instances due), and posting one costs about what 16 of them take.
constexpr size_t raw_task_states = 1024;
constexpr size_t min_overlap_group = 1024; // instances: smaller groups cost more launches than they overlap
constexpr size_t small_key_state = 2048;             // below: single mode lays them out inline
constexpr size_t max_pitch = size_t(1) << 30;        // cudaMemcpy2D's pitch stays below

size_t round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }

// A buffer of pinned host or device memory that grows and is kept. `used`: the bytes this
// call wrote (what its end wipes, when the buffer holds secrets).
struct Buf {
    uint8_t *p = nullptr;
    size_t cap = 0, used = 0;
    bool device = false, secret = false;

    int grow(size_t need)
    {
        if (need <= cap)
            return 0;
        release();
        size_t n = round_up(need, size_t(64) << 10);
        int e = device ? cudaMalloc((void **)&p, n) : cudaHostAlloc((void **)&p, n, cudaHostAllocDefault);
        if (e != cudaSuccess) {
            p = nullptr;
            return e;
        }
        cap = n;
        // A secret buffer starts zeroed, so that all of it reads zero between calls (the
        // tests read it whole), not only the bytes the calls wrote and wiped: cudaMalloc can
        // hand back memory that this process freed with other data in it. Rare: on growth.
        if (secret && !device)
            std::memset(p, 0, n);
        if (secret && device && (e = cudaMemset(p, 0, n)) == cudaSuccess)
            e = cudaStreamSynchronize(nullptr); // before the slot's streams, which do not wait on it
        return e;
    }
    void mark(size_t n) { used = std::max(used, n); }
    void release()
    {
        if (p == nullptr)
            return;
        if (secret) {
            if (device)
                cudaMemset(p, 0, cap); // synchronous: done before the free
            else
                secure_wipe(p, cap);
        }
        if (device)
            cudaFree(p);
        else
            cudaFreeHost(p);
        p = nullptr;
        cap = used = 0;
    }
};

// Device buffers to zero in one launch (Run::queue_all_device_wipes): each slot's four
// secret buffers at most.
constexpr int max_device_wipes = 4 * nslots;
struct DeviceWipes {
    uint8_t *p[max_device_wipes];
    size_t n[max_device_wipes];
    int count;
};

// Block row y zeroes buffer y, 16 bytes a store where it can (cudaMalloc gives 256-byte
// aligned buffers), the tail byte by byte.
__global__ void device_wipes_kernel(const __grid_constant__ DeviceWipes w)
{
    uint8_t *p = w.p[blockIdx.y];
    const size_t n = w.n[blockIdx.y], wide = reinterpret_cast<uintptr_t>(p) % 16 == 0 ? n / 16 : 0;
    const size_t stride = (size_t)gridDim.x * blockDim.x, first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (size_t i = first; i < wide; i += stride)
        reinterpret_cast<uint4 *>(p)[i] = make_uint4(0, 0, 0, 0);
    for (size_t i = wide * 16 + first; i < n; i += stride)
        p[i] = 0;
}

int launch_device_wipes(const DeviceWipes &w, cudaStream_t stream)
{
    size_t most = 0;
    for (int i = 0; i < w.count; i++)
        most = std::max(most, w.n[i]);
    const unsigned threads = 256;
    const size_t blocks = std::min<size_t>(256, std::max<size_t>(1, (most / 16 + threads - 1) / threads));
    device_wipes_kernel<<<dim3((unsigned)blocks, (unsigned)w.count), threads, 0, stream>>>(w);
    return cudaGetLastError();
}

struct Slot {
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr; // after the item's last GPU operation
    Buf h_keys, h_ctrs, h_upd, h_out; // pinned (h_keys: raw keys, then counters, where the GPU derives the states)
    Buf d_keys, d_ctrs, d_upd, d_out; // device
    Buf d_raw;                        // device: raw keys, then counters, where the GPU derives the key states
    bool issued = false;              // GPU work queued that reclaim() has not collected
    size_t first = 0, n = 0;          // many instances: the item's instances
    size_t group = SIZE_MAX;
    int region = -1;                  // the ring region its upload reads (ChainAhead::use_ring)
    Countdown copies;                 // host copies reading h_out
    Countdown keys;                   // key-state tasks writing h_keys and h_ctrs

    Slot()
    {
        for (Buf *b : {&d_keys, &d_ctrs, &d_upd, &d_out, &d_raw})
            b->device = true;
        for (Buf *b : {&h_keys, &h_ctrs, &h_upd, &d_keys, &d_ctrs, &d_upd, &d_raw})
            b->secret = true;
    }
    Buf *all[9] = {&h_keys, &h_ctrs, &h_upd, &h_out, &d_keys, &d_ctrs, &d_upd, &d_out, &d_raw};
};

// The first failure of a call, from any thread, with its CUDA message.
class Failure {
  public:
    void set(kcipher_status st)
    {
        if (st == KCIPHER_OK)
            return;
        std::lock_guard<std::mutex> l(m_);
        if (st_ == KCIPHER_OK) {
            st_ = st;
            msg_ = st == KCIPHER_ERR_CUDA ? gpu_last_error() : "";
        }
        flag_.store(true);
    }
    void cuda(int e) { set(gpu_status(e)); }
    bool failed() const { return flag_.load(); }
    // On the caller's thread: the status, with kcipher_gpu_last_error set for it.
    kcipher_status status()
    {
        std::lock_guard<std::mutex> l(m_);
        if (st_ == KCIPHER_ERR_CUDA)
            gpu_set_error(msg_.c_str());
        return st_;
    }

  private:
    std::mutex m_;
    kcipher_status st_ = KCIPHER_OK;
    std::string msg_;
    std::atomic<bool> flag_{false};
};

struct CopyRange {
    uint8_t *dst;
    const uint8_t *src;
    size_t bytes;
};

} // namespace

class GpuWorkspace {
  public:
    int device = -1;
    cudaEvent_t start = nullptr; // recorded on the caller's stream
    Slot slot[nslots];
    Buf ring; // pinned: the regions a single DRBG's chain lays batches out into
    std::unique_ptr<Pool> keys, copies; // key-schedule and host-copy threads, made on first use
    std::unique_ptr<Pool> submitter;    // a single DRBG's submitter thread, made on first use
    ChainWalk last_walk{0, 0};          // the last single-DRBG call's (gpu_last_chain_walk)

    int init(int dev)
    {
        device = dev;
        ring.secret = true;
        int e = cudaEventCreateWithFlags(&start, cudaEventDisableTiming);
        for (Slot &s : slot) {
            if (e == cudaSuccess)
                e = cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking);
            // Blocking: the copy threads wait on these without spinning a core each.
            if (e == cudaSuccess)
                e = cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming | cudaEventBlockingSync);
        }
        return e;
    }

    ~GpuWorkspace()
    {
        keys.reset(); // idle between calls: joined at once
        copies.reset();
        submitter.reset();
        GpuDeviceScope scope(device < 0 ? 0 : device);
        for (Slot &s : slot) {
            if (s.stream != nullptr)
                cudaStreamSynchronize(s.stream);
            for (Buf *b : s.all)
                b->release();
            if (s.done != nullptr)
                cudaEventDestroy(s.done);
            if (s.stream != nullptr)
                cudaStreamDestroy(s.stream);
        }
        ring.release();
        if (start != nullptr)
            cudaEventDestroy(start);
        cudaGetLastError();
    }
};

void free_gpu_workspace(GpuWorkspace *ws) { delete ws; }

ChainWalk gpu_last_chain_walk(const GpuWorkspace *ws) { return ws != nullptr ? ws->last_walk : ChainWalk{0, 0}; }

std::vector<SecretRegion> gpu_workspace_secrets(const GpuWorkspace *ws)
{
    std::vector<SecretRegion> v;
    if (ws == nullptr)
        return v;
    for (const Slot &s : ws->slot)
        for (const Buf *b : s.all)
            if (b->secret && b->p != nullptr)
                v.push_back({b->p, b->cap, b->device});
    if (ws->ring.p != nullptr)
        v.push_back({ws->ring.p, ws->ring.cap, false});
    return v;
}

constexpr unsigned device_key_threads_128 = 2;

unsigned gpu_key_threads(unsigned threads)
{
    unsigned hw = resolve_threads(threads);
    return std::max(1u, std::min(8u, hw / 2));
}

namespace {

// Whether [p, p + len) is page-locked host memory (cudaHostAlloc, cudaHostRegister): the GPU
// can then copy into it directly, with no CPU pass through pinned staging. Both ends are
// checked; a buffer registered only in part takes the staged path.
bool page_locked(const void *p, size_t len)
{
    for (const void *q : {p, static_cast<const void *>(static_cast<const uint8_t *>(p) + len - 1)}) {
        cudaPointerAttributes a{};
        if (cudaPointerGetAttributes(&a, q) != cudaSuccess) {
            cudaGetLastError();
            return false;
        }
        if (a.type != cudaMemoryTypeHost)
            return false;
    }
    return true;
}

// Ring regions for a single DRBG's chain (ChainAhead::use_ring): one per slot, whose uploads
// may still read theirs, two queued, one the submitter holds and one the chain lays out.
constexpr int ring_regions = nslots + 4;

// One call: the slots of the workspace, the thread pools, the first failure.
class Run {
  public:
    Run(const Kernel &g, Cipher c, GpuWorkspace &ws, const GpuOutput &o)
        : g_(g), c_(c), ws_(ws), o_(o), bs_(cipher_desc(c).block_bytes),
          key_stride_(round_up(std::max<size_t>(g.key_state_bytes, 1), 64))
    {
    }

    // Threads for a call of `items` items; key-schedule workers at most `max_key_workers`.
    void start(size_t items, unsigned max_key_workers)
    {
        if (items < 2 || resolve_threads(o_.threads) < 2)
            return; // all on the calling thread
        threaded_ = true;
        unsigned kt = std::min(gpu_key_threads(o_.threads), std::max(1u, max_key_workers));
        // Into device memory, two threads lay out a 128-bit block cipher's key states (a few
        // hundred bytes each) faster than the chain runs, and every further busy thread slows
        // the chain thread, which bounds the call: on a 16-core GPU host, 2 key threads
        // instead of 8 gave ARIA-128, LEA-128 and CHAM-128/256 about a quarter more into
        // device memory (`kcipher-lab --drbg --gpu` with device_key_threads_128 changed
        // re-measures it). HIGHT's bitsliced key states cost more than its chain, so HIGHT
        // keeps the full count.
        if (o_.on_device && bs_ == 16)
            kt = std::min(kt, device_key_threads_128);
        const unsigned ct = gpu_key_threads(o_.threads);
        if (max_key_workers != 0) { // 0: the GPU derives the key states
            if (!ws_.keys || ws_.keys->size() != kt) {
                ws_.keys.reset();
                ws_.keys.reset(new Pool(kt, ws_.device));
            }
            keys_ = ws_.keys.get();
        }
        if (!o_.on_device && !direct_) {
            if (!ws_.copies || ws_.copies->size() != ct) {
                ws_.copies.reset();
                ws_.copies.reset(new Pool(ct, ws_.device));
            }
            copies_ = ws_.copies.get();
        }
    }

    // Into device memory, the slots' work starts after the work the caller's stream holds,
    // which may write the output buffer. Seven CUDA calls: a single DRBG makes them on the
    // submitter, off the chain's path.
    void after_callers_stream()
    {
        if (!o_.on_device)
            return;
        fail_.cuda(cudaEventRecord(ws_.start, (cudaStream_t)o_.stream));
        for (Slot &s : ws_.slot)
            if (!fail_.failed())
                fail_.cuda(cudaStreamWaitEvent(s.stream, ws_.start, 0));
    }

    // Grows every slot's buffers to these sizes.
    // keys: the key states (device, and host unless raw); raw: the raw Keys and counters that
    // the GPU derives the states from (host and device), or 0.
    bool reserve(size_t keys, size_t ctrs, size_t upd, size_t d_out, size_t h_out, size_t raw = 0)
    {
        for (Slot &s : ws_.slot) {
            int e = 0;
            for (auto [b, n] : {std::pair<Buf *, size_t>{&s.h_keys, raw != 0 ? raw : keys}, {&s.d_keys, keys}, {&s.h_ctrs, ctrs},
                                {&s.d_ctrs, ctrs}, {&s.h_upd, upd}, {&s.d_upd, upd}, {&s.d_out, d_out},
                                {&s.h_out, h_out}, {&s.d_raw, raw}})
                if (e == 0 && n != 0)
                    e = b->grow(n);
            if (e != 0) {
                fail_.cuda(e);
                return false;
            }
        }
        return true;
    }

    kcipher_status single(Drbg &d, const Accelerations &a, size_t len, bool pr);
    kcipher_status multi(const MultiJob &j);

    // Waits for everything, zeroes the secrets on the device and in pinned memory, and
    // returns the first failure.
    kcipher_status finish(const MultiJob *j)
    {
        // The streams first: cudaStreamSynchronize spins (the runtime's default schedule),
        // where the slots' events wake a sleeping thread tens of microseconds after the GPU
        // is done; the call's end waits for its last items' GPU work.
        // Each CUDA call here costs a microsecond or two, in the call's tail after the chain's
        // end: a stream synchronized is not waited for again.
        const auto t = clk::now();
        bool synced[nslots] = {};
        for (int i = 0; i < nslots; i++)
            if (ws_.slot[i].issued) {
                const int e = cudaStreamSynchronize(ws_.slot[i].stream);
                fail_.cuda(e);
                synced[i] = e == cudaSuccess;
            }
        rep_.finish_gpu = since(t);
        for (int i = 0; i < nslots; i++)
            reclaim(ws_.slot[i], j, synced[i]); // every copy task has run (key tasks are waited for where posted)
        keys_ = copies_ = nullptr;
        bool wiping[nslots];
        for (int i = 0; i < nslots; i++) // all the wipes queued, then waited for
            wiping[i] = queue_device_wipes(ws_.slot[i]);
        for (int i = 0; i < nslots; i++) {
            Slot &s = ws_.slot[i];
            if (wiping[i] || !synced[i]) { // not issued: a failed call may have left an upload queued
                const int e = cudaStreamSynchronize(s.stream);
                if (e != cudaSuccess)
                    fail_.cuda(e);
            }
            for (Buf *b : s.all) {
                if (b->secret && !b->device && b->used != 0)
                    secure_wipe(b->p, b->used);
                b->used = 0;
            }
        }
        if (ws_.ring.used != 0)
            secure_wipe(ws_.ring.p, ws_.ring.used);
        ws_.ring.used = 0;
        return fail_.status();
    }

    Failure &failure() { return fail_; }
    // The call's times, for the observer (gpu_observer.hpp): single() fills the pipeline's.
    GpuCallReport &report() { return rep_; }
    clk::time_point pipeline_start() const { return t0_; }

    // Zeroes every slot's device secrets in one launch on the stream of `last` (the slot of
    // the call's last item), after each slot's work: one launch and an event wait per slot,
    // where a memset per buffer cost the submitter microseconds each (two to four per slot)
    // at the end of the call, when only the chain's last batches are left to hide it (the
    // trace observer's finish() time shows it).
    void queue_all_device_wipes(Slot &last)
    {
        DeviceWipes w{}; // room for every slot's four buffers
        for (Slot &s : ws_.slot) {
            const int before = w.count;
            for (Buf *b : {&s.d_keys, &s.d_ctrs, &s.d_upd, &s.d_raw})
                if (b->used != 0)
                    w.p[w.count] = b->p, w.n[w.count] = b->used, w.count++;
            if (w.count != before && &s != &last && s.issued) {
                const int e = cudaStreamWaitEvent(last.stream, s.done, 0);
                if (e != cudaSuccess) {
                    fail_.cuda(e);
                    return; // finish() wipes them slot by slot
                }
            }
        }
        if (w.count == 0)
            return;
        const int e = launch_device_wipes(w, last.stream);
        if (e != cudaSuccess) {
            fail_.cuda(e);
            return;
        }
        for (Slot &s : ws_.slot)
            for (Buf *b : {&s.d_keys, &s.d_ctrs, &s.d_upd, &s.d_raw})
                b->used = 0;
    }

    // Zeroes the slot's device secrets on its stream, after the work queued there (finish()
    // waits for it); whether it queued any (or failed to: then too the stream is waited for).
    bool queue_device_wipes(Slot &s)
    {
        bool queued = false;
        for (Buf *b : {&s.d_keys, &s.d_ctrs, &s.d_upd, &s.d_raw})
            if (b->used != 0) {
                const int e = cudaMemsetAsync(b->p, 0, b->used, s.stream);
                if (e != cudaSuccess)
                    fail_.cuda(e);
                b->used = 0;
                queued = true;
            }
        return queued;
    }

  private:
    // Posts fn(first, end, worker) over [0, n) in tasks of `per` to the key threads;
    // `left` counts the tasks not yet done. On an exception the tasks posted are waited for.
    template <class Fn> void post_keys(size_t n, size_t per, Fn &fn, Countdown &left)
    {
        try {
            for (size_t a = 0; a < n; a += per) {
                const size_t b = std::min(n, a + per);
                left.add();
                try {
                    keys_->post([this, &fn, &left, a, b](unsigned w) {
                        try {
                            fn(a, b, w);
                        } catch (...) { // a reseed's df out of memory
                            fail_.set(KCIPHER_ERR_NO_MEMORY);
                        }
                        left.done();
                    });
                } catch (...) {
                    left.done();
                    throw;
                }
            }
        } catch (...) {
            left.wait();
            throw;
        }
    }

    // fn over [0, n) on the key threads (or here), meanwhile `also` on this thread; returns
    // when both are done.
    template <class Fn, class Also> void parallel(size_t n, size_t per, Fn fn, Also also)
    {
        if (!keys_ || n <= per) {
            fn(size_t(0), n, 0u);
            also();
            return;
        }
        Countdown left;
        post_keys(n, per, fn, left);
        try {
            also();
        } catch (...) {
            left.wait();
            throw;
        }
        left.wait();
    }

    // The host copies of an item, once its event has fired: on the copy threads, or here.
    void post_copies(Slot &s, const std::vector<CopyRange> &ranges)
    {
        if (!copies_) {
            int e = cudaEventSynchronize(s.done);
            if (e != cudaSuccess) {
                fail_.cuda(e);
                return;
            }
            for (const CopyRange &r : ranges)
                stream_copy(r.dst, r.src, r.bytes);
            return;
        }
        // Group ranges into tasks of about copy_piece_bytes; split big ranges.
        std::vector<CopyRange> task;
        size_t task_bytes = 0;
        auto flush = [&] {
            if (task.empty())
                return;
            s.copies.add();
            try {
                copies_->post([this, &s, t = std::move(task)](unsigned) {
                    if (!fail_.failed()) {
                        int e = cudaEventSynchronize(s.done);
                        if (e != cudaSuccess)
                            fail_.cuda(e);
                        else
                            for (const CopyRange &r : t)
                                stream_copy(r.dst, r.src, r.bytes);
                    }
                    s.copies.done();
                });
            } catch (...) {
                s.copies.done();
                throw;
            }
            task.clear();
            task_bytes = 0;
        };
        for (CopyRange r : ranges) {
            while (r.bytes != 0) {
                size_t n = std::min(r.bytes, copy_piece_bytes - task_bytes);
                task.push_back({r.dst, r.src, n});
                task_bytes += n;
                r.dst += n, r.src += n, r.bytes -= n;
                if (task_bytes == copy_piece_bytes)
                    flush();
            }
        }
        flush();
    }

    // Waits for what slot s holds: its GPU work (then, for many instances, the new states)
    // and its host copies. gpu_done: its stream was synchronized, so its event has completed.
    void reclaim(Slot &s, const MultiJob *j, bool gpu_done = false)
    {
        if (s.issued) {
            s.issued = false;
            int e = gpu_done ? cudaSuccess : cudaEventSynchronize(s.done);
            if (e != cudaSuccess)
                fail_.cuda(e);
            else if (j != nullptr && !fail_.failed())
                collect(s, *j);
        }
        s.copies.wait();
    }

    // Many instances: each instance's Update blocks (XOR no additional input) are its new
    // Key || V (SP 800-90A 10.2.1.2), and the request counts.
    // On the key threads where there are some: tens of thousands of instances per group.
    void collect(Slot &s, const MultiJob &j)
    {
        const size_t ub = round_up(j.lim.seed_bytes, bs_);
        parallel(s.n, raw_task_states, [&](size_t x, size_t y, unsigned) {
            for (size_t i = x; i < y; i++) {
                Drbg::State &st = j.states[s.first + i];
                const uint8_t *u = s.h_upd.p + i * ub;
                std::memcpy(st.key, u, j.lim.key_bytes);
                std::memcpy(st.v, u + j.lim.key_bytes, bs_);
                st.counter++;
            }
        }, [] {});
        secure_wipe(s.h_upd.p, s.n * ub);
    }

    // Lays out the key states and counters of batch b in slot s: on the key threads when
    // there are some (s.keys counts the tasks; small states in one task, since waking a
    // thread costs more than laying out a few), else here. b and s stay put until
    // s.keys.wait().
    void lay_out(Slot &s, const std::vector<Segment> &b)
    {
        const size_t n = b.size();
        if (gpu_keys_) { // raw keys, then the counters after them: one upload (upload())
            const size_t kb = cipher_desc(c_).key_bytes;
            uint8_t *ctrs = s.h_keys.p + n * raw_stride;
            for (size_t i = 0; i < n; i++) {
                std::memcpy(s.h_keys.p + i * raw_stride, b[i].key, kb);
                std::memcpy(ctrs + i * bs_, b[i].counter, bs_);
            }
            return;
        }
        auto work = [this, &s, &b](size_t first, size_t end) {
            for (size_t i = first; i < end; i++) {
                key_state(b[i].key, s.h_keys.p + i * key_stride_);
                std::memcpy(s.h_ctrs.p + i * bs_, b[i].counter, bs_);
            }
        };
        if (!keys_) {
            work(0, n);
            return;
        }
        const size_t per = key_stride_ < small_key_state ? n : key_task_states;
        for (size_t first = 0; first < n; first += per) {
            const size_t end = std::min(n, first + per);
            s.keys.add();
            try {
                keys_->post([work, &s, first, end](unsigned) {
                    work(first, end);
                    s.keys.done();
                });
            } catch (...) {
                s.keys.done();
                throw;
            }
        }
    }

    void key_state(const uint8_t *key, uint8_t *dst) const
    {
        std::memset(dst, 0, key_stride_);
        g_.set_key(dst, c_, key);
    }

    // Keystream for n segments: segment i under the key state i of the slot, from counter
    // ctr_first + i of the slot's counters, seg_bytes each (the last last_bytes), to
    // dst + i * seg_bytes.
    bool segments(Slot &s, size_t ctr_first, size_t n, size_t seg_bytes, size_t last_bytes, uint8_t *dst)
    {
        const GpuOps &ops = *g_.gpu;
        if (ops.ctr_segments != nullptr) {
            const void *params = gpu_keys_ ? variant_.get() : static_cast<const void *>(s.h_keys.p);
            const uint8_t *ctrs = gpu_keys_ ? s.d_raw.p + n * raw_stride : s.d_ctrs.p; // lay_out()
            int e = ops.ctr_segments(params, s.d_keys.p, key_stride_, ctrs + ctr_first * bs_, n, seg_bytes,
                                     last_bytes, dst, s.stream);
            if (e != cudaSuccess)
                fail_.cuda(e);
            return e == cudaSuccess;
        }
        // No many-key launch: one CTR launch per segment, the key state as its parameters.
        for (size_t i = 0; i < n; i++) {
            GpuJob job{&g_, s.h_keys.p + i * key_stride_, bs_};
            kcipher_status st = gpu_device_ctr(job, s.h_ctrs.p + (ctr_first + i) * bs_, nullptr, dst + i * seg_bytes,
                                               i + 1 == n ? last_bytes : seg_bytes, s.stream);
            if (st != KCIPHER_OK) {
                fail_.set(st);
                return false;
            }
        }
        return true;
    }

    // Keys and counters of n segments (nctr counters) up to the device, when the kernel
    // reads them there.
    // Raw keys (gpu_keys_) go up with their counters in one copy: LEA-128's chain hands over a
    // batch every few tens of microseconds, and each CUDA call costs the submitter several.
    // raw: where the chain laid the raw keys and counters out (a ring region), or nullptr for
    // the slot's own pinned buffer.
    bool upload(Slot &s, size_t n, size_t nctr, const uint8_t *raw = nullptr)
    {
        if (gpu_keys_) {
            const size_t bytes = n * raw_stride + nctr * bs_; // lay_out()'s keys, then counters
            if (raw == nullptr)
                s.h_keys.mark(bytes), raw = s.h_keys.p;
            s.d_raw.mark(bytes), s.d_keys.mark(n * key_stride_);
            int e = cudaMemcpyAsync(s.d_raw.p, raw, bytes, cudaMemcpyHostToDevice, s.stream);
            if (e == cudaSuccess)
                e = g_.gpu->set_keys(c_, s.d_raw.p, raw_stride, n, s.d_keys.p, key_stride_, s.stream);
            if (e != cudaSuccess)
                fail_.cuda(e);
            return e == cudaSuccess;
        }
        s.h_keys.mark(n * key_stride_), s.h_ctrs.mark(nctr * bs_);
        if (g_.gpu->ctr_segments == nullptr)
            return true;
        s.d_keys.mark(n * key_stride_), s.d_ctrs.mark(nctr * bs_);
        int e = cudaMemcpyAsync(s.d_keys.p, s.h_keys.p, n * key_stride_, cudaMemcpyHostToDevice, s.stream);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(s.d_ctrs.p, s.h_ctrs.p, nctr * bs_, cudaMemcpyHostToDevice, s.stream);
        if (e != cudaSuccess)
            fail_.cuda(e);
        return e == cudaSuccess;
    }

    // rows of `width` bytes, src_pitch apart, to dst at dst_pitch apart.
    bool copy_rows(Slot &s, uint8_t *dst, size_t dst_pitch, const uint8_t *src, size_t src_pitch, size_t width,
                   size_t rows, cudaMemcpyKind kind)
    {
        int e = cudaSuccess;
        if (dst_pitch == width && src_pitch == width)
            e = cudaMemcpyAsync(dst, src, width * rows, kind, s.stream);
        else if (dst_pitch <= max_pitch && src_pitch <= max_pitch)
            e = cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width, rows, kind, s.stream);
        else
            for (size_t r = 0; r < rows && e == cudaSuccess; r++)
                e = cudaMemcpyAsync(dst + r * dst_pitch, src + r * src_pitch, width, kind, s.stream);
        if (e != cudaSuccess)
            fail_.cuda(e);
        return e == cudaSuccess;
    }

    bool record(Slot &s)
    {
        int e = cudaEventRecord(s.done, s.stream);
        if (e != cudaSuccess) {
            fail_.cuda(e);
            return false;
        }
        s.issued = true;
        return true;
    }

    const Kernel &g_;
    Cipher c_;
    GpuWorkspace &ws_;
    GpuOutput o_;
    size_t bs_, key_stride_;
    Failure fail_;
    GpuCallReport rep_;
    clk::time_point t0_ = clk::now(); // single(): the start of the pipeline's clock
    Pool *keys_ = nullptr, *copies_ = nullptr; // the workspace's, for this call
    bool threaded_ = false;                    // the chain walks on a thread of its own
    bool direct_ = false;                      // host output into page-locked memory: no staging

    // A single DRBG's key states derived on the GPU from raw keys (GpuOps::set_keys):
    // raw_stride apart in h_keys and d_raw; variant_, the state of an all-zero key, tells
    // ctr_segments which variant to launch (it holds no secret).
    static constexpr size_t raw_stride = sizeof(Segment::key);
    bool gpu_keys_ = false;
    KeyState variant_;

    bool use_gpu_keys()
    {
        const GpuOps &ops = *g_.gpu;
        if (ops.set_keys == nullptr || ops.ctr_segments == nullptr) // CPU threads lay the key states out
            return false;
        const uint8_t zero[32] = {};
        if (!variant_.init(g_, c_, zero))
            throw std::bad_alloc();
        return true;
    }
};

kcipher_status Run::single(Drbg &d, const Accelerations &a, size_t len, bool pr)
{
    const size_t req = d.limits().max_request_bytes;
    const size_t out_batch = o_.on_device ? device_batch_bytes : out_batch_bytes;
    const size_t per = std::max<size_t>(1, std::min(out_batch / req, key_batch_bytes / key_stride_));
    const size_t batch = per * req;
    const size_t items = batches_of(len, batch, req);
    const size_t segs = std::min(per, (len + req - 1) / req); // the most segments of one batch
    const size_t out_bytes = std::min(len, batch);
    gpu_keys_ = use_gpu_keys();
    direct_ = !o_.on_device && len != 0 && page_locked(o_.out, len);
    const bool staged = !o_.on_device && !direct_;
    start(items, gpu_keys_ ? 0 : gpu_key_threads(o_.threads));
    const size_t raw = gpu_keys_ ? segs * (raw_stride + bs_) : 0; // raw keys and counters (lay_out)
    if (fail_.failed() || !reserve(segs * key_stride_, gpu_keys_ ? 0 : segs * bs_, 0,
                                   o_.on_device ? 0 : out_bytes, staged ? out_bytes : 0, raw))
        return KCIPHER_OK; // finish() reports it

    // Three things overlap: the chain walks batch k+2 (this thread, ChainAhead::produce), the
    // GPU derives batch k+1's key states (or, for a kernel without GpuOps::set_keys, the key
    // threads lay them out), and the submitter thread queues batch k on the GPU. Without
    // threads, this thread does all of it in turn. Each stage's time goes to the call's
    // report (rep_, for an observer: gpu_observer.hpp) through a Timed scope.
    t0_ = clk::now();
    ChainAhead ahead(d, a, len, batch, pr, threaded_, o_.observer != nullptr);
    for (Slot &s : ws_.slot)
        s.region = -1;
    if (gpu_keys_ && threaded_) {
        const size_t region_bytes = round_up(segs * (raw_stride + bs_), 64);
        const int e = ws_.ring.grow(region_bytes * ring_regions);
        if (e != cudaSuccess) {
            fail_.cuda(e);
            return KCIPHER_OK; // finish() reports it
        }
        ahead.use_ring({ws_.ring.p, &ws_.ring.used, region_bytes, ring_regions, cipher_desc(c_).key_bytes, bs_,
                        raw_stride});
    }
    auto submit = [&] {
        Batch b[2];
        auto wait_keys = [&] {
            for (Slot &s : ws_.slot)
                s.keys.wait();
        };
        // Batch k from the chain into its slot, its key states started; false: none left.
        auto prepare = [&](size_t k) {
            {
                Timed t(rep_.wait_chain);
                ahead.next(b[k % 2]);
            }
            if (b[k % 2].n == 0)
                return false;
            Slot &s = ws_.slot[k % nslots];
            {
                Timed t(rep_.wait_slot);
                reclaim(s, nullptr);
                ahead.release(s.region); // its upload is done
                s.region = -1;
            }
            if (fail_.failed())
                return false;
            if (b[k % 2].region < 0)
                lay_out(s, b[k % 2].segs);
            return true;
        };
        Slot *last_slot = nullptr; // the slot of the last batch queued
        try {
            after_callers_stream();
            size_t at = 0;
            bool have = prepare(0);
            // Where key threads lay out the key states, batch k+1's go to them before batch k
            // is queued, so that they overlap; where the GPU derives them, batch k is queued
            // as soon as the chain has it, without waiting for the chain's next batch.
            const bool early = keys_ != nullptr;
            for (size_t k = 0; have && !fail_.failed(); k++) {
                bool next = early && prepare(k + 1);
                Slot &s = ws_.slot[k % nslots];
                Batch &cur = b[k % 2];
                {
                    Timed t(rep_.wait_keys);
                    s.keys.wait();
                }
                const size_t n = cur.n, last = cur.last, bytes = cur.bytes;
                rep_.batches++, rep_.requests += n;
                { // the batch's copies and launches
                    Timed issue(rep_.issue);
                    {
                        Timed t(rep_.wipe);
                        wipe_segments(cur.segs);
                    }
                    uint8_t *dst = o_.on_device ? o_.out + at : s.d_out.p;
                    {
                        Timed t(rep_.upload);
                        if (!upload(s, n, n, cur.region >= 0 ? ahead.region(cur.region) : nullptr))
                            break;
                    }
                    s.region = cur.region; // back to the chain when the slot is reclaimed
                    cur.region = -1;
                    {
                        Timed t(rep_.launch);
                        if (!segments(s, 0, n, req, last, dst))
                            break;
                    }
                    {
                        Timed t(rep_.record);
                        if (!o_.on_device && !copy_rows(s, direct_ ? o_.out + at : s.h_out.p, bytes, s.d_out.p, bytes,
                                                        bytes, 1, cudaMemcpyDeviceToHost))
                            break;
                        if (!record(s))
                            break;
                    }
                    rep_.last_queued = since(t0_);
                    if (k == 0)
                        rep_.first_queued = rep_.last_queued;
                    if (staged)
                        post_copies(s, {{o_.out + at, s.h_out.p, bytes}});
                }
                last_slot = &s;
                at += bytes;
                if (!early)
                    next = prepare(k + 1);
                have = next;
            }
            if (last_slot != nullptr && !fail_.failed())
                queue_all_device_wipes(*last_slot);
        } catch (...) {
            wait_keys(); // the tasks read b and the slots
            throw;
        }
        wait_keys();
        wipe_segments(b[0].segs);
        wipe_segments(b[1].segs);
    };
    ws_.last_walk = {0, 0};
    if (!threaded_) {
        submit();
    } else {
        // The submitter is the workspace's thread, kept between calls (its device set once):
        // a new thread per call cost tens of microseconds before the chain could start.
        if (!ws_.submitter)
            ws_.submitter.reset(new Pool(1, ws_.device));
        std::exception_ptr failed;
        Countdown submitted;
        submitted.add();
        try {
            ws_.submitter->post([&](unsigned) {
                try {
                    submit();
                } catch (...) {
                    failed = std::current_exception();
                }
                ahead.stop(); // the chain need not go on past what was submitted
                submitted.done();
            });
        } catch (...) {
            submitted.done();
            throw;
        }
        ahead.produce(); // until done, failed or stopped; then d is the caller's again
        // The submitter queues the last batch and the wipes tens of microseconds after the
        // chain's end (the trace observer's last batch queued against the chain's end):
        // spinning, this thread goes on at once.
        submitted.wait(std::chrono::microseconds(200));
        ws_.last_walk = {ahead.walk_seconds(), ahead.walked()};
        if (failed)
            std::rethrow_exception(failed);
        ahead.report(rep_, t0_);
    }
    rep_.pipeline = since(t0_);
    return ahead.status();
}

kcipher_status Run::multi(const MultiJob &j)
{
    const size_t req = j.lim.max_request_bytes;
    const size_t ub = round_up(j.lim.seed_bytes, bs_); // the Update's blocks, per instance
    const size_t rounds = (j.len + req - 1) / req;
    const size_t first_len = std::min(j.len, req), seg0 = round_up(first_len, bs_);
    // Straight into the caller's device memory when segment i's place is out + i * len; no
    // staging buffer then, so larger groups (fewer launches and waits per byte).
    const bool direct = o_.on_device && rounds == 1 && j.len % bs_ == 0;
    const size_t out_target = direct ? size_t(64) << 20 : out_batch_bytes;
    // The GPU derives the key states from the raw Keys where the kernel can (GpuOps::set_keys):
    // then only the raw Keys and counters cross PCIe, and the states (HIGHT's bitsliced ones
    // are 4.5 KiB per instance) stay in device memory, so groups may hold more of them.
    gpu_keys_ = use_gpu_keys();
    const size_t key_room = gpu_keys_ ? device_key_batch_bytes : key_batch_bytes;
    // At least four groups of many instances, so that the host's part of one group (raw Keys
    // out, new states in) overlaps the GPU's part of another.
    const size_t overlap = std::max<size_t>(min_overlap_group, (j.count + 3) / 4);
    const size_t group =
        std::max<size_t>(1, std::min({j.count, out_target / seg0, key_room / key_stride_, overlap}));
    const size_t groups = (j.count + group - 1) / group;
    start(groups * rounds, j.workers);
    after_callers_stream();
    const size_t raw = gpu_keys_ ? group * (raw_stride + 2 * bs_) : 0; // raw Keys, then both counters
    if (fail_.failed() || !reserve(group * key_stride_, gpu_keys_ ? 0 : 2 * group * bs_, group * ub,
                                   direct ? 0 : group * seg0, o_.on_device ? 0 : group * first_len, raw))
        return KCIPHER_OK;

    // Items (group, round): a window of nslots - 1 groups goes round by round, so that a
    // group's next round is queued nslots - 1 items after its previous one.
    const size_t window = nslots - 1;
    size_t k = 0;
    for (size_t w0 = 0; w0 < groups; w0 += window)
        for (size_t r = 0; r < rounds; r++)
            for (size_t gi = w0; gi < std::min(groups, w0 + window); gi++) {
                if (fail_.failed())
                    return KCIPHER_OK;
                if (r > 0)
                    for (Slot &p : ws_.slot)
                        if (p.issued && p.group == gi)
                            reclaim(p, &j); // this group's states after its previous round
                Slot &s = ws_.slot[k++ % nslots];
                reclaim(s, &j);
                if (fail_.failed())
                    return KCIPHER_OK;
                const size_t a = gi * group, n = std::min(group, j.count - a);
                const size_t len_r = std::min(req, j.len - r * req), seg = round_up(len_r, bs_);
                // Key states and counters: V + 1 for the output, V + 1 + blocks for the Update.
                parallel(n, gpu_keys_ ? raw_task_states : key_task_states, [&](size_t x, size_t y, unsigned w) {
                    for (size_t i = x; i < y && !fail_.failed(); i++) {
                        kcipher_status st = j.before(a + i, r, w);
                        if (st != KCIPHER_OK) {
                            fail_.set(st);
                            return;
                        }
                        const Drbg::State &state = j.states[a + i];
                        uint8_t *ctrs = s.h_ctrs.p; // upload()'s layouts
                        if (gpu_keys_) {
                            std::memcpy(s.h_keys.p + i * raw_stride, state.key, cipher_desc(c_).key_bytes);
                            ctrs = s.h_keys.p + n * raw_stride;
                        } else {
                            key_state(state.key, s.h_keys.p + i * key_stride_);
                        }
                        uint8_t *c0 = ctrs + i * bs_, *c1 = ctrs + (n + i) * bs_;
                        std::memcpy(c0, state.v, bs_);
                        counter_increment(c0, bs_);
                        std::memcpy(c1, c0, bs_);
                        counter_add(c1, bs_, seg / bs_);
                    }
                }, [] {});
                if (fail_.failed() || !upload(s, n, 2 * n))
                    return KCIPHER_OK;
                uint8_t *row0 = o_.out + a * j.len + r * req; // instance a's bytes of this round
                if (!segments(s, 0, n, seg, seg, direct ? row0 : s.d_out.p))
                    return KCIPHER_OK;
                if (!direct && !(o_.on_device ? copy_rows(s, row0, j.len, s.d_out.p, seg, len_r, n, cudaMemcpyDeviceToDevice)
                                              : copy_rows(s, s.h_out.p, len_r, s.d_out.p, seg, len_r, n, cudaMemcpyDeviceToHost)))
                    return KCIPHER_OK;
                s.d_upd.mark(n * ub), s.h_upd.mark(n * ub);
                if (!segments(s, n, n, ub, ub, s.d_upd.p) ||
                    !copy_rows(s, s.h_upd.p, n * ub, s.d_upd.p, n * ub, n * ub, 1, cudaMemcpyDeviceToHost))
                    return KCIPHER_OK;
                s.first = a, s.n = n, s.group = gi;
                if (!record(s))
                    return KCIPHER_OK;
                if (!o_.on_device) {
                    std::vector<CopyRange> ranges;
                    if (rounds == 1)
                        ranges.push_back({row0, s.h_out.p, n * len_r});
                    else
                        for (size_t i = 0; i < n; i++)
                            ranges.push_back({row0 + i * j.len, s.h_out.p + i * len_r, len_r});
                    post_copies(s, ranges);
                }
            }
    return KCIPHER_OK;
}

// The workspace on `device`, made or remade.
kcipher_status workspace_on(GpuWorkspace *&ws, int device)
{
    if (ws != nullptr && ws->device == device)
        return KCIPHER_OK;
    delete ws;
    ws = new (std::nothrow) GpuWorkspace;
    if (ws == nullptr)
        return KCIPHER_ERR_NO_MEMORY;
    int e = ws->init(device);
    if (e != cudaSuccess) {
        kcipher_status st = gpu_status(e);
        delete ws;
        ws = nullptr;
        return st;
    }
    return KCIPHER_OK;
}

template <class Body>
kcipher_status run_call(const Kernel &g, Cipher c, GpuWorkspace *&ws, const GpuOutput &o, const MultiJob *j, Body body)
{
    if (g.gpu == nullptr)
        return KCIPHER_ERR_NOT_GPU_KERNEL;
    GpuDeviceScope scope(o.device);
    if (scope.status() != KCIPHER_OK)
        return scope.status();
    kcipher_status st = workspace_on(ws, o.device);
    if (st != KCIPHER_OK)
        return st;
    try {
        const auto t0 = clk::now();
        Run run(g, c, *ws, o);
        kcipher_status body_st = KCIPHER_OK;
        try {
            body_st = body(run);
        } catch (const std::exception &) { // out of memory, or no thread could be started
            run.failure().set(KCIPHER_ERR_NO_MEMORY);
        }
        const auto t1 = clk::now();
        kcipher_status gpu = run.finish(j);
        if (o.observer != nullptr && j == nullptr) { // single mode: the call's report
            GpuCallReport &r = run.report();
            r.whole = since(t0), r.finish = since(t1);
            r.pipeline_started = std::chrono::duration<double>(run.pipeline_start() - t0).count();
            o.observer->call_done(r);
        }
        return gpu != KCIPHER_OK ? gpu : body_st;
    } catch (const std::exception &) {
        return KCIPHER_ERR_NO_MEMORY;
    }
}

} // namespace

kcipher_status generate_gpu(Drbg &d, const Accelerations &a, const Kernel &gpu_kernel, GpuWorkspace *&ws,
                            const GpuOutput &o, size_t len, bool prediction_resistance)
{
    if (len == 0)
        return KCIPHER_OK;
    return run_call(gpu_kernel, a.cipher, ws, o, nullptr,
                    [&](Run &r) { return r.single(d, a, len, prediction_resistance); });
}

kcipher_status multi_generate_gpu(const Kernel &gpu_kernel, Cipher c, GpuWorkspace *&ws, const GpuOutput &o,
                                  const MultiJob &job)
{
    if (job.len == 0 || job.count == 0)
        return KCIPHER_OK;
    return run_call(gpu_kernel, c, ws, o, &job, [&](Run &r) { return r.multi(job); });
}

} // namespace kc::drbg
