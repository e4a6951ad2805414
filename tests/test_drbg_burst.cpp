// CTR_DRBG's bursts (src/drbg/burst.hpp) and the kernel entry points they use (the kernel's
// DrbgAccel, kit/drbg_accel.hpp): encrypt_blocks_keyed, keystream_pair and keystream_blocks
// (the DRBG's output) against the reference kernel, a key
// schedule over an older key against a fresh one (the bursts rekey without a wipe in between),
// and every kernel's bursts against Drbg::generate request by request.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/counter.hpp"
#include "core/key_state.hpp"
#include "dispatch/registry.hpp"
#include "drbg/burst.hpp"
#include "drbg/kernel_cipher.hpp"
#include "drbg/segments.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using kc::drbg::Drbg;
using kc::drbg::Span;

// The DRBG's accelerations for the kernel, where this machine runs them (else nullptr).
const kc::DrbgAccel *accel(const kct::KernelCipher &kc_)
{
    return kc_.kernel->gpu == nullptr ? kc::drbg_accel_for(*kc_.kernel) : nullptr;
}

bool burst_kernel(const kct::KernelCipher &kc_)
{
    return accel(kc_) != nullptr && accel(kc_)->encrypt_blocks_keyed != nullptr && kc::kernel_runnable(*kc_.kernel);
}

// The DRBG's accelerations for a kernel (what the C API's DRBG handle asks of the registry).
kc::drbg::Accelerations fast(const kct::KernelCipher &kc_) { return kc::drbg::accelerations_for(*kc_.kernel, kc_.cipher); }

std::string what(const kct::KernelCipher &kc_)
{
    return std::string(kc_.kernel->name) + " " + kc::cipher_desc(kc_.cipher).name;
}

// E_key(block) by the reference kernel.
Bytes reference_encrypt(kc::Cipher c, const uint8_t *key, const uint8_t *block)
{
    const kc::Kernel &ref = *kc::reference_kernel(c);
    kc::KeyState ks;
    EXPECT_TRUE(ks.init(ref, c, key));
    Bytes out(kc::cipher_desc(c).block_bytes);
    ref.encrypt_blocks(ks.get(), block, out.data(), 1);
    return out;
}

TEST(DrbgBurstKernels, KeyedEcbEqualsTheReferenceBlockByBlock)
{
    size_t checked = 0;
    for (const kct::KernelCipher &kc_ : kct::all_kernel_ciphers()) {
        if (!burst_kernel(kc_))
            continue;
        const kc::CipherDesc &d = kc::cipher_desc(kc_.cipher);
        for (size_t n : {size_t(1), size_t(3), size_t(31), size_t(32), size_t(33), size_t(63), size_t(64), size_t(65),
                         size_t(127), size_t(128), size_t(129), size_t(200)}) {
            const Bytes keys = kct::random_bytes(n * d.key_bytes, 10 + n);
            const Bytes in = kct::random_bytes(n * d.block_bytes, 20 + n);
            Bytes out(in.size() + 16, 0xa5); // a guard past the end
            accel(kc_)->encrypt_blocks_keyed(kc_.cipher, keys.data(), in.data(), out.data(), n);
            for (size_t i = 0; i < n; i++) {
                const Bytes want = reference_encrypt(kc_.cipher, &keys[i * d.key_bytes], &in[i * d.block_bytes]);
                ASSERT_EQ(0, std::memcmp(want.data(), &out[i * d.block_bytes], d.block_bytes))
                    << what(kc_) << " n " << n << " block " << i;
            }
            for (size_t i = in.size(); i < out.size(); i++)
                ASSERT_EQ(out[i], 0xa5) << what(kc_) << " wrote past block " << n;
            // In place, as the bursts call it.
            Bytes inplace = in;
            accel(kc_)->encrypt_blocks_keyed(kc_.cipher, keys.data(), inplace.data(), inplace.data(), n);
            EXPECT_EQ(0, std::memcmp(inplace.data(), out.data(), in.size())) << what(kc_) << " in place";
        }
        checked++;
    }
    if (checked == 0)
        GTEST_SKIP() << "no runnable kernel with encrypt_blocks_keyed";
}

