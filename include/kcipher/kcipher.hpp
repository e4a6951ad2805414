// C++ wrapper over the C API: a keyed, move-only Cipher whose methods throw kcipher::Error
// (with the library's status and message) instead of returning a status. A tag that does not
// verify throws kcipher::AuthenticationError, an Error of its own type, so it can be caught
// apart from misuse and cannot be ignored.
#ifndef KCIPHER_HPP
#define KCIPHER_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kcipher/kcipher.h"

namespace kcipher {

class Error : public std::runtime_error {
  public:
    explicit Error(kcipher_status s) : std::runtime_error(kcipher_strerror(s)), status_(s) {}
    kcipher_status status() const noexcept { return status_; }

  private:
    kcipher_status status_;
};

// KCIPHER_ERR_AUTH: a GCM/CCM tag or a MAC did not verify (no plaintext was released by the
// one-shot calls).
class AuthenticationError : public Error {
  public:
    AuthenticationError() : Error(KCIPHER_ERR_AUTH) {}
};

inline void check(kcipher_status s)
{
    if (s == KCIPHER_ERR_AUTH)
        throw AuthenticationError();
    if (s != KCIPHER_OK)
        throw Error(s);
}

class Cipher {
  public:
    // kernel: nullptr lets dispatch choose (KCIPHER_KERNEL is honoured).
    Cipher(const std::string &name, const uint8_t *key, size_t key_len, const char *kernel = nullptr)
    {
        check(kcipher_new(&ctx_, name.c_str(), key, key_len, kernel));
    }
    Cipher(const std::string &name, const std::vector<uint8_t> &key, const char *kernel = nullptr)
        : Cipher(name, key.data(), key.size(), kernel)
    {
    }
    Cipher(Cipher &&o) noexcept : ctx_(std::exchange(o.ctx_, nullptr)) {}
    Cipher &operator=(Cipher &&o) noexcept
    {
        if (this != &o) {
            kcipher_free(ctx_);
            ctx_ = std::exchange(o.ctx_, nullptr);
        }
        return *this;
    }
    Cipher(const Cipher &) = delete;
    Cipher &operator=(const Cipher &) = delete;
    ~Cipher() { kcipher_free(ctx_); }

    size_t block_size() const { return kcipher_block_size(ctx_); }
    std::string name() const { return kcipher_ctx_cipher(ctx_); }
    std::string kernel() const { return kcipher_ctx_kernel(ctx_); }
    void set_threads(unsigned n) { check(kcipher_set_threads(ctx_, n)); }
    // GPU contexts only matter: -1 = every GPU, else that one (kcipher_set_gpu).
    void set_gpu(int device) { check(kcipher_set_gpu(ctx_, device)); }

