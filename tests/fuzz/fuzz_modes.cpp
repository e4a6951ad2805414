// libFuzzer target: the C API's modes on every CPU kernel this machine runs, against the
// family's reference kernel (<family>/ref). The input chooses the cipher, the kernel, the
// operation, the key, the IV, lengths and the buffers' alignment; both contexts get the same
// call on identical buffers, and the statuses, outputs (the whole output buffer, so a write
// past the reported length shows too), IVs and output lengths must be equal. Inputs the API
// refuses must be refused the same way by both. ASan catches a read or write past a buffer:
// each buffer is exactly as large as the call may touch.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_catalog.hpp"
#include "fuzz/fuzz_input.hpp"
#include "kcipher/kcipher.h"

using kcfuzz::FuzzInput;

namespace {

enum Op {
    ECB_ENC, ECB_DEC, CBC_ENC, CBC_DEC, CTR, CFB_ENC, CFB_DEC, CFB8_ENC, CFB8_DEC, OFB,
    XTS_ENC, XTS_DEC, ECB_ENC_PAD, ECB_DEC_PAD, CBC_ENC_PAD, CBC_DEC_PAD,
    AEAD_SEAL, AEAD_OPEN, AEAD_ROUNDTRIP, MAC, OP_COUNT
};

// One side of the comparison: a context and its own copies of every buffer.
struct Side {
    kcipher_ctx *ctx = nullptr;
    std::vector<uint8_t> in, out, iv;
    size_t out_len = 0;
    kcipher_status st = KCIPHER_OK, st2 = KCIPHER_OK;
    ~Side() { kcipher_free(ctx); }
};

struct Call {
    Op op;
    size_t len, in_off, out_off, out_cap, iv_len, data_unit, tag_len, aad_len;
    uint64_t block_offset;
    bool in_place;
    kcipher_mode aead_mode, mac_mode;
    std::vector<uint8_t> aad;
};

uint8_t *in_ptr(Side &s, const Call &c) { return s.in.data() + c.in_off; }
uint8_t *out_ptr(Side &s, const Call &c) { return c.in_place ? in_ptr(s, c) : s.out.data() + c.out_off; }

void run(Side &s, const Call &c)
{
    const uint8_t *in = in_ptr(s, c);
    uint8_t *out = out_ptr(s, c), *iv = s.iv.data();
    const uint8_t *aad = c.aad.empty() ? nullptr : c.aad.data();
    kcipher_ctx *x = s.ctx;
    switch (c.op) {
    case ECB_ENC: s.st = kcipher_ecb_encrypt(x, in, out, c.len); break;
    case ECB_DEC: s.st = kcipher_ecb_decrypt(x, in, out, c.len); break;
    case CBC_ENC: s.st = kcipher_cbc_encrypt(x, iv, c.iv_len, in, out, c.len); break;
    case CBC_DEC: s.st = kcipher_cbc_decrypt(x, iv, c.iv_len, in, out, c.len); break;
    case CTR: s.st = kcipher_ctr_xor(x, iv, c.iv_len, c.block_offset, in, out, c.len); break;
    case CFB_ENC: s.st = kcipher_cfb_encrypt(x, iv, c.iv_len, in, out, c.len); break;
    case CFB_DEC: s.st = kcipher_cfb_decrypt(x, iv, c.iv_len, in, out, c.len); break;
    case CFB8_ENC: s.st = kcipher_cfb8_encrypt(x, iv, c.iv_len, in, out, c.len); break;
    case CFB8_DEC: s.st = kcipher_cfb8_decrypt(x, iv, c.iv_len, in, out, c.len); break;
    case OFB: s.st = kcipher_ofb_xor(x, iv, c.iv_len, in, out, c.len); break;
    case XTS_ENC: s.st = kcipher_xts_encrypt(x, iv, c.iv_len, c.data_unit, in, out, c.len); break;
    case XTS_DEC: s.st = kcipher_xts_decrypt(x, iv, c.iv_len, c.data_unit, in, out, c.len); break;
    case ECB_ENC_PAD: s.st = kcipher_ecb_encrypt_padded(x, in, c.len, out, c.out_cap, &s.out_len); break;
    case ECB_DEC_PAD: s.st = kcipher_ecb_decrypt_padded(x, in, c.len, out, c.out_cap, &s.out_len); break;
    case CBC_ENC_PAD:
        s.st = kcipher_cbc_encrypt_padded(x, iv, c.iv_len, in, c.len, out, c.out_cap, &s.out_len);
        break;
    case CBC_DEC_PAD:
        s.st = kcipher_cbc_decrypt_padded(x, iv, c.iv_len, in, c.len, out, c.out_cap, &s.out_len);
        break;
    case AEAD_SEAL:
        s.st = kcipher_aead_seal(x, c.aead_mode, iv, c.iv_len, aad, c.aad_len, in, c.len, out, c.tag_len);
        break;
    case AEAD_OPEN: // mostly garbage: a tag that does not verify must fail alike and zero out
        s.st = kcipher_aead_open(x, c.aead_mode, iv, c.iv_len, aad, c.aad_len, in, c.len, out, c.tag_len);
        break;
    case AEAD_ROUNDTRIP: { // seal, then open what was sealed: must verify and give the input back
        std::vector<uint8_t> sealed(c.len + c.tag_len), back(c.len);
        s.st = kcipher_aead_seal(x, c.aead_mode, iv, c.iv_len, aad, c.aad_len, in, c.len, sealed.data(), c.tag_len);
        if (s.st == KCIPHER_OK) {
            s.st2 = kcipher_aead_open(x, c.aead_mode, iv, c.iv_len, aad, c.aad_len, sealed.data(), sealed.size(),
                                      back.data(), c.tag_len);
            KCFUZZ_CHECK(s.st2 == KCIPHER_OK, kcipher_ctx_kernel(x));
            KCFUZZ_CHECK(back == std::vector<uint8_t>(in, in + c.len), kcipher_ctx_kernel(x));
            std::copy(sealed.begin(), sealed.begin() + std::min(sealed.size(), s.out.size()), s.out.begin());
        }
        break;
    }
    case MAC: {
        std::vector<uint8_t> tag(c.tag_len);
        s.st = kcipher_mac(x, c.mac_mode, iv, c.iv_len, in, c.len, tag.data(), c.tag_len);
        if (s.st == KCIPHER_OK)
            KCFUZZ_CHECK(kcipher_mac_verify(x, c.mac_mode, iv, c.iv_len, in, c.len, tag.data(), c.tag_len) ==
                             KCIPHER_OK,
                         kcipher_ctx_kernel(x));
        std::copy(tag.begin(), tag.begin() + std::min(tag.size(), s.out.size()), s.out.begin());
        break;
    }
    case OP_COUNT: break;
    }
}

// Bytes the call may write: the output buffer's exact size for this operation.
size_t output_bytes(const Call &c)
{
    switch (c.op) {
    case ECB_ENC_PAD: case ECB_DEC_PAD: case CBC_ENC_PAD: case CBC_DEC_PAD: return c.out_cap;
    case AEAD_SEAL: return c.len + c.tag_len;
    case AEAD_OPEN: return c.len >= c.tag_len ? c.len - c.tag_len : 0;
    case AEAD_ROUNDTRIP: return c.len + c.tag_len;
    case MAC: return c.tag_len;
    default: return c.len;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput f(data, size);
    const kcfuzz::CipherChoice choice = kcfuzz::choose_cipher(f);
    const kcipher_cipher_info &cipher = choice.cipher;
    const std::vector<std::string> &kernels = choice.kernels;
    const std::string &kernel = kernels[f.below(kernels.size())];
    const size_t block = cipher.block_bytes;

    Call c{};
    c.op = Op(f.below(OP_COUNT));
    const bool xts = c.op == XTS_ENC || c.op == XTS_DEC;
    std::vector<uint8_t> key = f.bytes(xts ? 2 * cipher.key_bytes : cipher.key_bytes);
    // Mostly the right IV length; now and then any, which must be refused alike.
    c.iv_len = f.u8() == 0xff ? f.below(33) : (xts ? 16 : block);
    if (c.op >= AEAD_SEAL && c.op <= AEAD_ROUNDTRIP)
        c.iv_len = 1 + f.below(20);
    c.aead_mode = f.flag() ? KCIPHER_MODE_GCM : KCIPHER_MODE_CCM;
    c.mac_mode = f.flag() ? KCIPHER_MODE_CMAC : KCIPHER_MODE_GMAC;
    if (c.op == MAC && c.mac_mode == KCIPHER_MODE_CMAC && f.u8() != 0xff)
        c.iv_len = 0;
    c.tag_len = f.below(18);
    c.len = f.below(f.flag() ? 4097 : 129);
    c.in_off = f.below(64);
    c.out_off = f.below(64);
    c.in_place = f.u8() < 64;
    c.block_offset = f.flag() ? f.u64() : f.u8();
    c.data_unit = f.flag() ? 0 : f.below(c.len + 1);
    c.out_cap = c.len + f.below(2 * block + 1); // around what padding needs, both sides
    if (f.flag())
        c.out_cap -= std::min(c.out_cap, f.below(2 * block));
    c.aad = f.sized_bytes(64);
    c.aad_len = c.aad.size();
    std::vector<uint8_t> iv = f.bytes(c.iv_len);
    std::vector<uint8_t> input = f.bytes(c.len);

    const std::string name = std::string(cipher.name) + (xts ? "-xts" : "");
    Side fast, ref;
    kcipher_status made = kcipher_new(&fast.ctx, name.c_str(), key.data(), key.size(), kernel.c_str());
    kcipher_status made_ref =
        kcipher_new(&ref.ctx, name.c_str(), key.data(), key.size(), kcfuzz::reference_kernel(cipher).c_str());
    KCFUZZ_CHECK(made == made_ref, kernel.c_str());
    if (made != KCIPHER_OK)
        return 0;
    kcipher_set_threads(fast.ctx, 1);
    kcipher_set_threads(ref.ctx, 1);

    const size_t out_bytes = output_bytes(c);
    if (c.in_place && out_bytes > c.len)
        c.in_place = false; // in place only where out is no longer than in
    for (Side *s : {&fast, &ref}) {
        s->in.assign(c.in_off + c.len, 0xa5);
        std::copy(input.begin(), input.end(), s->in.begin() + c.in_off);
        s->out.assign(c.out_off + out_bytes, 0x5a);
        s->iv = iv;
        run(*s, c);
    }
    KCFUZZ_CHECK(fast.st == ref.st, kernel.c_str());
    KCFUZZ_CHECK(fast.st2 == ref.st2, kernel.c_str());
    KCFUZZ_CHECK(fast.in == ref.in, kernel.c_str());
    KCFUZZ_CHECK(fast.out == ref.out, kernel.c_str());
    KCFUZZ_CHECK(fast.iv == ref.iv, kernel.c_str());
    KCFUZZ_CHECK(fast.out_len == ref.out_len, kernel.c_str());
    if (c.op == AEAD_OPEN && fast.st == KCIPHER_ERR_AUTH) // no unverified plaintext released
        for (size_t i = 0; i < out_bytes; i++)
            KCFUZZ_CHECK(out_ptr(fast, c)[i] == 0, kernel.c_str());
    return 0;
}
