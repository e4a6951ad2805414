// XTS (IEEE 1619-2018, SP 800-38E). Block j of a data unit is C = E_K1(P ^ T_j) ^ T_j with
// T_j = E_K2(tweak) * alpha^j (modes/xts_tweak.hpp). The fast path works a batch at a time (the
// SIMD kernels need many blocks per call). A kernel that makes the tweaks itself
// (XtsAccel::tweaked_blocks, lea/avx512) takes a unit's whole blocks in one call; otherwise the
// batch's tweaks go into a buffer, then a kernel that offers XTS a whitened ECB
// (kit/xts/xts_accel.hpp) XORs them in around its own loads and stores; for any other,
// out = in ^ T is written with the tweaks, the kernel encrypts out in place, and out ^= T
// follows. The tweaks and passes are SIMD (kit/xts/xts_whiten.hpp, chosen by
// dispatch/xts_whiten_choice.hpp). A unit that is not whole blocks ends with ciphertext
// stealing (IEEE 1619-2018 5.3.2 and 5.4.2).
#include "modes/xts.hpp"

#include <cstring>

#include "core/wipe.hpp"
#include "dispatch/registry.hpp"
#include "dispatch/xts_whiten_choice.hpp"
#include "modes/parallel.hpp"
#include "modes/xts_tweak.hpp"

