// `kcipher enc` and `kcipher dec`: stream a file (or standard input) through a cipher mode
// in fixed-size chunks (crypt_stream.cpp), so memory stays bounded whatever the size. The
// bytes are those of `openssl enc -<cipher>-<mode> -K .. -iv .. [-nopad]`, or with --pass
// those of `openssl enc -<cipher>-<mode> -pbkdf2 -pass ..` (password.hpp); XTS streams whole
// data units (crypt_xts.cpp); GCM and CCM (crypt_aead.cpp) write ciphertext || tag.
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "atomic_output.hpp"
#include "commands.hpp"
#include "crypt_aead.hpp"
#include "crypt_input.hpp"
#include "crypt_options.hpp"
#include "crypt_stream.hpp"
#include "crypt_xts.hpp"
#include "gpu_start.hpp"
#include "kcipher/kcipher.hpp"
#include "key_source.hpp"
#include "numbers.hpp"
#include "password.hpp"
#include "progress.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

bool is_aead(kcipher_mode m) { return m == KCIPHER_MODE_GCM || m == KCIPHER_MODE_CCM; }

// The options that only some modes take.
void check_mode_options(const CryptOptions &o, kcipher_mode mode)
{
    if (mode == KCIPHER_MODE_CMAC || mode == KCIPHER_MODE_GMAC)
        throw UsageError(fmt::format("--cipher '{}' is a MAC, which has no ciphertext: use `kcipher mac -c {}`",
                                     o.name, o.name));
    if (o.data_unit != 0 && mode != KCIPHER_MODE_XTS)
        throw UsageError(fmt::format("--data-unit is for -xts, not {}", o.name));
    if (!is_aead(mode) && (!o.aad_hex.empty() || !o.aad_path.empty() || o.tag_len != 0))
        throw UsageError(fmt::format("--aad, --aad-file and --tag-len are for -gcm and -ccm, not {}", o.name));
    if (o.nopad && mode != KCIPHER_MODE_ECB && mode != KCIPHER_MODE_CBC)
        throw UsageError(fmt::format("--nopad is for ECB and CBC; {} has no padding", o.name));
    if (mode == KCIPHER_MODE_ECB && !o.iv_hex.empty())
        throw UsageError("ECB takes no IV: drop --iv");
}

// --pass and its company, or --key: one or the other, each whole.
void check_key_options(const CryptOptions &o, kcipher_mode mode)
{
    const bool kdf = o.pbkdf2 || o.iter != 0 || !o.md.empty();
    if (o.pass.empty()) {
        if (kdf)
            throw UsageError("--pbkdf2, --iter and --md go with --pass");
        if (!o.key.given())
            throw UsageError("--key, --key-file or --key-env is required (or --pass with --pbkdf2)");
        return;
    }
    if (o.key.given() || !o.iv_hex.empty())
        throw UsageError("--pass derives the key and IV: drop --key and --iv (--key-file, --key-env too)");
    if (is_aead(mode) || (mode != KCIPHER_MODE_ECB && mode != KCIPHER_MODE_CBC && mode != KCIPHER_MODE_CTR &&
                          mode != KCIPHER_MODE_CFB && mode != KCIPHER_MODE_CFB8 && mode != KCIPHER_MODE_OFB))
        throw UsageError(fmt::format("--pass is for the modes `openssl enc` has (ECB, CBC, CTR, CFB, CFB8, "
                                     "OFB), not {}: give --key and --iv",
                                     o.name));
    // As openssl's -iter, --iter alone asks for PBKDF2.
    if (!o.pbkdf2 && o.iter == 0)
        throw UsageError("--pass needs --pbkdf2: kcipher does not offer openssl's legacy key derivation "
                         "(EVP_BytesToKey, what openssl enc uses without -pbkdf2)");
}

std::vector<uint8_t> iv_from_hex(const CryptOptions &o, const CipherArgument &arg)
{
    if (arg.mode == KCIPHER_MODE_ECB)
        return {};
    if (o.iv_hex.empty())
        throw UsageError(fmt::format("{} needs --iv ({} hex digits)", o.name, 2 * arg.info.block_bytes));
    return parse_hex_option("iv", o.iv_hex, arg.info.block_bytes, arg.cipher);
}

// dec --pass: the salt from the "Salted__" header that openssl enc (and kcipher enc) write.
std::vector<uint8_t> read_salt(Input &in)
{
    uint8_t head[8 + salt_bytes];
    if (in.read(head, sizeof head) != sizeof head || std::memcmp(head, salted_magic, 8) != 0)
        throw std::runtime_error(fmt::format("input {} does not start with the \"Salted__\" header: it was not "
                                             "encrypted with a password (--pass, or openssl enc -pass without -nosalt)",
                                             in.name()));
    return std::vector<uint8_t>(head + 8, head + sizeof head);
}

