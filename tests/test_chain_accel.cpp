// The chains' loops (kit/chain_accel.hpp): every ChainAccel this machine runs gives, for CBC
// (with and without output), CFB and OFB, the bytes of the same chain written a block at a time
// over its kernel's encrypt_blocks, on every count from 0 to past a few blocks and a long one,
// in place and out of place, with the register left as the next call needs it. A wrong XOR, a
// register not carried from one block or one call to the next, or a wrong output fails here;
// the modes' own tests (test_aead.cpp, test_feedback_modes.cpp, test_aria_modes.cpp) then check
// the chains against OpenSSL through contexts that use them.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/key_state.hpp"
#include "dispatch/registry.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using kct::random_bytes;

enum class Chain { cbc, cbc_mac, cfb, ofb };

// The chain written a block at a time over the kernel: out[i] as the mode defines it, x updated.
void by_hand(const kc::Kernel &k, const void *keys, size_t bs, Chain c, uint8_t *x, const uint8_t *in, uint8_t *out,
             size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = in + bs * i;
        uint8_t t[16];
        switch (c) {
        case Chain::cbc:
        case Chain::cbc_mac:
            for (size_t j = 0; j < bs; j++)
                x[j] ^= p[j];
            k.encrypt_blocks(keys, x, x, 1);
            if (c == Chain::cbc)
                std::memcpy(out + bs * i, x, bs);
            break;
        case Chain::cfb:
            k.encrypt_blocks(keys, x, x, 1);
            for (size_t j = 0; j < bs; j++)
                x[j] ^= p[j];
            std::memcpy(out + bs * i, x, bs);
            break;
        case Chain::ofb:
            k.encrypt_blocks(keys, x, x, 1);
            for (size_t j = 0; j < bs; j++)
                t[j] = (uint8_t)(p[j] ^ x[j]);
            std::memcpy(out + bs * i, t, bs);
            break;
        }
    }
}

void run(const kc::ChainAccel &a, const void *keys, Chain c, uint8_t *x, const uint8_t *in, uint8_t *out, size_t n)
{
    switch (c) {
    case Chain::cbc: a.cbc(keys, x, in, out, n); break;
    case Chain::cbc_mac: a.cbc(keys, x, in, nullptr, n); break;
    case Chain::cfb: a.cfb(keys, x, in, out, n); break;
    case Chain::ofb: a.ofb(keys, x, in, out, n); break;
    }
}

TEST(ChainAccel, LoopsEqualTheKernelABlockAtATime)
{
    int checked = 0;
    for (const kct::KernelCipher &kc_ : kct::all_kernel_ciphers()) {
        const kc::ChainAccel *a = kc::chain_accel_for(*kc_.kernel);
        if (a == nullptr)
            continue;
        ASSERT_EQ(a->kernel, kc_.kernel);
        const size_t bs = kc::cipher_desc(kc_.cipher).block_bytes;
        const Bytes key = random_bytes(kc::cipher_desc(kc_.cipher).key_bytes, 70 + (uint64_t)kc_.cipher);
        kc::KeyState ks;
        ASSERT_TRUE(ks.init(*kc_.kernel, kc_.cipher, key.data()));
        for (Chain c : {Chain::cbc, Chain::cbc_mac, Chain::cfb, Chain::ofb}) {
            for (size_t n : {0, 1, 2, 3, 7, 64}) {
                const Bytes in = random_bytes(bs * n, 300 + n), x0 = random_bytes(bs, 400 + n);
                Bytes want(bs * n), wx = x0;
                by_hand(*kc_.kernel, ks.get(), bs, c, wx.data(), in.data(), want.data(), n);
                Bytes out(bs * n), x = x0;
                run(*a, ks.get(), c, x.data(), in.data(), out.data(), n);
                const std::string what = std::string(kc_.kernel->name) + " " + kc::cipher_desc(kc_.cipher).name +
                                         " chain " + std::to_string((int)c) + ", " + std::to_string(n) + " blocks";
                EXPECT_EQ(x, wx) << what << ": register";
                if (c != Chain::cbc_mac)
                    EXPECT_EQ(out, want) << what;
                Bytes inplace = in, y = x0; // in place, and in two calls: the register carries over
                run(*a, ks.get(), c, y.data(), inplace.data(), inplace.data(), n / 2);
                run(*a, ks.get(), c, y.data(), inplace.data() + bs * (n / 2), inplace.data() + bs * (n / 2), n - n / 2);
                EXPECT_EQ(y, wx) << what << ": register, in place in two calls";
                if (c != Chain::cbc_mac)
                    EXPECT_EQ(inplace, want) << what << ", in place in two calls";
                checked++;
            }
        }
    }
    EXPECT_GT(checked, 0) << "no chain kernel with loops: LEA's lea/ref has them on every machine";
}

} // namespace
