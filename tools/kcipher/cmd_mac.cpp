// `kcipher mac`: CMAC (SP 800-38B; every cipher, 64-bit blocks too) or GMAC (GCM's tag over
// the input as AAD; 128-bit blocks) of a file or standard input, streamed in chunks through
// kcipher_mac_*. Prints the tag as lower-case hex and a newline, or with --verify compares it
// in constant time. Exit status: 0 tag printed or matched, 1 mismatch or a failure to run
// (I/O), 2 bad usage (exit_codes.hpp).
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "commands.hpp"
#include "crypt_input.hpp"
#include "exit_codes.hpp"
#include "hex.hpp"
#include "kcipher/kcipher.hpp"
#include "key_source.hpp"
#include "numbers.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

struct MacOptions {
    KeySource key;
    std::string name, iv_hex, in_path, verify_hex, kernel;
    size_t tag_len = 0; // 0: not given
};

constexpr size_t chunk_bytes = 4 << 20;

// The tag length: --tag-len, else the length of --verify's tag, else the block size.
size_t tag_length(const MacOptions &o, kcipher_mode mode, const kcipher_cipher_info &info,
                  const std::vector<uint8_t> &expected)
{
    if (o.tag_len != 0 && !o.verify_hex.empty() && o.tag_len != expected.size())
        throw UsageError(fmt::format("--tag-len {} but --verify gives a {}-byte tag", o.tag_len,
                                     expected.size()));
    size_t t = o.tag_len != 0 ? o.tag_len : !o.verify_hex.empty() ? expected.size() : info.block_bytes;
    if (mode == KCIPHER_MODE_CMAC && (t < 4 || t > info.block_bytes))
        throw UsageError(fmt::format("{}: CMAC tags of {} are 4 to {} bytes, not {}",
                                     o.verify_hex.empty() || o.tag_len != 0 ? "--tag-len" : "--verify",
                                     info.name, info.block_bytes, t));
    if (mode == KCIPHER_MODE_GMAC && !(t == 4 || t == 8 || (t >= 12 && t <= 16)))
        throw UsageError(fmt::format("{}: GMAC tags are 16, 15, 14, 13, 12, 8 or 4 bytes, not {}",
                                     o.verify_hex.empty() || o.tag_len != 0 ? "--tag-len" : "--verify", t));
    return t;
}

int run_mac(const MacOptions &o)
{
    const CipherArgument arg = parse_cipher_option(o.name, "MAC: add -cmac or -gmac");
    const char *cipher = arg.cipher.c_str();
    const kcipher_mode mode = arg.mode;
    const kcipher_cipher_info &info = arg.info;
    if (mode != KCIPHER_MODE_CMAC && mode != KCIPHER_MODE_GMAC)
        throw UsageError(fmt::format("--cipher '{}': mac computes -cmac or -gmac (to encrypt: kcipher enc)",
                                     o.name));
    std::vector<uint8_t> key = read_key(o.key, info.key_bytes, cipher);
    WipeOnExit wipe_key(key);
    std::vector<uint8_t> iv, expected;
    if (mode == KCIPHER_MODE_CMAC && !o.iv_hex.empty())
        throw UsageError("CMAC takes no IV: drop --iv");
    if (mode == KCIPHER_MODE_GMAC) {
        if (info.block_bytes != 16)
            throw UsageError(fmt::format("--cipher '{}': GMAC needs a 128-bit block, and {} has {}-bit blocks "
                                         "(CMAC takes every cipher: {}-cmac)",
                                         o.name, cipher, 8 * info.block_bytes, cipher));
        if (o.iv_hex.empty())
            throw UsageError(fmt::format("{} needs --iv (12 bytes, 24 hex digits, is usual)", o.name));
        iv = parse_hex_option("iv", o.iv_hex);
    }
    if (!o.verify_hex.empty())
        expected = parse_hex_option("verify", o.verify_hex);
    const size_t tag_len = tag_length(o, mode, info, expected);

    kcipher::Cipher c = make_cipher(cipher, key, o.kernel);
    c.set_threads(1);
    kcipher::Mac m(c, mode, iv.empty() ? nullptr : iv.data(), iv.size(), tag_len);
    Input in(o.in_path);
    std::unique_ptr<uint8_t[]> buf(new uint8_t[chunk_bytes]);
    for (;;) {
        size_t n = in.read(buf.get(), chunk_bytes);
        m.update(buf.get(), n);
        if (n < chunk_bytes)
            break;
    }
    if (!expected.empty()) {
        try {
            m.finish_and_verify(expected);
        } catch (const kcipher::AuthenticationError &) {
            std::fprintf(stderr, "kcipher mac: tag mismatch: the data, key%s or tag differ\n",
                         mode == KCIPHER_MODE_GMAC ? ", IV" : "");
            return 1;
        }
        return 0;
    }
    const std::vector<uint8_t> tag = m.finish();
    std::printf("%s\n", to_hex(tag.data(), tag.size()).c_str());
    return 0;
}

} // namespace

Runner add_mac_command(CLI::App &app)
{
    auto o = std::make_shared<MacOptions>();
    CLI::App *sub = app.add_subcommand("mac", "CMAC or GMAC of a file: print the tag, or --verify one");
    sub->footer("Exit status: 0 the tag was printed or matches, 1 it does not match (--verify) or the input cannot be "
                "read, 2 bad usage.");
    sub->add_option("-c,--cipher", o->name, "cipher and MAC, e.g. aria-128-cmac, hight-cmac, lea-128-gmac")
        ->required();
    add_key_options(sub, o->key, "key");
    sub->add_option("--iv", o->iv_hex, "GMAC: the IV in hex (1 byte or more, 12 is usual); CMAC takes none");
    sub->add_option("-i,--in", o->in_path, "input file (default: standard input); GMAC takes it as the AAD");
    sub->add_option("--tag-len", o->tag_len,
                    "tag bytes (default: the block size, or --verify's length; CMAC 4 to the block size, GMAC 16, "
                    "15, 14, 13, 12, 8 or 4)")
        ->transform(number({1, 16}));
    sub->add_option("--verify", o->verify_hex, "compare with this tag (hex): exit 0 when it matches, 1 when not");
    sub->add_option("--kernel", o->kernel, "force a kernel by name (see `kcipher info`)");
    return [o] {
        try {
            return run_mac(*o);
        } catch (const UsageError &e) {
            std::fprintf(stderr, "kcipher mac: %s\n", e.what());
            return exit_usage;
        } catch (const std::exception &e) {
            std::fprintf(stderr, "kcipher mac: %s\n", e.what());
            return exit_failed;
        }
    };
}

} // namespace cli
