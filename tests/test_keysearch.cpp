// The key search (issue 5) through the library: candidate numbering, range sets and shards,
// a planted key found for every cipher and every CPU kernel with the mask's bits scattered,
// several matching keys all reported, a search stopped part-way and resumed (no candidate
// tested twice, no key lost), checkpoints that refuse another search, bad input, and the
// same planted keys on the GPU (skipped without one).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"
#include "kcipher/kcipher.hpp"
#include "kit/search/candidates.hpp"
#include "keysearch/checkpoint.hpp"
#include "keysearch/driver.hpp"
#include "keysearch/shard.hpp"

using namespace kc::keysearch;

namespace {

using Bytes = std::vector<uint8_t>;

Bytes random_bytes(size_t n, std::mt19937_64 &g)
{
    Bytes v(n);
    for (auto &b : v)
        b = uint8_t(g());
    return v;
}

// A mask of `bits` bits at scattered positions: the first and last bytes always hold one,
// the rest are spread at random.
Bytes scattered_mask(size_t key_bytes, int bits, std::mt19937_64 &g)
{
    Bytes m(key_bytes, 0);
    m[0] |= 0x80;
    m[key_bytes - 1] |= 0x01;
    int have = 2;
    while (have < bits) {
        size_t pos = g() % (key_bytes * 8);
        uint8_t &b = m[pos / 8];
        uint8_t bit = uint8_t(1u << (pos % 8));
        if ((b & bit) == 0) {
            b |= bit;
            have++;
        }
    }
    return m;
}

// The key of candidate i, straight from the definition (not the library's code).
Bytes deposit(const Bytes &tmpl, const Bytes &mask, uint64_t i)
{
    Bytes k = tmpl;
    int j = 0;
    for (size_t b = k.size(); b-- > 0;)
        for (int bit = 0; bit < 8; bit++)
            if (mask[b] >> bit & 1) {
                k[b] = uint8_t((k[b] & ~(1u << bit)) | ((i >> j & 1) << bit));
                j++;
            }
    return k;
}

Bytes encrypt(const std::string &cipher, const Bytes &key, const Bytes &pt)
{
    kcipher::Cipher c(cipher, key);
    return c.ecb_encrypt(pt);
}

// A search with a key planted at `index` among 2^bits candidates, and two known pairs.
struct Planted {
    std::string cipher;
    Bytes key, tmpl, mask, pts, cts;
    uint64_t index;
    size_t block;
};

Planted plant(const std::string &cipher, int bits, uint64_t seed, uint64_t index)
{
    std::mt19937_64 g(seed);
    kcipher_cipher_info info;
    kcipher::check(kcipher_cipher_find(cipher.c_str(), &info));
    Planted p;
    p.cipher = cipher;
    p.block = info.block_bytes;
    p.mask = scattered_mask(info.key_bytes, bits, g);
    p.tmpl = random_bytes(info.key_bytes, g);
    p.index = index;
    p.key = deposit(p.tmpl, p.mask, index);
    for (size_t i = 0; i < p.tmpl.size(); i++) // the template's bits under the mask must not matter
        p.tmpl[i] ^= uint8_t(g()) & p.mask[i];
    p.pts = random_bytes(2 * info.block_bytes, g);
    p.cts = encrypt(cipher, p.key, p.pts);
    return p;
}

kcipher_keysearch_params params_for(const Planted &p)
{
    kcipher_keysearch_params a;
    kcipher_keysearch_init(&a);
    a.cipher = p.cipher.c_str();
    a.plaintexts = p.pts.data();
    a.ciphertexts = p.cts.data();
    a.block_len = p.block;
    a.pair_count = p.pts.size() / p.block;
    a.key = p.tmpl.data();
    a.key_len = p.tmpl.size();
    a.mask = p.mask.data();
    a.mask_len = p.mask.size();
    a.threads = 2;
    return a;
}

std::vector<kcipher::KeySearchHit> search(const kcipher_keysearch_params &a, kcipher_keysearch_progress_info *info = nullptr)
{
    std::vector<kcipher::KeySearchHit> hits;
    kcipher_status st = kcipher::keysearch(a, [&](const kcipher::KeySearchHit &h) { hits.push_back(h); }, {}, info);
    EXPECT_EQ(st, KCIPHER_OK);
    return hits;
}

// seed-128 has no CPU key searcher of its own: it runs the generic one-key-at-a-time search
// over its kernels' set_key and encrypt_blocks (keysearch/cpu_search.cpp).
const char *const kCiphers[] = {"aria-128", "aria-192",    "aria-256",     "lea-128",      "lea-192",  "lea-256",
                                "hight",    "cham-64-128", "cham-128-128", "cham-128-256", "seed-128"};

// A family whose module offers no GPU key search (kit/module.hpp) must be refused with
// KCIPHER_ERR_UNSUPPORTED, never searched with another family's kernel. True (after checking
// that) when the GPU tests of `cipher` have nothing more to run.
bool gpu_search_refused(const Planted &p)
{
    if (kc::gpu_search_for(kc::cipher_by_name(p.cipher)->id) != nullptr)
        return false;
    kcipher_keysearch_params a = params_for(p);
    a.device = KCIPHER_DEVICE_GPU;
    size_t found = 0;
    a.user = &found;
    a.on_found = [](void *u, const uint8_t *, size_t, uint64_t) { ++*static_cast<size_t *>(u); };
    EXPECT_EQ(kcipher_keysearch(&a, nullptr), KCIPHER_ERR_UNSUPPORTED) << p.cipher;
    EXPECT_EQ(found, 0u) << p.cipher;
    return true;
}

std::string temp_path(const std::string &name)
{
    return ::testing::TempDir() + "kc_keysearch_" + std::to_string(::getpid()) + "_" + name;
}

// ---- candidate numbering, ranges, shards ------------------------------------------------

TEST(KeysearchCandidates, DepositLowestMaskBitFirstBigEndian)
{
    Problem p{};
    p.cipher = kc::Cipher::hight;
    p.mask[15] = 0x05; // bits 0 and 2 of the number: mask bits 0 and 1
    p.mask[0] = 0x80;  // bit 127: mask bit 2
    p.unknown_bits = 3;
    p.key[15] = 0xff;  // under the mask: ignored
    uint8_t k[16];
    candidate_key(p, 0, k);
    EXPECT_EQ(k[15], 0xfa);
    EXPECT_EQ(k[0], 0x00);
    candidate_key(p, 1, k);
    EXPECT_EQ(k[15], 0xfb);
    candidate_key(p, 2, k);
    EXPECT_EQ(k[15], 0xfe);
    candidate_key(p, 4, k);
    EXPECT_EQ(k[15], 0xfa);
    EXPECT_EQ(k[0], 0x80);
}

TEST(KeysearchCandidates, WalkerMatchesDefinition)
{
    std::mt19937_64 g(7);
    for (int bits : {1, 9, 20, 64}) {
        Problem p{};
        p.cipher = kc::Cipher::aria256;
        Bytes mask = scattered_mask(32, bits, g), tmpl = random_bytes(32, g);
        std::copy(mask.begin(), mask.end(), p.mask);
        std::copy(tmpl.begin(), tmpl.end(), p.key);
        p.unknown_bits = bits;
        uint64_t first = bits == 64 ? UINT64_MAX - 300 : g() % (uint64_t(1) << bits);
        CandidateWalker w(p, first);
        for (int i = 0; i < 300; i++, w.next()) {
            Bytes want = deposit(tmpl, mask, first + i);
            ASSERT_EQ(Bytes(w.key(), w.key() + 32), want) << "bits " << bits << " i " << i;
        }
    }
}

TEST(KeysearchRanges, OutOfOrderMergeAndMissing)
{
    RangeSet s;
    s.add({10, 19});
    s.add({30, 39});
    s.add({20, 29}); // joins both
    ASSERT_EQ(s.ranges().size(), 1u);
    EXPECT_EQ(s.ranges()[0].first, 10u);
    EXPECT_EQ(s.ranges()[0].last, 39u);
    s.add({50, 50});
    auto miss = s.missing_from({0, 60});
    ASSERT_EQ(miss.size(), 3u);
    EXPECT_EQ(miss[0].first, 0u);
    EXPECT_EQ(miss[0].last, 9u);
    EXPECT_EQ(miss[1].first, 40u);
    EXPECT_EQ(miss[1].last, 49u);
    EXPECT_EQ(miss[2].first, 51u);
    EXPECT_EQ(miss[2].last, 60u);
    EXPECT_EQ(s.count_within({0, 60}), 31u);
    RangeSet top;
    top.add({UINT64_MAX - 5, UINT64_MAX});
    EXPECT_TRUE(top.missing_from({UINT64_MAX - 5, UINT64_MAX}).empty());
}

TEST(KeysearchShards, ExactCoverAndBalanced)
{
    for (Range whole : {Range{0, 99}, Range{5, 5}, Range{7, 1006}, Range{0, UINT64_MAX}, Range{1, UINT64_MAX}})
        for (uint64_t n : {1u, 2u, 3u, 7u, 64u, 1000u}) {
            uint64_t next = whole.first, lo = UINT64_MAX, hi = 0;
            bool ended = false;
            for (uint64_t i = 0; i < n; i++) {
                auto r = shard_range(whole, i, n);
                if (!r)
                    continue;
                ASSERT_FALSE(ended);
                ASSERT_EQ(r->first, next) << "gap or overlap at shard " << i << " of " << n;
                lo = std::min(lo, r->size_minus_one());
                hi = std::max(hi, r->size_minus_one());
                if (r->last == whole.last)
                    ended = true;
                else
                    next = r->last + 1;
            }
            EXPECT_TRUE(ended) << "the shards do not reach the end";
            if (whole.size_minus_one() + 1 >= n && whole.size_minus_one() != UINT64_MAX)
                EXPECT_LE(hi - lo, 1u);
        }
}

// ---- planted keys -------------------------------------------------------------------------

class KeysearchPlanted : public ::testing::TestWithParam<const char *> {};

TEST_P(KeysearchPlanted, FoundOnCpuWithScatteredMask)
{
    Planted p = plant(GetParam(), 12, 1234, 2749);
    kcipher_keysearch_progress_info info;
    kcipher_keysearch_params a = params_for(p);
    a.all_keys = 1; // the whole range, so that the counts below are exact
    auto hits = search(a, &info);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].key, p.key);
    EXPECT_EQ(hits[0].index, p.index);
    EXPECT_EQ(info.total, 4096u);
    EXPECT_EQ(info.done, 4096u);
    EXPECT_EQ(info.tested, 4096u);
    EXPECT_EQ(info.found, 1u);
}

