// One DRBG's chain of (Key, V) updates, walked ahead of the GPU's batches for drbg_gpu.cu's
// single mode (ChainAhead), and the batches it hands over.
// Included by drbg_gpu.cu only.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <vector>

#include <time.h>

#include "drbg/chain.hpp"
#include "drbg/ctr_drbg.hpp"
#include "drbg/gpu_observer.hpp"
#include "drbg/gpu_threads.hpp"

namespace kc::drbg::pipeline {

using clk = std::chrono::steady_clock;
inline double since(clk::time_point t) { return std::chrono::duration<double>(clk::now() - t).count(); }

// The bytes of the batch that starts at `at` of a call of `len`: whole batches of `batch`,
// then what is left in halves down to tail_requests requests. The chain bounds the call, and
// after its last request only the last batch's GPU work remains: a small batch keeps that
// short (a whole batch is a few hundred microseconds of keystream on a current GPU). Not below
// 64 requests: a batch costs the submitter tens of microseconds of CUDA calls whatever its
// size, more than the chain takes for a few dozen of LEA-128's requests. The trace observer
// (bench/tools/drbg_gpu_trace.hpp) prints both per batch.
constexpr size_t tail_requests = 64;
inline size_t batch_at(size_t at, size_t len, size_t batch, size_t req)
{
    const size_t left = len - at;
    if (left > batch)
        return batch;
    if (left <= 2 * tail_requests * req)
        return left;
    return (left / 2 + req - 1) / req * req;
}

inline size_t batches_of(size_t len, size_t batch, size_t req)
{
    size_t n = 0;
    for (size_t at = 0; at < len; n++)
        at += batch_at(at, len, batch, req);
    return n;
}

// A batch as the chain hands it to the submitter: its requests' segments, or, where the
// chain lays the batch out itself (ChainAhead::use_ring), the ring region that holds its raw
// Keys and then its counters. n, bytes and last describe it either way.
struct Batch {
    std::vector<Segment> segs; // empty with a region
    int region = -1;
    size_t n = 0, bytes = 0, last = 0; // requests, output bytes, the last request's bytes
};

// Regions of pinned memory that the chain lays batches out into, for the upload to read.
struct Ring {
    uint8_t *base = nullptr; // regions * region_bytes of pinned memory, secret
    size_t *used = nullptr;  // how far it was written: the call's end wipes that far
    size_t region_bytes = 0;
    int regions = 0;
    size_t key_bytes = 0, block_bytes = 0, stride = 0; // raw Keys `stride` apart, then counters
};

// The chain of one call, at most two batches ahead of the GPU batches. Threaded, the calling
// thread walks it (produce()) and a submitter thread takes the batches (next()) and does the
// key states, copies and launches, which so stay off the chain's path: the chain alone then
// bounds the rate. The chain runs on the calling thread because that is where it runs alone:
// on a shared cloud host a new thread or another vCPU walked it up to twice as slowly
// (bench/tools/drbg_chain_per_cpu.cpp times it on the calling thread, on a new thread and
// pinned to each CPU in turn). Without threads, next() walks it.
class ChainAhead {
  public:
    // cpu_time: also the walk's CPU time (a system call per batch; for an observer).
    ChainAhead(Drbg &d, const Accelerations &a, size_t len, size_t batch, bool pr, bool threaded, bool cpu_time)
        : d_(d), a_(a), len_(len), batch_(batch), pr_(pr), threaded_(threaded), cpu_time_(cpu_time)
    {
    }
    ~ChainAhead()
    {
        for (Batch &b : q_)
            wipe_segments(b.segs); // regions: finish() wipes the ring
    }
    ChainAhead(const ChainAhead &) = delete;
    ChainAhead &operator=(const ChainAhead &) = delete;

    // Threaded only, before produce(): the chain lays each batch out in a region of r (where
    // the GPU derives the key states), so that the submitter reads no key material and the
    // chain writes none into lines that the submitter's core last wrote. The segments' hand-
    // over copy costs the chain several percent of its time per request otherwise (the
    // trace observer's "hand-over", bench/tools/drbg_gpu_trace.hpp, measures it).
    // Regions come back through release(); r.regions must cover the slots' and the queue's.
    void use_ring(const Ring &r)
    {
        ring_ = r;
        free_regions_.reserve((size_t)r.regions); // release() cannot throw
        for (int i = r.regions - 1; i >= 0; i--)
            free_regions_.push_back(i);
    }
    uint8_t *region(int i) const { return ring_.base + (size_t)i * ring_.region_bytes; }
    // A region the upload has read (its slot reclaimed) goes back to the chain.
    void release(int region)
    {
        if (region < 0)
            return;
        {
            std::lock_guard<std::mutex> l(m_);
            free_regions_.push_back(region); // within the room reserved: no throw
        }
        cv_.notify_all();
    }

    // Ends produce() early (the submitter stopped).
    void stop()
    {
        {
            std::lock_guard<std::mutex> l(m_);
            stop_ = true;
        }
        cv_.notify_all();
    }

