// The authenticated modes and MACs: GCM and GMAC (SP 800-38D), CCM (SP 800-38C) and CMAC
// (SP 800-38B), each a streaming state over the kernel interface. The C API (api/aead.cpp)
// checks every argument and every limit before it calls them; here the arguments are valid.
// One-shot calls are a start, the updates and a finish on the same states.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kit/ghash/ghash.hpp"
#include "modes/keyed.hpp"

namespace kc {

// Keystream from a counter block, consumed in pieces of any length: bytes left over from a
// partial block serve the next call. inc32: only the last 32 bits count and wrap (GCM's
// inc32); otherwise the whole block is the counter (CCM, CTR).
class CtrStream {
  public:
    // first != nullptr: the keystream block of `counter` itself goes to first[16] and the data
    // starts at counter + 1 (GCM's E_K(J0) for the tag), computed in the same kernel call as
    // the first data blocks where that costs no extra batch of the wide kernel. Where it would
    // (the data a whole number of batches, or no data), the first block is computed alone:
    // on one_block when given (a one-block kernel, the context's chain kernel: a fraction of
    // a wide kernel's narrowest batch), else on k. So is the keystream of a last partial block.
    void start(const Keyed &k, const uint8_t counter[16], bool inc32, uint8_t *first = nullptr,
               const Keyed *one_block = nullptr);
    void xor_bytes(const uint8_t *in, uint8_t *out, size_t n);
    void flush_first(); // a first block still owed (no data came) is computed alone
    // A copy of a stream continuing on other keyed kernels (a context with the same key) and
    // owing its first block, if still owed, to `first` (the copy's own buffer).
    void rebind(const Keyed &k, const Keyed *one_block, uint8_t *first);
    ~CtrStream();

  private:
    void whole_blocks(const uint8_t *in, uint8_t *out, size_t nblocks);
    void first_alone();
    void keystream_alone(uint8_t out[16]);
    void run(const uint8_t *in, uint8_t *out, size_t nblocks);
    void advance(size_t nblocks);
    Keyed k_{}, one_{};
    uint8_t *first_ = nullptr;
    uint8_t next_[16] = {}; // the counter of the next keystream block
    uint8_t ks_[16] = {};   // the current partial block's keystream
    size_t left_ = 0;       // its unused bytes, at the end of ks_
    bool inc32_ = false;
};

// What GCM derives from the key alone: the GHASH implementation and its key for
// H = E_K(0^128) (H's powers). A keyed context makes it once (api/context.hpp) and every
// message under that key reuses it. Wiped by its owner.
struct GcmKey {
    const GhashKernel *g = nullptr;
    GhashKey h;
};
void gcm_key_init(GcmKey &key, const Keyed &k, const GhashKernel &g);

// GCM over a 128-bit block cipher: start, any number of aad() calls, then any number of
// encrypt() or decrypt() calls, then tag(). GMAC is start, aad, tag. key must outlive the
// state.
class Gcm {
  public:
    // one_block: the cipher's one-block kernel for E_K(J0) when it goes alone (CtrStream).
    void start(const Keyed &k, const GcmKey &key, const uint8_t *iv, size_t iv_len,
               const Keyed *one_block = nullptr);
    void aad(const uint8_t *p, size_t n);
    void encrypt(const uint8_t *in, uint8_t *out, size_t n) { crypt(in, out, n, true); }
    void decrypt(const uint8_t *in, uint8_t *out, size_t n) { crypt(in, out, n, false); }
    void tag(uint8_t out[16]); // the full 16-byte tag; the caller truncates
    // After copying a state: continue on k and key (a context with the same key as start's).
    void rebind(const Keyed &k, const GcmKey &key, const Keyed *one_block);
    ~Gcm();

  private:
    void crypt(const uint8_t *in, uint8_t *out, size_t n, bool encrypt);
    void hash(const uint8_t *p, size_t n); // GHASH over a byte stream, buffering a partial block
    void pad();                            // zero-pads a partial block (ends the AAD or the text)
    const GhashKernel *g_ = nullptr;
    const GhashKey *hk_ = nullptr;
    Keyed k_{};
    CtrStream ctr_;
    uint8_t j0_[16] = {}, y_[16] = {}, buf_[16] = {}, ek0_[16] = {};
    size_t fill_ = 0;
    uint64_t aad_bytes_ = 0, text_bytes_ = 0;
    bool in_text_ = false;
};

// CBC-MAC's chain (CCM, CMAC): x = E(x ^ block) for each of the nblocks whole blocks of in,
// one block at a time on `chain` (the context's chain kernel, dispatch/registry.hpp).
void cbc_mac_blocks(const Keyed &chain, uint8_t *x, const uint8_t *in, size_t nblocks);

// CCM over a 128-bit block cipher. The lengths of the AAD and the payload are part of the
// first MAC block, so they are given at the start and the caller must then supply exactly
// that many bytes (the C API checks). The CBC-MAC runs on `chain`, the CTR part on k.
class Ccm {
  public:
    void start(const Keyed &k, const Keyed &chain, const uint8_t *nonce, size_t nonce_len, uint64_t aad_len,
               uint64_t text_len, size_t tag_len);
    void aad(const uint8_t *p, size_t n);
    void encrypt(const uint8_t *in, uint8_t *out, size_t n);
    void decrypt(const uint8_t *in, uint8_t *out, size_t n);
    void tag(uint8_t out[16]); // the first tag_len bytes are the tag
    // After copying a state: continue on k and chain (a context with the same key as start's).
    void rebind(const Keyed &k, const Keyed &chain);
    ~Ccm();

  private:
    void mac(const uint8_t *p, size_t n); // CBC-MAC over a byte stream
    void pad();
    Keyed chain_{};
    CtrStream ctr_;
    uint8_t x_[16] = {}, s0_[16] = {};
    size_t fill_ = 0;
    bool in_text_ = false;
};

// CMAC over a cipher of either block size, on the context's chain kernel.
class Cmac {
  public:
    void start(const Keyed &chain);
    void update(const uint8_t *p, size_t n);
    void tag(uint8_t out[16]); // block_bytes bytes
    ~Cmac();

  private:
    Keyed k_{};
    uint8_t k1_[16] = {}, k2_[16] = {}, x_[16] = {}, buf_[16] = {};
    size_t fill_ = 0; // bytes in buf_: the last block is held back until tag()
};

// a == b over n bytes, in time that depends on n alone.
bool equal_constant_time(const uint8_t *a, const uint8_t *b, size_t n);

} // namespace kc
