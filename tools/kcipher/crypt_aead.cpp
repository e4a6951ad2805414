#include "crypt_aead.hpp"

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "atomic_output.hpp"
#include "crypt_input.hpp"
#include "progress.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

constexpr size_t chunk_bytes = 4 << 20;
constexpr uint64_t gcm_max_text = (uint64_t(1) << 36) - 32; // SP 800-38D 5.2.1.1

size_t tag_length(const CryptOptions &o) { return o.tag_len != 0 ? o.tag_len : 16; }

// The AAD: --aad's bytes, or --aad-file streamed in chunks (its size known first for CCM).
struct Aad {
    std::vector<uint8_t> bytes;
    std::unique_ptr<Input> file;

    Aad(const CryptOptions &o, kcipher_mode mode)
    {
        if (!o.aad_hex.empty())
            bytes = parse_hex_option("aad", o.aad_hex);
        if (o.aad_path.empty())
            return;
        if ((o.aad_path == "-") && (o.in_path.empty() || o.in_path == "-"))
            throw UsageError("--aad-file - and the input cannot both be standard input: give --in FILE");
        file = std::make_unique<Input>(o.aad_path);
        if (mode == KCIPHER_MODE_CCM)
            file->spool();
    }
    uint64_t size() const { return file ? file->size() : bytes.size(); }
    void feed(kcipher::Aead &a, uint8_t *buf, size_t cap)
    {
        if (!file) {
            a.aad(bytes);
            return;
        }
        for (;;) {
            size_t n = file->read(buf, cap);
            a.aad(buf, n);
            if (n < cap)
                break;
        }
    }
};

// Ciphertext || tag: the text in place, chunk by chunk, then the tag.
void seal_stream(kcipher::Aead &a, Input &in, AtomicOutput &out, uint8_t *buf, Progress &bar)
{
    uint64_t done = 0;
    for (;;) {
        size_t n = in.read(buf, chunk_bytes);
        a.update(buf, buf, n);
        out.write(buf, n);
        done += n;
        bar.update(done);
        if (n < chunk_bytes)
            break;
    }
    const std::vector<uint8_t> tag = a.finish();
    out.write(tag.data(), tag.size());
}

// The last tag_len bytes of the input are the tag: each chunk's last tag_len bytes are held
// back until the next chunk (or the end) shows whether they are text or tag. buf holds
// chunk_bytes + tag_len bytes.
void open_stream(kcipher::Aead &a, Input &in, AtomicOutput &out, uint8_t *buf, size_t tag_len, Progress &bar)
{
    size_t held = 0;
    uint64_t done = 0;
    for (;;) {
        size_t n = in.read(buf + held, chunk_bytes);
        size_t avail = held + n;
        if (avail > tag_len) {
            size_t text = avail - tag_len;
            a.update(buf, buf, text);
            out.write(buf, text);
            std::memmove(buf, buf + text, tag_len);
            avail = tag_len;
        }
        held = avail;
        done += n;
        bar.update(done);
        if (n < chunk_bytes)
            break;
    }
    if (held < tag_len)
        throw std::runtime_error(fmt::format("input {} is {} bytes, shorter than the {}-byte tag", in.name(), done,
                                             tag_len));
    try {
        a.finish_and_verify(buf, tag_len);
    } catch (const kcipher::AuthenticationError &) {
        throw std::runtime_error("authentication failed: the tag does not match (wrong key, IV, AAD or --tag-len, "
                                 "or the data was altered); no plaintext was written");
    }
}

} // namespace

std::vector<uint8_t> aead_iv(const CryptOptions &o, kcipher_mode mode, const kcipher_cipher_info &info)
{
    const bool gcm = mode == KCIPHER_MODE_GCM;
    const char *mode_name = gcm ? "GCM" : "CCM";
    if (info.block_bytes != 16)
        throw UsageError(fmt::format("--cipher '{}': {} needs a 128-bit block, and {} has {}-bit blocks "
                                     "(CMAC takes every cipher: `kcipher mac -c {}-cmac`)",
                                     o.name, mode_name, info.name, 8 * info.block_bytes, info.name));
    const size_t t = tag_length(o);
    if (gcm && !(t == 4 || t == 8 || (t >= 12 && t <= 16)))
        throw UsageError(fmt::format("--tag-len {}: GCM tags are 16, 15, 14, 13, 12, 8 or 4 bytes", t));
    if (!gcm && (t < 4 || t > 16 || t % 2 != 0))
        throw UsageError(fmt::format("--tag-len {}: CCM tags are 4, 6, 8, 10, 12, 14 or 16 bytes", t));
    if (o.iv_hex.empty())
        throw UsageError(gcm ? fmt::format("{} needs --iv (12 bytes, 24 hex digits, is usual)", o.name)
                             : fmt::format("{} needs --iv, the nonce (7 to 13 bytes)", o.name));
    std::vector<uint8_t> iv = parse_hex_option("iv", o.iv_hex);
    if (!gcm && (iv.size() < 7 || iv.size() > 13))
        throw UsageError(fmt::format("--iv (the CCM nonce) must be 7 to 13 bytes, got {} bytes", iv.size()));
    return iv;
}

int run_aead(const CryptOptions &o, const kcipher::Cipher &c, kcipher_mode mode, const std::vector<uint8_t> &iv,
             bool encrypt)
{
    const size_t tag_len = tag_length(o);
    Aad aad(o, mode);
    Input in(o.in_path);
    if (mode == KCIPHER_MODE_CCM)
        in.spool();
    if (!encrypt && in.sized() && in.size() < tag_len)
        throw std::runtime_error(fmt::format("input {} is {} bytes, shorter than the {}-byte tag", in.name(),
                                             in.size(), tag_len));
    const uint64_t text_len = encrypt ? in.size() : in.size() - (in.sized() ? tag_len : 0);
    if (mode == KCIPHER_MODE_GCM && text_len > gcm_max_text)
        throw std::runtime_error(fmt::format("input {} holds {} bytes of text, over GCM's limit of 2^36 - 32 bytes "
                                             "under one IV",
                                             in.name(), text_len));
    std::unique_ptr<kcipher::Aead> a;
    try {
        a = std::make_unique<kcipher::Aead>(c, mode, encrypt ? kcipher::Aead::seal : kcipher::Aead::open, iv.data(),
                                            iv.size(), tag_len, aad.size(), text_len);
    } catch (const kcipher::Error &e) {
        if (e.status() != KCIPHER_ERR_MODE_LIMIT)
            throw;
        throw std::runtime_error(fmt::format("input {} holds {} bytes of text, over CCM's limit for a {}-byte nonce "
                                             "(2^(8 * (15 - {})) - 1 bytes): use a shorter nonce",
                                             in.name(), text_len, iv.size(), iv.size()));
    }
    std::unique_ptr<uint8_t[]> buf(new uint8_t[chunk_bytes + 16]);
    aad.feed(*a, buf.get(), chunk_bytes);

    AtomicOutput out(o.out_path, /*hold=*/!encrypt);
    Progress bar(encrypt ? "encrypting" : "decrypting", in.size(), o.progress && stderr_is_terminal());
    if (encrypt)
        seal_stream(*a, in, out, buf.get(), bar);
    else
        open_stream(*a, in, out, buf.get(), tag_len, bar);
    out.commit();
    bar.finish();
    return 0;
}

} // namespace cli
