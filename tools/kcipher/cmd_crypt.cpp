// `kcipher enc` and `kcipher dec`: stream a file (or standard input) through a cipher mode
// in fixed-size chunks, so memory stays bounded whatever the size. The bytes are those of
// `openssl enc -<cipher>-<mode> -K .. -iv .. [-nopad]`; GCM and CCM (crypt_aead.cpp) write
// ciphertext || tag.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "atomic_output.hpp"
#include "commands.hpp"
#include "crypt_aead.hpp"
#include "crypt_input.hpp"
#include "crypt_options.hpp"
#include "kcipher/kcipher.hpp"
#include "progress.hpp"

namespace cli {
namespace {

constexpr size_t chunk_bytes = 4 << 20; // a multiple of every block size

int run_crypt(const CryptOptions &o, bool encrypt)
{
    const CipherArgument arg = parse_cipher_option(o.name, "mode: add -ecb, -cbc, -ctr, -gcm or -ccm");
    const char *cipher = arg.cipher.c_str();
    const kcipher_mode mode = arg.mode;
    const kcipher_cipher_info &info = arg.info;
    if (mode == KCIPHER_MODE_CMAC || mode == KCIPHER_MODE_GMAC)
        throw std::runtime_error(fmt::format("--cipher '{}' is a MAC, which has no ciphertext: use `kcipher mac -c {}`",
                                             o.name, o.name));
    const bool aead = mode == KCIPHER_MODE_GCM || mode == KCIPHER_MODE_CCM;
    if (!aead && (!o.aad_hex.empty() || !o.aad_path.empty() || o.tag_len != 0))
        throw std::runtime_error(fmt::format("--aad, --aad-file and --tag-len are for -gcm and -ccm, not {}", o.name));
    std::vector<uint8_t> key = parse_hex_option("key", o.key_hex, info.key_bytes, cipher);
    std::vector<uint8_t> iv;
    if (mode == KCIPHER_MODE_ECB && !o.iv_hex.empty())
        throw std::runtime_error("ECB takes no IV: drop --iv");
    if (aead) {
        iv = aead_iv(o, mode, info);
    } else if (mode != KCIPHER_MODE_ECB) {
        if (o.iv_hex.empty())
            throw std::runtime_error(fmt::format("{} needs --iv ({} hex digits)", o.name, 2 * info.block_bytes));
        iv = parse_hex_option("iv", o.iv_hex, info.block_bytes, cipher);
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
    if (aead)
        return run_aead(o, c, mode, iv, encrypt);
    Input in(o.in_path);
    if (mode != KCIPHER_MODE_CTR && in.size() % info.block_bytes != 0)
        throw std::runtime_error(fmt::format("input {} is {} bytes, not a multiple of the {}-byte block "
                                             "(ECB and CBC take no padding)",
                                             in.name(), in.size(), info.block_bytes));
    AtomicOutput out(o.out_path);
    Progress bar(encrypt ? "encrypting" : "decrypting", in.size(), o.progress && stderr_is_terminal());

    std::unique_ptr<uint8_t[]> buf(new uint8_t[chunk_bytes]);
    uint64_t done = 0;
    for (;;) {
        size_t n = in.read(buf.get(), chunk_bytes);
        if (n == 0)
            break;
        if (mode != KCIPHER_MODE_CTR && n % info.block_bytes != 0)
            throw std::runtime_error(fmt::format("input {} ends with a partial block ({} bytes in all): ECB and "
                                                 "CBC take no padding",
                                                 in.name(), done + n));
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
    sub->add_option("-c,--cipher", o.name, "cipher and mode, e.g. aria-256-ctr, lea-128-cbc, hight-ecb, aria-128-gcm")
        ->required();
    sub->add_option("-k,--key", o.key_hex, "key in hex")->required();
    sub->add_option("--iv", o.iv_hex,
                    "IV / initial counter block in hex (CBC, CTR: one block; GCM: 1 byte or more, 12 is usual; "
                    "CCM: the nonce, 7 to 13 bytes)");
    CLI::Option *aad = sub->add_option("--aad", o.aad_hex, "GCM/CCM: additional authenticated data in hex");
    sub->add_option("--aad-file", o.aad_path, "GCM/CCM: additional authenticated data from a file")->excludes(aad);
    sub->add_option("--tag-len", o.tag_len,
                    "GCM/CCM: tag bytes (default 16; GCM 16, 15, 14, 13, 12, 8 or 4; CCM 4, 6, ..., 16)");
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
    add_options(app.add_subcommand("enc", "encrypt (ECB and CBC without padding, CTR any length; GCM and CCM "
                                          "write ciphertext || tag)"),
                *enc_opts);
    add_options(app.add_subcommand("dec", "decrypt (GCM and CCM: nothing is written unless the tag verifies)"),
                *dec_opts);
    *dec_runner = [dec_opts] { return run_crypt(*dec_opts, false); };
    return [enc_opts] { return run_crypt(*enc_opts, true); };
}

} // namespace cli
