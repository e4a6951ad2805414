// The key-search driver: hands chunks of the candidate range to CPU threads and to one host
// thread per GPU, checks every first-pair hit against all pairs, keeps the set of finished
// ranges exact whatever order chunks finish in, saves checkpoints (and re-tests the keys a
// checkpoint holds), stops at the first key unless asked for all, and reports progress and
// keys on the calling thread. It knows nothing of ciphers: a Backend tests candidates, so
// the tests can drive it with a fake one (several matches, counting every test).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kcipher/kcipher.h"
#include "keysearch/checkpoint.hpp"
#include "keysearch/ranges.hpp"

namespace kc::keysearch {

struct Backend {
    // CPU: tests [first, first + count) against the first pair, appends hits, and returns how
    // many it tested: all of them, or a prefix when `stop` became true. Thread-safe.
    unsigned cpu_threads = 0;
    uint64_t cpu_chunk = 1; // candidates per CPU chunk
    std::function<uint64_t(uint64_t first, uint64_t count, const std::atomic<bool> &stop,
                           std::vector<uint64_t> &hits)>
        cpu;

    // GPU: the same for one whole chunk on GPU `device` (0 .. gpus-1), or an error status.
    int gpus = 0;
    uint64_t gpu_chunk = 0; // 0: adapted so that a chunk takes about chunk_seconds
    std::function<kcipher_status(int device, uint64_t first, uint64_t count, std::vector<uint64_t> &hits)> gpu;

    // The full check of a hit, and the key of an index (for reports and the checkpoint).
    std::function<bool(uint64_t index)> matches_all;
    std::function<std::vector<uint8_t>(uint64_t index)> key_of;
};

struct SearchStatus {
    uint64_t done = 0;   // candidates of the range finished, by this run and earlier ones
    uint64_t total = 0;  // candidates in the range
    uint64_t tested = 0; // candidates tested by this run
    uint64_t found = 0;  // keys matching every pair, so far
    double keys_per_second = 0, elapsed_seconds = 0, eta_seconds = -1;
};

struct SearchJob {
    Range range;
    std::string checkpoint_path; // empty: none
    std::string fingerprint;     // checkpoint_fingerprint() of the problem and range
    double checkpoint_seconds = 30;
    double chunk_seconds = 1;
    bool all_keys = false; // false: stop every worker once a key matches every pair
    std::function<void(const Found &)> on_found;          // calling thread
    std::function<bool(const SearchStatus &)> on_progress; // calling thread; false = stop
};

struct SearchOutcome {
    kcipher_status status = KCIPHER_OK; // KCIPHER_ERR_CANCELLED when on_progress stopped it
    int os_error = 0;                   // errno of a failed checkpoint read or write
    SearchStatus last;
    std::vector<Found> found;
};

SearchOutcome run_search(const SearchJob &job, const Backend &backend);

} // namespace kc::keysearch