// Key and IV from the password; enc draws the salt and returns the header to write first.
std::vector<uint8_t> derive_from_password(const CryptOptions &o, const CipherArgument &arg, bool encrypt, Input &in,
                                          std::vector<uint8_t> &key, std::vector<uint8_t> &iv)
{
    const std::string password = read_password(o.pass);
    std::vector<uint8_t> salt = encrypt ? random_salt() : read_salt(in);
    const size_t iv_bytes = arg.mode == KCIPHER_MODE_ECB ? 0 : arg.info.block_bytes;
    DerivedKey d = derive_key(password, salt.data(), o.iter != 0 ? o.iter : default_pbkdf2_iter,
                              o.md.empty() ? "sha256" : o.md, arg.info.key_bytes, iv_bytes);
    key = std::move(d.key);
    iv = std::move(d.iv);
    if (!encrypt)
        return {};
    std::vector<uint8_t> header(salted_magic, salted_magic + 8);
    header.insert(header.end(), salt.begin(), salt.end());
    return header;
}

// By default two cores stay free for the stream's reader and writer threads
// (chunk_pipeline.hpp), which otherwise wait for cipher threads to give a core back.
unsigned cipher_threads(const CryptOptions &o)
{
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return o.threads != 0 ? o.threads : std::max(1u, cores > 2 ? cores - 2 : 1u);
}

kcipher::Cipher keyed_cipher(const CryptOptions &o, const CipherArgument &arg, const std::vector<uint8_t> &key)
{
    std::string kernel = o.kernel;
    if ((o.gpu || o.gpu_device >= 0) && kernel.empty()) {
        const char *g = nullptr;
        kcipher_status st = kcipher_default_gpu_kernel(arg.cipher.c_str(), &g);
        if (st != KCIPHER_OK)
            throw std::runtime_error(std::string("--gpu: ") + kcipher_strerror(st));
        kernel = g;
    }
    // An XTS context is made under the mode's name, with the double key.
    const std::string name = arg.mode == KCIPHER_MODE_XTS ? arg.cipher + "-xts" : arg.cipher;
    kcipher::Cipher c = make_cipher(name.c_str(), key, kernel);
    c.set_threads(cipher_threads(o));
    if (o.gpu_device >= 0) {
        try {
            c.set_gpu(o.gpu_device);
        } catch (const kcipher::Error &e) {
            throw std::runtime_error(fmt::format("--gpu-device {}: {}", o.gpu_device, e.what()));
        }
    }
    return c;
}

bool names_gpu_kernel(const std::string &kernel) { return kernel.find("/cuda") != std::string::npos; } // "<family>/cuda..."

// The options of the CPU kernel that stands in for --gpu: the same, without the GPU (and
// without --kernel when it names a GPU kernel).
CryptOptions cpu_options(const CryptOptions &o)
{
    CryptOptions c = o;
    c.gpu = false;
    c.gpu_device = -1;
    if (names_gpu_kernel(c.kernel))
        c.kernel.clear();
    return c;
}

int run_crypt(const CryptOptions &o, bool encrypt)
{
    const CipherArgument arg =
        parse_cipher_option(o.name, "mode: add -ecb, -cbc, -ctr, -cfb, -cfb8, -ofb, -xts, -gcm or -ccm");
    const kcipher_mode mode = arg.mode;
    check_mode_options(o, mode);
    check_key_options(o, mode);
    const bool password = !o.pass.empty();
    std::vector<uint8_t> key, iv;
    WipeOnExit wipe_key(key);
    const bool xts = mode == KCIPHER_MODE_XTS;
    if (xts && arg.info.block_bytes != 16)
        throw UsageError(fmt::format("--cipher '{}': XTS is defined for 128-bit blocks only", o.name));
    if (!password) {
        // XTS: the data key, then the tweak key.
        key = read_key(o.key, (xts ? 2 : 1) * arg.info.key_bytes, xts ? o.name : arg.cipher);
        iv = is_aead(mode) ? aead_iv(o, mode, arg.info) : iv_from_hex(o, arg);
    }
    if (is_aead(mode))
        return run_aead(o, keyed_cipher(o, arg, key), mode, iv, encrypt);

    Input in(o.in_path);
    std::vector<uint8_t> header;
    if (password)
        header = derive_from_password(o, arg, encrypt, in, key, iv);
    // --gpu for the streaming modes: a CPU kernel stands in while the GPU starts (gpu_start.hpp).
    const bool gpu = (o.gpu || o.gpu_device >= 0) && !xts;
    std::optional<GpuStart> gpu_start;
    if (gpu)
        gpu_start.emplace([&] { return keyed_cipher(o, arg, key); });
    kcipher::Cipher c = keyed_cipher(gpu ? cpu_options(o) : o, arg, key);
    // The bytes after a header already read (a sized input is at least that long: read_salt).
    const uint64_t body = in.size() - (in.sized() && password && !encrypt ? sizeof salted_magic - 1 + salt_bytes : 0);
    if (o.nopad && in.sized() && body % arg.info.block_bytes != 0)
        throw std::runtime_error(fmt::format("input {} is {} bytes, not a multiple of the {}-byte block "
                                             "(--nopad takes whole blocks only)",
                                             in.name(), body, arg.info.block_bytes));
    AtomicOutput out(o.out_path);
    out.write(header.data(), header.size());
    Progress bar(encrypt ? "encrypting" : "decrypting", body, o.progress && stderr_is_terminal());
    if (xts) {
        run_xts(c, encrypt, iv, o.data_unit, in, out, bar);
    } else {
        const bool gpu_kernel = gpu || names_gpu_kernel(c.kernel());
        StreamJob job{c, mode, encrypt, !o.nopad, iv, stream_chunk_bytes(cipher_threads(o), gpu_kernel),
                      gpu_start ? &*gpu_start : nullptr};
        run_stream(job, in, out, bar);
    }
    out.commit();
    bar.finish();
    return 0;
}

