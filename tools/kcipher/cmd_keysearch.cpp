// `kcipher keysearch`: exhaustive search over the unknown bits of a key, given known
// (plaintext, ciphertext) pairs, on every core and/or every GPU, through the C API.
// Ctrl-C stops at the next few thousand keys and saves the checkpoint; the same command
// resumes. --shard I/N and MPI ranks split the range (kcipher::shard_range over kcipher_keysearch_shard).
// It stops at the first key that matches every pair (every thread, GPU and MPI rank) unless
// --all-keys. Exit status: 0 a key was found, 1 the range holds none, 2 bad usage, 3 a runtime
// error (checkpoint, GPU, memory; keys found before it are still printed), 128 + the signal
// (130, 143) interrupted.
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cmd_keysearch_mpi.hpp"
#include "commands.hpp"
#include "hex.hpp"
#include "kcipher/kcipher.hpp"
#include "key_source.hpp"
#include "numbers.hpp"
#include "progress.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

using kcipher::KeyRange;
using kcipher::shard_range;

struct KeysearchOptions {
    KeySource key; // the template: -k, --key-file or --key-env
    std::string cipher, mask, device = "cpu", checkpoint, shard, kernel;
    std::vector<std::string> plaintexts, ciphertexts;
    uint64_t start = 0, count = 0, chunk_keys = 0;
    unsigned threads = 0;
    double checkpoint_seconds = 30;
    bool json = false, progress = true, all_keys = false;
};

// Bytes of every pair, checked, and the search's fixed arguments.
struct Inputs {
    kcipher_cipher_info info;
    std::vector<uint8_t> pts, cts, key, mask;
    int bits = 0;
};

volatile std::sig_atomic_t g_interrupted = 0; // the signal's number

void on_interrupt(int sig) { g_interrupted = sig; }

