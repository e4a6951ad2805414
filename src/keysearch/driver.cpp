#include "keysearch/driver.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

namespace kc::keysearch {

namespace {

using clk = std::chrono::steady_clock;

double seconds_since(clk::time_point t) { return std::chrono::duration<double>(clk::now() - t).count(); }

// A GPU's first chunk: small enough to be quick on any GPU, then adapted to chunk_seconds.
constexpr uint64_t gpu_first_chunk = uint64_t(1) << 26;
constexpr uint64_t gpu_min_chunk = uint64_t(1) << 20;
constexpr uint64_t gpu_max_chunk = uint64_t(1) << 42;

class Search {
  public:
    Search(const SearchJob &job, const Backend &b) : job_(job), b_(b) {}
    SearchOutcome run();

  private:
    std::optional<Range> take(uint64_t max);
    void complete(std::optional<Range> part, const std::vector<uint64_t> &hits);
    void fail(kcipher_status st);
    void cpu_worker();
    void gpu_worker(int device);
    void guarded(const std::function<void()> &work);
    void start_worker(std::vector<std::thread> &pool, std::function<void()> work);
    void monitor();
    void report(const std::vector<Found> &fresh, const SearchStatus *s);
    kcipher_status resume(SearchOutcome &out);
    bool trusted(const Found &f) const;
    kcipher_status finish(SearchOutcome &out);
    kcipher_status save_locked();
    void fail_locked(kcipher_status st);
    SearchStatus status_locked() const;

