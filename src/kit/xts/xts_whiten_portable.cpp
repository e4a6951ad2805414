// xts-whiten/portable: one doubling per block in 64-bit words, XORs in 64-bit words. The
// doubling is a serial chain (about 3 cycles a block); the SIMD versions run four chains.
#include <cstring>

#include "core/features.hpp"
#include "core/wipe.hpp"
#include "kit/xts/xts_whiten.hpp"

namespace kc {
namespace {

void load(const uint8_t *p, uint64_t &lo, uint64_t &hi)
{
    std::memcpy(&lo, p, 8); // little-endian hosts only (x86-64, aarch64): the tweak's byte order
    std::memcpy(&hi, p + 8, 8);
}

void xor_words(const uint8_t *a, const uint8_t *b, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < 2 * n; i++) {
        uint64_t x, y;
        std::memcpy(&x, a + 8 * i, 8);
        std::memcpy(&y, b + 8 * i, 8);
        x ^= y;
        std::memcpy(out + 8 * i, &x, 8);
    }
}

// tw[j] = t * alpha^j for j < n; returns t * alpha^n in t.
void fill(uint8_t t[16], uint8_t *tw, size_t n)
{
    uint64_t lo, hi;
    load(t, lo, hi);
    for (size_t j = 0; j < n; j++) {
        std::memcpy(tw + 16 * j, &lo, 8);
        std::memcpy(tw + 16 * j + 8, &hi, 8);
        const uint64_t carry = 0 - (hi >> 63);
        hi = hi << 1 | lo >> 63;
        lo = lo << 1 ^ (carry & 0x87);
    }
    std::memcpy(t, &lo, 8);
    std::memcpy(t + 8, &hi, 8);
}

void pre(uint8_t t[16], uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n)
{
    fill(t, tw, n);
    xor_words(in, tw, out, n);
}

void post(const uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n) { xor_words(in, tw, out, n); }

} // namespace

void xts_first_tweaks(const uint8_t t[16], uint8_t *dst, size_t n)
{
    uint8_t next[16];
    std::memcpy(next, t, 16);
    fill(next, dst, n);
    secure_wipe_inline(next);
}

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "tweak words are read in host order");

extern const XtsWhitenKernel xts_whiten_portable_kernel = {"xts-whiten/portable", 0, 0, pre, post, fill};

} // namespace kc