TEST_P(KeysearchPlanted, EveryCpuKernelFindsIt)
{
    Planted p = plant(GetParam(), 10, 99, 700);
    kcipher_cipher_info ci;
    kcipher_cipher_find(GetParam(), &ci);
    const kc::CipherDesc *d = kc::cipher_by_name(GetParam());
    int kernels = 0;
    for (const kc::Kernel *k : kc::all_kernels()) {
        if (k->gpu != nullptr || !k->supports(d->id) || !kc::kernel_runnable(*k))
            continue;
        kcipher_keysearch_params a = params_for(p);
        a.kernel = k->name;
        a.start = 600;
        a.count = 200;
        auto hits = search(a);
        ASSERT_EQ(hits.size(), 1u) << k->name;
        EXPECT_EQ(hits[0].key, p.key) << k->name;
        kernels++;
    }
    EXPECT_GE(kernels, 1);
}

TEST_P(KeysearchPlanted, NoneOutsideTheRange)
{
    Planted p = plant(GetParam(), 12, 5, 100);
    kcipher_keysearch_params a = params_for(p);
    a.start = 101;
    kcipher_keysearch_progress_info info;
    EXPECT_TRUE(search(a, &info).empty());
    EXPECT_EQ(info.done, 4096u - 101u);
}

TEST_P(KeysearchPlanted, FoundOnGpu)
{
    if (kcipher_gpu_count() == 0)
        GTEST_SKIP() << "no GPU on this machine: the GPU key search runs on the GPU machine";
    if (gpu_search_refused(plant(GetParam(), 20, 4321, 777777)))
        GTEST_SKIP() << GetParam() << ": its family has no GPU key search (refused, as it must be)";
    for (kcipher_device dev : {KCIPHER_DEVICE_GPU, KCIPHER_DEVICE_ALL}) {
        Planted p = plant(GetParam(), 20, 4321, 777777);
        kcipher_keysearch_params a = params_for(p);
        a.device = dev;
        auto hits = search(a);
        ASSERT_EQ(hits.size(), 1u) << "device " << dev;
        EXPECT_EQ(hits[0].key, p.key);
        EXPECT_EQ(hits[0].index, p.index);
    }
}