    const SearchJob &job_;
    const Backend &b_;
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<Range> pending_;
    CheckpointState st_;
    std::vector<Found> unreported_;
    kcipher_status error_ = KCIPHER_OK;
    int os_error_ = 0;
    bool cancelled_ = false;
    unsigned running_ = 0;
    uint64_t tested_ = 0;
    std::atomic<bool> stop_{false};
    clk::time_point start_ = clk::now(), last_save_ = clk::now();
};

std::optional<Range> Search::take(uint64_t max)
{
    std::lock_guard<std::mutex> lock(m_);
    if (stop_.load() || pending_.empty())
        return std::nullopt;
    Range &front = pending_.front();
    if (front.size_minus_one() < max) {
        Range r = front;
        pending_.pop_front();
        return r;
    }
    Range piece{front.first, front.first + (max - 1)};
    front.first += max;
    return piece;
}

// Hits are checked outside the lock (rare, but the reference kernel is slow). A key is on
// disk before its range counts as finished, so no crash can lose it.
void Search::complete(std::optional<Range> part, const std::vector<uint64_t> &hits)
{
    std::vector<Found> keys;
    for (uint64_t i : hits)
        if (b_.matches_all(i))
            keys.push_back({i, b_.key_of(i)});
    std::lock_guard<std::mutex> lock(m_);
    bool added = false;
    for (Found &f : keys) {
        auto same = [&](const Found &g) { return g.index == f.index; };
        if (std::none_of(st_.found.begin(), st_.found.end(), same)) {
            st_.found.push_back(f);
            unreported_.push_back(f);
            added = true;
        }
    }
    if (added && !job_.checkpoint_path.empty())
        fail_locked(save_locked());
    if (added && !job_.all_keys)
        stop_ = true; // the other workers end their chunks early; what they did stays finished
    if (part) {
        st_.finished.add(*part);
        tested_ += part->size_minus_one() + 1;
    }
    cv_.notify_all();
}

void Search::fail(kcipher_status st)
{
    std::lock_guard<std::mutex> lock(m_);
    fail_locked(st);
    cv_.notify_all();
}

// The first error wins; KCIPHER_OK is no error.
void Search::fail_locked(kcipher_status st)
{
    if (st == KCIPHER_OK)
        return;
    if (error_ == KCIPHER_OK)
        error_ = st;
    stop_ = true;
}

void Search::guarded(const std::function<void()> &work)
{
    try {
        work();
    } catch (const std::bad_alloc &) {
        fail(KCIPHER_ERR_NO_MEMORY);
    } catch (...) {
        fail(KCIPHER_ERR_INTERNAL);
    }
    std::lock_guard<std::mutex> lock(m_);
    running_--;
    cv_.notify_all();
}

void Search::cpu_worker()
{
    std::vector<uint64_t> hits;
    while (std::optional<Range> r = take(std::max<uint64_t>(1, b_.cpu_chunk))) {
        hits.clear();
        uint64_t n = r->size_minus_one() + 1;
        uint64_t tested = b_.cpu(r->first, n, stop_, hits);
        std::optional<Range> part;
        if (tested > 0)
            part = Range{r->first, r->first + (tested - 1)};
        complete(part, hits);
        if (tested < n)
            break; // stopped part-way: the rest stays unfinished for the next run
    }
}

// One host thread per GPU. Chunks grow or shrink towards chunk_seconds each, so that a
// checkpoint never waits long on a GPU, whatever its speed.
void Search::gpu_worker(int device)
{
    uint64_t chunk = b_.gpu_chunk != 0 ? b_.gpu_chunk : gpu_first_chunk;
    std::vector<uint64_t> hits;
    while (std::optional<Range> r = take(chunk)) {
        hits.clear();
        uint64_t n = r->size_minus_one() + 1;
        clk::time_point t0 = clk::now();
        kcipher_status st = b_.gpu(device, r->first, n, hits);
        if (st != KCIPHER_OK) {
            fail(st);
            return;
        }
        complete(*r, hits);
        double s = seconds_since(t0);
        if (b_.gpu_chunk == 0 && n == chunk) {
            double scale = s > 0 ? job_.chunk_seconds / s : 8.0;
            scale = std::clamp(scale, 0.25, 8.0);
            chunk = std::clamp<uint64_t>(uint64_t((double)chunk * scale), gpu_min_chunk, gpu_max_chunk);
        }
    }
}

// running_ counts a worker before its thread exists, so the monitor cannot see zero early;
// a thread that cannot be started stops the search instead of hanging it.
void Search::start_worker(std::vector<std::thread> &pool, std::function<void()> work)
{
    {
        std::lock_guard<std::mutex> lock(m_);
        running_++;
    }
    try {
        pool.emplace_back([this, work] { guarded(work); });
    } catch (...) {
        {
            std::lock_guard<std::mutex> lock(m_);
            running_--;
        }
        fail(KCIPHER_ERR_NO_MEMORY);
    }
}

kcipher_status Search::save_locked()
{
    last_save_ = clk::now();
    kcipher_status st = save_checkpoint(job_.checkpoint_path, job_.fingerprint, st_);
    if (st != KCIPHER_OK && os_error_ == 0)
        os_error_ = errno;
    return st;
}

SearchStatus Search::status_locked() const
{
    SearchStatus s;
    s.total = job_.range.size_minus_one() + 1;
    s.done = st_.finished.count_within(job_.range);
    s.tested = tested_;
    s.found = st_.found.size();
    s.elapsed_seconds = seconds_since(start_);
    s.keys_per_second = s.elapsed_seconds > 0 ? (double)tested_ / s.elapsed_seconds : 0;
    if (s.keys_per_second > 0)
        s.eta_seconds = (double)(s.total - s.done) / s.keys_per_second;
    return s;
}

// The calling thread: callbacks, interval checkpoints and cancellation, woken by every
// finished chunk and at least five times a second.
void Search::monitor()
{
    for (;;) {
        std::vector<Found> fresh;
        SearchStatus s;
        bool all_done;
        {
            std::unique_lock<std::mutex> lock(m_);
            cv_.wait_for(lock, std::chrono::milliseconds(200));
            fresh.swap(unreported_);
            s = status_locked();
            all_done = running_ == 0;
            if (!all_done && !job_.checkpoint_path.empty() && seconds_since(last_save_) >= job_.checkpoint_seconds)
                fail_locked(save_locked());
        }
        report(fresh, all_done ? nullptr : &s);
        if (all_done)
            return;
    }
}

// A callback that throws must not leave the workers running unjoined: it stops the search.
void Search::report(const std::vector<Found> &fresh, const SearchStatus *s)
{
    try {
        for (const Found &f : fresh)
            if (job_.on_found)
                job_.on_found(f);
        if (s != nullptr && job_.on_progress && !stop_.load() && !job_.on_progress(*s)) {
            std::lock_guard<std::mutex> lock(m_);
            cancelled_ = true;
            stop_ = true;
        }
    } catch (...) {
        fail(KCIPHER_ERR_INTERNAL);
    }
}

// A key read back from a checkpoint is reported only if it is the key of its index (so of
// the cipher's length) and encrypts every pair: the file's checksum is no proof.
bool Search::trusted(const Found &f) const
{
    return f.key == b_.key_of(f.index) && b_.matches_all(f.index);
}

// Loads the checkpoint, then writes it back before any candidate is tested: a path that
// cannot be written fails now, not after the first key.
kcipher_status Search::resume(SearchOutcome &out)
{
    bool exists = false;
    kcipher_status st = load_checkpoint(job_.checkpoint_path, job_.fingerprint, job_.range, &exists, &st_);
    if (st == KCIPHER_ERR_CHECKPOINT)
        out.os_error = errno;
    if (st != KCIPHER_OK)
        return st;
    for (const Found &f : st_.found)
        if (!trusted(f))
            return KCIPHER_ERR_CHECKPOINT_DAMAGED;
    std::lock_guard<std::mutex> lock(m_);
    st = save_locked();
    out.os_error = os_error_;
    return st;
}

// After the workers: the last save (whose failure outranks a cancel, so that "progress
// saved" is never claimed for a file that was not written) and the final counts.
kcipher_status Search::finish(SearchOutcome &out)
{
    std::lock_guard<std::mutex> lock(m_);
    if (!job_.checkpoint_path.empty())
        fail_locked(save_locked());
    out.os_error = os_error_;
    out.last = status_locked();
    out.found = st_.found;
    if (error_ != KCIPHER_OK)
        return error_;
    if (cancelled_)
        return KCIPHER_ERR_CANCELLED;
    const bool stopped_at_key = !job_.all_keys && !st_.found.empty();
    if (!stopped_at_key && out.last.done != out.last.total)
        return KCIPHER_ERR_INTERNAL; // every worker ended, yet candidates are left
    return KCIPHER_OK;
}

SearchOutcome Search::run()
{
    SearchOutcome out;
    if (!job_.checkpoint_path.empty()) {
        out.status = resume(out);
        if (out.status != KCIPHER_OK)
            return out;
    }
    unreported_ = st_.found; // keys from an earlier run are part of this one's answer
    if (job_.all_keys || st_.found.empty())
        for (const Range &r : st_.finished.missing_from(job_.range))
            pending_.push_back(r);
    if (!pending_.empty() && b_.cpu_threads == 0 && b_.gpus == 0) {
        out.status = KCIPHER_ERR_INVALID_ARGUMENT;
        return out;
    }
    std::vector<std::thread> pool;
    if (!pending_.empty()) {
        for (unsigned i = 0; i < b_.cpu_threads; i++)
            start_worker(pool, [this] { cpu_worker(); });
        for (int d = 0; d < b_.gpus; d++)
            start_worker(pool, [this, d] { gpu_worker(d); });
    }
    monitor();
    for (std::thread &t : pool)
        t.join();
    out.status = finish(out);
    return out;
}

} // namespace

SearchOutcome run_search(const SearchJob &job, const Backend &backend)
{
    try {
        Search s(job, backend);
        return s.run();
    } catch (const std::bad_alloc &) {
        SearchOutcome o;
        o.status = KCIPHER_ERR_NO_MEMORY;
        return o;
    }
}

} // namespace kc::keysearch
