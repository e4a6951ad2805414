// Constant-time check under valgrind memcheck (the ctgrind technique): the key and the
// data are marked undefined, then a kernel's key schedule, ECB both ways and CTR run. Memcheck
// reports any branch on an undefined value ("conditional jump depends on uninitialised
// value") and any memory address computed from one ("use of uninitialised value" in an
// address), which are exactly the secret-dependent branches and table indexes that leak
// through timing. Outside valgrind the client requests do nothing.
//
// Usage: ct_check KERNEL   every cipher the kernel implements
//        ct_check all      every kernel that claims to be constant-time (those that need
//                          AVX-512, GFNI or VAES, which valgrind cannot run, are skipped
//                          with a message), the fused DRBG blocks, the GHASH
//                          implementations, the GCM, CCM and CMAC code and the PKCS#7
//                          pad check
#include <valgrind/memcheck.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "aria/aria.hpp"
#include "cham/cham.hpp"
#include "core/key_state.hpp"
#include "lea/lea.hpp"
#include "dispatch/registry.hpp"
#include "modes/aead.hpp"
#include "modes/padding.hpp"

static int run_kernel(const kc::Kernel *k)
{
    int ciphers = 0;
    for (int i = 0; i < kc::cipher_count; i++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(i);
        if (!k->supports(d.id))
            continue;
        ciphers++;
        const size_t nblocks = 3 * k->batch_blocks + 1, len = nblocks * d.block_bytes;
        std::vector<uint8_t> key(d.key_bytes, 0x5a), data(len, 0xa5), out(len), ctr(d.block_bytes, 0xff);
        VALGRIND_MAKE_MEM_UNDEFINED(key.data(), key.size());
        VALGRIND_MAKE_MEM_UNDEFINED(data.data(), data.size());
        kc::KeyState ks;
        if (!ks.init(*k, d.id, key.data()))
            return 2;
        k->encrypt_blocks(ks.get(), data.data(), out.data(), nblocks);
        k->decrypt_blocks(ks.get(), out.data(), out.data(), nblocks);
        // The counter is public in CTR; only key and data are secret.
        k->ctr_xor_blocks(ks.get(), ctr.data(), data.data(), out.data(), nblocks);
        // Declassify the result so that printing it is not reported as a leak.
        VALGRIND_MAKE_MEM_DEFINED(out.data(), out.size());
        std::printf("%s %s: ran %zu blocks (first output byte %02x)\n", k->name, d.name, nblocks, out[0]);
    }
    return ciphers > 0 ? 0 : 2;
}

// The CTR_DRBG chain's portable fused block functions (src/kit/fused_ecb.hpp): key and blocks
// secret. Their AVX-512 and GFNI forms (ARIA, HIGHT, CHAM's vector form) cannot run here.
static int run_fused()
{
    using Fn = void (*)(kc::Cipher, const uint8_t *, const uint8_t *, uint8_t *, size_t);
    const struct {
        const char *name;
        Fn fn;
        kc::Cipher c;
    } fused[] = {
        {"lea_fused_ecb", kc::lea_fused_ecb, kc::Cipher::lea128},
        {"lea_fused_ecb", kc::lea_fused_ecb, kc::Cipher::lea192},
        {"lea_fused_ecb", kc::lea_fused_ecb, kc::Cipher::lea256},
        {"cham_fused_ecb", kc::cham_fused_ecb, kc::Cipher::cham64_128},
        {"cham_fused_ecb", kc::cham_fused_ecb, kc::Cipher::cham128_128},
        {"cham_fused_ecb", kc::cham_fused_ecb, kc::Cipher::cham128_256},
    };
    for (const auto &f : fused) {
        const kc::CipherDesc &d = kc::cipher_desc(f.c);
        const size_t nblocks = 4;
        std::vector<uint8_t> key(d.key_bytes, 0x3c), data(nblocks * d.block_bytes, 0xc3), out(data.size());
        VALGRIND_MAKE_MEM_UNDEFINED(key.data(), key.size());
        VALGRIND_MAKE_MEM_UNDEFINED(data.data(), data.size());
        f.fn(f.c, key.data(), data.data(), out.data(), nblocks);
        VALGRIND_MAKE_MEM_DEFINED(out.data(), out.size());
        std::printf("%s %s: ran %zu blocks (first output byte %02x)\n", f.name, d.name, nblocks, out[0]);
    }
    return 0;
}

// valgrind 3.19 decodes neither AVX-512 nor GFNI, VAES or VPCLMULQDQ: what needs them gets the
// bench tool's timing report instead.
constexpr uint32_t valgrind_cannot = kc::feat_avx512f | kc::feat_avx512bw | kc::feat_avx512vl | kc::feat_avx512vbmi2 |
                                     kc::feat_gfni | kc::feat_vaes | kc::feat_vpclmul;

