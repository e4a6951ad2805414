// One known answer through a kernel's own entry points, the same way for every family with
// the standard's block layout (test_aria_kat.cpp, test_lea_kat.cpp, test_hight_kat.cpp; CHAM
// has its own, for Crypto++'s word order): ECB both ways out of place and in place, CBC
// chained by hand, CTR over any length. The block size comes from the cipher.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/cipher.hpp"
#include "core/counter.hpp"
#include "support/keyed_kernel.hpp"
#include "support/vectors.hpp"

namespace kct {

inline std::string where(const char *file, const Record &r) { return std::string(file) + ":" + std::to_string(r.line); }

inline testing::AssertionResult ecb_matches(const kc::Kernel *k, kc::Cipher c, const std::vector<uint8_t> &key,
                                            const std::vector<uint8_t> &pt, const std::vector<uint8_t> &ct)
{
    const size_t bs = kc::cipher_desc(c).block_bytes;
    if (pt.empty() || pt.size() % bs != 0 || pt.size() != ct.size())
        return testing::AssertionFailure() << "malformed vector";
    KeyedKernel kk(k, c, key);
    std::string enc = tohex(kk.encrypt(pt)), dec = tohex(kk.decrypt(ct));
    if (enc != tohex(ct))
        return testing::AssertionFailure() << "encrypt gave " << enc << ", expected " << tohex(ct);
    if (dec != tohex(pt))
        return testing::AssertionFailure() << "decrypt gave " << dec << ", expected " << tohex(pt);
    std::vector<uint8_t> buf = pt; // in == out is part of the kernel contract
    k->encrypt_blocks(kk.ks.get(), buf.data(), buf.data(), buf.size() / bs);
    if (buf != ct)
        return testing::AssertionFailure() << "in-place encrypt gave " << tohex(buf);
    k->decrypt_blocks(kk.ks.get(), buf.data(), buf.data(), buf.size() / bs);
    if (buf != pt)
        return testing::AssertionFailure() << "in-place decrypt gave " << tohex(buf);
    return testing::AssertionSuccess();
}

// C_j = E(P_j ^ C_{j-1}) one block at a time, C_{-1} = IV; and P_j = D(C_j) ^ C_{j-1} with
// all blocks through one multi-block decrypt call.
inline testing::AssertionResult cbc_matches(const kc::Kernel *k, kc::Cipher c, const std::vector<uint8_t> &key,
                                            const std::vector<uint8_t> &iv, const std::vector<uint8_t> &pt,
                                            const std::vector<uint8_t> &ct)
{
    const size_t bs = kc::cipher_desc(c).block_bytes;
    if (pt.empty() || pt.size() % bs != 0 || pt.size() != ct.size() || iv.size() != bs)
        return testing::AssertionFailure() << "malformed vector";
    KeyedKernel kk(k, c, key);
    std::vector<uint8_t> enc(pt.size()), x(bs);
    for (size_t off = 0; off < pt.size(); off += bs) {
        const uint8_t *prev = off == 0 ? iv.data() : enc.data() + off - bs;
        for (size_t i = 0; i < bs; i++)
            x[i] = pt[off + i] ^ prev[i];
        k->encrypt_blocks(kk.ks.get(), x.data(), enc.data() + off, 1);
    }
    if (enc != ct)
        return testing::AssertionFailure() << "CBC gave " << tohex(enc) << ", expected " << tohex(ct);
    std::vector<uint8_t> dec = kk.decrypt(ct);
    for (size_t off = 0; off < dec.size(); off += bs)
        for (size_t i = 0; i < bs; i++)
            dec[off + i] ^= off == 0 ? iv[i] : ct[off - bs + i];
    if (dec != pt)
        return testing::AssertionFailure() << "CBC back gave " << tohex(dec);
    return testing::AssertionSuccess();
}

// CTR over any length: whole blocks through the kernel, then the tail XORed with
// E(ctr0 + nblocks), the counter advanced by core/counter.hpp's big-endian addition.
inline std::vector<uint8_t> ctr_any_length(const KeyedKernel &kk, const std::vector<uint8_t> &iv,
                                           const std::vector<uint8_t> &in)
{
    const size_t bs = kk.bs, whole = in.size() / bs;
    std::vector<uint8_t> out(in.size());
    kk.k->ctr_xor_blocks(kk.ks.get(), iv.data(), in.data(), out.data(), whole);
    if (whole * bs < in.size()) {
        std::vector<uint8_t> ctr = iv, ks(bs);
        kc::counter_add(ctr.data(), bs, whole);
        kk.k->encrypt_blocks(kk.ks.get(), ctr.data(), ks.data(), 1);
        for (size_t i = whole * bs; i < in.size(); i++)
            out[i] = in[i] ^ ks[i - whole * bs];
    }
    return out;
}

// CTR both ways.
inline testing::AssertionResult ctr_matches(const kc::Kernel *k, kc::Cipher c, const std::vector<uint8_t> &key,
                                            const std::vector<uint8_t> &iv, const std::vector<uint8_t> &pt,
                                            const std::vector<uint8_t> &ct)
{
    if (pt.empty() || pt.size() != ct.size() || iv.size() != kc::cipher_desc(c).block_bytes)
        return testing::AssertionFailure() << "malformed vector";
    KeyedKernel kk(k, c, key);
    std::string enc = tohex(ctr_any_length(kk, iv, pt)), dec = tohex(ctr_any_length(kk, iv, ct));
    if (enc != tohex(ct))
        return testing::AssertionFailure() << "CTR gave " << enc << ", expected " << tohex(ct);
    if (dec != tohex(pt))
        return testing::AssertionFailure() << "CTR back gave " << dec << ", expected " << tohex(pt);
    return testing::AssertionSuccess();
}

} // namespace kct