// SA_RESETHAND: a second Ctrl-C ends the process at once, as a user pressing it expects.
void catch_interrupts()
{
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

std::vector<uint8_t> sized_hex(const std::string &what, const std::string &hex, size_t want, const char *cipher)
{
    auto v = parse_hex(hex);
    if (!v)
        throw UsageError(fmt::format("{} '{}' is not valid hex (an even number of 0-9a-f digits)", what, hex));
    if (v->size() != want)
        throw UsageError(fmt::format("{} must be {} bytes ({} hex digits) for {}, got {} bytes", what, want,
                                     2 * want, cipher, v->size()));
    return *v;
}

Inputs read_inputs(const KeysearchOptions &o)
{
    Inputs in;
    kcipher_status st = kcipher_cipher_find(o.cipher.c_str(), &in.info);
    if (st != KCIPHER_OK || o.cipher != in.info.name)
        throw UsageError(fmt::format("--cipher '{}': {}", o.cipher, kcipher_strerror(KCIPHER_ERR_UNKNOWN_CIPHER)));
    if (o.plaintexts.empty())
        throw UsageError(kcipher_strerror(KCIPHER_ERR_NO_PAIRS) + std::string(": give --plaintext and --ciphertext"));
    if (o.plaintexts.size() != o.ciphertexts.size())
        throw UsageError(fmt::format("{} --plaintext but {} --ciphertext: give them in pairs",
                                     o.plaintexts.size(), o.ciphertexts.size()));
    for (size_t i = 0; i < o.plaintexts.size(); i++) {
        auto pt = sized_hex("--plaintext", o.plaintexts[i], in.info.block_bytes, in.info.name);
        auto ct = sized_hex("--ciphertext", o.ciphertexts[i], in.info.block_bytes, in.info.name);
        in.pts.insert(in.pts.end(), pt.begin(), pt.end());
        in.cts.insert(in.cts.end(), ct.begin(), ct.end());
    }
    in.key = read_key(o.key, in.info.key_bytes, in.info.name);
    in.mask = sized_hex("--mask", o.mask, in.info.key_bytes, in.info.name);
    for (uint8_t b : in.mask)
        in.bits += __builtin_popcount(b);
    if (in.bits > 64)
        throw UsageError(fmt::format("--mask has {} bits set: {}", in.bits, kcipher_strerror(KCIPHER_ERR_MASK_BITS)));
    return in;
}

// --start/--count inside the 2^bits candidates.
KeyRange whole_range(const KeysearchOptions &o, int bits)
{
    uint64_t last = bits == 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
    if (o.start > last)
        throw UsageError(fmt::format("--start {} is past the last candidate {} (the mask has {} bits)", o.start,
                                     last, bits));
    if (o.count == 0)
        return {o.start, last};
    if (o.count - 1 > last - o.start)
        throw UsageError(fmt::format("--start {} --count {} runs past the last candidate {}", o.start, o.count, last));
    return {o.start, o.start + (o.count - 1)};
}

// The part this process searches: --shard I/N of the whole, then this rank's share.
std::optional<KeyRange> my_part(const KeysearchOptions &o, KeyRange whole, const MpiWorld &w)
{
    std::optional<KeyRange> part = whole;
    if (!o.shard.empty()) {
        const size_t slash = o.shard.find('/');
        if (slash == std::string::npos)
            throw UsageError(fmt::format("--shard '{}': expected I/N with 0 <= I < N, e.g. 0/4", o.shard));
        const uint64_t n = parse_number_option("--shard N", o.shard.substr(slash + 1), {1, UINT64_MAX});
        const uint64_t i = parse_number_option("--shard I", o.shard.substr(0, slash), {0, n - 1});
        part = shard_range(whole, i, n);
    }
    if (part && w.size > 1)
        part = shard_range(*part, uint64_t(w.rank), uint64_t(w.size));
    return part;
}

kcipher_device parse_device(const std::string &d)
{
    if (d == "cpu")
        return KCIPHER_DEVICE_CPU;
    if (d == "gpu")
        return KCIPHER_DEVICE_GPU;
    if (d == "all")
        return KCIPHER_DEVICE_ALL;
    throw UsageError(fmt::format("--device '{}': expected cpu, gpu or all", d));
}

std::string duration_text(double s)
{
    if (s < 0)
        return "?";
    if (s < 120)
        return fmt::format("{:.0f}s", s);
    if (s < 7200)
        return fmt::format("{:.0f}m{:02.0f}s", s / 60 - 0.5, std::fmod(s, 60.0));
    if (s < 172800)
        return fmt::format("{:.1f}h", s / 3600);
    return fmt::format("{:.1f}d", s / 86400);
}

// What the callbacks share: the progress line and the keys seen so far.
struct Session {
    const MpiWorld *world;
    bool json, draw, all_keys;
    std::string found_lines;
    uint64_t found = 0;
    bool drawn = false;
    bool peer_found = false;  // another MPI rank found a key: this one stopped for it
    bool peer_failed = false; // another MPI rank failed: this one stopped (its checkpoint saved)
};

void found_cb(void *u, const uint8_t *key, size_t len, uint64_t index)
{
    Session &s = *static_cast<Session *>(u);
    std::string k = to_hex(key, len);
    s.found_lines += fmt::format("{} {}\n", index, k);
    s.found++;
    if (!s.all_keys)
        mpi_announce(*s.world, PeerNews::key_found);
    if (!s.json && s.world->rank == 0) {
        if (s.drawn)
            std::fputs("\n", stderr);
        s.drawn = false;
        fmt::print("found key {} (candidate {})\n", k, index);
        std::fflush(stdout);
    }
}

int progress_cb(void *u, const kcipher_keysearch_progress_info *i)
{
    Session &s = *static_cast<Session *>(u);
    if (s.draw) {
        double frac = i->total ? (double)i->done / (double)i->total : 1.0;
        int fill = int(frac * 30);
        std::string who = s.world->size > 1 ? fmt::format(" (rank 0 of {})", s.world->size) : "";
        fmt::print(stderr, "\rsearching{} [{}{}] {:6.2f}%  {:.3g} keys/s  ETA {}  found {} ", who,
                   std::string(fill, '#'), std::string(30 - fill, '.'), 100 * frac, i->keys_per_second,
                   duration_text(i->eta_seconds), i->found);
        std::fflush(stderr);
        s.drawn = true;
    }
    if (g_interrupted)
        return 1;
    switch (mpi_peer_news(*s.world)) {
    case PeerNews::failed: // its share cannot finish: the run's outcome is its error, so stop and save
        s.peer_failed = true;
        return 1;
    case PeerNews::key_found: // sent only by ranks that stop at the first key, as this one does
        s.peer_found = true;
        return 1;
    case PeerNews::none:
        break;
    }
    return 0;
}

// RankSummary::outcome of a status: arguments the library refused are bad usage; the rest
// (checkpoint, GPU, memory) went wrong while running.
int outcome_of(kcipher_status st)
{
    switch (st) {
    case KCIPHER_OK:
        return 0;
    case KCIPHER_ERR_CANCELLED:
        return 1;
    case KCIPHER_ERR_UNKNOWN_CIPHER:
    case KCIPHER_ERR_KEY_LENGTH:
    case KCIPHER_ERR_UNKNOWN_KERNEL:
    case KCIPHER_ERR_KERNEL_UNAVAILABLE:
    case KCIPHER_ERR_KERNEL_MISMATCH:
    case KCIPHER_ERR_INVALID_ARGUMENT:
    case KCIPHER_ERR_MASK_BITS:
    case KCIPHER_ERR_NO_PAIRS:
    case KCIPHER_ERR_PAIR_LENGTH:
    case KCIPHER_ERR_SEARCH_RANGE:
    case KCIPHER_ERR_UNSUPPORTED:
        return 3;
    default:
        return 2;
    }
}

struct Outcome {
    RankSummary summary;
    kcipher_status status = KCIPHER_OK;
    std::optional<KeyRange> part;
    std::string error;
};

Outcome search_part(const KeysearchOptions &o, const MpiWorld &w)
{
    Outcome out;
    Inputs in = read_inputs(o);
    kcipher_device dev = parse_device(o.device);
    out.part = my_part(o, whole_range(o, in.bits), w);
    if (!out.part)
        return out; // more shards than candidates: this one is empty
    if (out.part->size_minus_one() == UINT64_MAX)
        throw UsageError("the range holds all 2^64 candidates: give --count, or split it with --shard or MPI");
    std::string ck = o.checkpoint;
    if (!ck.empty() && w.size > 1)
        ck += fmt::format(".rank{}of{}", w.rank, w.size);
    kcipher_keysearch_params p;
    kcipher_keysearch_init(&p);
    p.cipher = in.info.name;
    p.plaintexts = in.pts.data();
    p.ciphertexts = in.cts.data();
    p.block_len = in.info.block_bytes;
    p.pair_count = in.pts.size() / in.info.block_bytes;
    p.key = in.key.data();
    p.key_len = in.key.size();
    p.mask = in.mask.data();
    p.mask_len = in.mask.size();
    p.start = out.part->first;
    p.count = out.part->size_minus_one() + 1;
    p.device = dev;
    p.threads = o.threads;
    p.kernel = o.kernel.empty() ? nullptr : o.kernel.c_str();
    p.checkpoint_path = ck.empty() ? nullptr : ck.c_str();
    p.checkpoint_seconds = o.checkpoint_seconds;
    p.chunk_keys = o.chunk_keys;
    p.all_keys = o.all_keys ? 1 : 0;
    Session s{&w, o.json, o.progress && w.rank == 0 && stderr_is_terminal(), o.all_keys, "", 0, false, false};
    p.on_found = found_cb;
    p.on_progress = progress_cb;
    p.user = &s;
    catch_interrupts();
    kcipher_keysearch_progress_info info;
    out.status = kcipher_keysearch(&p, &info);
    const int os_error = errno;
    if (s.drawn)
        std::fputs("\n", stderr);
    if (out.status == KCIPHER_ERR_CANCELLED && s.peer_found && !g_interrupted)
        out.status = KCIPHER_OK; // stopped because another rank found the key
    if (out.status == KCIPHER_ERR_CANCELLED && s.peer_failed && !g_interrupted)
        out.error = fmt::format("stopped because another rank failed; this rank's progress {}",
                                ck.empty() ? "is lost (no --checkpoint)" : "is saved in '" + ck + "'");
    out.summary = {info.tested, info.done, info.total, info.elapsed_seconds, outcome_of(out.status), s.found_lines};
    if (out.status != KCIPHER_OK && out.status != KCIPHER_ERR_CANCELLED) {
        out.error = kcipher_strerror(out.status);
        if (out.status == KCIPHER_ERR_CHECKPOINT && os_error != 0)
            out.error += std::string(": ") + std::strerror(os_error);
        if (out.status == KCIPHER_ERR_CHECKPOINT || out.status == KCIPHER_ERR_CHECKPOINT_MISMATCH ||
            out.status == KCIPHER_ERR_CHECKPOINT_DAMAGED)
            out.error = fmt::format("--checkpoint '{}': {}", ck, out.error);
        if (out.status == KCIPHER_ERR_CUDA)
            out.error += std::string(": ") + kcipher_gpu_last_error();
    }
    return out;
}

int exit_code(const RankSummary &all)
{
    if (all.outcome == 3)
        return 2;
    if (all.outcome == 2)
        return 3;
    if (all.outcome == 1)
        return 128 + (g_interrupted != 0 ? int(g_interrupted) : SIGINT);
    return all.found_lines.empty() ? 1 : 0;
}

bool interrupted_code(int code) { return code == 128 + SIGINT || code == 128 + SIGTERM; }

void print_json(const KeysearchOptions &o, const Outcome &mine, const RankSummary &all, const MpiWorld &w, int code)
{
    nlohmann::json found = nlohmann::json::array();
    std::istringstream lines(all.found_lines);
    uint64_t index;
    std::string key;
    while (lines >> index >> key)
        found.push_back({{"key", key}, {"index", index}});
    nlohmann::json j = {{"cipher", o.cipher}, {"found", found},       {"tested", all.tested},
                        {"done", all.done},   {"total", all.total},   {"seconds", all.seconds},
                        {"keys_per_second", all.seconds > 0 ? (double)all.tested / all.seconds : 0.0},
                        {"complete", all.outcome == 0 && all.done == all.total}, {"exit", code},
                        {"ranks", w.size}};
    if (w.size == 1 && mine.part)
        j["range"] = {{"first", mine.part->first}, {"last", mine.part->last}};
    fmt::print("{}\n", j.dump(2));
}

void print_summary(const KeysearchOptions &o, const RankSummary &all, int code)
{
    if (interrupted_code(code))
        // Only after a save that succeeded: a failed one is exit 3 with its own message.
        fmt::print(stderr, "interrupted after {} candidates{}; run the same command again to resume\n", all.tested,
                   o.checkpoint.empty() ? " (no --checkpoint: progress is lost)" : ", progress saved in " + o.checkpoint);
    else if (code == 0 || code == 1)
        fmt::print(stderr, "searched {} candidates in {:.1f}s ({:.3g} keys/s): {}\n", all.tested, all.seconds,
                   all.seconds > 0 ? (double)all.tested / all.seconds : 0.0,
                   code == 1                ? "no key in the range"
                   : all.done == all.total ? "key(s) found"
                                            : "key found; stopped there (--all-keys searches the whole range)");
}

int run_keysearch(const KeysearchOptions &o)
{
    MpiWorld w;
    try {
        w = mpi_begin();
    } catch (const std::exception &e) { // e.g. started by mpirun, built without MPI
        fmt::print(stderr, "kcipher keysearch: {}\n", e.what());
        return 3;
    }
    Outcome mine;
    try {
        mine = search_part(o, w);
    } catch (const UsageError &e) { // the arguments' checks: exit 2
        mine.error = e.what();
        mine.summary.outcome = 3;
    } catch (const std::exception &e) { // e.g. an unreadable --key-file: a runtime error, exit 3
        mine.error = e.what();
        mine.summary.outcome = 2;
    }
    if (mine.summary.outcome >= 2) // the others stop too, saving their progress
        mpi_announce(w, PeerNews::failed);
    mpi_settle_announcements(w);
    if (!mine.error.empty() && (w.rank == 0 || mine.summary.outcome >= 2))
        fmt::print(stderr, "kcipher keysearch{}: {}\n", w.size > 1 ? fmt::format(" (rank {})", w.rank) : "", mine.error);
    RankSummary all = mpi_combine(w, mine.summary);
    int code = mpi_agree_exit(w, exit_code(all));
    if (w.rank == 0) {
        if (!o.json && w.size > 1) // other ranks' keys were not printed as they were found
            for (std::istringstream lines(all.found_lines); lines;) {
                uint64_t index;
                std::string key;
                if (lines >> index >> key && mine.summary.found_lines.find(key) == std::string::npos)
                    fmt::print("found key {} (candidate {})\n", key, index);
            }
        if (o.json && code != 2) // after a runtime error too: the keys found before it
            print_json(o, mine, all, w, code);
        if (!o.json || interrupted_code(code)) // how to resume goes to a person, JSON or not
            print_summary(o, all, code);
    }
    mpi_end(w);
    return code;
}

} // namespace

