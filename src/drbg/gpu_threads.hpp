// The threads of the GPU DRBG's pipeline (drbg_gpu.cu) and how they wait for one another: a
// bounded spin before a sleep, a count of outstanding tasks, and worker threads kept between
// calls. Included by drbg_gpu.cu only.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kc::drbg::pipeline {

// Polls ready() for up to `limit`, pausing between reads; true if it held. On a virtualized
// GPU host a thread that sleeps on a condition variable or a blocking-sync event can run again
// tens of microseconds after it is woken (time a blocking cudaEventSynchronize against a
// polled cudaEventQuery to see it), time that the pipeline's hand-overs cannot spare; a
// bounded spin costs a core only that long.
template <class Ready> bool spin_until(Ready ready, std::chrono::microseconds limit)
{
    const auto until = std::chrono::steady_clock::now() + limit;
    for (unsigned i = 1; !ready(); i++) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
        if (i % 64 == 0 && std::chrono::steady_clock::now() >= until)
            return false;
    }
    return true;
}

// Outstanding tasks of one kind; wait() returns when all are done.
class Countdown {
  public:
    void add()
    {
        std::lock_guard<std::mutex> l(m_);
        n_.fetch_add(1, std::memory_order_relaxed);
    }
    void done()
    {
        std::lock_guard<std::mutex> l(m_);
        if (n_.fetch_sub(1, std::memory_order_release) == 1)
            cv_.notify_all();
    }
    // Spins up to `spin` before it sleeps (spin_until).
    void wait(std::chrono::microseconds spin = std::chrono::microseconds(0))
    {
        if (spin.count() > 0)
            spin_until([&] { return n_.load(std::memory_order_acquire) == 0; }, spin);
        std::unique_lock<std::mutex> l(m_); // also keeps done() from running past our return
        cv_.wait(l, [&] { return n_.load(std::memory_order_relaxed) == 0; });
    }

  private:
    std::mutex m_;
    std::condition_variable cv_;
    std::atomic<size_t> n_{0};
};

// Worker threads, kept by the workspace between calls (idle ones wait on a condition
// variable): tasks run in order of posting; the destructor finishes the queue, then joins.
class Pool {
  public:
    Pool(unsigned n, int device)
    {
        try {
            for (unsigned i = 0; i < n; i++)
                t_.emplace_back([this, i, device] { loop(i, device); });
        } catch (...) {
            stop();
            throw;
        }
    }
    ~Pool() { stop(); }
    Pool(const Pool &) = delete;
    Pool &operator=(const Pool &) = delete;
    unsigned size() const { return (unsigned)t_.size(); }

    void post(std::function<void(unsigned)> f)
    {
        {
            std::lock_guard<std::mutex> l(m_);
            q_.push_back(std::move(f));
        }
        cv_.notify_one();
    }

  private:
    void loop(unsigned index, int device)
    {
        cudaSetDevice(device); // the current device is per host thread
        for (;;) {
            std::function<void(unsigned)> f;
            {
                std::unique_lock<std::mutex> l(m_);
                cv_.wait(l, [&] { return stop_ || !q_.empty(); });
                if (q_.empty())
                    return;
                f = std::move(q_.front());
                q_.pop_front();
            }
            f(index);
        }
    }
    void stop()
    {
        {
            std::lock_guard<std::mutex> l(m_);
            stop_ = true;
        }
        cv_.notify_all();
        for (std::thread &t : t_)
            t.join();
        t_.clear();
    }

    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::function<void(unsigned)>> q_;
    bool stop_ = false;
    std::vector<std::thread> t_;
};

} // namespace kc::drbg::pipeline