// CPU threads and every GPU draw small chunks from one range: each candidate once, the key found.
TEST_P(KeysearchPlanted, CpuAndGpusShareOneRange)
{
    if (kcipher_gpu_count() == 0)
        GTEST_SKIP() << "no GPU on this machine: the mixed search runs on the GPU machine";
    Planted p = plant(GetParam(), 20, 99, 913579);
    if (gpu_search_refused(p))
        GTEST_SKIP() << GetParam() << ": its family has no GPU key search (refused, as it must be)";
    kcipher_keysearch_params a = params_for(p);
    a.device = KCIPHER_DEVICE_ALL;
    a.all_keys = 1;
    a.chunk_keys = 1u << 12; // 256 chunks, so that the CPU workers and the GPUs all take some
    kcipher_keysearch_progress_info info;
    auto hits = search(a, &info);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].key, p.key);
    EXPECT_EQ(hits[0].index, p.index);
    EXPECT_EQ(info.done, uint64_t(1) << 20);
    EXPECT_EQ(info.tested, uint64_t(1) << 20);
}

INSTANTIATE_TEST_SUITE_P(Keysearch, KeysearchPlanted, ::testing::ValuesIn(kCiphers),
                         [](const auto &info) {
                             std::string s = info.param;
                             for (char &c : s)
                                 if (c == '-')
                                     c = '_';
                             return s;
                         });

