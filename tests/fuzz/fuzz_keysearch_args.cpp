// libFuzzer target: the key-search C API's arguments. The input fills a
// kcipher_keysearch_params (cipher names real and not, block and key lengths that do or do
// not fit, masks, ranges that overflow, kernels, thread counts, chunk sizes, NaN or negative
// checkpoint intervals, device values outside the enum); kcipher_keysearch must return a
// status, never crash, and report only keys of the cipher's length that are in the range.
// Searches stay tiny: a mask with many unknown bits gets a count of at most 4096.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/fuzz_catalog.hpp"
#include "fuzz/fuzz_input.hpp"
#include "kcipher/kcipher.h"

using kcfuzz::FuzzInput;

namespace {

struct Seen {
    size_t key_len;
    uint64_t first, count;
    int progress_calls;
};

void on_found(void *user, const uint8_t *key, size_t key_len, uint64_t index)
{
    const Seen *s = static_cast<const Seen *>(user);
    KCFUZZ_CHECK(key != nullptr && key_len == s->key_len, "found key length");
    volatile uint8_t sink = 0;
    for (size_t i = 0; i < key_len; i++) // ASan: the whole key must be readable
        sink = sink ^ key[i];
    KCFUZZ_CHECK(s->count == 0 || (index >= s->first && index - s->first < s->count), "found index");
}

int on_progress(void *user, const kcipher_keysearch_progress_info *info)
{
    Seen *s = static_cast<Seen *>(user);
    KCFUZZ_CHECK(info->done <= info->total, "progress done > total");
    return ++s->progress_calls > 50; // a search that runs long is stopped
}

int popcount(const std::vector<uint8_t> &v)
{
    int n = 0;
    for (uint8_t b : v)
        n += __builtin_popcount(b);
    return n;
}

double interval(FuzzInput &f)
{
    switch (f.u8() & 7) {
    case 0: return NAN;
    case 1: return -1.0;
    case 2: return INFINITY;
    case 3: return 1e-300;
    default: return double(f.u8());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput f(data, size);
    const kcfuzz::CipherChoice choice = kcfuzz::choose_cipher(f);
    const kcipher_cipher_info &cipher = choice.cipher;
    const std::vector<std::string> &kernels = choice.kernels;

    kcipher_keysearch_params p;
    kcipher_keysearch_init(&p);
    std::string name = cipher.name;
    switch (f.u8() & 15) {
    case 0: name += "-ctr"; break;         // a mode suffix: not a bare name
    case 1: name = "nosuch-128"; break;
    case 2: name.clear(); break;
    default: break;
    }
    p.cipher = f.u8() == 0xff ? nullptr : name.c_str();
    const bool exact = f.u8() < 200; // lengths as the cipher wants them
    p.block_len = exact ? cipher.block_bytes : f.below(34);
    p.pair_count = exact ? 1 + f.below(3) : f.below(5);
    p.key_len = exact ? cipher.key_bytes : f.below(34);
    p.mask_len = exact ? p.key_len : f.below(34);
    std::vector<uint8_t> pts = f.bytes(p.block_len * p.pair_count), cts = f.bytes(p.block_len * p.pair_count);
    std::vector<uint8_t> key = f.bytes(p.key_len), mask(p.mask_len, 0);
    // A mask of a few unknown bits at fuzzed positions, or bytes straight from the input.
    if (f.flag()) {
        for (size_t i = 0, n = f.below(14); i < n && p.mask_len; i++) {
            size_t bit = f.below(8 * p.mask_len);
            mask[bit / 8] |= uint8_t(1u << (bit % 8));
        }
    } else {
        mask = f.bytes(p.mask_len);
    }
    p.plaintexts = f.u8() == 0xff ? nullptr : pts.data();
    p.ciphertexts = cts.data();
    p.key = key.data();
    p.mask = f.u8() == 0xff ? nullptr : mask.data();
    p.start = f.flag() ? f.u64() : f.u8();
    p.count = f.flag() ? f.u64() : f.u16();
    if (popcount(mask) > 12 && (p.count == 0 || p.count > 4096))
        p.count = 1 + p.count % 4096;
    // A C caller may pass any int as the device; stored as bytes so that the harness itself
    // does not load an out-of-range enum.
    int device = f.u8() % 5;
    std::memcpy(&p.device, &device, sizeof device);
    p.threads = f.u8() == 0xff ? 0 : 1 + f.below(2); // 0: one per core, slow to start
    std::string kernel;
    switch (f.u8() & 7) {
    case 0: p.kernel = nullptr; break; // measures the kernels first: slow, so rarer
    case 1: kernel = "no/such"; p.kernel = kernel.c_str(); break;
    default: kernel = kernels[f.below(kernels.size())]; p.kernel = kernel.c_str(); break;
    }
    p.checkpoint_seconds = interval(f);
    p.chunk_keys = f.flag() ? f.u64() : f.u8();
    Seen seen{cipher.key_bytes, p.start, p.count, 0};
    p.on_found = f.u8() == 0xff ? nullptr : on_found;
    p.on_progress = on_progress;
    p.user = &seen;

    kcipher_keysearch_progress_info info;
    kcipher_status st = kcipher_keysearch(&p, f.flag() ? &info : nullptr);
    KCFUZZ_CHECK(kcipher_strerror(st) != nullptr, "strerror");

    uint64_t first = f.u64(), last = f.u64(), index = f.u64() % 8, count = f.below(9), pf = 0, pl = 0;
    if (kcipher_keysearch_shard(first, last, index, count, &pf, &pl) == KCIPHER_OK)
        KCFUZZ_CHECK(first <= pf && pf <= pl && pl <= last, "shard inside the range");
    return 0;
}
