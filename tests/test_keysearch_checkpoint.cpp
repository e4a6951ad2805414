// Checkpoints believed only as far as they check out, and no found key lost (issue 30): a
// forged or damaged file is refused (finished ranges that wrap, leave the range, overlap or
// are out of order; found entries of the wrong length, outside the range or not matching the
// pairs; one changed digit), a path that cannot be written fails before any candidate with
// the OS's reason, a key is reported even when the save after it fails, and the search stops
// at the first key unless asked for all of them.
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "kcipher/kcipher.h"
#include "kcipher/kcipher.hpp"
#include "keysearch/driver.hpp"

using namespace kc::keysearch;

namespace {

using Bytes = std::vector<uint8_t>;

std::string hexs(const Bytes &b)
{
    static const char d[] = "0123456789abcdef";
    std::string s;
    for (uint8_t x : b)
        s += {d[x >> 4], d[x & 15]};
    return s;
}

// HIGHT with the low 12 bits of the key unknown; the key is candidate 3000 of 4096.
struct Hight12 {
    Bytes key, tmpl, mask = Bytes(16, 0), pts, cts;
    Hight12()
    {
        for (int i = 0; i < 16; i++)
            key.push_back(uint8_t(37 * i + 1));
        key[14] = uint8_t((key[14] & 0xf0) | (3000 >> 8));
        key[15] = uint8_t(3000 & 0xff);
        mask[14] = 0x0f;
        mask[15] = 0xff;
        tmpl = key;
        tmpl[14] &= 0xf0;
        tmpl[15] = 0;
        kcipher::Cipher c("hight", key);
        pts = Bytes{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
        cts = c.ecb_encrypt(pts);
    }
    kcipher_keysearch_params params(const std::string &ck) const
    {
        kcipher_keysearch_params a;
        kcipher_keysearch_init(&a);
        a.cipher = "hight";
        a.plaintexts = pts.data();
        a.ciphertexts = cts.data();
        a.block_len = 8;
        a.pair_count = 2;
        a.key = tmpl.data();
        a.key_len = 16;
        a.mask = mask.data();
        a.mask_len = 16;
        a.threads = 2;
        a.checkpoint_path = ck.c_str();
        return a;
    }
};

struct Reported {
    std::vector<Bytes> keys;
    std::vector<size_t> lengths;
};

kcipher_status search(kcipher_keysearch_params a, Reported *r, kcipher_keysearch_progress_info *info = nullptr)
{
    a.user = r;
    a.on_found = [](void *u, const uint8_t *key, size_t len, uint64_t) {
        auto *rep = static_cast<Reported *>(u);
        rep->lengths.push_back(len);
        rep->keys.emplace_back(key, key + (len < 16 ? len : 16)); // never past the cipher's 16 bytes
    };
    return kcipher_keysearch(&a, info);
}

std::string temp_path(const std::string &name)
{
    return ::testing::TempDir() + "kc_ksck_" + std::to_string(::getpid()) + "_" + name;
}

std::string read_all(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// FNV-1a 64 written out here, apart from the library's, as the format's definition.
std::string checksum_line(const std::string &body)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : body) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
    return std::string("checksum fnv1a64 ") + buf + "\n";
}

// Replaces what the file says after its "range" line with `state` and signs it again (when
// it had a checksum): the forgery of someone who knows the format, not accidental damage.
void forge_state(const std::string &path, const std::string &state)
{
    std::istringstream in(read_all(path));
    std::string body, line;
    bool signed_file = false;
    while (std::getline(in, line)) {
        if (line.rfind("checksum ", 0) == 0)
            signed_file = true;
        if (line.rfind("range ", 0) == 0) {
            body += line + "\n";
            break;
        }
        body += line + "\n";
    }
    while (std::getline(in, line))
        if (line.rfind("checksum ", 0) == 0)
            signed_file = true;
    body += state + "end\n";
    std::ofstream(path, std::ios::trunc) << body << (signed_file ? checksum_line(body) : "");
}

// A checkpoint of the whole Hight12 search, written by the library itself.
std::string fresh_checkpoint(const Hight12 &h, const std::string &name)
{
    std::string ck = temp_path(name);
    std::remove(ck.c_str());
    Reported r;
    kcipher_keysearch_params a = h.params(ck);
    a.all_keys = 1;
    EXPECT_EQ(search(a, &r), KCIPHER_OK);
    return ck;
}

TEST(KeysearchCheckpoint, ForgedFinishedRangesRefused)
{
    Hight12 h;
    std::string ck = fresh_checkpoint(h, "finished.ckpt");
    for (const char *state : {"finished 0 18446744073709551615\n", "finished 0 -1\n", "finished 4000 4096\n",
                              "finished 10 20\nfinished 15 30\n", "finished 100 200\nfinished 10 20\n",
                              "finished +5 7\n", "finished 9 8\n", "finished 1 2 3\n"}) {
        forge_state(ck, state);
        Reported r;
        kcipher_keysearch_progress_info info;
        EXPECT_EQ(search(h.params(ck), &r, &info), KCIPHER_ERR_CHECKPOINT_DAMAGED) << state;
        EXPECT_TRUE(r.keys.empty()) << state;
    }
    std::remove(ck.c_str());
}

TEST(KeysearchCheckpoint, ForgedFoundKeysRefusedRealOnesRetested)
{
    Hight12 h;
    std::string ck = fresh_checkpoint(h, "found.ckpt");
    Bytes wrong = h.key;
    wrong[3] ^= 1;
    const std::string forged[] = {"found 5 deadbeef\n", "found 3000 " + hexs(wrong) + "\n",
                                  "found 5000 " + hexs(h.key) + "\n", "found 3000 " + hexs(h.key) + "00\n",
                                  "found -1 " + hexs(h.key) + "\n"};
    for (const std::string &state : forged) {
        forge_state(ck, "finished 0 4095\n" + state);
        Reported r;
        EXPECT_EQ(search(h.params(ck), &r), KCIPHER_ERR_CHECKPOINT_DAMAGED) << state;
        EXPECT_TRUE(r.keys.empty()) << state << ": an untested key was reported";
    }
    // The true key, as the library wrote it: re-tested, then reported at the cipher's length.
    forge_state(ck, "finished 0 4095\nfound 3000 " + hexs(h.key) + "\n");
    Reported r;
    ASSERT_EQ(search(h.params(ck), &r), KCIPHER_OK);
    ASSERT_EQ(r.keys.size(), 1u);
    EXPECT_EQ(r.lengths[0], 16u);
    EXPECT_EQ(r.keys[0], h.key);
    std::remove(ck.c_str());
}

TEST(KeysearchCheckpoint, OneChangedDigitIsDamage)
{
    Hight12 h;
    std::string ck = fresh_checkpoint(h, "digit.ckpt");
    const std::string good = read_all(ck);
    for (const std::string &from : {std::string("finished 0 4095"), std::string("range 0 4095")}) {
        size_t at = good.find(from);
        ASSERT_NE(at, std::string::npos) << good;
        std::string bad = good;
        bad[at + from.size() - 1] = '4'; // 4095 -> 4094
        std::ofstream(ck, std::ios::trunc) << bad;
        Reported r;
        EXPECT_EQ(search(h.params(ck), &r), KCIPHER_ERR_CHECKPOINT_DAMAGED) << from;
        EXPECT_NE(std::string(kcipher_strerror(KCIPHER_ERR_CHECKPOINT_DAMAGED)).find("damaged"), std::string::npos);
    }
    std::remove(ck.c_str());
}

TEST(KeysearchCheckpoint, UnwritablePathFailsBeforeAnyCandidateWithErrno)
{
    Hight12 h;
    Reported r;
    kcipher_keysearch_progress_info info;
    errno = 0;
    EXPECT_EQ(search(h.params("/nonexistent-kcipher-dir/x.ckpt"), &r, &info), KCIPHER_ERR_CHECKPOINT);
    EXPECT_EQ(errno, ENOENT);
    EXPECT_EQ(info.tested, 0u) << "candidates were tested before the path was tried";
    EXPECT_TRUE(r.keys.empty());
}

// ---- the driver with a fake backend ------------------------------------------------------

struct Fake {
    std::set<uint64_t> matches;
    std::atomic<uint64_t> tested{0};
    std::function<void(uint64_t first)> on_chunk;
    Backend make(unsigned threads, uint64_t chunk)
    {
        Backend b;
        b.cpu_threads = threads;
        b.cpu_chunk = chunk;
        b.cpu = [this](uint64_t first, uint64_t count, const std::atomic<bool> &, std::vector<uint64_t> &hits) {
            if (on_chunk)
                on_chunk(first);
            for (uint64_t i = first; i < first + count; i++)
                if (matches.count(i))
                    hits.push_back(i);
            tested += count;
            std::this_thread::sleep_for(std::chrono::microseconds(100));
            return count;
        };
        b.matches_all = [this](uint64_t i) { return matches.count(i) != 0; };
        b.key_of = [](uint64_t i) { return Bytes{uint8_t(i >> 8), uint8_t(i)}; };
        return b;
    }
};

TEST(KeysearchDriver, KeyReportedWhenTheSaveAfterItFails)
{
    std::string dir = temp_path("gone");
    ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
    SearchJob job;
    job.range = {0, 9999};
    job.checkpoint_path = dir + "/ck";
    job.fingerprint = "fake search\n";
    Fake f;
    f.matches = {7000};
    // The directory vanishes under the search, just before the chunk that holds the key.
    f.on_chunk = [&](uint64_t first) {
        if (first <= 7000 && 7000 < first + 100) {
            std::remove(job.checkpoint_path.c_str());
            ::rmdir(dir.c_str());
        }
    };
    std::vector<uint64_t> reported;
    job.on_found = [&](const Found &x) { reported.push_back(x.index); };
    SearchOutcome out = run_search(job, f.make(1, 100));
    EXPECT_EQ(out.status, KCIPHER_ERR_CHECKPOINT);
    EXPECT_EQ(out.os_error, ENOENT);
    EXPECT_EQ(reported, std::vector<uint64_t>{7000});
    ::rmdir(dir.c_str());
}

// A cancel whose last save fails is that failure, not KCIPHER_ERR_CANCELLED ("progress
// saved"): the CLI prints "progress saved" only for the latter.
TEST(KeysearchDriver, CancelWithAFailedLastSaveIsTheFailure)
{
    std::string dir = temp_path("cancel");
    ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
    SearchJob job;
    job.range = {0, 999999};
    job.checkpoint_path = dir + "/ck";
    job.fingerprint = "fake search\n";
    job.checkpoint_seconds = 1e6; // only the first and the last save
    Fake f;
    f.on_chunk = [&](uint64_t first) {
        if (first == 500) {
            std::remove(job.checkpoint_path.c_str());
            ::rmdir(dir.c_str());
        }
    };
    job.on_progress = [&](const SearchStatus &) { return f.tested.load() < 1000; };
    SearchOutcome out = run_search(job, f.make(1, 100));
    EXPECT_EQ(out.status, KCIPHER_ERR_CHECKPOINT);
    EXPECT_EQ(out.os_error, ENOENT);
    ::rmdir(dir.c_str());
}

TEST(KeysearchDriver, StopsAtTheFirstKeyUnlessAllKeys)
{
    for (bool all : {false, true}) {
        Fake f;
        f.matches = {500, 90000};
        SearchJob job;
        job.range = {0, 99999};
        job.all_keys = all;
        std::vector<uint64_t> reported;
        job.on_found = [&](const Found &x) { reported.push_back(x.index); };
        SearchOutcome out = run_search(job, f.make(3, 100));
        ASSERT_EQ(out.status, KCIPHER_OK) << all;
        if (all) {
            EXPECT_EQ(reported.size(), 2u);
            EXPECT_EQ(out.last.done, 100000u);
        } else {
            EXPECT_EQ(reported, std::vector<uint64_t>{500});
            EXPECT_LT(f.tested.load(), 50000u) << "the workers went on after the key";
            EXPECT_EQ(out.last.done, out.last.tested); // what was tested is finished, exactly
        }
    }
}

TEST(KeysearchDriver, CheckpointHoldingAKeyEndsTheSearchUnlessAllKeys)
{
    std::string ck = temp_path("holding.ckpt");
    std::remove(ck.c_str());
    SearchJob job;
    job.range = {0, 99999};
    job.checkpoint_path = ck;
    job.fingerprint = "fake search\n";
    Fake f;
    f.matches = {500, 90000};
    ASSERT_EQ(run_search(job, f.make(2, 100)).status, KCIPHER_OK);
    const uint64_t first_run = f.tested.load();
    std::vector<uint64_t> reported;
    job.on_found = [&](const Found &x) { reported.push_back(x.index); };
    SearchOutcome again = run_search(job, f.make(2, 100));
    EXPECT_EQ(again.status, KCIPHER_OK);
    EXPECT_EQ(f.tested.load(), first_run) << "a checkpoint with a key, yet the search went on";
    EXPECT_EQ(reported, std::vector<uint64_t>{500});
    job.all_keys = true;
    reported.clear();
    SearchOutcome rest = run_search(job, f.make(2, 100));
    EXPECT_EQ(rest.status, KCIPHER_OK);
    EXPECT_EQ(f.tested.load(), 100000u) << "each candidate once over the runs";
    EXPECT_EQ(std::set<uint64_t>(reported.begin(), reported.end()), (std::set<uint64_t>{500, 90000}));
    std::remove(ck.c_str());
}

TEST(KeysearchStop, ApiStopsAtFirstKeyUnlessAllKeys)
{
    // HIGHT, 20 unknown bits, the key at candidate 5000: one slow thread, small chunks.
    Bytes key(16), mask(16, 0);
    for (int i = 0; i < 16; i++)
        key[i] = uint8_t(11 * i + 3);
    mask[13] = 0x0f, mask[14] = mask[15] = 0xff;
    key[13] = uint8_t(key[13] & 0xf0), key[14] = uint8_t(5000 >> 8), key[15] = uint8_t(5000 & 0xff);
    kcipher::Cipher c("hight", key);
    Bytes pts(16, 0x5a), cts = c.ecb_encrypt(pts);
    kcipher_keysearch_params a;
    kcipher_keysearch_init(&a);
    a.cipher = "hight", a.plaintexts = pts.data(), a.ciphertexts = cts.data(), a.block_len = 8, a.pair_count = 2;
    a.key = key.data(), a.key_len = 16, a.mask = mask.data(), a.mask_len = 16;
    a.threads = 2, a.kernel = "hight/ref", a.chunk_keys = 4096;
    Reported r;
    kcipher_keysearch_progress_info info;
    ASSERT_EQ(search(a, &r, &info), KCIPHER_OK);
    ASSERT_EQ(r.keys.size(), 1u);
    EXPECT_EQ(r.keys[0], key);
    EXPECT_LT(info.tested, info.total / 4) << "the search went on after the key";
    EXPECT_EQ(info.done, info.tested);
}

// The GPU stops between its chunks (about a second each): 40 unknown bits, the key 2^32
// candidates into a range of about 3 * 10^11 that a GPU would take many seconds to finish.
TEST(KeysearchStop, GpuStopsAtFirstKey)
{
    if (kcipher_gpu_count() == 0)
        GTEST_SKIP() << "no GPU on this machine";
    Bytes key(16), mask(16, 0), tmpl;
    for (int i = 0; i < 16; i++)
        key[i] = uint8_t(17 * i + 1);
    for (int i = 11; i < 16; i++)
        mask[i] = 0xff;
    tmpl = key;
    uint64_t index = 0;
    for (int i = 11; i < 16; i++) {
        index = index << 8 | key[i];
        tmpl[i] = 0;
    }
    kcipher::Cipher c("lea-128", key);
    Bytes pts(32, 0x3c), cts = c.ecb_encrypt(pts);
    kcipher_keysearch_params a;
    kcipher_keysearch_init(&a);
    a.cipher = "lea-128", a.plaintexts = pts.data(), a.ciphertexts = cts.data(), a.block_len = 16, a.pair_count = 2;
    a.key = tmpl.data(), a.key_len = 16, a.mask = mask.data(), a.mask_len = 16;
    a.device = KCIPHER_DEVICE_GPU;
    a.start = index - (uint64_t(1) << 32);
    a.count = (uint64_t(1) << 40) - a.start;
    Reported r;
    kcipher_keysearch_progress_info info;
    ASSERT_EQ(search(a, &r, &info), KCIPHER_OK);
    ASSERT_EQ(r.keys.size(), 1u);
    EXPECT_EQ(r.keys[0], key);
    EXPECT_LT(info.tested, info.total / 4) << "the GPU went on after the key";
    EXPECT_EQ(info.done, info.tested);
}

} // namespace