// The counters: random, and just below a carry out of the low 16 bits and out of the block.
std::vector<Bytes> test_counters(size_t bs)
{
    std::vector<Bytes> v;
    for (uint64_t s = 1; s <= 3; s++)
        v.push_back(kct::random_bytes(bs, 300 + s));
    Bytes c16 = kct::random_bytes(bs, 310);
    c16[bs - 2] = 0xff, c16[bs - 1] = 0xf0; // crosses 2^16 inside a 64-block run
    v.push_back(c16);
    v.push_back(Bytes(bs, 0xff)); // wraps at once
    return v;
}

TEST(DrbgBurstKernels, KeystreamPairEqualsTheReferenceCtr)
{
    size_t checked = 0;
    for (const kct::KernelCipher &kc_ : kct::all_kernel_ciphers()) {
        const kc::Kernel &k = *kc_.kernel;
        if (!burst_kernel(kc_) || accel(kc_)->keystream_pair == nullptr)
            continue;
        const kc::DrbgAccel &x = *accel(kc_);
        const kc::CipherDesc &d = kc::cipher_desc(kc_.cipher);
        const kc::Kernel &ref = *kc::reference_kernel(kc_.cipher);
        const size_t bytes = x.pair_bytes, half = bytes / d.block_bytes;
        const std::vector<Bytes> ctrs = test_counters(d.block_bytes);
        for (size_t ia = 0; ia < ctrs.size(); ia++) {
            const size_t ib = (ia + 2) % ctrs.size();
            const Bytes ka = kct::random_bytes(d.key_bytes, 400 + ia), kb = kct::random_bytes(d.key_bytes, 500 + ia);
            kc::KeyState sa, sb, ra, rb;
            ASSERT_TRUE(sa.init(k, kc_.cipher, ka.data(), x.set_encrypt_key) && sb.init(k, kc_.cipher, kb.data(), x.set_encrypt_key));
            ASSERT_TRUE(ra.init(ref, kc_.cipher, ka.data()) && rb.init(ref, kc_.cipher, kb.data()));
            const Bytes zeros(bytes, 0);
            Bytes wa(bytes), wb(bytes), ga(bytes), gb(bytes);
            ref.ctr_xor_blocks(ra.get(), ctrs[ia].data(), zeros.data(), wa.data(), half);
            ref.ctr_xor_blocks(rb.get(), ctrs[ib].data(), zeros.data(), wb.data(), half);
            x.keystream_pair(sa.get(), ctrs[ia].data(), ga.data(), sb.get(), ctrs[ib].data(), gb.data());
            EXPECT_EQ(ga, wa) << what(kc_) << " run a, counter " << ia;
            EXPECT_EQ(gb, wb) << what(kc_) << " run b, counter " << ib;
            x.keystream_pair(sb.get(), ctrs[ib].data(), gb.data(), sa.get(), ctrs[ia].data(), ga.data());
            EXPECT_EQ(ga, wa) << what(kc_) << " swapped, counter " << ia;
            EXPECT_EQ(gb, wb) << what(kc_) << " swapped, counter " << ib;
        }
        checked++;
    }
    if (checked == 0)
        GTEST_SKIP() << "no runnable kernel with keystream_pair";
}