    void ecb_encrypt(const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_ecb_encrypt(ctx_, in, out, len));
    }
    void ecb_decrypt(const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_ecb_decrypt(ctx_, in, out, len));
    }
    // iv (one block) is updated to the chaining value for the next call.
    void cbc_encrypt(uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_cbc_encrypt(ctx_, iv, block_size(), in, out, len));
    }
    void cbc_decrypt(uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_cbc_decrypt(ctx_, iv, block_size(), in, out, len));
    }
    void ctr_xor(const uint8_t *iv, uint64_t block_offset, const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_ctr_xor(ctx_, iv, block_size(), block_offset, in, out, len));
    }

    using Bytes = std::vector<uint8_t>;
    Bytes ecb_encrypt(const Bytes &in) const { return apply(in, [&](Bytes &o) { ecb_encrypt(in.data(), o.data(), in.size()); }); }
    Bytes ecb_decrypt(const Bytes &in) const { return apply(in, [&](Bytes &o) { ecb_decrypt(in.data(), o.data(), in.size()); }); }
    Bytes cbc_encrypt(Bytes iv, const Bytes &in) const
    {
        check_iv(iv);
        return apply(in, [&](Bytes &o) { cbc_encrypt(iv.data(), in.data(), o.data(), in.size()); });
    }
    Bytes cbc_decrypt(Bytes iv, const Bytes &in) const
    {
        check_iv(iv);
        return apply(in, [&](Bytes &o) { cbc_decrypt(iv.data(), in.data(), o.data(), in.size()); });
    }
    Bytes ctr_xor(const Bytes &iv, const Bytes &in, uint64_t block_offset = 0) const
    {
        check_iv(iv);
        return apply(in, [&](Bytes &o) { ctr_xor(iv.data(), block_offset, in.data(), o.data(), in.size()); });
    }

    // ---- ECB and CBC with PKCS#7 padding (kcipher_*_padded), as `openssl enc` pads ----
    // Encryption writes len / block * block + block bytes (out_cap at least that); decryption
    // returns the plaintext length (out_cap at least len - 1) or throws Error with
    // KCIPHER_ERR_PADDING on a bad pad, out wiped. CBC's iv is updated as by cbc_encrypt.
    size_t ecb_encrypt_padded(const uint8_t *in, size_t len, uint8_t *out, size_t out_cap) const
    {
        size_t n = 0;
        check(kcipher_ecb_encrypt_padded(ctx_, in, len, out, out_cap, &n));
        return n;
    }
    size_t ecb_decrypt_padded(const uint8_t *in, size_t len, uint8_t *out, size_t out_cap) const
    {
        size_t n = 0;
        check(kcipher_ecb_decrypt_padded(ctx_, in, len, out, out_cap, &n));
        return n;
    }
    size_t cbc_encrypt_padded(uint8_t *iv, const uint8_t *in, size_t len, uint8_t *out, size_t out_cap) const
    {
        size_t n = 0;
        check(kcipher_cbc_encrypt_padded(ctx_, iv, block_size(), in, len, out, out_cap, &n));
        return n;
    }
    size_t cbc_decrypt_padded(uint8_t *iv, const uint8_t *in, size_t len, uint8_t *out, size_t out_cap) const
    {
        size_t n = 0;
        check(kcipher_cbc_decrypt_padded(ctx_, iv, block_size(), in, len, out, out_cap, &n));
        return n;
    }
    Bytes ecb_encrypt_padded(const Bytes &in) const
    {
        Bytes out(in.size() / block_size() * block_size() + block_size());
        out.resize(ecb_encrypt_padded(in.data(), in.size(), out.data(), out.size()));
        return out;
    }
    Bytes ecb_decrypt_padded(const Bytes &in) const
    {
        Bytes out(in.size());
        out.resize(ecb_decrypt_padded(in.data(), in.size(), out.data(), out.size()));
        return out;
    }
    Bytes cbc_encrypt_padded(Bytes iv, const Bytes &in) const
    {
        check_iv(iv);
        Bytes out(in.size() / block_size() * block_size() + block_size());
        out.resize(cbc_encrypt_padded(iv.data(), in.data(), in.size(), out.data(), out.size()));
        return out;
    }
    Bytes cbc_decrypt_padded(Bytes iv, const Bytes &in) const
    {
        check_iv(iv);
        Bytes out(in.size());
        out.resize(cbc_decrypt_padded(iv.data(), in.data(), in.size(), out.data(), out.size()));
        return out;
    }

    // ---- CFB, CFB8 and OFB (kcipher_cfb_*, kcipher_cfb8_*, kcipher_ofb_xor) ----
    // Any length. The pointer forms update iv (one block) to continue the stream in the next
    // call, every piece but the last then whole blocks (CFB8: any length); the vector forms
    // take the iv by value and process one whole message.
    void cfb_encrypt(uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_cfb_encrypt(ctx_, iv, block_size(), in, out, len));
    }
    void cfb_decrypt(uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_cfb_decrypt(ctx_, iv, block_size(), in, out, len));
    }
    void cfb8_encrypt(uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_cfb8_encrypt(ctx_, iv, block_size(), in, out, len));
    }
    void cfb8_decrypt(uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_cfb8_decrypt(ctx_, iv, block_size(), in, out, len));
    }
    void ofb_xor(uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_ofb_xor(ctx_, iv, block_size(), in, out, len));
    }
    Bytes cfb_encrypt(Bytes iv, const Bytes &in) const { return feedback(&Cipher::cfb_encrypt, iv, in); }
    Bytes cfb_decrypt(Bytes iv, const Bytes &in) const { return feedback(&Cipher::cfb_decrypt, iv, in); }
    Bytes cfb8_encrypt(Bytes iv, const Bytes &in) const { return feedback(&Cipher::cfb8_encrypt, iv, in); }
    Bytes cfb8_decrypt(Bytes iv, const Bytes &in) const { return feedback(&Cipher::cfb8_decrypt, iv, in); }
    Bytes ofb_xor(Bytes iv, const Bytes &in) const { return feedback(&Cipher::ofb_xor, iv, in); }

    // ---- XTS (kcipher_xts_encrypt / kcipher_xts_decrypt), on a "NAME-xts" context ----
    // tweak: 16 bytes. data_unit 0: the whole input is one data unit; otherwise unit i of
    // data_unit bytes takes tweak + i (128-bit little-endian).
    void xts_encrypt(const uint8_t tweak[16], size_t data_unit, const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_xts_encrypt(ctx_, tweak, 16, data_unit, in, out, len));
    }
    void xts_decrypt(const uint8_t tweak[16], size_t data_unit, const uint8_t *in, uint8_t *out, size_t len) const
    {
        check(kcipher_xts_decrypt(ctx_, tweak, 16, data_unit, in, out, len));
    }
    Bytes xts_encrypt(const Bytes &tweak, const Bytes &in, size_t data_unit = 0) const
    {
        return apply(in, [&](Bytes &o) {
            check(kcipher_xts_encrypt(ctx_, tweak.data(), tweak.size(), data_unit, in.data(), o.data(), in.size()));
        });
    }
    Bytes xts_decrypt(const Bytes &tweak, const Bytes &in, size_t data_unit = 0) const
    {
        return apply(in, [&](Bytes &o) {
            check(kcipher_xts_decrypt(ctx_, tweak.data(), tweak.size(), data_unit, in.data(), o.data(), in.size()));
        });
    }

    // ---- GCM and CCM (kcipher_aead_seal / kcipher_aead_open) ----
    // mode: KCIPHER_MODE_GCM (iv >= 1 byte) or KCIPHER_MODE_CCM (iv = the nonce, 7..13 bytes).
    // seal writes in_len + tag_len bytes (ciphertext || tag); open reads ciphertext || tag
    // (in_len bytes) and writes in_len - tag_len bytes, or throws AuthenticationError with
    // out zeroed: it never releases unverified plaintext.
    void seal(kcipher_mode mode, const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
              const uint8_t *in, size_t in_len, uint8_t *out, size_t tag_len = 16) const
    {
        check(kcipher_aead_seal(ctx_, mode, iv, iv_len, aad, aad_len, in, in_len, out, tag_len));
    }
    void open(kcipher_mode mode, const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
              const uint8_t *in, size_t in_len, uint8_t *out, size_t tag_len = 16) const
    {
        check(kcipher_aead_open(ctx_, mode, iv, iv_len, aad, aad_len, in, in_len, out, tag_len));
    }
    // As pyca/cryptography's AESGCM: seal(mode, nonce, data, aad) -> ciphertext || tag.
    Bytes seal(kcipher_mode mode, const Bytes &iv, const Bytes &plaintext, const Bytes &aad = {},
               size_t tag_len = 16) const
    {
        Bytes out(plaintext.size() + tag_len);
        seal(mode, iv.data(), iv.size(), aad.data(), aad.size(), plaintext.data(), plaintext.size(), out.data(),
             tag_len);
        return out;
    }
    Bytes open(kcipher_mode mode, const Bytes &iv, const Bytes &sealed, const Bytes &aad = {},
               size_t tag_len = 16) const
    {
        if (sealed.size() < tag_len)
            throw Error(KCIPHER_ERR_DATA_LENGTH);
        Bytes out(sealed.size() - tag_len);
        open(mode, iv.data(), iv.size(), aad.data(), aad.size(), sealed.data(), sealed.size(), out.data(), tag_len);
        return out;
    }

    // ---- CMAC and GMAC (kcipher_mac / kcipher_mac_verify) ----
    // mode: KCIPHER_MODE_CMAC (every cipher; iv empty) or KCIPHER_MODE_GMAC (128-bit blocks;
    // iv as for GCM). tag_len 0: the block size (16, or 8 for hight and cham-64-128).
    // mac_verify compares in constant time and throws AuthenticationError on a mismatch.
    void mac(kcipher_mode mode, const uint8_t *iv, size_t iv_len, const uint8_t *data, size_t len, uint8_t *tag,
             size_t tag_len) const
    {
        check(kcipher_mac(ctx_, mode, iv, iv_len, data, len, tag, tag_len));
    }
    void mac_verify(kcipher_mode mode, const uint8_t *iv, size_t iv_len, const uint8_t *data, size_t len,
                    const uint8_t *tag, size_t tag_len) const
    {
        check(kcipher_mac_verify(ctx_, mode, iv, iv_len, data, len, tag, tag_len));
    }
    Bytes mac(kcipher_mode mode, const Bytes &iv, const Bytes &data, size_t tag_len = 0) const
    {
        Bytes tag(tag_len != 0 ? tag_len : block_size());
        mac(mode, iv.data(), iv.size(), data.data(), data.size(), tag.data(), tag.size());
        return tag;
    }
    void mac_verify(kcipher_mode mode, const Bytes &iv, const Bytes &data, const Bytes &tag) const
    {
        mac_verify(mode, iv.data(), iv.size(), data.data(), data.size(), tag.data(), tag.size());
    }

    const kcipher_ctx *get() const noexcept { return ctx_; }

  private:
    void check_iv(const Bytes &iv) const
    {
        if (iv.size() != block_size())
            throw Error(KCIPHER_ERR_IV_LENGTH);
    }
    using FeedbackFn = void (Cipher::*)(uint8_t *, const uint8_t *, uint8_t *, size_t) const;
    Bytes feedback(FeedbackFn fn, Bytes &iv, const Bytes &in) const
    {
        check_iv(iv);
        return apply(in, [&](Bytes &o) { (this->*fn)(iv.data(), in.data(), o.data(), in.size()); });
    }
    template <class F> static Bytes apply(const Bytes &in, F &&f)
    {
        Bytes out(in.size());
        f(out);
        return out;
    }
    kcipher_ctx *ctx_ = nullptr;
};

