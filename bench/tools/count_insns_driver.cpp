// The program that bench/tools/count-aarch64-insns runs under qemu-aarch64's instruction trace:
// it keys one kernel and calls one of its entry points once, on NBLOCKS blocks.
//
//   count_insns_driver KERNEL CIPHER NBLOCKS enc|dec|ctr
//
// Everything outside the one call is the same for every NBLOCKS (the buffers have a fixed
// size and contents, nothing is printed on success), so the difference between the traces
// of two block counts is the kernel's work on the extra blocks alone.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/cipher.hpp"
#include "core/key_state.hpp"
#include "dispatch/registry.hpp"

namespace {

constexpr size_t max_blocks = 1024;

int fail(const std::string &why)
{
    std::fprintf(stderr, "count_insns_driver: %s\n", why.c_str());
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 5)
        return fail("usage: count_insns_driver KERNEL CIPHER NBLOCKS enc|dec|ctr");
    const kc::Kernel *k = kc::find_kernel(argv[1]);
    if (k == nullptr)
        return fail(std::string("unknown kernel ") + argv[1]);
    const kc::CipherDesc *c = kc::cipher_by_name(argv[2]);
    if (c == nullptr || !k->supports(c->id))
        return fail(std::string(argv[1]) + " does not implement " + argv[2]);
    if (!kc::kernel_runnable(*k) || k->encrypt_blocks == nullptr)
        return fail(std::string(argv[1]) + " cannot run here");
    const size_t n = std::strtoul(argv[3], nullptr, 10);
    if (n == 0 || n > max_blocks)
        return fail("NBLOCKS must be 1.." + std::to_string(max_blocks));
    const std::string mode = argv[4];

    const size_t bb = c->block_bytes;
    std::vector<uint8_t> key(c->key_bytes), in(max_blocks * bb), out(max_blocks * bb);
    for (size_t i = 0; i < key.size(); i++)
        key[i] = (uint8_t)(0x11 * i + 1);
    for (size_t i = 0; i < in.size(); i++)
        in[i] = (uint8_t)(i * 7 + 3);
    uint8_t ctr[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                       0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0x00, 0x00}; // no 2^16 carry soon
    if (bb == 8)
        ctr[6] = ctr[7] = 0;

    kc::KeyState ks;
    if (!ks.init(*k, c->id, key.data()))
        return fail("out of memory");
    if (mode == "enc")
        k->encrypt_blocks(ks.get(), in.data(), out.data(), n);
    else if (mode == "dec")
        k->decrypt_blocks(ks.get(), in.data(), out.data(), n);
    else if (mode == "ctr")
        k->ctr_xor_blocks(ks.get(), ctr, in.data(), out.data(), n);
    else
        return fail("mode must be enc, dec or ctr");
    volatile uint8_t sink = out[0]; // read, so the call's result is used; no branch on it
    (void)sink;
    return 0;
}
