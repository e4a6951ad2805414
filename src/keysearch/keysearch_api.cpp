// kcipher_keysearch: the C API front of the key search. Every argument is checked here; the
// driver and the backends below never see invalid input.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <new>

#include "cuda/devices.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"
#include "keysearch/cpu_search.hpp"
#include "keysearch/driver.hpp"
#include "keysearch/search_gpu.hpp"
#include "keysearch/shard.hpp"
#include "keysearch/verify.hpp"
#include "modes/parallel.hpp"

using namespace kc;
using namespace kc::keysearch;

namespace {

// A pair count far past any real use is a caller's mistake, not a search.
constexpr size_t max_pairs = 4096;

int popcount_bytes(const uint8_t *p, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += __builtin_popcount(p[i]);
    return c;
}

kcipher_status check_problem(const kcipher_keysearch_params *a, Problem *p)
{
    if (a->cipher == nullptr || a->key == nullptr || a->mask == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const CipherDesc *d = cipher_by_name(a->cipher);
    if (d == nullptr)
        return KCIPHER_ERR_UNKNOWN_CIPHER;
    if (a->pair_count == 0)
        return KCIPHER_ERR_NO_PAIRS;
    if (a->plaintexts == nullptr || a->ciphertexts == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (a->block_len != d->block_bytes)
        return KCIPHER_ERR_PAIR_LENGTH;
    if (a->pair_count > max_pairs)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    if (a->key_len != d->key_bytes || a->mask_len != d->key_bytes)
        return KCIPHER_ERR_KEY_LENGTH;
    int bits = popcount_bytes(a->mask, a->mask_len);
    if (bits > 64)
        return KCIPHER_ERR_MASK_BITS;
    p->cipher = d->id;
    p->unknown_bits = bits;
    std::memset(p->key, 0, sizeof p->key);
    std::memset(p->mask, 0, sizeof p->mask);
    std::memcpy(p->key, a->key, d->key_bytes);
    std::memcpy(p->mask, a->mask, d->key_bytes);
    p->pairs.resize(a->pair_count);
    for (size_t i = 0; i < a->pair_count; i++) {
        std::memset(&p->pairs[i], 0, sizeof p->pairs[i]);
        std::memcpy(p->pairs[i].pt, a->plaintexts + i * d->block_bytes, d->block_bytes);
        std::memcpy(p->pairs[i].ct, a->ciphertexts + i * d->block_bytes, d->block_bytes);
    }
    return KCIPHER_OK;
}

// [start, start + count) inside the 2^bits candidates, and fewer than 2^64 of them.
kcipher_status check_range(const kcipher_keysearch_params *a, int bits, Range *r)
{
    uint64_t last_index = bits == 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
    if (a->start > last_index)
        return KCIPHER_ERR_SEARCH_RANGE;
    uint64_t room_minus_one = last_index - a->start; // candidates from start on, minus one
    if (a->count == 0) {
        if (room_minus_one == UINT64_MAX)
            return KCIPHER_ERR_SEARCH_RANGE;
        *r = {a->start, last_index};
        return KCIPHER_OK;
    }
    if (a->count - 1 > room_minus_one)
        return KCIPHER_ERR_SEARCH_RANGE;
    *r = {a->start, a->start + (a->count - 1)};
    return KCIPHER_OK;
}

kcipher_status pick_cpu_kernel(const kcipher_keysearch_params *a, const Problem &p, const Kernel **k, double *rate)
{
    if (a->kernel == nullptr) {
        *k = fastest_cpu_kernel(p, rate);
        return *k != nullptr ? KCIPHER_OK : KCIPHER_ERR_INTERNAL;
    }
    kcipher_status st = select_kernel(p.cipher, a->kernel, k);
    if (st != KCIPHER_OK)
        return st;
    if ((*k)->gpu != nullptr)
        return KCIPHER_ERR_INVALID_ARGUMENT; // GPUs are chosen with device, not a kernel
    *rate = measure_cpu_kernel(p, **k);
    return KCIPHER_OK;
}

kcipher_status make_backend(const kcipher_keysearch_params *a, const Problem &p, double chunk_seconds,
                            Backend *b)
{
    int gpus = a->device == KCIPHER_DEVICE_CPU ? 0 : cuda_device_count();
    if (a->device == KCIPHER_DEVICE_GPU && gpus == 0)
        return KCIPHER_ERR_NO_GPU;
    b->gpus = gpus;
    b->gpu_chunk = a->chunk_keys;
    b->gpu = [&p](int device, uint64_t first, uint64_t count, std::vector<uint64_t> &hits) {
        return gpu_search_first_pair(p, first, count, device, hits);
    };
    b->matches_all = [&p](uint64_t i) { return matches_all_pairs(p, i); };
    b->key_of = [&p](uint64_t i) {
        std::vector<uint8_t> k(cipher_desc(p.cipher).key_bytes);
        candidate_key(p, i, k.data());
        return k;
    };
    if (a->device == KCIPHER_DEVICE_GPU)
        return KCIPHER_OK;
    unsigned hw = resolve_threads(0);
    b->cpu_threads = a->threads != 0 ? a->threads : hw > unsigned(gpus) ? hw - unsigned(gpus) : 1;
    const Kernel *k = nullptr;
    double rate = 0;
    kcipher_status st = pick_cpu_kernel(a, p, &k, &rate);
    if (st != KCIPHER_OK)
        return st;
    b->cpu_chunk = a->chunk_keys != 0 ? a->chunk_keys : std::max<uint64_t>(1024, uint64_t(rate * chunk_seconds));
    b->cpu = [&p, k](uint64_t first, uint64_t count, const std::atomic<bool> &stop, std::vector<uint64_t> &hits) {
        return cpu_search_first_pair(p, *k, first, count, stop, hits);
    };
    return KCIPHER_OK;
}

void to_info(const SearchStatus &s, kcipher_keysearch_progress_info *info)
{
    info->done = s.done;
    info->total = s.total;
    info->tested = s.tested;
    info->found = s.found;
    info->keys_per_second = s.keys_per_second;
    info->elapsed_seconds = s.elapsed_seconds;
    info->eta_seconds = s.eta_seconds;
}

kcipher_status run(const kcipher_keysearch_params *a, kcipher_keysearch_progress_info *info)
{
    Problem p;
    kcipher_status st = check_problem(a, &p);
    SearchJob job;
    if (st == KCIPHER_OK)
        st = check_range(a, p.unknown_bits, &job.range);
    if (st != KCIPHER_OK)
        return st;
    // A C caller may store any int in the enum: read it as one, before C++ loads it as the enum.
    int device;
    static_assert(sizeof device == sizeof a->device, "kcipher_device is an int");
    std::memcpy(&device, &a->device, sizeof device);
    if (device != KCIPHER_DEVICE_CPU && device != KCIPHER_DEVICE_GPU && device != KCIPHER_DEVICE_ALL)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    if (!(a->checkpoint_seconds >= 0) || std::isinf(a->checkpoint_seconds))
        return KCIPHER_ERR_INVALID_ARGUMENT;
    Backend b;
    st = make_backend(a, p, job.chunk_seconds, &b);
    if (st != KCIPHER_OK)
        return st;
    if (a->checkpoint_path != nullptr) {
        job.checkpoint_path = a->checkpoint_path;
        job.fingerprint = checkpoint_fingerprint(p, job.range);
    }
    if (a->checkpoint_seconds > 0)
        job.checkpoint_seconds = a->checkpoint_seconds;
    job.all_keys = a->all_keys != 0;
    job.on_found = [a](const Found &f) {
        if (a->on_found != nullptr)
            a->on_found(a->user, f.key.data(), f.key.size(), f.index);
    };
    job.on_progress = [a](const SearchStatus &s) {
        if (a->on_progress == nullptr)
            return true;
        kcipher_keysearch_progress_info pi;
        to_info(s, &pi);
        return a->on_progress(a->user, &pi) == 0;
    };
    SearchOutcome out = run_search(job, b);
    if (info != nullptr)
        to_info(out.last, info);
    if (out.status == KCIPHER_ERR_CHECKPOINT)
        errno = out.os_error; // the header promises the OS's reason here
    return out.status;
}

} // namespace

extern "C" {

void kcipher_keysearch_init(kcipher_keysearch_params *params)
{
    if (params != nullptr)
        std::memset(params, 0, sizeof *params);
}

kcipher_status kcipher_keysearch(const kcipher_keysearch_params *params, kcipher_keysearch_progress_info *info)
{
    if (params == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (info != nullptr)
        std::memset(info, 0, sizeof *info);
    try {
        return run(params, info);
    } catch (const std::bad_alloc &) {
        return KCIPHER_ERR_NO_MEMORY;
    } catch (...) {
        return KCIPHER_ERR_INTERNAL;
    }
}

kcipher_status kcipher_keysearch_shard(uint64_t first, uint64_t last, uint64_t index, uint64_t count,
                                       uint64_t *part_first, uint64_t *part_last)
{
    if (part_first == nullptr || part_last == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (count == 0 || index >= count || first > last)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    const std::optional<kc::keysearch::Range> part = kc::keysearch::shard_range({first, last}, index, count);
    if (!part)
        return KCIPHER_ERR_SEARCH_RANGE;
    *part_first = part->first;
    *part_last = part->last;
    return KCIPHER_OK;
}

} // extern "C"