// Streaming GCM or CCM (kcipher_aead_*), for data larger than memory: aad() any number of
// times, then update() any number of times, then finish() (sealing: the tag) or
// finish_and_verify() (opening: throws AuthenticationError on a mismatch). CCM needs the total
// AAD and text lengths here; GCM ignores them. The Cipher must outlive the Aead.
//
// WARNING: when opening, update() returns plaintext BEFORE the tag is checked. Treat it as
// unauthenticated until finish_and_verify() returns, and discard all of it if it throws; where
// that is not possible, use Cipher::open.
class Aead {
  public:
    using Bytes = std::vector<uint8_t>;
    enum Direction { seal, open };
    Aead(const Cipher &c, kcipher_mode mode, Direction d, const uint8_t *iv, size_t iv_len, size_t tag_len,
         uint64_t aad_len = 0, uint64_t text_len = 0)
        : tag_len_(tag_len)
    {
        check(kcipher_aead_init(&st_, c.get(), mode, d == seal, iv, iv_len, tag_len, aad_len, text_len));
    }
    Aead(const Cipher &c, kcipher_mode mode, Direction d, const Bytes &iv, size_t tag_len = 16,
         uint64_t aad_len = 0, uint64_t text_len = 0)
        : Aead(c, mode, d, iv.data(), iv.size(), tag_len, aad_len, text_len)
    {
    }
    Aead(Aead &&o) noexcept : st_(std::exchange(o.st_, nullptr)), tag_len_(o.tag_len_) {}
    Aead &operator=(Aead &&o) noexcept
    {
        if (this != &o) {
            kcipher_aead_free(st_);
            st_ = std::exchange(o.st_, nullptr);
            tag_len_ = o.tag_len_;
        }
        return *this;
    }
    Aead(const Aead &) = delete;
    Aead &operator=(const Aead &) = delete;
    ~Aead() { kcipher_aead_free(st_); } // wipes the state