// ---- the driver with a fake backend: several matches, exact accounting --------------------

// Counts every test of every index, reports the given first-pair hits, and accepts the
// given full matches. Candidates are numbers here: no cipher is involved.
struct FakeBackend {
    explicit FakeBackend(uint64_t n) : tests(n) {}
    std::vector<std::atomic<int>> tests;
    std::set<uint64_t> first_pair_hits, full_matches;
    std::atomic<int> chunks{0};
    std::chrono::microseconds per_chunk{0};

    Backend make(unsigned threads, uint64_t chunk)
    {
        Backend b;
        b.cpu_threads = threads;
        b.cpu_chunk = chunk;
        b.cpu = [this](uint64_t first, uint64_t count, const std::atomic<bool> &, std::vector<uint64_t> &hits) {
            for (uint64_t i = first; i < first + count; i++) {
                tests[i]++;
                if (first_pair_hits.count(i))
                    hits.push_back(i);
            }
            chunks++;
            std::this_thread::sleep_for(per_chunk);
            return count;
        };
        b.matches_all = [this](uint64_t i) { return full_matches.count(i) != 0; };
        b.key_of = [](uint64_t i) { return Bytes{uint8_t(i >> 8), uint8_t(i)}; };
        return b;
    }
};

TEST(KeysearchDriver, SeveralMatchingKeysAllReportedFalseHitsDropped)
{
    FakeBackend f(5000);
    f.first_pair_hits = {3, 500, 777, 1999, 4999};
    f.full_matches = {3, 777, 1999, 4999}; // 500 matches the first pair only
    SearchJob job;
    job.range = {0, 4999};
    job.all_keys = true;
    std::vector<uint64_t> reported;
    job.on_found = [&](const Found &x) { reported.push_back(x.index); };
    SearchOutcome out = run_search(job, f.make(3, 64));
    ASSERT_EQ(out.status, KCIPHER_OK);
    std::sort(reported.begin(), reported.end());
    EXPECT_EQ(reported, (std::vector<uint64_t>{3, 777, 1999, 4999}));
    EXPECT_EQ(out.found.size(), 4u);
    for (auto &t : f.tests)
        ASSERT_EQ(t.load(), 1);
}

