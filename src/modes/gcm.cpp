// GCM and GMAC (SP 800-38D, Algorithms 4 and 5) over the kernel interface and a GHASH
// implementation (kit/ghash). Encryption runs the cipher's CTR over a slice, then GHASH over
// the ciphertext while the slice is still in cache; decryption hashes first, then decrypts.
#include <cstring>

#include "core/bytes.hpp"
#include "core/wipe.hpp"
#include "modes/aead.hpp"

namespace kc {
namespace {

// Bytes per slice: small enough that the ciphertext is still in L1/L2 when GHASH reads it.
constexpr size_t slice_bytes = 16 * 1024;

} // namespace

void gcm_key_init(GcmKey &key, const Keyed &k, const GhashKernel &g)
{
    uint8_t h[16] = {};
    k.kernel->encrypt_blocks(k.keys, h, h, 1);
    key.g = &g;
    g.init(key.h, h);
    secure_wipe(h, sizeof h);
}

void Gcm::start(const Keyed &k, const GcmKey &key, const uint8_t *iv, size_t iv_len, const Keyed *one_block)
{
    k_ = k;
    g_ = key.g;
    hk_ = &key.h;
    const GhashKernel &g = *key.g;
    std::memset(y_, 0, 16);
    fill_ = 0;
    aad_bytes_ = text_bytes_ = 0;
    in_text_ = false;
    // J0: IV || 0^31 || 1 for 96-bit IVs, else GHASH(IV || 0-pad || [0]64 || [len(IV) in bits]64).
    if (iv_len == 12) {
        std::memcpy(j0_, iv, 12);
        store_be32(j0_ + 12, 1);
    } else {
        std::memset(j0_, 0, 16);
        const size_t whole = iv_len / 16;
        g.update(*hk_, j0_, iv, whole);
        uint8_t last[16] = {};
        if (iv_len % 16 != 0) {
            std::memcpy(last, iv + 16 * whole, iv_len % 16);
            g.update(*hk_, j0_, last, 1);
        }
        std::memset(last, 0, 16);
        store_be64(last + 8, (uint64_t)iv_len * 8);
        g.update(*hk_, j0_, last, 1);
    }
    ctr_.start(k, j0_, true, ek0_, one_block); // E_K(J0) with the first data blocks or alone, the data from J0 + 1
}

void Gcm::rebind(const Keyed &k, const GcmKey &key, const Keyed *one_block)
{
    k_ = k;
    g_ = key.g;
    hk_ = &key.h;
    ctr_.rebind(k, one_block, ek0_);
}

void Gcm::hash(const uint8_t *p, size_t n)
{
    if (n == 0) // p may then be null (no AAD), which memcpy must not be given even for 0 bytes
        return;
    if (fill_ > 0) {
        const size_t t = n < 16 - fill_ ? n : 16 - fill_;
        std::memcpy(buf_ + fill_, p, t);
        fill_ += t;
        p += t;
        n -= t;
        if (fill_ < 16)
            return;
        g_->update(*hk_, y_, buf_, 1);
        fill_ = 0;
    }
    g_->update(*hk_, y_, p, n / 16);
    std::memcpy(buf_, p + n / 16 * 16, n % 16);
    fill_ = n % 16;
}

void Gcm::pad()
{
    if (fill_ > 0) {
        std::memset(buf_ + fill_, 0, 16 - fill_);
        g_->update(*hk_, y_, buf_, 1);
        fill_ = 0;
    }
}

void Gcm::aad(const uint8_t *p, size_t n)
{
    hash(p, n);
    aad_bytes_ += n;
}

// Encryption hashes the ciphertext it has just written; decryption hashes its input before
// overwriting it (in place, in and out are the same buffer).
void Gcm::crypt(const uint8_t *in, uint8_t *out, size_t n, bool encrypt)
{
    if (!in_text_) {
        pad();
        in_text_ = true;
    }
    for (size_t done = 0; done < n;) {
        const size_t s = n - done < slice_bytes ? n - done : slice_bytes;
        if (!encrypt)
            hash(in + done, s);
        ctr_.xor_bytes(in + done, out + done, s);
        if (encrypt)
            hash(out + done, s);
        done += s;
    }
    text_bytes_ += n;
}

void Gcm::tag(uint8_t out[16])
{
    pad();
    uint8_t lengths[16];
    store_be64(lengths, aad_bytes_ * 8);
    store_be64(lengths + 8, text_bytes_ * 8);
    g_->update(*hk_, y_, lengths, 1);
    // T = GCTR(J0, S): S XORed with E_K(J0).
    ctr_.flush_first();
    for (int i = 0; i < 16; i++)
        out[i] = y_[i] ^ ek0_[i];
}

// Inline wipes (a store each, kept by an asm barrier): four calls to secure_wipe were a few
// percent of a 1 KiB message.
Gcm::~Gcm()
{
    secure_wipe_inline(j0_);
    secure_wipe_inline(ek0_);
    secure_wipe_inline(y_);
    secure_wipe_inline(buf_);
}

} // namespace kc
