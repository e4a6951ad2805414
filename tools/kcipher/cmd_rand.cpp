// `kcipher rand`: random bytes from the CTR_DRBG of one of our ciphers, like `openssl rand`
// (binary to standard output unless --out or --hex). With --entropy the DRBG is seeded with
// exactly the given input and nothing else, so any known-answer vector can be replayed; the
// N bytes are served as consecutive requests of the standard's maximum size either way.
//
// Exit status (exit_codes.hpp): 0 success, 2 bad usage (nothing written), 1 a failure while
// running (no GPU, a full disk).
#include <cerrno>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "atomic_output.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "hex.hpp"
#include "kcipher/kcipher.h"
#include "numbers.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

struct RandOptions {
    uint64_t bytes = 0;
    std::string cipher, out_path, device = "cpu", entropy, nonce, personalization;
    bool hex = false, no_df = false;
    unsigned threads = 0;
};

// A chunk is whole requests of either block size, so serving N bytes chunk by chunk gives
// the same requests as serving them in one call.
constexpr size_t chunk_bytes = size_t(16) << 20;
constexpr uint64_t max_bytes = uint64_t(1) << 40;

std::vector<uint8_t> hex_option(const char *what, const std::string &s)
{
    auto v = parse_hex(s);
    if (!v)
        throw UsageError(fmt::format("--{} is not valid hex (an even number of 0-9a-f digits)", what));
    return *v;
}

void check_usage(kcipher_status st, const std::string &what)
{
    if (st != KCIPHER_OK)
        throw UsageError(what + ": " + kcipher_strerror(st));
}

// The kernel for --device: NULL lets dispatch pick the CPU kernel; for the GPU, the GPU path
// of kcipher_drbg_generate_large (src/drbg/drbg_gpu.hpp) takes the output blocks.
const char *device_kernel(const RandOptions &o, const char *cipher)
{
    if (o.device == "cpu")
        return nullptr;
    const char *k = nullptr;
    kcipher_status st = kcipher_default_gpu_kernel(cipher, &k);
    if (st != KCIPHER_OK)
        throw std::runtime_error(std::string("--device gpu: ") + kcipher_strerror(st));
    return k;
}

using DrbgPtr = std::unique_ptr<kcipher_drbg, decltype(&kcipher_drbg_free)>;

DrbgPtr make_drbg(const RandOptions &o)
{
    char cipher[32];
    kcipher_mode mode;
    check_usage(kcipher_parse_name(o.cipher.c_str(), cipher, sizeof cipher, &mode), "--cipher '" + o.cipher + "'");
    if (mode != KCIPHER_MODE_NONE)
        throw UsageError(fmt::format("--cipher '{}': give a bare cipher name (e.g. lea-128), no mode", o.cipher));
    if (!o.nonce.empty() && o.entropy.empty())
        throw UsageError("--nonce needs --entropy");
    if (!o.nonce.empty() && o.no_df)
        throw UsageError("--nonce is not used without the derivation function (drop it, or drop --no-df)");
    std::vector<uint8_t> e = hex_option("entropy", o.entropy), n = hex_option("nonce", o.nonce),
                         p = hex_option("personalization", o.personalization);
    if (!o.entropy.empty() && e.empty())
        throw UsageError("--entropy is empty");

    const char *kernel = device_kernel(o, cipher);
    kcipher_drbg *raw = nullptr;
    kcipher_status st = kcipher_drbg_new(&raw, cipher, o.no_df ? KCIPHER_DRBG_NO_DF : 0, kernel);
    if (st != KCIPHER_OK)
        throw std::runtime_error(fmt::format("{}: {}", cipher, kcipher_strerror(st)));
    DrbgPtr d(raw, &kcipher_drbg_free);
    check_usage(kcipher_drbg_set_threads(d.get(), o.threads), "--threads");
    if (!e.empty()) // exactly the caller's input: no OS entropy may enter later either
        check_usage(kcipher_drbg_set_entropy_source(d.get(), nullptr, nullptr), "--entropy");
    st = kcipher_drbg_instantiate(d.get(), e.empty() ? nullptr : e.data(), e.size(), n.empty() ? nullptr : n.data(),
                                  n.size(), p.empty() ? nullptr : p.data(), p.size());
    if (st == KCIPHER_ERR_DRBG_ENTROPY_SOURCE)
        throw std::runtime_error(kcipher_strerror(st));
    check_usage(st, "instantiate");
    return d;
}

void write_chunk(AtomicOutput &out, const std::vector<uint8_t> &buf, size_t n, bool hex)
{
    if (!hex) {
        out.write(buf.data(), n);
        return;
    }
    std::string h = to_hex(buf.data(), n);
    out.write(h.data(), h.size());
}

int run_rand(const RandOptions &o)
{
    const uint64_t total = o.bytes;
    DrbgPtr d = make_drbg(o);
    AtomicOutput out(o.out_path);
    std::vector<uint8_t> buf(total < chunk_bytes ? size_t(total) : chunk_bytes);
    for (uint64_t done = 0; done < total;) {
        size_t n = total - done < buf.size() ? size_t(total - done) : buf.size();
        kcipher_status st = kcipher_drbg_generate_large(d.get(), buf.data(), n, 0);
        if (st != KCIPHER_OK)
            throw std::runtime_error(fmt::format("generate: {}", kcipher_strerror(st)));
        write_chunk(out, buf, n, o.hex);
        done += n;
    }
    if (o.hex)
        out.write("\n", 1);
    out.commit();
    return 0;
}

} // namespace

Runner add_rand_command(CLI::App &app)
{
    auto o = std::make_shared<RandOptions>();
    CLI::App *sub = app.add_subcommand("rand", "random bytes from a CTR_DRBG (SP 800-90A) over one of our ciphers");
    sub->add_option("-c,--cipher", o->cipher, "cipher, e.g. aria-256, lea-128, hight")->required();
    sub->add_option("-n,--bytes", o->bytes,
                    "how many bytes (k, M, G, T or KiB, MiB, GiB, TiB: powers of 1024; at most 1 TiB)")
        ->required()
        ->transform(number({1, max_bytes}));
    sub->add_option("-o,--out", o->out_path, "output file, replaced atomically (default: standard output)");
    sub->add_option("--device", o->device, "cpu (default) or gpu")->check(CLI::IsMember({"cpu", "gpu"}));
    sub->add_flag("--hex", o->hex, "write lower-case hex and a newline instead of binary");
    sub->add_option("--threads", o->threads, "CPU threads (0 = all cores; at most 1024)")
        ->transform(number({0, max_threads}));
    sub->add_option("--entropy", o->entropy, "testing: instantiate with exactly this entropy input (hex), no OS entropy");
    sub->add_option("--nonce", o->nonce, "testing: the nonce (hex; with --entropy, df only)");
    sub->add_option("--personalization", o->personalization, "personalization string (hex)");
    sub->add_flag("--no-df", o->no_df, "no derivation function (--entropy must then be key + block bytes)");
    return [o] {
        try {
            return run_rand(*o);
        } catch (const UsageError &e) {
            std::fprintf(stderr, "kcipher rand: %s\n", e.what());
            return exit_usage;
        }
    };
}

} // namespace cli