// The authenticated modes: every constant-time GHASH implementation valgrind can run (H and
// the data secret), then GCM, CCM and CMAC over a constant-time LEA kernel (key, AAD and text
// secret; IV public), and the tag comparison (its verdict declassified: accept or reject is
// what any caller reveals).
static int run_modes()
{
    std::vector<uint8_t> h(16, 0x11), data(16 * 37, 0x22), y(16, 0);
    VALGRIND_MAKE_MEM_UNDEFINED(h.data(), h.size());
    VALGRIND_MAKE_MEM_UNDEFINED(data.data(), data.size());
    std::vector<const kc::GhashKernel *> ghashes;
    for (const kc::GhashKernel *g : kc::all_ghash_kernels()) {
        if (!g->constant_time)
            continue;
        if (!kc::runnable(g->requires) || (g->requires & valgrind_cannot)) {
            std::printf("ct_check: %s skipped (needs %s)\n", g->name, kc::feature_names(g->requires).c_str());
            continue;
        }
        kc::GhashKey key;
        g->init(key, h.data());
        g->update(key, y.data(), data.data(), 37);
        VALGRIND_MAKE_MEM_DEFINED(y.data(), y.size());
        std::printf("%s: hashed 37 blocks (first byte %02x)\n", g->name, y[0]);
        ghashes.push_back(g);
    }
    const kc::Kernel *lea = kc::find_kernel("lea/ref");
    if (lea == nullptr || !lea->constant_time || ghashes.empty())
        return 2;
    std::vector<uint8_t> key(16, 0x33), iv(12, 0x44), out(data.size()), tag(16);
    VALGRIND_MAKE_MEM_UNDEFINED(key.data(), key.size());
    kc::KeyState ks;
    if (!ks.init(*lea, kc::Cipher::lea128, key.data()))
        return 2;
    const kc::Keyed k{lea, ks.get(), 16, 1};
    for (const kc::GhashKernel *g : ghashes) {
        kc::GcmKey gk;
        kc::gcm_key_init(gk, k, *g);
        kc::Gcm gcm;
        gcm.start(k, gk, iv.data(), iv.size());
        gcm.aad(data.data(), 21);
        gcm.encrypt(data.data(), out.data(), data.size() - 5);
        gcm.tag(tag.data());
    }
    kc::Ccm ccm;
    ccm.start(k, k, iv.data(), iv.size(), 21, data.size() - 5, 16);
    ccm.aad(data.data(), 21);
    ccm.decrypt(data.data(), out.data(), data.size() - 5);
    ccm.tag(tag.data());
    kc::Cmac cmac;
    cmac.start(k);
    cmac.update(data.data(), data.size() - 5);
    cmac.tag(tag.data());
    bool same = kc::equal_constant_time(tag.data(), data.data(), 16);
    VALGRIND_MAKE_MEM_DEFINED(&same, sizeof same);
    VALGRIND_MAKE_MEM_DEFINED(tag.data(), tag.size());
    std::printf("gcm, ccm, cmac over lea/ref: ran (tag byte %02x, compare %d)\n", tag[0], (int)same);
    return 0;
}

// The PKCS#7 check of a padded decryption's last block (modes/padding.cpp): the block is
// secret, only the one status (pad length or 0) is released. Good pads of every length and
// bad ones (0, too long, one byte inconsistent), for 16- and 8-byte blocks.
static int run_padding()
{
    size_t sum = 0;
    for (size_t bs : {size_t(16), size_t(8)}) {
        for (unsigned n = 0; n <= bs + 1; n++) {
            for (int bad = 0; bad < 2; bad++) {
                uint8_t block[16];
                std::memset(block, (int)n, sizeof block);
                block[0] ^= (uint8_t)bad;
                VALGRIND_MAKE_MEM_UNDEFINED(block, sizeof block);
                size_t pad = kc::pkcs7_pad_length(block, bs);
                VALGRIND_MAKE_MEM_DEFINED(&pad, sizeof pad);
                sum += pad;
            }
        }
    }
    std::printf("pkcs7 pad check: ran (sum of pad lengths %zu)\n", sum);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: ct_check KERNEL|all\n");
        return 2;
    }
    kc::aria_key_schedule_allow_gfni(false); // the ARIA key schedule's scanning S-boxes, then
    int checked = 0;
    for (const kc::Kernel *k : kc::all_kernels()) {
        bool wanted = std::strcmp(argv[1], "all") == 0 ? k->constant_time : std::strcmp(argv[1], k->name) == 0;
        if (!wanted)
            continue;
        if (!kc::kernel_runnable(*k) || (k->requires & valgrind_cannot) || k->gpu != nullptr) {
            std::printf("ct_check: %s skipped (needs %s: not runnable here or under valgrind)\n", k->name,
                        kc::feature_names(k->requires).c_str());
            continue;
        }
        if (run_kernel(k) != 0)
            return 2;
        checked++;
    }
    if (std::strcmp(argv[1], "all") == 0) {
        checked += run_fused() == 0;
        if (run_modes() != 0 || run_padding() != 0)
            return 2;
    }
    if (checked == 0) {
        std::fprintf(stderr, "ct_check: no kernel checked for '%s'\n", argv[1]);
        return 2;
    }
    return 0;
}