    size_t tag_size() const noexcept { return tag_len_; }
    void aad(const uint8_t *p, size_t len) { check(kcipher_aead_aad(st_, p, len)); }
    void aad(const Bytes &a) { aad(a.data(), a.size()); }
    // out gets exactly len bytes; in == out (in place) is allowed.
    void update(const uint8_t *in, uint8_t *out, size_t len) { check(kcipher_aead_update(st_, in, out, len)); }
    Bytes update(const Bytes &in)
    {
        Bytes out(in.size());
        update(in.data(), out.data(), in.size());
        return out;
    }
    // Sealing: the tag (tag_size() bytes).
    void finish(uint8_t *tag) { check(kcipher_aead_final(st_, tag, tag_len_)); }
    [[nodiscard]] Bytes finish()
    {
        Bytes tag(tag_len_);
        finish(tag.data());
        return tag;
    }
    // Opening: returns only when the tag matches; AuthenticationError otherwise (the state is
    // then unusable).
    void finish_and_verify(const uint8_t *tag, size_t len) { check(kcipher_aead_final_verify(st_, tag, len)); }
    void finish_and_verify(const Bytes &tag) { finish_and_verify(tag.data(), tag.size()); }

    kcipher_aead *get() const noexcept { return st_; }

  private:
    kcipher_aead *st_ = nullptr;
    size_t tag_len_;
};

