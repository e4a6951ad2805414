// libFuzzer target: the CTR_DRBG API. The input picks a cipher, df or no df, and a program
// of calls (instantiate, reseed, generate, generate_large, a reseed interval, uninstantiate)
// with fuzzed lengths and inputs. Two handles run the same program: one on a kernel the
// input chooses, one on the family's reference kernel; every status, every output byte and
// the reseed counter must agree. No entropy source is set, so everything is reproducible:
// what a source would give (prediction resistance, a reseed that comes due) must fail alike.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_catalog.hpp"
#include "fuzz/fuzz_input.hpp"
#include "kcipher/kcipher.h"

using kcfuzz::FuzzInput;

namespace {

struct Handle {
    kcipher_drbg *d = nullptr;
    ~Handle() { kcipher_drbg_free(d); }
};

// A length from the input: mostly short, sometimes around a limit (seedlen, the largest
// request) so that the boundaries are tried.
size_t length(FuzzInput &f, size_t limit)
{
    switch (f.u8() & 3) {
    case 0: return f.below(65);
    case 1: return limit - 2 + f.below(5); // limit-2 .. limit+2
    default: return f.below(limit + 64);
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
    const unsigned flags = f.flag() ? KCIPHER_DRBG_NO_DF : 0;

    Handle a, b;
    kcipher_status sa = kcipher_drbg_new(&a.d, cipher.name, flags, kernel.c_str());
    kcipher_status sb = kcipher_drbg_new(&b.d, cipher.name, flags, kcfuzz::reference_kernel(cipher).c_str());
    KCFUZZ_CHECK(sa == KCIPHER_OK && sb == KCIPHER_OK, kernel.c_str());
    KCFUZZ_CHECK(kcipher_drbg_set_entropy_source(a.d, nullptr, nullptr) == KCIPHER_OK, "source");
    KCFUZZ_CHECK(kcipher_drbg_set_entropy_source(b.d, nullptr, nullptr) == KCIPHER_OK, "source");
    kcipher_drbg_set_threads(a.d, 1);
    kcipher_drbg_set_threads(b.d, 1);
    const size_t seedlen = cipher.key_bytes + cipher.block_bytes;
    const size_t max_request = kcipher_drbg_max_request(a.d);
    KCFUZZ_CHECK(max_request == kcipher_drbg_max_request(b.d), kernel.c_str());

    for (int step = 0; step < 12 && f.left(); step++) {
        kcipher_status ra = KCIPHER_OK, rb = KCIPHER_OK;
        std::vector<uint8_t> oa, ob;
        switch (f.below(6)) {
        case 0: {
            std::vector<uint8_t> e = f.bytes(length(f, seedlen)), n = f.sized_bytes(32), p = f.bytes(length(f, seedlen));
            ra = kcipher_drbg_instantiate(a.d, e.data(), e.size(), n.data(), n.size(), p.data(), p.size());
            rb = kcipher_drbg_instantiate(b.d, e.data(), e.size(), n.data(), n.size(), p.data(), p.size());
            break;
        }
        case 1: {
            std::vector<uint8_t> e = f.bytes(length(f, seedlen)), add = f.bytes(length(f, seedlen));
            ra = kcipher_drbg_reseed(a.d, e.data(), e.size(), add.data(), add.size());
            rb = kcipher_drbg_reseed(b.d, e.data(), e.size(), add.data(), add.size());
            break;
        }
        case 2: {
            size_t len = f.flag() ? length(f, max_request) : f.below(200);
            std::vector<uint8_t> add = f.bytes(length(f, seedlen));
            int pr = f.u8() == 0xff;
            oa.assign(len, 0);
            ob.assign(len, 0);
            ra = kcipher_drbg_generate(a.d, oa.data(), len, add.data(), add.size(), pr);
            rb = kcipher_drbg_generate(b.d, ob.data(), len, add.data(), add.size(), pr);
            break;
        }
        case 3: { // up to a few requests' worth, with the seams between requests
            size_t len = f.u8() < 32 ? f.below(3 * max_request + 1) : f.below(4096);
            oa.assign(len, 0);
            ob.assign(len, 0);
            ra = kcipher_drbg_generate_large(a.d, oa.data(), len, 0);
            rb = kcipher_drbg_generate_large(b.d, ob.data(), len, 0);
            break;
        }
        case 4: {
            uint64_t n = f.flag() ? f.u64() : f.below(4);
            ra = kcipher_drbg_set_reseed_interval(a.d, n);
            rb = kcipher_drbg_set_reseed_interval(b.d, n);
            break;
        }
        case 5:
            ra = kcipher_drbg_uninstantiate(a.d);
            rb = kcipher_drbg_uninstantiate(b.d);
            break;
        }
        KCFUZZ_CHECK(ra == rb, kernel.c_str());
        KCFUZZ_CHECK(oa == ob, kernel.c_str());
        uint64_t ca = 0, cb = 0;
        KCFUZZ_CHECK(kcipher_drbg_reseed_counter(a.d, &ca) == kcipher_drbg_reseed_counter(b.d, &cb), kernel.c_str());
        KCFUZZ_CHECK(ca == cb, kernel.c_str());
    }
    return 0;
}
