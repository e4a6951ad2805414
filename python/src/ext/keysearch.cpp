// kcipher.keysearch: the C API's exhaustive key search with the CLI's range arithmetic
// (--start/--count inside the 2^(mask bits) candidates, then --shard I/N of that).
// kcipher/_keysearch.py checks and converts the arguments; this file runs the search without
// the GIL and brings keys and progress back to Python on the calling thread.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "kcipher/kcipher.hpp"

namespace kcpy {
namespace {

using kcipher::KeyRange;

// Part i of n of `whole` (kcipher::shard_range), or nullopt where it is empty.
std::optional<KeyRange> shard_part(KeyRange whole, uint64_t i, uint64_t n)
{
    try {
        return kcipher::shard_range(whole, i, n);
    } catch (const kcipher::Error &e) {
        raise_status(e.status(), "splitting the range into shards");
    }
}

struct Found {
    std::string key;
    uint64_t index;
};

struct Session {
    std::vector<Found> found;
    nb::object progress; // None or a callable(dict) -> truthy to stop
    PendingError error; // an exception (KeyboardInterrupt included), raised after the C call returns
};

void on_found(void *user, const uint8_t *key, size_t len, uint64_t index)
{
    static_cast<Session *>(user)->found.push_back({std::string(reinterpret_cast<const char *>(key), len), index});
}

int on_progress(void *user, const kcipher_keysearch_progress_info *i)
{
    Session &s = *static_cast<Session *>(user);
    if (s.error.pending()) // already stopping
        return 1;
    nb::gil_scoped_acquire g;
    if (PyErr_CheckSignals() != 0) { // Ctrl-C: stop (progress saved), then raise KeyboardInterrupt
        s.error.take();
        return 1;
    }
    if (s.progress.is_none())
        return 0;
    try {
        nb::dict d;
        d["done"] = i->done;
        d["total"] = i->total;
        d["tested"] = i->tested;
        d["found"] = i->found;
        d["keys_per_second"] = i->keys_per_second;
        d["elapsed_seconds"] = i->elapsed_seconds;
        d["eta_seconds"] = i->eta_seconds < 0 ? nb::object(nb::none()) : nb::object(nb::float_(i->eta_seconds));
        return nb::bool_(s.progress(d)) ? 1 : 0;
    } catch (nb::python_error &e) {
        e.restore();
        s.error.take();
        return 1;
    }
}

std::string to_hex(const std::string &bytes)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (unsigned char b : bytes) {
        s += digits[b >> 4];
        s += digits[b & 15];
    }
    return s;
}

int popcount(const std::string &mask)
{
    int bits = 0;
    for (unsigned char b : mask)
        bits += __builtin_popcount(b);
    return bits;
}

nb::dict keysearch(const std::string &cipher, nb::bytes pts, nb::bytes cts, nb::bytes key, nb::bytes mask, uint64_t start,
                   uint64_t count, uint64_t shard_i, uint64_t shard_n, int device, unsigned threads,
                   std::optional<std::string> kernel, std::optional<std::string> checkpoint, double checkpoint_seconds,
                   uint64_t chunk_keys, nb::object progress, bool all_keys)
{
    kcipher_cipher_info info;
    if (kcipher_cipher_find(cipher.c_str(), &info) != KCIPHER_OK || cipher != info.name)
        raise_status(KCIPHER_ERR_UNKNOWN_CIPHER, "'" + cipher + "' (a bare name such as 'aria-128')");
    std::string k(key.c_str(), key.size()), m(mask.c_str(), mask.size());
    int bits = popcount(m);
    if (bits > 64)
        raise_status(KCIPHER_ERR_MASK_BITS, "the mask has " + std::to_string(bits) + " bits set");
    const uint64_t last = bits == 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
    if (start > last)
        raise_status(KCIPHER_ERR_SEARCH_RANGE, "start " + std::to_string(start) + " is past the last candidate " +
                                                   std::to_string(last) + " (the mask has " + std::to_string(bits) +
                                                   " bits)");
    if (count != 0 && count - 1 > last - start)
        raise_status(KCIPHER_ERR_SEARCH_RANGE, "start " + std::to_string(start) + " count " + std::to_string(count) +
                                                   " runs past the last candidate " + std::to_string(last));
    KeyRange whole{start, count == 0 ? last : start + (count - 1)};
    std::optional<KeyRange> part = whole;
    if (shard_n > 1)
        part = shard_part(whole, shard_i, shard_n);

    nb::dict result;
    result["found"] = nb::list();
    if (!part) { // more shards than candidates: this one is empty
        result["range"] = nb::none();
        result["tested"] = 0, result["done"] = 0, result["total"] = 0, result["seconds"] = 0.0;
        result["complete"] = true;
        return result;
    }
    if (part->size_minus_one() == UINT64_MAX)
        raise_status(KCIPHER_ERR_SEARCH_RANGE, "the range holds all 2^64 candidates: give count, or split it with shard");

    std::string p(pts.c_str(), pts.size()), c(cts.c_str(), cts.size());
    kcipher_keysearch_params prm;
    kcipher_keysearch_init(&prm);
    prm.cipher = info.name;
    prm.plaintexts = reinterpret_cast<const uint8_t *>(p.data());
    prm.ciphertexts = reinterpret_cast<const uint8_t *>(c.data());
    prm.block_len = info.block_bytes;
    prm.pair_count = info.block_bytes ? p.size() / info.block_bytes : 0;
    prm.key = reinterpret_cast<const uint8_t *>(k.data());
    prm.key_len = k.size();
    prm.mask = reinterpret_cast<const uint8_t *>(m.data());
    prm.mask_len = m.size();
    prm.start = part->first;
    prm.count = part->size_minus_one() + 1;
    prm.device = kcipher_device(device);
    prm.threads = threads;
    prm.kernel = kernel ? kernel->c_str() : nullptr;
    prm.checkpoint_path = checkpoint ? checkpoint->c_str() : nullptr;
    prm.checkpoint_seconds = checkpoint_seconds;
    prm.chunk_keys = chunk_keys;
    prm.all_keys = all_keys ? 1 : 0;
    Session s;
    s.progress = progress;
    prm.on_found = on_found;
    prm.on_progress = on_progress;
    prm.user = &s;
    kcipher_keysearch_progress_info done{};
    kcipher_status st;
    int os_error;
    {
        nb::gil_scoped_release g;
        st = kcipher_keysearch(&prm, &done);
        os_error = errno;
    }
    if (s.error.pending())
        s.error.raise();
    if (st != KCIPHER_OK && st != KCIPHER_ERR_CANCELLED) {
        std::string detail;
        if (st == KCIPHER_ERR_CHECKPOINT || st == KCIPHER_ERR_CHECKPOINT_MISMATCH ||
            st == KCIPHER_ERR_CHECKPOINT_DAMAGED)
            detail = "checkpoint '" + checkpoint.value_or("") + "'";
        if (st == KCIPHER_ERR_CHECKPOINT && os_error != 0)
            detail += std::string(": ") + std::strerror(os_error);
        for (const Found &f : s.found) // never lost: the keys found before the failure, in the message
            detail += "; found key " + to_hex(f.key) + " (candidate " + std::to_string(f.index) + ")";
        raise_status(st, detail);
    }
    nb::list found;
    for (const Found &f : s.found)
        found.append(nb::make_tuple(nb::bytes(f.key.data(), f.key.size()), f.index));
    result["found"] = found;
    result["range"] = nb::make_tuple(part->first, part->last);
    result["tested"] = done.tested;
    result["done"] = done.done;
    result["total"] = done.total;
    result["seconds"] = done.elapsed_seconds;
    result["complete"] = st == KCIPHER_OK && done.done == done.total;
    return result;
}

} // namespace

void register_keysearch(nb::module_ &m)
{
    m.def("keysearch", &keysearch, nb::arg("cipher"), nb::arg("plaintexts"), nb::arg("ciphertexts"), nb::arg("key"),
          nb::arg("mask"), nb::arg("start"), nb::arg("count"), nb::arg("shard_index"), nb::arg("shard_count"),
          nb::arg("device"), nb::arg("threads"), nb::arg("kernel").none(), nb::arg("checkpoint").none(),
          nb::arg("checkpoint_seconds"), nb::arg("chunk_keys"), nb::arg("progress").none(), nb::arg("all_keys"));
}

} // namespace kcpy