// Streaming CMAC or GMAC (kcipher_mac_*): update() any number of times, then finish() or
// finish_and_verify() (throws AuthenticationError on a mismatch). tag_len 0: the block size.
// The Cipher must outlive the Mac.
class Mac {
  public:
    using Bytes = std::vector<uint8_t>;
    Mac(const Cipher &c, kcipher_mode mode, const uint8_t *iv, size_t iv_len, size_t tag_len)
        : tag_len_(tag_len != 0 ? tag_len : c.block_size())
    {
        check(kcipher_mac_init(&st_, c.get(), mode, iv, iv_len, tag_len_));
    }
    Mac(const Cipher &c, kcipher_mode mode, const Bytes &iv = {}, size_t tag_len = 0)
        : Mac(c, mode, iv.empty() ? nullptr : iv.data(), iv.size(), tag_len)
    {
    }
    Mac(Mac &&o) noexcept : st_(std::exchange(o.st_, nullptr)), tag_len_(o.tag_len_) {}
    Mac &operator=(Mac &&o) noexcept
    {
        if (this != &o) {
            kcipher_mac_free(st_);
            st_ = std::exchange(o.st_, nullptr);
            tag_len_ = o.tag_len_;
        }
        return *this;
    }
    Mac(const Mac &) = delete;
    Mac &operator=(const Mac &) = delete;
    ~Mac() { kcipher_mac_free(st_); }

    size_t tag_size() const noexcept { return tag_len_; }
    void update(const uint8_t *p, size_t len) { check(kcipher_mac_update(st_, p, len)); }
    void update(const Bytes &b) { update(b.data(), b.size()); }
    void finish(uint8_t *tag) { check(kcipher_mac_final(st_, tag, tag_len_)); }
    [[nodiscard]] Bytes finish()
    {
        Bytes tag(tag_len_);
        finish(tag.data());
        return tag;
    }
    void finish_and_verify(const uint8_t *tag, size_t len) { check(kcipher_mac_final_verify(st_, tag, len)); }
    void finish_and_verify(const Bytes &tag) { finish_and_verify(tag.data(), tag.size()); }

    kcipher_mac_state *get() const noexcept { return st_; }

  private:
    kcipher_mac_state *st_ = nullptr;
    size_t tag_len_;
};

// Key search with C++ callbacks (kcipher_keysearch). Returns KCIPHER_OK when a key was found
// (the search stops there unless params.all_keys) or the range was searched to the end,
// KCIPHER_ERR_CANCELLED when on_progress returned false; throws Error for anything else. The params' callback and user fields are set here.
struct KeySearchHit {
    std::vector<uint8_t> key;
    uint64_t index;
};

inline kcipher_status keysearch(kcipher_keysearch_params params,
                                const std::function<void(const KeySearchHit &)> &on_found,
                                const std::function<bool(const kcipher_keysearch_progress_info &)> &on_progress = {},
                                kcipher_keysearch_progress_info *info = nullptr)
{
    struct Callbacks {
        const std::function<void(const KeySearchHit &)> &found;
        const std::function<bool(const kcipher_keysearch_progress_info &)> &progress;
    } cb{on_found, on_progress};
    params.user = &cb;
    params.on_found = [](void *u, const uint8_t *key, size_t len, uint64_t index) {
        auto *c = static_cast<Callbacks *>(u);
        if (c->found)
            c->found(KeySearchHit{std::vector<uint8_t>(key, key + len), index});
    };
    params.on_progress = [](void *u, const kcipher_keysearch_progress_info *i) {
        auto *c = static_cast<Callbacks *>(u);
        return c->progress && !c->progress(*i) ? 1 : 0;
    };
    kcipher_status s = kcipher_keysearch(&params, info);
    if (s != KCIPHER_OK && s != KCIPHER_ERR_CANCELLED)
        throw Error(s);
    return s;
}

