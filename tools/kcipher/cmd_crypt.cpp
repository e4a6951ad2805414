// `kcipher enc` and `kcipher dec`: stream a file (or standard input) through a cipher mode
// in fixed-size chunks, so memory stays bounded whatever the size. The bytes are those of
// `openssl enc -<cipher>-<mode> -K .. -iv .. [-nopad]`.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
#include <sys/stat.h>

#include <fmt/core.h>

#include "atomic_output.hpp"
#include "commands.hpp"
#include "hex.hpp"
#include "kcipher/kcipher.hpp"
#include "progress.hpp"

namespace cli {
namespace {

struct CryptOptions {
    std::string name, key_hex, iv_hex, in_path, out_path, kernel;
    unsigned threads = 0;
    bool progress = true;
    bool gpu = false;   // --gpu: the fastest GPU kernel unless --kernel names one
    int gpu_device = -1; // --gpu-device: one GPU (default: all)
};

constexpr size_t chunk_bytes = 4 << 20; // a multiple of every block size

struct Input {
    FILE *f = stdin;
    std::string name = "standard input";
    uint64_t size = 0; // 0 when unknown (a pipe)

    explicit Input(const std::string &path)
    {
        if (path.empty() || path == "-")
            return;
        name = "'" + path + "'";
        f = std::fopen(path.c_str(), "rb");
        if (f == nullptr)
            throw std::runtime_error("cannot open input " + name + ": " + std::strerror(errno));
        struct stat st;
        if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
            std::fclose(f);
            throw std::runtime_error("input " + name + " is a directory");
        }
        if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
            size = (uint64_t)st.st_size;
    }
    ~Input()
    {
        if (f != stdin)
            std::fclose(f);
    }
    // Fills buf as far as possible; fewer bytes only at end of input.
    size_t read(uint8_t *buf, size_t n)
    {
        size_t got = 0;
        while (got < n) {
            size_t r = std::fread(buf + got, 1, n - got, f);
            got += r;
            if (r == 0)
                break;
        }
        if (std::ferror(f))
            throw std::runtime_error("cannot read " + name + ": " + std::strerror(errno));
        return got;
    }
};

std::vector<uint8_t> parse_sized_hex(const std::string &what, const std::string &hex, size_t want,
                                     const std::string &cipher)
{
    auto v = parse_hex(hex);
    if (!v)
        throw std::runtime_error(fmt::format("--{} is not valid hex (an even number of 0-9a-f digits)", what));
    if (v->size() != want)
        throw std::runtime_error(fmt::format("--{} must be {} bytes ({} hex digits) for {}, got {} bytes", what,
                                             want, 2 * want, cipher, v->size()));
    return *v;
}

// Names the kernel in a kernel error, and where the name came from.
kcipher::Cipher make_cipher(const char *cipher, const std::vector<uint8_t> &key, const std::string &kernel)
{
    try {
        return kcipher::Cipher(cipher, key.data(), key.size(), kernel.empty() ? nullptr : kernel.c_str());
    } catch (const kcipher::Error &e) {
        kcipher_status st = e.status();
        if (st != KCIPHER_ERR_UNKNOWN_KERNEL && st != KCIPHER_ERR_KERNEL_UNAVAILABLE &&
            st != KCIPHER_ERR_KERNEL_MISMATCH)
            throw;
        const char *env = std::getenv("KCIPHER_KERNEL");
        std::string from = !kernel.empty() ? "--kernel " + kernel
                                           : std::string("KCIPHER_KERNEL=") + (env ? env : "");
        throw std::runtime_error(fmt::format("{} for {}: {}", from, cipher, e.what()));
    }
}

int run_crypt(const CryptOptions &o, bool encrypt)
{
    kcipher_cipher_info info;
    char cipher[32];
    kcipher_mode mode;
    kcipher_status st = kcipher_parse_name(o.name.c_str(), cipher, sizeof cipher, &mode);
    if (st != KCIPHER_OK)
        throw std::runtime_error(fmt::format("--cipher '{}': {}", o.name, kcipher_strerror(st)));
    if (mode == KCIPHER_MODE_NONE)
        throw std::runtime_error(fmt::format("--cipher '{}' names no mode: add -ecb, -cbc or -ctr", o.name));
    if (mode != KCIPHER_MODE_ECB && mode != KCIPHER_MODE_CBC && mode != KCIPHER_MODE_CTR)
        throw std::runtime_error(fmt::format("--cipher '{}': enc and dec run -ecb, -cbc and -ctr (the authenticated "
                                             "modes are in the C, C++ and Python APIs)", o.name));
    kcipher_cipher_find(cipher, &info);
    std::vector<uint8_t> key = parse_sized_hex("key", o.key_hex, info.key_bytes, cipher);
    std::vector<uint8_t> iv;
    if (mode == KCIPHER_MODE_ECB && !o.iv_hex.empty())
        throw std::runtime_error("ECB takes no IV: drop --iv");
    if (mode != KCIPHER_MODE_ECB) {
        if (o.iv_hex.empty())
            throw std::runtime_error(fmt::format("{} needs --iv ({} hex digits)", o.name, 2 * info.block_bytes));
        iv = parse_sized_hex("iv", o.iv_hex, info.block_bytes, cipher);
    }

    std::string kernel = o.kernel;
    if ((o.gpu || o.gpu_device >= 0) && kernel.empty()) {
        const char *g = nullptr;
        kcipher_status st = kcipher_default_gpu_kernel(cipher, &g);
        if (st != KCIPHER_OK)
            throw std::runtime_error(std::string("--gpu: ") + kcipher_strerror(st));
        kernel = g;
    }
    kcipher::Cipher c = make_cipher(cipher, key, kernel);
    c.set_threads(o.threads);
    if (o.gpu_device >= 0) {
        try {
            c.set_gpu(o.gpu_device);
        } catch (const kcipher::Error &e) {
            throw std::runtime_error(fmt::format("--gpu-device {}: {}", o.gpu_device, e.what()));
        }
    }
    Input in(o.in_path);
    if (mode != KCIPHER_MODE_CTR && in.size % info.block_bytes != 0)
        throw std::runtime_error(fmt::format("input {} is {} bytes, not a multiple of the {}-byte block "
                                             "(ECB and CBC take no padding)",
                                             in.name, in.size, info.block_bytes));
    AtomicOutput out(o.out_path);
    Progress bar(encrypt ? "encrypting" : "decrypting", in.size, o.progress && stderr_is_terminal());

    std::unique_ptr<uint8_t[]> buf(new uint8_t[chunk_bytes]);
    uint64_t done = 0;
    for (;;) {
        size_t n = in.read(buf.get(), chunk_bytes);
        if (n == 0)
            break;
        if (mode != KCIPHER_MODE_CTR && n % info.block_bytes != 0)
            throw std::runtime_error(fmt::format("input {} ends with a partial block ({} bytes in all): ECB and "
                                                 "CBC take no padding",
                                                 in.name, done + n));
        switch (mode) {
        case KCIPHER_MODE_ECB:
            encrypt ? c.ecb_encrypt(buf.get(), buf.get(), n) : c.ecb_decrypt(buf.get(), buf.get(), n);
            break;
        case KCIPHER_MODE_CBC:
            encrypt ? c.cbc_encrypt(iv.data(), buf.get(), buf.get(), n) : c.cbc_decrypt(iv.data(), buf.get(), buf.get(), n);
            break;
        default:
            c.ctr_xor(iv.data(), done / info.block_bytes, buf.get(), buf.get(), n);
            break;
        }
        out.write(buf.get(), n);
        done += n;
        bar.update(done);
        if (n < chunk_bytes)
            break;
    }
    out.commit();
    bar.finish();
    return 0;
}

void add_options(CLI::App *sub, CryptOptions &o)
{
    sub->add_option("-c,--cipher", o.name, "cipher and mode, e.g. aria-256-ctr, lea-128-cbc, hight-ecb")
        ->required();
    sub->add_option("-k,--key", o.key_hex, "key in hex")->required();
    sub->add_option("--iv", o.iv_hex, "IV / initial counter block in hex (CBC, CTR)");
    sub->add_option("-i,--in", o.in_path, "input file (default: standard input)");
    sub->add_option("-o,--out", o.out_path, "output file (default: standard output)");
    sub->add_option("--kernel", o.kernel, "force a kernel by name (see `kcipher info`)");
    sub->add_option("--threads", o.threads, "threads for large inputs (0 = all cores)");
    sub->add_flag("--gpu", o.gpu, "run ECB/CTR on the GPU (the fastest GPU kernel unless --kernel names one)");
    sub->add_option("--gpu-device", o.gpu_device, "use this GPU only (implies --gpu; default: every GPU)");
    sub->add_flag("!--no-progress", o.progress, "no progress bar");
}

} // namespace

Runner add_crypt_commands(CLI::App &app, Runner *dec_runner)
{
    auto enc_opts = std::make_shared<CryptOptions>();
    auto dec_opts = std::make_shared<CryptOptions>();
    add_options(app.add_subcommand("enc", "encrypt (ECB and CBC without padding, CTR any length)"), *enc_opts);
    add_options(app.add_subcommand("dec", "decrypt"), *dec_opts);
    *dec_runner = [dec_opts] { return run_crypt(*dec_opts, false); };
    return [enc_opts] { return run_crypt(*enc_opts, true); };
}

} // namespace cli