    // The next batch into out (n == 0: none left; see status()).
    void next(Batch &out)
    {
        out.segs.clear();
        out.region = -1, out.n = 0;
        if (!threaded_) {
            if (st_ == KCIPHER_OK && at_ < len_)
                walk(out.segs);
            describe(out);
            return;
        }
        spin_until_ready();
        std::unique_lock<std::mutex> l(m_);
        cv_.wait(l, [&] { return !q_.empty() || done_; });
        if (q_.empty())
            return;
        std::swap(out, q_.front());
        if (q_.front().segs.capacity() != 0) // out's old vector, empty: the producer refills it
            free_.push_back(std::move(q_.front().segs));
        q_.pop_front();
        ready_.store(!q_.empty() || done_, std::memory_order_release);
        cv_.notify_all();
    }

    // Threaded: walks the whole chain on the calling thread, batch by batch, until it is done,
    // fails or stop() is called.
    void produce()
    {
        begin_ = clk::now();
        std::vector<Segment> scratch;
        const size_t per = (batch_ + d_.limits().max_request_bytes - 1) / d_.limits().max_request_bytes;
        for (;;) {
            Batch b;
            {
                auto t = clk::now();
                std::unique_lock<std::mutex> l(m_);
                cv_.wait(l, [&] { return stop_ || (q_.size() < 2 && (ring_.base == nullptr || !free_regions_.empty())); });
                full_s_ += since(t);
                if (stop_ || st_ != KCIPHER_OK || at_ >= len_)
                    break;
                if (ring_.base != nullptr) {
                    b.region = free_regions_.back();
                    free_regions_.pop_back();
                } else if (!free_.empty()) {
                    b.segs.swap(free_.back());
                    free_.pop_back();
                }
            }
            auto t = clk::now();
            const double c0 = cpu_time_ ? thread_cpu() : 0;
            // Without a ring, the chain writes into its own scratch, whose lines stay in this
            // core's cache, then hands a copy over: the submitter's reads and wipes of each
            // batch cost the chain a cache miss per request otherwise: LEA-128's chain walked
            // slower in the pipeline than alone, and with the scratch as fast (compare the
            // trace observer's walk per request with the chain alone, kcipher-lab --drbg --gpu).
            try { // room first, so that no request is planned and then lost
                if (b.region < 0) {
                    b.segs.reserve(per);
                    scratch.reserve(per);
                }
            } catch (...) {
                release(b.region);
                std::lock_guard<std::mutex> l(m_);
                st_ = KCIPHER_ERR_NO_MEMORY;
                break;
            }
            if (b.region >= 0) {
                const size_t planned = planned_requests();
                prefetch_for_write(region(b.region), planned * (ring_.stride + ring_.block_bytes));
                RingSink sink(ring_, region(b.region), planned);
                walk(sink);
                sink.describe(b);
            } else {
                walk(scratch);
                const auto tw = clk::now();
                b.segs.assign(scratch.begin(), scratch.end()); // within the room reserved: no throw
                describe(b, scratch);
                wipe_segments(scratch);
                copy_s_ += since(tw);
            }
            walk_s_ += since(t), cpu_s_ += cpu_time_ ? thread_cpu() - c0 : 0, walked_ += b.n;
            if (b.n == 0) { // the chain failed before the batch's first request
                release(b.region);
                break;
            }
            std::lock_guard<std::mutex> l(m_);
            try {
                q_.push_back(std::move(b));
                ready_.store(true, std::memory_order_release);
            } catch (...) { // the batch is lost, so the call fails
                wipe_segments(b.segs);
                if (b.region >= 0)
                    free_regions_.push_back(b.region);
                st_ = KCIPHER_ERR_NO_MEMORY;
                break;
            }
            cv_.notify_all();
        }
        wipe_segments(scratch);
        end_ = clk::now();
        std::lock_guard<std::mutex> l(m_);
        done_ = true;
        ready_.store(true, std::memory_order_release);
        cv_.notify_all();
    }

    // After next() gave an empty batch.
    kcipher_status status()
    {
        std::lock_guard<std::mutex> l(m_);
        return st_;
    }

  private:
    // The submitter waits for the chain's next batch spinning, up to spin_limit, before it
    // sleeps: a sleeping thread runs again tens of microseconds after it is woken (spin_until
    // says more), which is a large part of a batch of LEA-128's chain, and the chain's notify
    // then finds no sleeper to wake. Most batches come within the limit (the trace observer's
    // "wait for the chain" per batch tells how long they take).
    static constexpr auto spin_limit = std::chrono::microseconds(500);
    void spin_until_ready() const
    {
        spin_until([this] { return ready_.load(std::memory_order_acquire); }, spin_limit);
    }