// A range of key-search candidate indices, inclusive (one range may hold all 2^64).
struct KeyRange {
    uint64_t first, last;
    uint64_t size_minus_one() const { return last - first; }
};

// Part `index` of `count` parts of `whole` by the exact-cover split of kcipher_keysearch_shard
// (the CLI's --shard I/N and its MPI ranks), or nullopt where that part is empty (more parts
// than candidates). Throws Error for bad arguments (count == 0, index >= count).
inline std::optional<KeyRange> shard_range(KeyRange whole, uint64_t index, uint64_t count)
{
    KeyRange part{};
    kcipher_status s = kcipher_keysearch_shard(whole.first, whole.last, index, count, &part.first, &part.last);
    if (s == KCIPHER_ERR_SEARCH_RANGE)
        return std::nullopt;
    check(s);
    return part;
}

// CTR_DRBG (kcipher_drbg_*): an empty entropy vector means "from the entropy source".
class Drbg {
  public:
    using Bytes = std::vector<uint8_t>;
    explicit Drbg(const std::string &cipher, unsigned flags = 0, const char *kernel = nullptr)
    {
        check(kcipher_drbg_new(&d_, cipher.c_str(), flags, kernel));
    }
    Drbg(Drbg &&o) noexcept : d_(std::exchange(o.d_, nullptr)) {}
    Drbg &operator=(Drbg &&o) noexcept
    {
        if (this != &o) {
            kcipher_drbg_free(d_);
            d_ = std::exchange(o.d_, nullptr);
        }
        return *this;
    }
    Drbg(const Drbg &) = delete;
    Drbg &operator=(const Drbg &) = delete;
    ~Drbg() { kcipher_drbg_free(d_); }

    void set_entropy_source(kcipher_entropy_fn fn, void *user) { check(kcipher_drbg_set_entropy_source(d_, fn, user)); }
    void set_reseed_interval(uint64_t requests) { check(kcipher_drbg_set_reseed_interval(d_, requests)); }
    void set_threads(unsigned n) { check(kcipher_drbg_set_threads(d_, n)); }
    // The GPU of generate_large with a GPU kernel: -1 = GPU 0, else that one.
    void set_gpu(int device) { check(kcipher_drbg_set_gpu(d_, device)); }
    size_t max_request() const { return kcipher_drbg_max_request(d_); }
    std::string kernel() const { return kcipher_drbg_kernel(d_); }

    void instantiate(const Bytes &entropy = {}, const Bytes &nonce = {}, const Bytes &personalization = {})
    {
        check(kcipher_drbg_instantiate(d_, ptr(entropy), entropy.size(), ptr(nonce), nonce.size(),
                                       ptr(personalization), personalization.size()));
    }
    void reseed(const Bytes &entropy = {}, const Bytes &additional = {})
    {
        check(kcipher_drbg_reseed(d_, ptr(entropy), entropy.size(), ptr(additional), additional.size()));
    }
    void generate(uint8_t *out, size_t len, const Bytes &additional = {}, bool prediction_resistance = false)
    {
        check(kcipher_drbg_generate(d_, out, len, ptr(additional), additional.size(), prediction_resistance));
    }
    Bytes generate(size_t len, const Bytes &additional = {}, bool prediction_resistance = false)
    {
        Bytes out(len);
        generate(out.data(), len, additional, prediction_resistance);
        return out;
    }
    void generate_large(uint8_t *out, size_t len, bool prediction_resistance = false)
    {
        check(kcipher_drbg_generate_large(d_, out, len, prediction_resistance));
    }
    Bytes generate_large(size_t len, bool prediction_resistance = false)
    {
        Bytes out(len);
        generate_large(out.data(), len, prediction_resistance);
        return out;
    }
    // generate_large into GPU memory (a GPU kernel's DRBG); stream: a cudaStream_t or nullptr.
    void generate_device(void *device_out, size_t len, void *stream = nullptr)
    {
        check(kcipher_drbg_generate_device(d_, device_out, len, stream));
    }
    void uninstantiate() { check(kcipher_drbg_uninstantiate(d_)); }

