// The ARIA T-table CUDA kernels without a GPU: their tables, layouts and block transform
// (aria_cuda_table.cuh) are __host__ __device__ and the kernels call exactly these functions,
// so running them here against aria/ref checks the GPU kernels' arithmetic. Each shared
// layout's image is built by its own fill(), thread by thread as a CUDA block would, and
// every lane's copy is read. Covered: the compile-time tables against aria_sb1..4, the bank
// of every x32 lookup, ECB both ways and the CTR keystream (with the host precomputation)
// for ARIA-128/192/256.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "aria/aria.hpp"
#include "aria/aria_cuda_table.cuh"
#include "core/kernel.hpp"
#include "dispatch/registry.hpp"

namespace {

using namespace kc;
using namespace kc::aria_cuda;

const Cipher ciphers[] = {Cipher::aria128, Cipher::aria192, Cipher::aria256};

// aria/ref, the oracle.
struct Ref {
    const Kernel *k = find_kernel("aria/ref");
    std::vector<uint8_t> state;
    Ref(Cipher c, const uint8_t *key) : state(k->key_state_bytes + 64)
    {
        k->set_key(aligned(), c, key);
    }
    void *aligned() { return state.data() + (64 - reinterpret_cast<uintptr_t>(state.data()) % 64) % 64; }
    void encrypt(const uint8_t in[16], uint8_t out[16]) { k->encrypt_blocks(aligned(), in, out, 1); }
};

// A shared-memory image as the CUDA block's threads leave it.
template <class Tab, class Src> std::vector<uint32_t> image(const Src &src, unsigned threads)
{
    std::vector<uint32_t> mem((Tab::bytes + 3) / 4, 0xdeadbeefu); // unfilled words stay marked
    for (unsigned tid = 0; tid < threads; tid++)
        Tab::fill(reinterpret_cast<uint8_t *>(mem.data()), src, tid, threads);
    return mem;
}

void to_words(const uint8_t *b, uint32_t w[4])
{
    for (int j = 0; j < 4; j++)
        w[j] = cuda::load_le32(b + 4 * j);
}

void to_bytes(const uint32_t w[4], uint8_t *b)
{
    for (int j = 0; j < 4; j++)
        cuda::store_le32(b + 4 * j, w[j]);
}

template <int R, class Tab, class Key> void crypt(const Tab &tab, const Key (*k)[4], uint8_t blk[16])
{
    uint32_t w[4];
    to_words(blk, w);
    crypt_block<R>(tab, k, w);
    to_bytes(w, blk);
}

template <int R, class Tab, class Key>
void keystream(const Tab &tab, const Key (*k)[4], const AriaCtrPre &pre, uint32_t ctr_lo, uint8_t out[16])
{
    uint32_t w[4];
    ctr_keystream<R>(tab, k, pre, ctr_lo, w);
    to_bytes(w, out);
}

// ECB both ways (decryption checked as the inverse of aria/ref's encryption) and the CTR
// keystream, for one table view and one key.
template <int R, class Tab, class Key>
void check_one(const Tab &tab, const Key (*ek)[4], const Key (*dk)[4], const AriaCudaKeys &keys, Ref &ref,
               std::mt19937_64 &rng, const char *what)
{
    for (int t = 0; t < 8; t++) {
        uint8_t pt[16], ct[16], got[16];
        for (auto &b : pt)
            b = (uint8_t)rng();
        ref.encrypt(pt, ct);
        std::memcpy(got, pt, 16);
        crypt<R>(tab, ek, got);
        ASSERT_EQ(0, std::memcmp(got, ct, 16)) << what << ": encrypt, " << R << " rounds";
        crypt<R>(tab, dk, got);
        ASSERT_EQ(0, std::memcmp(got, pt, 16)) << what << ": decrypt, " << R << " rounds";

        // CTR: words 0..2 fixed (precomputed on the host), the big-endian low word varies.
        uint32_t ctr_words[4];
        to_words(pt, ctr_words);
        const AriaCtrPre pre = ctr_precompute(HostTab{}, keys, ctr_words);
        const uint32_t base = t == 0 ? 0xffffff00u : (uint32_t)rng();
        for (uint32_t i = 0; i < 4; i++) {
            const uint32_t lo = base + i * (t == 0 ? 0x3fu : 1u);
            uint8_t block[16];
            std::memcpy(block, pt, 12);
            block[12] = (uint8_t)(lo >> 24), block[13] = (uint8_t)(lo >> 16);
            block[14] = (uint8_t)(lo >> 8), block[15] = (uint8_t)lo;
            ref.encrypt(block, ct);
            keystream<R>(tab, ek, pre, lo, got);
            ASSERT_EQ(0, std::memcmp(got, ct, 16)) << what << ": CTR keystream, " << R << " rounds";
        }
    }
}

// Runs check_one for every cipher, random keys, through make_tab(keys) -> table view.
template <class MakeCheck> void for_each_key(MakeCheck check)
{
    std::mt19937_64 rng(7);
    for (Cipher c : ciphers) {
        for (int t = 0; t < 3; t++) {
            uint8_t key[32];
            for (auto &b : key)
                b = (uint8_t)rng();
            Ref ref(c, key);
            AriaRoundKeys rk;
            aria_key_schedule(c, key, &rk);
            AriaCudaKeys keys;
            keys_from_schedule(rk, &keys);
            check(keys, ref, rng);
        }
    }
}

template <class Tab, class Key>
void check_rounds(const Tab &tab, const Key (*ek)[4], const Key (*dk)[4], const AriaCudaKeys &keys, Ref &ref,
                  std::mt19937_64 &rng, const char *what)
{
    switch (keys.rounds) {
    case 12: check_one<12>(tab, ek, dk, keys, ref, rng, what); break;
    case 14: check_one<14>(tab, ek, dk, keys, ref, rng, what); break;
    case 16: check_one<16>(tab, ek, dk, keys, ref, rng, what); break;
    default: FAIL() << "rounds " << keys.rounds;
    }
}

// A layout with a copy per lane: every lane's view, after a fill by `threads` threads.
template <class Tab, class Src> void check_lanes(const Src &src, unsigned threads, const char *what)
{
    const std::vector<uint32_t> mem = image<Tab>(src, threads);
    const uint8_t *m = reinterpret_cast<const uint8_t *>(mem.data());
    for (uint32_t w : mem)
        ASSERT_NE(w, 0xdeadbeefu) << what << ": a word the fill did not write"; // no entry is this
    for_each_key([&](const AriaCudaKeys &keys, Ref &ref, std::mt19937_64 &rng) {
        for (unsigned lane = 0; lane < 32; lane += 3) // 0, 3, ..., 30: every copy of N=16 layouts
            check_rounds(Tab::at(m, lane), keys.ek, keys.dk, keys, ref, rng, what);
    });
}

TEST(AriaCudaHost, CompileTimeSboxesAreTheSpecs)
{
    const uint8_t *const sb[4] = {aria_sb1, aria_sb2, aria_sb3, aria_sb4};
    for (int q = 0; q < 4; q++)
        for (int x = 0; x < 256; x++)
            ASSERT_EQ(host_sboxes.s[q][x], sb[q][x]) << "SB" << q + 1 << "[" << x << "]";
}

TEST(AriaCudaHost, TablesHoldTheSboxes)
{
    const uint8_t *const sb[4] = {aria_sb1, aria_sb2, aria_sb3, aria_sb4};
    for (int x = 0; x < 256; x++) {
        const uint32_t c = host_combined.c[x];
        for (int q = 0; q < 4; q++) {
            const uint32_t s = sb[q][x];
            const uint32_t want = (s << 24 | s << 16 | s << 8 | s) & ~(0xffu << (8 * (3 - q)));
            ASSERT_EQ(host_ttables.t[q][x], want) << "T" << q << "[" << x << "]";
            ASSERT_EQ((c >> (8 * (3 - q))) & 0xff, s);
            ASSERT_EQ(byte_perm(c, 0, expand_sel(q)), want) << "expanded T" << q << "[" << x << "]";
        }
    }
}

// The bank-conflict arguments of the x32 layouts: lane l's lookups are all in bank l, and in
// the 256xN layout copy c of table q is in bank (q*N + c) mod 32.
TEST(AriaCudaHost, LookupOffsetsStayInTheLanesBank)
{
    std::mt19937_64 rng(3);
    for (int t = 0; t < 1000; t++) {
        const uint32_t w = (uint32_t)rng();
        const unsigned lane = (unsigned)(rng() % 32);
        for (int i = 0; i < 4; i++) {
            const uint32_t off = byte_perm(w, lane * 4, index_sel(i));
            ASSERT_EQ(off, ((w >> (8 * i)) & 0xff) << 8 | lane * 4);
            for (uint32_t q_off : {0u, 128u, 65536u, 65536u + 128u}) // 4k-x32's four tables
                ASSERT_EQ((off + q_off) / 4 % 32, lane);
            for (uint32_t q = 0; q < 4; q++) // 256xN, N = 16
                ASSERT_EQ((off - lane * 4 + (lane % 16) * 4 + q * 64) / 4 % 32, (q * 16 + lane % 16) % 32);
        }
    }
}

TEST(AriaCudaHost, FlatTablesMatchTheReference)
{
    for_each_key([](const AriaCudaKeys &keys, Ref &ref, std::mt19937_64 &rng) {
        check_rounds(HostTab{}, keys.ek, keys.dk, keys, ref, rng, "flat tables");
    });
}

// aria/cuda-shared: one copy, round keys in shared memory read through volatile.
TEST(AriaCudaHost, SharedOneCopyMatchesTheReference)
{
    const std::vector<uint32_t> mem = image<SharedOneTab>(host_ttables, 256);
    for_each_key([&](const AriaCudaKeys &keys, Ref &ref, std::mt19937_64 &rng) {
        using VKey = const volatile uint32_t(*)[4];
        check_rounds(SharedOneTab::at(reinterpret_cast<const uint8_t *>(mem.data()), 0), VKey(keys.ek),
                     VKey(keys.dk), keys, ref, rng, "shared");
    });
}

TEST(AriaCudaHost, SharedNx256MatchesTheReference)
{
    check_lanes<SharedNx256Tab<16>>(host_ttables, 1024, "shared-nx256 N=16");
    check_lanes<SharedNx256Tab<8>>(host_ttables, 96, "shared-nx256 N=8");
}

TEST(AriaCudaHost, Shared256xNMatchesTheReference)
{
    check_lanes<Shared256xNTab<16>>(host_ttables, 1024, "shared-256xn N=16");
    check_lanes<Shared256xNTab<8>>(host_ttables, 96, "shared-256xn N=8 (shift-and-mask offsets)");
}

TEST(AriaCudaHost, Combined1kX32MatchesTheReference)
{
    // The 64 KiB layout leaves half of every row unused: fill the image with the marker
    // first, so only the used half is checked.
    std::vector<uint32_t> mem(Combined1kX32Tab<256>::bytes / 4, 0);
    for (unsigned tid = 0; tid < 1024; tid++)
        Combined1kX32Tab<256>::fill(reinterpret_cast<uint8_t *>(mem.data()), host_combined, tid, 1024);
    for (size_t e = 0; e < mem.size(); e++)
        ASSERT_EQ(mem[e], (e % 64) < 32 ? host_combined.c[e / 64] : 0u) << "word " << e;
    const uint8_t *m = reinterpret_cast<const uint8_t *>(mem.data());
    for_each_key([&](const AriaCudaKeys &keys, Ref &ref, std::mt19937_64 &rng) {
        for (unsigned lane = 0; lane < 32; lane += 5)
            check_rounds(Combined1kX32Tab<256>::at(m, lane), keys.ek, keys.dk, keys, ref, rng, "shared-1k-x32");
    });
    check_lanes<Combined1kX32Tab<128>>(host_combined, 96, "shared-1k-x32, dense rows");
}

TEST(AriaCudaHost, TTables4kX32MatchesTheReference)
{
    check_lanes<TTables4kX32Tab>(host_ttables, 1024, "shared-4k-x32");
    check_lanes<TTables4kX32Tab>(host_ttables, 160, "shared-4k-x32, 160 threads");
}

// The descriptors as the lead's runtime sees them (present only in CUDA builds).
TEST(AriaCudaHost, KernelsAreRegistered)
{
    for (const char *name : {"aria/cuda-global", "aria/cuda-constant", "aria/cuda-shared", "aria/cuda-shared-nx256",
                             "aria/cuda-shared-256xn", "aria/cuda-shared-1k-x32", "aria/cuda-shared-4k-x32"}) {
        const Kernel *k = find_kernel(name);
        ASSERT_NE(k, nullptr) << name;
        EXPECT_EQ(k->gpu != nullptr, true) << name;
        EXPECT_EQ(k->encrypt_blocks, nullptr) << name;
        EXPECT_FALSE(k->constant_time) << name;
        EXPECT_EQ(k->key_state_bytes, sizeof(AriaCudaKeys)) << name;
        EXPECT_TRUE(k->supports(Cipher::aria192)) << name;
        EXPECT_FALSE(k->supports(Cipher::lea128)) << name;
    }
}

} // namespace