// DrbgAccel::keystream_blocks against the reference kernel's CTR over zeros: lengths around the
// kernels' steps and their write-prefetch distance, outputs at odd alignments with guards on
// both sides, and counters next to every split a kernel makes (its low 16 and 32 bits, its
// low 64 bits, the whole block).
TEST(DrbgBurstKernels, KeystreamBlocksEqualsTheReferenceCtr)
{
    size_t checked = 0;
    for (const kct::KernelCipher &kc_ : kct::all_kernel_ciphers()) {
        const kc::Kernel &k = *kc_.kernel;
        if (accel(kc_) == nullptr || accel(kc_)->keystream_blocks == nullptr || !kc::kernel_runnable(k))
            continue;
        const kc::DrbgAccel &x = *accel(kc_);
        const kc::CipherDesc &d = kc::cipher_desc(kc_.cipher);
        const size_t bs = d.block_bytes;
        const kc::Kernel &ref = *kc::reference_kernel(kc_.cipher);
        const Bytes key = kct::random_bytes(d.key_bytes, 600 + checked);
        kc::KeyState s, r;
        ASSERT_TRUE(s.init(k, kc_.cipher, key.data(), x.set_encrypt_key) && r.init(ref, kc_.cipher, key.data()));
        std::vector<Bytes> ctrs = test_counters(bs);
        for (size_t low : {size_t(4), size_t(8)}) { // 2^32 and 2^64 come inside a run
            Bytes c = kct::random_bytes(bs, 610 + low);
            std::memset(&c[bs - low], 0xff, low);
            c[bs - 1] = 0x80;
            ctrs.push_back(c);
        }
        const size_t guard = 64;
        for (size_t n : {size_t(0), size_t(1), size_t(15), size_t(16), size_t(17), size_t(63), size_t(64), size_t(65),
                         size_t(127), size_t(128), size_t(129), size_t(191), size_t(192), size_t(193), size_t(1000),
                         size_t(4101)}) {
            for (size_t ic = 0; ic < ctrs.size(); ic++) {
                const size_t at = guard + (n + ic) % 4 * 9; // offsets 0, 9, 18, 27 past a 64-byte line
                const Bytes zeros(n * bs, 0);
                Bytes want(n * bs), got(n * bs + at + guard, 0x5a);
                ref.ctr_xor_blocks(r.get(), ctrs[ic].data(), zeros.data(), want.data(), n);
                x.keystream_blocks(s.get(), ctrs[ic].data(), got.data() + at, n);
                ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin() + at)) // n = 0 too: no memcmp of null
                    << what(kc_) << " n " << n << " counter " << ic;
                for (size_t i = 0; i < got.size(); i++)
                    if (i < at || i >= at + want.size())
                        ASSERT_EQ(got[i], 0x5a) << what(kc_) << " n " << n << " wrote byte " << i << " of the guards";
            }
        }
        checked++;
    }
    if (checked == 0)
        GTEST_SKIP() << "no runnable kernel with keystream_blocks";
}

// The bursts rekey their key states in place: a schedule over an older key must leave the
// same bytes as one over zeroed storage.
TEST(DrbgBurstKernels, RekeyInPlaceLeavesNothingOfTheOldKey)
{
    size_t checked = 0;
    for (const kct::KernelCipher &kc_ : kct::all_kernel_ciphers()) {
        if (!burst_kernel(kc_))
            continue;
        const kc::Kernel &k = *kc_.kernel;
        const kc::CipherDesc &d = kc::cipher_desc(kc_.cipher);
        auto schedule = accel(kc_)->set_encrypt_key != nullptr ? accel(kc_)->set_encrypt_key : k.set_key;
        const size_t n = (k.key_state_bytes + 63) / 64 * 64;
        void *fresh = std::aligned_alloc(64, n), *reused = std::aligned_alloc(64, n);
        ASSERT_TRUE(fresh != nullptr && reused != nullptr);
        std::memset(fresh, 0, n);
        std::memset(reused, 0, n);
        const Bytes a = kct::random_bytes(d.key_bytes, 600), b = kct::random_bytes(d.key_bytes, 601);
        schedule(reused, kc_.cipher, a.data());
        schedule(reused, kc_.cipher, b.data());
        schedule(fresh, kc_.cipher, b.data());
        EXPECT_EQ(0, std::memcmp(fresh, reused, n)) << what(kc_);
        std::free(fresh);
        std::free(reused);
        checked++;
    }
    if (checked == 0)
        GTEST_SKIP() << "no runnable kernel with encrypt_blocks_keyed";
}

void seed(Drbg &d, uint64_t s)
{
    const kc::drbg::Limits &lim = d.limits();
    Bytes e = kct::random_bytes(lim.key_bytes + 8, s), nonce = kct::random_bytes(8, s + 1);
    Span es{e.data(), e.size()};
    ASSERT_EQ(d.instantiate(&es, {nonce.data(), nonce.size()}, {}), KCIPHER_OK);
}