    kcipher_drbg *get() const noexcept { return d_; }

  private:
    static const uint8_t *ptr(const Bytes &b) { return b.empty() ? nullptr : b.data(); }
    kcipher_drbg *d_ = nullptr;
};

// Many CTR_DRBG instances (kcipher_drbg_multi_*). Inputs are the instances' strings one after
// another (instances() equal parts); an empty entropy vector means "from the entropy source".
class DrbgMulti {
  public:
    using Bytes = std::vector<uint8_t>;
    DrbgMulti(const std::string &cipher, size_t instances, unsigned flags = 0, const char *kernel = nullptr)
    {
        check(kcipher_drbg_multi_new(&m_, cipher.c_str(), instances, flags, kernel));
    }
    DrbgMulti(DrbgMulti &&o) noexcept : m_(std::exchange(o.m_, nullptr)) {}
    DrbgMulti &operator=(DrbgMulti &&o) noexcept
    {
        if (this != &o) {
            kcipher_drbg_multi_free(m_);
            m_ = std::exchange(o.m_, nullptr);
        }
        return *this;
    }
    DrbgMulti(const DrbgMulti &) = delete;
    DrbgMulti &operator=(const DrbgMulti &) = delete;
    ~DrbgMulti() { kcipher_drbg_multi_free(m_); }

    size_t instances() const { return kcipher_drbg_multi_instances(m_); }
    size_t max_request() const { return kcipher_drbg_multi_max_request(m_); }
    std::string kernel() const { return kcipher_drbg_multi_kernel(m_); }
    void set_entropy_source(kcipher_entropy_fn fn, void *user)
    {
        check(kcipher_drbg_multi_set_entropy_source(m_, fn, user));
    }
    void set_reseed_interval(uint64_t requests) { check(kcipher_drbg_multi_set_reseed_interval(m_, requests)); }
    void set_threads(unsigned n) { check(kcipher_drbg_multi_set_threads(m_, n)); }
    void set_gpu(int device) { check(kcipher_drbg_multi_set_gpu(m_, device)); }
    uint64_t reseed_counter(size_t instance) const
    {
        uint64_t c = 0;
        check(kcipher_drbg_multi_reseed_counter(m_, instance, &c));
        return c;
    }

    void instantiate(const Bytes &entropy = {}, const Bytes &nonce = {}, const Bytes &personalization = {})
    {
        check(kcipher_drbg_multi_instantiate(m_, ptr(entropy), part(entropy), ptr(nonce), part(nonce),
                                             ptr(personalization), part(personalization)));
    }
    void reseed(const Bytes &entropy = {}, const Bytes &additional = {})
    {
        check(kcipher_drbg_multi_reseed(m_, ptr(entropy), part(entropy), ptr(additional), part(additional)));
    }
    // len bytes per instance, instance i's at out + i * len.
    void generate(uint8_t *out, size_t len, bool prediction_resistance = false)
    {
        check(kcipher_drbg_multi_generate(m_, out, len, prediction_resistance));
    }
    Bytes generate(size_t len, bool prediction_resistance = false)
    {
        Bytes out(len * instances());
        generate(out.data(), len, prediction_resistance);
        return out;
    }
    void generate_device(void *device_out, size_t len, bool prediction_resistance = false, void *stream = nullptr)
    {
        check(kcipher_drbg_multi_generate_device(m_, device_out, len, prediction_resistance, stream));
    }
    void uninstantiate() { check(kcipher_drbg_multi_uninstantiate(m_)); }

    kcipher_drbg_multi *get() const noexcept { return m_; }

  private:
    static const uint8_t *ptr(const Bytes &b) { return b.empty() ? nullptr : b.data(); }
    // One instance's length; a vector that does not split evenly is refused.
    size_t part(const Bytes &b) const
    {
        size_t n = instances();
        if (b.size() % n != 0)
            throw Error(KCIPHER_ERR_INVALID_ARGUMENT);
        return b.size() / n;
    }
    kcipher_drbg_multi *m_ = nullptr;
};

} // namespace kcipher

#endif