namespace kc {
namespace {

// Blocks per kernel call: 4 KiB of data and 4 KiB of tweaks stay in L1, and it is a multiple
// of every kernel's batch_blocks.
constexpr size_t batch = 256;
// Units at least this long are split across threads one at a time; shorter ones (disk
// sectors) are spread over threads a chunk of units each.
constexpr size_t long_unit = 64 * 1024;

// Wiped when it was used: a kernel that makes its tweaks itself (XtsAccel::tweaked_blocks)
// never touches it, and 4 KiB of wiping per call was 1% of such a call on 16 KiB.
struct TweakBuffer {
    alignas(64) uint8_t bytes[16 * batch];
    bool used = false;
    uint8_t *use()
    {
        used = true;
        return bytes;
    }
    ~TweakBuffer()
    {
        if (used)
            secure_wipe(bytes, sizeof bytes);
    }
};

void cipher_blocks(const Keyed &k, bool decrypt, const uint8_t *in, uint8_t *out, size_t n)
{
    (decrypt ? k.kernel->decrypt_blocks : k.kernel->encrypt_blocks)(k.keys, in, out, n);
}

// The data key's kernel and its whitened ECB (nullptr: whitening passes around the kernel).
struct DataPath {
    const Keyed &k;
    const XtsAccel *fused;
};

// Whether the data kernel makes its own tweaks (XtsAccel::tweaked_blocks): no tweak buffer then.
bool makes_tweaks(const DataPath &d) { return d.fused != nullptr && d.fused->tweaked_blocks != nullptr; }

// n blocks whose tweaks are already in tw: out = E(in ^ T) ^ T.
void whitened(const DataPath &d, bool decrypt, const uint8_t *tw, const uint8_t *in, uint8_t *out, size_t n)
{
    d.fused->whitened_blocks(d.k.keys, decrypt, tw, in, out, n);
}

// n whole blocks from tweak t, batch by batch; returns the tweak of the block after them.
XtsTweak xts_blocks(const DataPath &d, bool decrypt, XtsTweak t, const uint8_t *in, uint8_t *out, size_t n,
                    TweakBuffer &tw)
{
    const XtsWhitenKernel &whiten = xts_whiten_kernel();
    uint8_t tb[16];
    xts_store(tb, t);
    if (makes_tweaks(d)) { // all n in one call
        d.fused->tweaked_blocks(d.k.keys, decrypt, tb, in, out, n);
    } else {
        while (n != 0) {
            const size_t m = n < batch ? n : batch;
            if (d.fused != nullptr) {
                whiten.tweaks(tb, tw.use(), m);
                whitened(d, decrypt, tw.use(), in, out, m);
            } else {
                whiten.pre(tb, tw.use(), in, out, m);
                cipher_blocks(d.k, decrypt, out, out, m);
                whiten.post(tw.use(), out, out, m);
            }
            in += 16 * m;
            out += 16 * m;
            n -= m;
        }
    }
    t = xts_load(tb);
    secure_wipe_inline(tb);
    return t;
}

// One block under tweak t, src and dst 16 bytes each (they may be the same).
void xts_one(const Keyed &k, bool decrypt, XtsTweak t, const uint8_t *src, uint8_t *dst)
{
    uint8_t x[16], tb[16];
    xts_store(tb, t);
    for (int i = 0; i < 16; i++)
        x[i] = src[i] ^ tb[i];
    cipher_blocks(k, decrypt, x, x, 1);
    for (int i = 0; i < 16; i++)
        dst[i] = x[i] ^ tb[i];
    secure_wipe_inline(x);
    secure_wipe_inline(tb);
}

// The last whole block (tweak t) and the r < 16 bytes after it. Encryption: CC = XTS(P_{m-1})
// under t; the short last ciphertext is CC's first r bytes; P_m padded with CC's remaining bytes
// is encrypted under t * alpha into the block's place. Decryption undoes it in the other order,
// so the whole block is deciphered under t * alpha and the padded one under t. Every input
// byte is read before its place is written: in place works.
void steal(const Keyed &k, bool decrypt, XtsTweak t, const uint8_t *in, uint8_t *out, size_t r)
{
    const XtsTweak first = decrypt ? xts_double(t) : t, second = decrypt ? t : xts_double(t);
    uint8_t whole[16], padded[16];
    xts_one(k, decrypt, first, in, whole);
    std::memcpy(padded, in + 16, r);
    std::memcpy(padded + r, whole + r, 16 - r);
    std::memcpy(out + 16, whole, r);
    xts_one(k, decrypt, second, padded, out);
    secure_wipe_inline(whole);
    secure_wipe_inline(padded);
}

// One data unit of len >= 16 bytes whose first block has tweak t.
void xts_unit(const DataPath &d, bool decrypt, XtsTweak t, const uint8_t *in, uint8_t *out, size_t len,
              TweakBuffer &tw)
{
    const size_t r = len % 16, whole = len / 16 - (r != 0);
    t = xts_blocks(d, decrypt, t, in, out, whole, tw);
    if (r != 0)
        steal(d.k, decrypt, t, in + 16 * whole, out + 16 * whole, r);
}

XtsTweak encrypted_tweak(const Keyed &tweak, const uint8_t tweak16[16])
{
    uint8_t b[16];
    tweak.kernel->encrypt_blocks(tweak.keys, tweak16, b, 1);
    const XtsTweak t = xts_load(b);
    secure_wipe_inline(b);
    return t;
}

// One long data unit, its whole blocks split over threads: a chunk starting at block j starts
// from T * alpha^j.
void xts_long_unit(const DataPath &d, bool decrypt, XtsTweak t0, const uint8_t *in, uint8_t *out,
                   size_t len)
{
    const Keyed &data = d.k;
    const size_t r = len % 16, whole = len / 16 - (r != 0);
    XtsTweak last = t0;
    for_each_chunk(whole, 16, data.threads, [&](size_t first, size_t count) {
        TweakBuffer tw;
        const XtsTweak t = first == 0 ? t0 : xts_mul_alpha_pow(t0, first);
        const XtsTweak after = xts_blocks(d, decrypt, t, in + 16 * first, out + 16 * first, count, tw);
        if (first + count == whole)
            last = after; // one chunk ends the unit
    });
    if (r != 0)
        steal(data, decrypt, last, in + 16 * whole, out + 16 * whole, r);
    secure_wipe_inline(last);
}

// count units of unit_blocks whole blocks each, contiguous from in/out, unit i starting from the
// tweak starts[i]: several units to a kernel call, as 512-byte sectors alone would give the
// kernel 32 blocks a call, fewer than a wide SIMD kernel's batch.
void xts_whole_units(const DataPath &d, bool decrypt, const uint8_t *starts, size_t count, size_t unit_blocks,
                     const uint8_t *in, uint8_t *out, TweakBuffer &tw)
{
    const XtsWhitenKernel &whiten = xts_whiten_kernel();
    const size_t per_call = batch / unit_blocks, unit_bytes = 16 * unit_blocks;
    uint8_t t[16];
    if (makes_tweaks(d) && unit_blocks >= 64) {
        // Units of a kernel step or more (1 KiB): a call each, the tweaks made in the kernel.
        for (size_t u = 0; u < count; u++) {
            std::memcpy(t, starts + 16 * u, 16);
            d.fused->tweaked_blocks(d.k.keys, decrypt, t, in + unit_bytes * u, out + unit_bytes * u, unit_blocks);
        }
        secure_wipe_inline(t);
        return;
    }
    for (size_t u = 0; u < count; u += per_call) {
        const size_t n = count - u < per_call ? count - u : per_call;
        for (size_t i = 0; i < n; i++) {
            std::memcpy(t, starts + 16 * (u + i), 16);
            if (d.fused != nullptr)
                whiten.tweaks(t, tw.use() + unit_bytes * i, unit_blocks);
            else
                whiten.pre(t, tw.use() + unit_bytes * i, in + unit_bytes * (u + i), out + unit_bytes * (u + i), unit_blocks);
        }
        if (d.fused != nullptr) {
            whitened(d, decrypt, tw.use(), in + unit_bytes * u, out + unit_bytes * u, n * unit_blocks);
        } else {
            cipher_blocks(d.k, decrypt, out + unit_bytes * u, out + unit_bytes * u, n * unit_blocks);
            whiten.post(tw.use(), out + unit_bytes * u, out + unit_bytes * u, n * unit_blocks);
        }
    }
    secure_wipe_inline(t);
}

// Units [first, first + count) of data_unit bytes (the input's last unit may be shorter). Their
// tweaks are encrypted a batch at a time, so a run of 4 KiB sectors costs one tweak-key call
// per 256 sectors.
void xts_short_units(const DataPath &d, const Keyed &tweak, bool decrypt, const uint8_t tweak16[16],
                     size_t data_unit, size_t first, size_t count, const uint8_t *in, uint8_t *out, size_t len)
{
    TweakBuffer tw;
    alignas(64) uint8_t starts[16 * batch];
    const bool whole_blocks = data_unit % 16 == 0 && data_unit <= 16 * batch;
    for (size_t g = 0; g < count; g += batch) {
        const size_t n = count - g < batch ? count - g : batch;
        for (size_t i = 0; i < n; i++)
            xts_unit_tweak(starts + 16 * i, tweak16, first + g + i);
        tweak.kernel->encrypt_blocks(tweak.keys, starts, starts, n);
        size_t done = 0;
        if (whole_blocks) { // every unit but a shorter last one of the input
            const size_t off = (first + g) * data_unit;
            done = (len - off) / data_unit < n ? (len - off) / data_unit : n;
            xts_whole_units(d, decrypt, starts, done, data_unit / 16, in + off, out + off, tw);
        }
        for (size_t i = done; i < n; i++) {
            const size_t off = (first + g + i) * data_unit;
            const size_t ulen = len - off < data_unit ? len - off : data_unit;
            xts_unit(d, decrypt, xts_load(starts + 16 * i), in + off, out + off, ulen, tw);
        }
    }
    secure_wipe(starts, sizeof starts);
}

void xts(const Keyed &data, const Keyed &tweak, bool decrypt, const uint8_t tweak16[16], size_t data_unit,
         const uint8_t *in, uint8_t *out, size_t len)
{
    const DataPath d{data, xts_accel_for(*data.kernel)};
    if (data_unit == 0 || data_unit >= len) {
        xts_long_unit(d, decrypt, encrypted_tweak(tweak, tweak16), in, out, len);
        return;
    }
    const size_t units = (len + data_unit - 1) / data_unit;
    if (data_unit >= long_unit) {
        uint8_t t[16];
        for (size_t u = 0; u < units; u++) {
            const size_t off = u * data_unit, ulen = len - off < data_unit ? len - off : data_unit;
            xts_unit_tweak(t, tweak16, u);
            xts_long_unit(d, decrypt, encrypted_tweak(tweak, t), in + off, out + off, ulen);
        }
        return;
    }
    for_each_chunk(units, data_unit, data.threads, [&](size_t first, size_t count) {
        xts_short_units(d, tweak, decrypt, tweak16, data_unit, first, count, in, out, len);
    });
}

} // namespace

void xts_encrypt(const Keyed &data, const Keyed &tweak, const uint8_t tweak16[16], size_t data_unit,
                 const uint8_t *in, uint8_t *out, size_t len)
{
    xts(data, tweak, false, tweak16, data_unit, in, out, len);
}

void xts_decrypt(const Keyed &data, const Keyed &tweak, const uint8_t tweak16[16], size_t data_unit,
                 const uint8_t *in, uint8_t *out, size_t len)
{
    xts(data, tweak, true, tweak16, data_unit, in, out, len);
}

} // namespace kc
