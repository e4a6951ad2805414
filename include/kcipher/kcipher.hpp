// C++ wrapper over the C API: a keyed, move-only Cipher whose methods throw kcipher::Error
// (with the library's status and message) instead of returning a status.
#ifndef KCIPHER_HPP
#define KCIPHER_HPP

#include <cstddef>
#include <cstdint>
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

inline void check(kcipher_status s)
{
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

    const kcipher_ctx *get() const noexcept { return ctx_; }

  private:
    void check_iv(const Bytes &iv) const
    {
        if (iv.size() != block_size())
            throw Error(KCIPHER_ERR_IV_LENGTH);
    }
    template <class F> static Bytes apply(const Bytes &in, F &&f)
    {
        Bytes out(in.size());
        f(out);
        return out;
    }
    kcipher_ctx *ctx_ = nullptr;
};

} // namespace kcipher

#endif