// Every kernel with bursts, both DRBGs seeded alike: large outputs (bursts, and the request
// by request path for what a burst cannot take) against generate() request by request,
// bytes and the state after.
TEST(DrbgBurst, EqualsRequestByRequestOnEveryKernel)
{
    size_t checked = 0;
    for (const kct::KernelCipher &kc_ : kct::all_kernel_ciphers()) {
        if (!burst_kernel(kc_))
            continue;
        for (size_t requests : {size_t(8), size_t(9), size_t(21), size_t(22), size_t(43), size_t(100)}) {
            const kc::drbg::Accelerations f = fast(kc_);
            Drbg a(std::make_unique<kc::drbg::KernelCipher>(f), true);
            Drbg b(std::make_unique<kc::drbg::KernelCipher>(f), true);
            seed(a, 700 + requests);
            seed(b, 700 + requests);
            const size_t max = a.limits().max_request_bytes;
            for (size_t len : {requests * max, requests * max + 5}) {
                ASSERT_GT(kc::drbg::burst_requests(b, f, len / max, false), 0u) << what(kc_);
                Bytes want(len), got(len);
                for (size_t done = 0; done < len; done += max)
                    ASSERT_EQ(a.generate(&want[done], std::min(max, len - done), {}, false), KCIPHER_OK);
                ASSERT_EQ(kc::drbg::generate_large_cpu(b, f, got.data(), len, false, 1), KCIPHER_OK);
                ASSERT_TRUE(got == want) << what(kc_) << " " << requests << " requests, " << len << " bytes";
                EXPECT_EQ(a.reseed_counter(), b.reseed_counter());
                Bytes x(40), y(40);
                ASSERT_EQ(a.generate(x.data(), x.size(), {}, false), KCIPHER_OK);
                ASSERT_EQ(b.generate(y.data(), y.size(), {}, false), KCIPHER_OK);
                EXPECT_EQ(x, y) << what(kc_) << ": state after";
            }
        }
        checked++;
    }
    if (checked == 0)
        GTEST_SKIP() << "no runnable kernel with bursts";
}

// A burst stops at the reseed interval; no burst with prediction resistance or for fewer
// requests than pay for one; generate_burst refuses what burst_requests would not allow.
TEST(DrbgBurst, LimitsAndMisuse)
{
    const kc::Kernel *k = kc::best_cpu_kernel(kc::Cipher::hight);
    const kc::drbg::Accelerations f = kc::drbg::accelerations_for(*k, kc::Cipher::hight);
    if (!f.bursts())
        GTEST_SKIP() << k->name << " has no bursts";
    Drbg d(std::make_unique<kc::drbg::KernelCipher>(f), true);
    EXPECT_EQ(kc::drbg::burst_requests(d, f, 100, false), 0u) << "not instantiated";
    seed(d, 800);
    EXPECT_EQ(kc::drbg::burst_requests(d, f, 100, true), 0u) << "prediction resistance";
    EXPECT_EQ(kc::drbg::burst_requests(d, f, 7, false), 0u) << "too few to pay for a burst";
    EXPECT_EQ(kc::drbg::burst_requests(d, f, 100, false), 100u);
    ASSERT_EQ(d.set_reseed_interval(20), KCIPHER_OK);
    EXPECT_EQ(kc::drbg::burst_requests(d, f, 100, false), 20u) << "up to the interval";
    Bytes out(100 * d.limits().max_request_bytes);
    EXPECT_EQ(kc::drbg::generate_burst(d, f, out.data(), 21), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kc::drbg::generate_burst(d, f, out.data(), 20), KCIPHER_OK);
    EXPECT_EQ(d.reseed_counter(), 21u);
    EXPECT_EQ(kc::drbg::burst_requests(d, f, 100, false), 0u) << "a reseed is due";
    d.set_entropy_source(nullptr, nullptr);
    EXPECT_EQ(kc::drbg::generate_large_cpu(d, f, out.data(), out.size(), false, 1), KCIPHER_ERR_DRBG_RESEED_REQUIRED);
}

} // namespace