void add_options(CLI::App *sub, CryptOptions &o)
{
    sub->add_option("-c,--cipher", o.name,
                    "cipher and mode, e.g. aria-256-ctr, lea-128-cbc, hight-ecb, aria-128-cfb, seed-128-ofb, lea-128-xts, "
                    "aria-128-gcm")
        ->required();
    add_key_options(sub, o.key, "key");
    sub->add_option("--iv", o.iv_hex,
                    "IV / initial counter block in hex (CBC, CTR, CFB, CFB8, OFB: one block; XTS: the 16-byte tweak; GCM: 1 byte or more, 12 is usual; "
                    "CCM: the nonce, 7 to 13 bytes)");
    CLI::Option *aad = sub->add_option("--aad", o.aad_hex, "GCM/CCM: additional authenticated data in hex");
    sub->add_option("--aad-file", o.aad_path, "GCM/CCM: additional authenticated data from a file")->excludes(aad);
    sub->add_option("--tag-len", o.tag_len,
                    "GCM/CCM: tag bytes (default 16; GCM 16, 15, 14, 13, 12, 8 or 4; CCM 4, 6, ..., 16)")
        ->transform(number({4, 16}));
    sub->add_option("--data-unit", o.data_unit,
                    "XTS: bytes per data unit, unit i under tweak --iv + i (dm-crypt's plain64); default: the whole "
                    "input is one unit (read into memory); at most 1 TiB")
        ->transform(number({16, uint64_t(1) << 40}));
    sub->add_flag("--nopad", o.nopad, "ECB/CBC: no PKCS#7 padding, whole blocks only (default: pad as openssl enc)");
    sub->add_option("--pass", o.pass,
                    "password source instead of --key/--iv, as openssl's -pass: pass:TEXT, env:VAR or file:PATH "
                    "(its first line); needs --pbkdf2");
    sub->add_flag("--pbkdf2", o.pbkdf2, "derive key and IV from --pass with PBKDF2 over a salt (openssl enc -pbkdf2)");
    sub->add_option("--iter", o.iter, "--pbkdf2 iterations (default 10000, as openssl; at most 2147483647)")
        ->transform(number({1, 2147483647}));
    sub->add_option("--md", o.md, "--pbkdf2 digest (default sha256; sha1, sha512, ... as OpenSSL names them)");
    sub->add_option("-i,--in", o.in_path, "input file (default: standard input)");
    sub->add_option("-o,--out", o.out_path, "output file (default: standard output)");
    sub->add_option("--kernel", o.kernel, "force a kernel by name (see `kcipher info`)");
    sub->add_option("--threads", o.threads,
                    "threads for large inputs (0 = all cores but the two that read and write; at most 1024)")
        ->transform(number({0, max_threads}));
    sub->add_flag("--gpu", o.gpu, "run ECB/CTR on the GPU (the fastest GPU kernel unless --kernel names one)");
    sub->add_option("--gpu-device", o.gpu_device, "use this GPU only (implies --gpu; default: every GPU)")
        ->transform(number({0, max_gpu_device}));
    sub->add_flag("!--no-progress", o.progress, "no progress bar");
}

} // namespace

Runner add_crypt_commands(CLI::App &app, Runner *dec_runner)
{
    auto enc_opts = std::make_shared<CryptOptions>();
    auto dec_opts = std::make_shared<CryptOptions>();
    add_options(app.add_subcommand("enc", "encrypt (ECB and CBC padded with PKCS#7 unless --nopad, CTR any length; "
                                          "GCM and CCM write ciphertext || tag)"),
                *enc_opts);
    add_options(app.add_subcommand("dec", "decrypt (ECB and CBC: the padding is checked and stripped unless --nopad; "
                                          "GCM and CCM: nothing is written unless the tag verifies)"),
                *dec_opts);
    *dec_runner = [dec_opts] { return run_crypt(*dec_opts, false); };
    return [enc_opts] { return run_crypt(*enc_opts, true); };
}

} // namespace cli