TEST(KeysearchDriver, StoppedAfterSomeChunksThenResumedTestsEachCandidateOnce)
{
    const uint64_t n = 20000;
    FakeBackend f(n);
    f.first_pair_hits = f.full_matches = {150, 19000};
    f.per_chunk = std::chrono::microseconds(200);
    std::string ck = temp_path("fake.ckpt");
    std::remove(ck.c_str());
    SearchJob job;
    job.range = {0, n - 1};
    job.checkpoint_path = ck;
    job.fingerprint = "fake search\n";
    job.all_keys = true;
    std::vector<uint64_t> reported;
    job.on_found = [&](const Found &x) { reported.push_back(x.index); };
    job.on_progress = [&](const SearchStatus &) { return f.chunks.load() < 10; };
    SearchOutcome first = run_search(job, f.make(2, 50));
    ASSERT_EQ(first.status, KCIPHER_ERR_CANCELLED);
    EXPECT_LT(first.last.done, n);
    job.on_progress = {};
    SearchOutcome second = run_search(job, f.make(2, 50));
    ASSERT_EQ(second.status, KCIPHER_OK);
    EXPECT_EQ(first.last.tested + second.last.tested, n);
    for (uint64_t i = 0; i < n; i++)
        ASSERT_EQ(f.tests[i].load(), 1) << "candidate " << i;
    std::set<uint64_t> keys(reported.begin(), reported.end());
    EXPECT_EQ(keys, (std::set<uint64_t>{150, 19000}));
    EXPECT_EQ(second.found.size(), 2u);
    std::remove(ck.c_str());
}

TEST(KeysearchDriver, FoundKeyIsInTheCheckpointBeforeItIsReported)
{
    FakeBackend f(3000);
    f.first_pair_hits = f.full_matches = {1234};
    std::string ck = temp_path("written.ckpt");
    std::remove(ck.c_str());
    SearchJob job;
    job.range = {0, 2999};
    job.checkpoint_path = ck;
    job.fingerprint = "fake search\n";
    job.checkpoint_seconds = 1e6; // no interval saves: only the key can have written it
    bool seen = false;
    job.on_found = [&](const Found &x) {
        bool exists = false;
        CheckpointState st;
        ASSERT_EQ(load_checkpoint(ck, job.fingerprint, job.range, &exists, &st), KCIPHER_OK);
        ASSERT_TRUE(exists);
        ASSERT_EQ(st.found.size(), 1u);
        EXPECT_EQ(st.found[0].index, x.index);
        seen = true;
    };
    ASSERT_EQ(run_search(job, f.make(2, 100)).status, KCIPHER_OK);
    EXPECT_TRUE(seen);
    std::remove(ck.c_str());
}

// ---- resume through the public API, with a real cipher -----------------------------------

