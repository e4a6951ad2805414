#include "keysearch/cpu_search.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "core/wipe.hpp"
#include "dispatch/registry.hpp"
#include "kit/search/candidates.hpp"

namespace kc::keysearch {

namespace {

// Between looks at the stop flag: small enough that Ctrl-C is answered within
// milliseconds, large enough that the atomic load costs nothing.
constexpr uint64_t stop_check_keys = 4096;
// The same for the multi-key searchers, 100 to 1000 times faster per key: a multiple of every
// group size (64 lanes at most), and large enough that a call's setup (lane keys, a walker)
// is lost in it.
constexpr uint64_t searcher_chunk_keys = uint64_t(1) << 16;

// The kernel's round-key storage for one thread: 64-byte aligned, wiped when done.
class ScratchKeys {
  public:
    explicit ScratchKeys(const Kernel &k) : bytes_((k.key_state_bytes + 63) / 64 * 64 + 64)
    {
        mem_ = std::aligned_alloc(64, bytes_);
        if (mem_ == nullptr)
            throw std::bad_alloc();
    }
    ~ScratchKeys()
    {
        secure_wipe(mem_, bytes_);
        std::free(mem_);
    }
    ScratchKeys(const ScratchKeys &) = delete;
    ScratchKeys &operator=(const ScratchKeys &) = delete;
    void *get() const { return mem_; }
    size_t size() const { return bytes_; }

  private:
    size_t bytes_;
    void *mem_;
};

} // namespace

namespace {

// Candidates in chunks that end on multiples of searcher_chunk_keys, so that every chunk but
// the first and the last is whole groups.
uint64_t search_with(const CpuSearcher &s, const Problem &p, uint64_t first, uint64_t count,
                     const std::atomic<bool> &stop, std::vector<uint64_t> &hits)
{
    uint64_t done = 0;
    while (done < count) {
        const uint64_t pos = first + done;
        const uint64_t to_boundary = searcher_chunk_keys - pos % searcher_chunk_keys;
        const uint64_t n = count - done < to_boundary ? count - done : to_boundary;
        s.search(p, pos, n, hits);
        done += n;
        if (stop.load(std::memory_order_relaxed))
            break;
    }
    return done;
}

} // namespace

uint64_t cpu_search_first_pair(const Problem &p, const Kernel &k, uint64_t first, uint64_t count,
                               const std::atomic<bool> &stop, std::vector<uint64_t> &hits)
{
    if (const CpuSearcher *s = cpu_searcher_for(p.cipher, k))
        return search_with(*s, p, first, count, stop, hits);
    const size_t bs = cipher_desc(p.cipher).block_bytes;
    const Pair &pair = p.pairs[0];
    ScratchKeys state(k);
    CandidateWalker walk(p, first);
    uint8_t out[16];
    uint64_t done = 0;
    while (done < count) {
        uint64_t n = count - done < stop_check_keys ? count - done : stop_check_keys;
        for (uint64_t j = 0; j < n; j++) {
            // set_key's contract is zeroed storage; kernels may rely on it for padding.
            std::memset(state.get(), 0, state.size());
            k.set_key(state.get(), p.cipher, walk.key());
            k.encrypt_blocks(state.get(), pair.pt, out, 1);
            if (std::memcmp(out, pair.ct, bs) == 0)
                hits.push_back(walk.index());
            walk.next();
        }
        done += n;
        if (stop.load(std::memory_order_relaxed))
            break;
    }
    secure_wipe(out, sizeof out);
    return done;
}

double measure_cpu_kernel(const Problem &p, const Kernel &k)
{
    using clk = std::chrono::steady_clock;
    std::atomic<bool> never{false};
    std::vector<uint64_t> hits;
    uint64_t n = 256, tested = 0;
    auto t0 = clk::now();
    double s = 0;
    // At least 5 ms, so that the slowest kernel's few keys still time reliably.
    while (s < 0.005) {
        tested += cpu_search_first_pair(p, k, tested, n, never, hits);
        s = std::chrono::duration<double>(clk::now() - t0).count();
        n *= 2;
    }
    return (double)tested / s;
}

const Kernel *fastest_cpu_kernel(const Problem &p, double *rate)
{
    const Kernel *best = nullptr;
    double best_rate = 0;
    for (const Kernel *k : all_kernels()) {
        if (k->gpu != nullptr || !k->supports(p.cipher) || !kernel_runnable(*k))
            continue;
        double r = measure_cpu_kernel(p, *k);
        if (best == nullptr || r > best_rate) {
            best = k;
            best_rate = r;
        }
    }
    if (rate != nullptr)
        *rate = best_rate;
    return best;
}

} // namespace kc::keysearch
