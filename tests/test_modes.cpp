// Every kernel in the registry, through the modes and the C API, against the reference
// kernel of its cipher: random keys, lengths from 0 to several KiB, unaligned and in-place
// buffers, CTR counters that carry across 32- and 64-bit word boundaries and wrap at
// 2^(8*block), slices of a stream at block offsets, CBC in pieces, and thread counts.
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <random>

#include "kcipher/kcipher.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using kct::KernelCipher;

// memcmp with n == 0 may still not be given a null pointer (an empty vector's data()).
bool same_bytes(const uint8_t *a, const uint8_t *b, size_t n) { return n == 0 || std::memcmp(a, b, n) == 0; }

class ModesVsReference : public ::testing::TestWithParam<KernelCipher> {
  protected:
    void SetUp() override
    {
        if (!kc::kernel_runnable(*GetParam().kernel))
            GTEST_SKIP() << GetParam().kernel->name << " needs " << kc::feature_names(GetParam().kernel->requires)
                         << ", which this machine lacks";
        d = &kc::cipher_desc(GetParam().cipher);
        bs = d->block_bytes;
    }
    kcipher::Cipher make(const Bytes &key, const char *kernel) const { return kcipher::Cipher(d->name, key, kernel); }
    kcipher::Cipher fast(const Bytes &key) const { return make(key, GetParam().kernel->name); }
    kcipher::Cipher ref(const Bytes &key) const { return make(key, kc::reference_kernel(d->id)->name); }
    Bytes key(uint64_t seed) const { return kct::random_bytes(d->key_bytes, seed); }

    const kc::CipherDesc *d = nullptr;
    size_t bs = 0;
};

TEST_P(ModesVsReference, EcbAllLengthsUnalignedAndInPlace)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        Bytes k = key(seed);
        auto a = fast(k), r = ref(k);
        for (size_t nb : {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 300, 513}) {
            size_t len = nb * bs;
            Bytes pt = kct::random_bytes(len + 8, seed * 1000 + nb);
            for (size_t shift : {0, 1, 3}) { // unaligned input and output
                Bytes out(len + 8), want(len);
                r.ecb_encrypt(pt.data() + shift, want.data(), len);
                a.ecb_encrypt(pt.data() + shift, out.data() + (3 - shift), len);
                ASSERT_TRUE(same_bytes(out.data() + (3 - shift), want.data(), len)) << nb << " blocks, shift " << shift;
                Bytes back(len);
                a.ecb_decrypt(want.data(), back.data(), len);
                ASSERT_TRUE(same_bytes(back.data(), pt.data() + shift, len));
            }
            Bytes inplace(pt.begin(), pt.begin() + len);
            a.ecb_encrypt(inplace.data(), inplace.data(), len);
            ASSERT_EQ(inplace, r.ecb_encrypt(Bytes(pt.begin(), pt.begin() + len)));
            a.ecb_decrypt(inplace.data(), inplace.data(), len);
            ASSERT_TRUE(same_bytes(inplace.data(), pt.data(), len));
        }
    }
}

TEST_P(ModesVsReference, CbcInPiecesAndInPlace)
{
    Bytes k = key(7), iv = kct::random_bytes(bs, 8);
    auto a = fast(k), r = ref(k);
    for (size_t nb : {1, 2, 5, 64, 65, 129, 700}) {
        Bytes pt = kct::random_bytes(nb * bs, nb);
        Bytes want = r.cbc_encrypt(iv, pt);
        ASSERT_EQ(want, a.cbc_encrypt(iv, pt)) << nb;
        ASSERT_EQ(pt, a.cbc_decrypt(iv, want)) << nb;
        // The same message in two calls, chaining through the updated IV, in place.
        size_t cut = nb / 3 * bs;
        Bytes buf = pt, v = iv;
        a.cbc_encrypt(v.data(), buf.data(), buf.data(), cut);
        a.cbc_encrypt(v.data(), buf.data() + cut, buf.data() + cut, pt.size() - cut);
        ASSERT_EQ(want, buf);
        ASSERT_EQ(Bytes(want.end() - bs, want.end()), v) << "IV after the call is the last ciphertext block";
        v = iv;
        a.cbc_decrypt(v.data(), buf.data(), buf.data(), cut);
        a.cbc_decrypt(v.data(), buf.data() + cut, buf.data() + cut, pt.size() - cut);
        ASSERT_EQ(pt, buf);
    }
}

// Counter blocks where adding a few blocks carries across 32-bit and 64-bit word
// boundaries and past the top (wrap to zero), in the block's own width.
std::vector<Bytes> edge_counters(size_t bs)
{
    std::vector<Bytes> v;
    Bytes c(bs, 0);
    v.push_back(c);
    c.assign(bs, 0xff); // wraps at once
    v.push_back(c);
    c.assign(bs, 0xff);
    c[bs - 1] = 0xfa;
    v.push_back(c); // wraps after 5 blocks
    c.assign(bs, 0);
    for (size_t i = bs - 4; i < bs; i++)
        c[i] = 0xff;
    c[bs - 1] = 0xfd;
    v.push_back(c); // low 32-bit word about to carry
    if (bs == 16) {
        c.assign(bs, 0x11);
        for (size_t i = 8; i < 16; i++)
            c[i] = 0xff;
        v.push_back(c); // low 64-bit word about to carry into the high half
    }
    v.push_back(kct::random_bytes(bs, 99));
    return v;
}