TEST(KeysearchResume, CancelledThenResumedFindsKeyNoCandidateTwice)
{
    for (uint64_t planted : {uint64_t(300), uint64_t((1 << 18) - 5)}) {
        Planted p = plant("lea-128", 18, 77, planted);
        std::string ck = temp_path("lea.ckpt");
        std::remove(ck.c_str());
        kcipher_keysearch_params a = params_for(p);
        a.checkpoint_path = ck.c_str();
        a.chunk_keys = 512;
        // The per-key path: slow enough to be stopped part-way (lea/avx512's multi-key
        // searcher tests all 2^18 candidates in a few milliseconds).
        a.kernel = "lea/ref";
        a.all_keys = 1; // every candidate tested once over the two runs
        std::vector<kcipher::KeySearchHit> hits;
        auto keep = [&](const kcipher::KeySearchHit &h) { hits.push_back(h); };
        kcipher_keysearch_progress_info one, two;
        int calls = 0;
        kcipher_status st = kcipher::keysearch(a, keep, [&](const kcipher_keysearch_progress_info &i) {
            return ++calls < 2 && i.done < 4096; }, &one);
        ASSERT_EQ(st, KCIPHER_ERR_CANCELLED) << "the search ended before it could be stopped";
        ASSERT_LT(one.done, one.total);
        EXPECT_EQ(one.done, one.tested);
        st = kcipher::keysearch(a, keep, {}, &two);
        ASSERT_EQ(st, KCIPHER_OK);
        EXPECT_EQ(one.tested + two.tested, uint64_t(1) << 18) << "a candidate was tested twice or never";
        EXPECT_EQ(two.done, two.total);
        ASSERT_GE(hits.size(), 1u);
        for (auto &h : hits) {
            EXPECT_EQ(h.key, p.key);
            EXPECT_EQ(h.index, planted);
        }
        EXPECT_EQ(two.found, 1u);
        // A third run finds everything finished and reports the key from the file.
        kcipher_keysearch_progress_info three;
        hits.clear();
        ASSERT_EQ(kcipher::keysearch(a, keep, {}, &three), KCIPHER_OK);
        EXPECT_EQ(three.tested, 0u);
        ASSERT_EQ(hits.size(), 1u);
        EXPECT_EQ(hits[0].key, p.key);
        std::remove(ck.c_str());
    }
}

TEST(KeysearchResume, CheckpointOfAnotherSearchIsRefused)
{
    Planted p = plant("hight", 12, 8, 10);
    std::string ck = temp_path("other.ckpt");
    std::remove(ck.c_str());
    kcipher_keysearch_params a = params_for(p);
    a.checkpoint_path = ck.c_str();
    search(a);
    kcipher_keysearch_params b = a;
    b.count = 100; // another range
    EXPECT_EQ(kcipher_keysearch(&b, nullptr), KCIPHER_ERR_CHECKPOINT_MISMATCH);
    b = a;
    b.pair_count = 1; // fewer pairs
    EXPECT_EQ(kcipher_keysearch(&b, nullptr), KCIPHER_ERR_CHECKPOINT_MISMATCH);
    Bytes mask = p.mask;
    mask[3] ^= 0x10;
    b = a;
    b.mask = mask.data();
    EXPECT_EQ(kcipher_keysearch(&b, nullptr), KCIPHER_ERR_CHECKPOINT_MISMATCH);
    std::ofstream(ck, std::ios::trunc) << "kcipher keysearch checkpoint v1\ncipher hi";
    EXPECT_EQ(kcipher_keysearch(&a, nullptr), KCIPHER_ERR_CHECKPOINT_DAMAGED); // cut short: no checksum
    std::ofstream(ck, std::ios::trunc) << "garbage\n";
    EXPECT_EQ(kcipher_keysearch(&a, nullptr), KCIPHER_ERR_CHECKPOINT_DAMAGED);
    std::remove(ck.c_str());
    a.checkpoint_path = "/nonexistent-dir/ck";
    EXPECT_EQ(kcipher_keysearch(&a, nullptr), KCIPHER_ERR_CHECKPOINT);
}

// ---- bad input ---------------------------------------------------------------------------