    // Lays each segment out where Run::upload sends it up from: the raw Keys `stride` apart,
    // then the counters, straight into the ring region as the chain plans them, so that each
    // is written once. Copied there from a scratch after the walk, the segments cost LEA-128's
    // chain several percent more per request (the trace observer's "hand-over").
    class RingSink final : public SegmentSink {
      public:
        RingSink(const Ring &r, uint8_t *dst, size_t planned) : r_(r), dst_(dst), planned_(planned) {}
        void put(const Segment &s) override
        {
            if (n_ == planned_)
                return; // not reached: the walk plans `planned` requests at most
            std::memcpy(dst_ + n_ * r_.stride, s.key, r_.key_bytes);
            std::memcpy(dst_ + planned_ * r_.stride + n_ * r_.block_bytes, s.counter, r_.block_bytes);
            n_++, bytes_ += s.bytes, last_ = s.bytes;
        }
        size_t bytes() const { return bytes_; }
        // The batch as planned; its counters moved down to follow its n keys where the chain
        // stopped early. finish() wipes the region's bytes as far as they were used.
        void describe(Batch &b)
        {
            if (n_ < planned_)
                std::memmove(dst_ + n_ * r_.stride, dst_ + planned_ * r_.stride, n_ * r_.block_bytes);
            *r_.used = std::max(*r_.used, (size_t)(dst_ - r_.base) + planned_ * (r_.stride + r_.block_bytes));
            b.n = n_, b.bytes = bytes_, b.last = last_;
        }

      private:
        const Ring &r_;
        uint8_t *dst_;
        size_t planned_, n_ = 0, bytes_ = 0, last_ = 0;
    };

    // The next batch's requests, into out; a failure stops the chain (st_).
    void walk(std::vector<Segment> &out) // out empty
    {
        kcipher_status st;
        try {
            st = plan_segments(d_, a_, next_bytes(), pr_, out);
        } catch (...) {
            st = KCIPHER_ERR_NO_MEMORY;
        }
        for (const Segment &x : out)
            at_ += x.bytes;
        fail(st);
    }
    void walk(RingSink &out)
    {
        kcipher_status st;
        try {
            st = plan_segments(d_, a_, next_bytes(), pr_, out);
        } catch (...) { // a reseed's derivation function out of memory
            st = KCIPHER_ERR_NO_MEMORY;
        }
        at_ += out.bytes();
        fail(st);
    }
    size_t next_bytes() const { return batch_at(at_, len_, batch_, d_.limits().max_request_bytes); }
    void fail(kcipher_status st)
    {
        if (st != KCIPHER_OK) {
            std::lock_guard<std::mutex> l(m_);
            st_ = st;
        }
    }

    // The requests of the batch that walk() plans next, unless the chain fails.
    size_t planned_requests() const
    {
        const size_t req = d_.limits().max_request_bytes;
        return (next_bytes() + req - 1) / req;
    }

    // Asks for the lines of a region in a writable state before the walk, which is latency
    // bound and leaves the memory system idle: the upload's DMA read them last. It cut the
    // cost of laying a batch into the ring by about a third for ARIA-128 and CHAM-128/256
    // (LEA-128's stayed as it was; time the walk with and without it through the trace
    // observer). prefetchw is a no-op on x86 processors without it.
    static void prefetch_for_write(const uint8_t *p, size_t bytes)
    {
        for (size_t i = 0; i < bytes; i += 64) {
#if defined(__x86_64__)
            asm volatile("prefetchw %0" : : "m"(p[i]));
#else
            __builtin_prefetch(p + i, 1, 3);
#endif
        }
    }

    static void describe(Batch &b, const std::vector<Segment> &s)
    {
        b.n = s.size();
        b.last = s.empty() ? 0 : s.back().bytes;
        b.bytes = 0;
        for (const Segment &x : s)
            b.bytes += x.bytes;
    }
    static void describe(Batch &b) { describe(b, b.segs); }

  public:
    // produce()'s walking time (not its waits for room) and the requests it walked: what the
    // chain cost inside the call (gpu_last_chain_walk).
    double walk_seconds() const { return walk_s_; }
    size_t walked() const { return walked_; }

    // produce()'s own times (wall, CPU, the hand-over, waiting for room) and when it started
    // and ended, since t0, into an observer's report (gpu_observer.hpp).
    void report(GpuCallReport &r, clk::time_point t0) const
    {
        r.walked = walked_;
        r.walk = walk_s_, r.walk_cpu = cpu_s_, r.handover = copy_s_, r.wait_room = full_s_;
        r.chain_start = std::chrono::duration<double>(begin_ - t0).count();
        r.chain_end = std::chrono::duration<double>(end_ - t0).count();
    }

  private:
    static double thread_cpu()
    {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return ts.tv_sec + ts.tv_nsec * 1e-9;
    }
    double walk_s_ = 0, cpu_s_ = 0, full_s_ = 0, copy_s_ = 0;
    size_t walked_ = 0;
    clk::time_point begin_{}, end_{};

    Drbg &d_;
    const Accelerations &a_;
    const size_t len_, batch_;
    const bool pr_;
    size_t at_ = 0; // bytes planned (the producer's, or next()'s)
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<Batch> q_;
    std::vector<std::vector<Segment>> free_; // emptied batches, kept for their capacity
    Ring ring_;
    std::vector<int> free_regions_; // with a ring: the regions the chain may lay out into
    bool stop_ = false, done_ = false;
    std::atomic<bool> ready_{false}; // !q_.empty() || done_, read without the lock
    const bool threaded_, cpu_time_;
    kcipher_status st_ = KCIPHER_OK;
};

} // namespace kc::drbg::pipeline
