// DrbgAccel::set_encrypt_key (the layout CTR_DRBG keys, without decryption keys) must give the
// same encryption and CTR bytes as set_key, for every kernel that has one, on random keys and
// lengths across a batch boundary.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/key_state.hpp"
#include "dispatch/registry.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

namespace {

TEST(EncryptKey, SameBytesAsTheFullKeyLayout)
{
    size_t checked = 0;
    for (const kct::KernelCipher &kc_ : kct::all_kernel_ciphers()) {
        const kc::Kernel &k = *kc_.kernel;
        const kc::DrbgAccel *x = k.gpu == nullptr ? kc::drbg_accel_for(k) : nullptr;
        if (x == nullptr || x->set_encrypt_key == nullptr || !kc::kernel_runnable(k))
            continue;
        const kc::CipherDesc &d = kc::cipher_desc(kc_.cipher);
        for (uint64_t seed = 1; seed <= 4; seed++) {
            const std::vector<uint8_t> key = kct::random_bytes(d.key_bytes, seed);
            const size_t n = 2 * k.batch_blocks + seed;
            const std::vector<uint8_t> in = kct::random_bytes(n * d.block_bytes, seed + 100);
            const std::vector<uint8_t> ctr = kct::random_bytes(d.block_bytes, seed + 200);
            kc::KeyState full, enc;
            ASSERT_TRUE(full.init(k, kc_.cipher, key.data()));
            ASSERT_TRUE(enc.init(k, kc_.cipher, key.data(), x->set_encrypt_key));
            // The encryption-only layout really is the other one (no decryption keys), so the
            // byte comparisons below test it rather than set_key twice.
            ASSERT_EQ(full.size(), enc.size());
            EXPECT_NE(std::memcmp(full.get(), enc.get(), full.size()), 0) << k.name << " " << d.name;
            std::vector<uint8_t> a(in.size()), b(in.size());
            k.encrypt_blocks(full.get(), in.data(), a.data(), n);
            k.encrypt_blocks(enc.get(), in.data(), b.data(), n);
            EXPECT_EQ(a, b) << k.name << " " << d.name << " ECB";
            k.ctr_xor_blocks(full.get(), ctr.data(), in.data(), a.data(), n);
            k.ctr_xor_blocks(enc.get(), ctr.data(), in.data(), b.data(), n);
            EXPECT_EQ(a, b) << k.name << " " << d.name << " CTR";
            checked++;
        }
    }
    // Every ARIA SIMD kernel has one; on a machine with none of them this test checks nothing.
    if (checked == 0)
        GTEST_SKIP() << "no runnable kernel with an encryption-only key layout";
}

} // namespace