Runner add_keysearch_command(CLI::App &app)
{
    auto o = std::make_shared<KeysearchOptions>();
    CLI::App *sub = app.add_subcommand("keysearch", "exhaustive search of a key's unknown bits from known pairs");
    sub->add_option("-c,--cipher", o->cipher, "cipher, e.g. aria-128, lea-256, hight, cham-64-128")->required();
    sub->add_option("--plaintext", o->plaintexts, "known plaintext block in hex (repeat for more pairs)")->required();
    sub->add_option("--ciphertext", o->ciphertexts, "its ciphertext block in hex, in the same order")->required();
    add_key_options(sub, o->key, "key template (bits under the mask are ignored)");
    sub->add_option("--mask", o->mask, "the unknown bits of the key in hex (at most 64 set)")->required();
    sub->add_option("--start", o->start, "first candidate index (default 0; k, M, G, T: powers of 1024)")
        ->transform(number({0, UINT64_MAX}));
    sub->add_option("--count", o->count, "candidates to test (default: to the end; e.g. 1M, 16G)")
        ->transform(number({1, UINT64_MAX}));
    sub->add_option("--device", o->device, "cpu (default), gpu or all");
    sub->add_option("--checkpoint", o->checkpoint, "save progress and found keys here; a rerun resumes");
    sub->add_option("--checkpoint-seconds", o->checkpoint_seconds, "seconds between checkpoints (default 30)")
        ->check(CLI::Range(0.01, 1e6));
    sub->add_option("--shard", o->shard, "I/N: search only the I-th of N equal parts (0 <= I < N)");
    sub->add_flag("--json", o->json, "print the result as JSON on standard output");
    sub->add_flag("--all-keys", o->all_keys, "search the whole range and report every key (default: stop at the first)");
    sub->add_option("--threads", o->threads, "CPU threads (0 = all cores; at most 1024)")
        ->transform(number({0, max_threads}));
    sub->add_option("--kernel", o->kernel, "CPU kernel to use (default: the fastest per key, measured)");
    sub->add_option("--chunk-keys", o->chunk_keys,
                    "candidates per chunk (default: about one second of work; at most 1T)")
        ->transform(number({1, uint64_t(1) << 40}));
    sub->add_flag("!--no-progress", o->progress, "no progress line");
    return [o] { return run_keysearch(*o); };
}

} // namespace cli