TEST(KeysearchErrors, ClearStatuses)
{
    Planted p = plant("aria-128", 8, 3, 1);
    kcipher_keysearch_params a = params_for(p);
    EXPECT_EQ(kcipher_keysearch(nullptr, nullptr), KCIPHER_ERR_NULL_POINTER);
    auto with = [&](auto change) {
        kcipher_keysearch_params b = a;
        change(b);
        return kcipher_keysearch(&b, nullptr);
    };
    Bytes wide(16, 0);
    for (int i = 0; i < 9; i++)
        wide[i] = 0xff; // 72 bits
    Bytes exactly64(16, 0);
    for (int i = 8; i < 16; i++)
        exactly64[i] = 0xff;
    EXPECT_EQ(with([&](auto &b) { b.mask = wide.data(); }), KCIPHER_ERR_MASK_BITS);
    EXPECT_EQ(with([&](auto &b) { b.mask = exactly64.data(); }), KCIPHER_ERR_SEARCH_RANGE); // 2^64 without count
    EXPECT_EQ(with([&](auto &b) { b.key_len = 15; }), KCIPHER_ERR_KEY_LENGTH);
    EXPECT_EQ(with([&](auto &b) { b.mask_len = 32; }), KCIPHER_ERR_KEY_LENGTH);
    EXPECT_EQ(with([&](auto &b) { b.pair_count = 0; }), KCIPHER_ERR_NO_PAIRS);
    EXPECT_EQ(with([&](auto &b) { b.block_len = 8; }), KCIPHER_ERR_PAIR_LENGTH);
    EXPECT_EQ(with([&](auto &b) { b.plaintexts = nullptr; }), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(with([&](auto &b) { b.key = nullptr; }), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(with([&](auto &b) { b.cipher = "aria-128-ecb"; }), KCIPHER_ERR_UNKNOWN_CIPHER);
    EXPECT_EQ(with([&](auto &b) { b.cipher = "des"; }), KCIPHER_ERR_UNKNOWN_CIPHER);
    EXPECT_EQ(with([&](auto &b) { b.start = 256; }), KCIPHER_ERR_SEARCH_RANGE);
    EXPECT_EQ(with([&](auto &b) { b.start = 10, b.count = 247; }), KCIPHER_ERR_SEARCH_RANGE);
    EXPECT_EQ(with([&](auto &b) { b.start = 10, b.count = 246; }), KCIPHER_OK);
    EXPECT_EQ(with([&](auto &b) { b.count = UINT64_MAX; }), KCIPHER_ERR_SEARCH_RANGE);
    EXPECT_EQ(with([&](auto &b) { // as a C caller could: any int in the enum's storage
                  const int seven = 7;
                  std::memcpy(&b.device, &seven, sizeof seven);
              }),
              KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(with([&](auto &b) { b.checkpoint_seconds = -1; }), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(with([&](auto &b) { b.kernel = "lea/ref"; }), KCIPHER_ERR_KERNEL_MISMATCH);
    EXPECT_EQ(with([&](auto &b) { b.kernel = "aria/nope"; }), KCIPHER_ERR_UNKNOWN_KERNEL);
    if (kcipher_gpu_count() == 0)
        EXPECT_EQ(with([&](auto &b) { b.device = KCIPHER_DEVICE_GPU; }), KCIPHER_ERR_NO_GPU);
    // 64 unknown bits are fine with a count.
    EXPECT_EQ(with([&](auto &b) { b.mask = exactly64.data(), b.start = UINT64_MAX - 9, b.count = 10; }), KCIPHER_OK);
    for (kcipher_status s : {KCIPHER_ERR_MASK_BITS, KCIPHER_ERR_NO_PAIRS, KCIPHER_ERR_PAIR_LENGTH,
                             KCIPHER_ERR_SEARCH_RANGE, KCIPHER_ERR_CHECKPOINT_MISMATCH, KCIPHER_ERR_CHECKPOINT,
                             KCIPHER_ERR_CANCELLED})
        EXPECT_NE(std::string(kcipher_strerror(s)), "unknown status code");
}

} // namespace