// The reference's keystream for blocks [first, first+n) of the stream from ctr0, built one
// block at a time with the reference ECB and a counter computed independently here.
Bytes reference_keystream(const kcipher::Cipher &r, Bytes ctr0, uint64_t first, size_t n, size_t bs)
{
    // ctr0 + first, big-endian, mod 2^(8 bs)
    unsigned carry = 0;
    uint64_t add = first;
    for (size_t i = bs; i-- > 0;) {
        unsigned s = ctr0[i] + (unsigned)(add & 0xff) + carry;
        ctr0[i] = (uint8_t)s;
        carry = s >> 8;
        add >>= 8;
    }
    Bytes ks;
    for (size_t b = 0; b < n; b++) {
        Bytes blk = r.ecb_encrypt(ctr0);
        ks.insert(ks.end(), blk.begin(), blk.end());
        for (size_t i = bs; i-- > 0;)
            if (++ctr0[i] != 0)
                break;
    }
    return ks;
}

TEST_P(ModesVsReference, CtrCarriesWrapsAndOffsets)
{
    Bytes k = key(11);
    auto a = fast(k), r = ref(k);
    for (const Bytes &ctr : edge_counters(bs)) {
        for (size_t len : {0, 1, 5, 16, 17, 100, 1000, 4099}) {
            for (uint64_t offset : {uint64_t(0), uint64_t(3), uint64_t(0xffffffff), ~uint64_t(0) - 70}) {
                size_t nblk = (len + bs - 1) / bs;
                if (bs == 8 && nblk != 0 && offset > ~uint64_t(0) - nblk + 1)
                    continue; // past the 64-bit counter space: an error, tested in test_api
                Bytes pt = kct::random_bytes(len, len + offset);
                Bytes ks = reference_keystream(r, ctr, offset, nblk, bs);
                Bytes want(len);
                for (size_t i = 0; i < len; i++)
                    want[i] = pt[i] ^ ks[i];
                ASSERT_EQ(want, a.ctr_xor(ctr, pt, offset))
                    << "ctr " << kct::tohex(ctr) << " offset " << offset << " len " << len;
            }
        }
    }
}

TEST_P(ModesVsReference, CtrSlicesEqualTheWholeStream)
{
    Bytes k = key(12), ctr = edge_counters(bs)[2];
    auto a = fast(k);
    Bytes pt = kct::random_bytes(50 * bs + 3, 5);
    Bytes whole = a.ctr_xor(ctr, pt);
    for (size_t first : {0, 1, 4, 5, 6, 49, 50}) { // slices that straddle the wrap
        Bytes slice(pt.begin() + first * bs, pt.end());
        Bytes got = a.ctr_xor(ctr, slice, first);
        ASSERT_EQ(Bytes(whole.begin() + first * bs, whole.end()), got) << first;
    }
    // Unaligned and in place.
    Bytes buf(pt.size() + 1);
    std::memcpy(buf.data() + 1, pt.data(), pt.size());
    a.ctr_xor(ctr.data(), 0, buf.data() + 1, buf.data() + 1, pt.size());
    ASSERT_TRUE(same_bytes(buf.data() + 1, whole.data(), whole.size()));
}

TEST_P(ModesVsReference, ThreadCountNeverChangesTheBytes)
{
    Bytes k = key(13), iv = edge_counters(bs)[3];
    auto one = fast(k), many = fast(k);
    one.set_threads(1);
    many.set_threads(5); // more threads than cores, and an odd count
    // Above the parallel threshold, an odd number of blocks plus a tail.
    Bytes pt = kct::random_bytes((1 << 20) + 77 * bs + 3, 21);
    Bytes pt_blocks(pt.begin(), pt.end() - 3);
    EXPECT_EQ(one.ctr_xor(iv, pt, 123), many.ctr_xor(iv, pt, 123));
    EXPECT_EQ(one.ecb_encrypt(pt_blocks), many.ecb_encrypt(pt_blocks));
    EXPECT_EQ(one.ecb_decrypt(pt_blocks), many.ecb_decrypt(pt_blocks));
    Bytes cbc = one.cbc_encrypt(iv, pt_blocks);
    EXPECT_EQ(cbc, many.cbc_encrypt(iv, pt_blocks));
    EXPECT_EQ(pt_blocks, many.cbc_decrypt(iv, cbc));
    Bytes inplace = cbc; // parallel CBC decryption in place reads blocks other threads overwrite
    Bytes v = iv;
    many.cbc_decrypt(v.data(), inplace.data(), inplace.data(), inplace.size());
    EXPECT_EQ(pt_blocks, inplace);
}

INSTANTIATE_TEST_SUITE_P(AllKernels, ModesVsReference, ::testing::ValuesIn(kct::all_kernel_ciphers()),
                         [](const auto &info) { return kct::test_name(info.param); });

} // namespace
