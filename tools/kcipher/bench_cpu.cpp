#include "bench_cpu.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <stdexcept>

#include <time.h>

#include "bench_clock.hpp"
#include "kcipher/kcipher.hpp"
#include "usage_error.hpp"

namespace cli {

std::vector<uint8_t> random_bytes(size_t n)
{
    static std::mt19937_64 g(std::random_device{}());
    std::vector<uint8_t> v(n);
    for (auto &b : v)
        b = (uint8_t)g();
    return v;
}

CipherArg parse_cipher_arg(const std::string &arg)
{
    char cipher[64];
    kcipher_mode mode;
    kcipher_status st = kcipher_parse_name(arg.c_str(), cipher, sizeof cipher, &mode);
    if (st != KCIPHER_OK)
        throw UsageError("--cipher '" + arg + "': " + kcipher_strerror(st));
    kcipher_cipher_info info;
    kcipher::check(kcipher_cipher_find(cipher, &info));
    const bool needs_128 = mode == KCIPHER_MODE_GCM || mode == KCIPHER_MODE_CCM || mode == KCIPHER_MODE_GMAC ||
                           mode == KCIPHER_MODE_XTS;
    if (needs_128 && info.block_bytes != 16)
        throw UsageError("--cipher '" + arg + "': GCM, CCM, GMAC and XTS need a 128-bit block (CMAC takes "
                         "every cipher)");
    return {cipher, mode};
}

static double thread_cpu_seconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

Slice run_slice(const Work &w, uint8_t *buf, size_t size, double seconds)
{
    using clk = std::chrono::steady_clock;
    size_t calls = 0, batch = std::max<size_t>(1, (1 << 16) / std::max<size_t>(size, 1));
    CycleCounter cycles;
    cycles.start();
    const double cpu0 = thread_cpu_seconds();
    auto t0 = clk::now();
    double s = 0;
    do {
        for (size_t i = 0; i < batch; i++)
            w(buf, buf, size);
        calls += batch;
        s = std::chrono::duration<double>(clk::now() - t0).count();
    } while (s < seconds);
    const double c = cycles.stop();
    const double cpu = thread_cpu_seconds() - cpu0;
    const double bytes = (double)calls * size;
    return {bytes / s, probe_clock_ghz(), c / s / 1e9, bytes, cpu, c};
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The worker of an opening row: opens one message sealed (once per size) under the row's IV,
// so the tag verifies and the timed call does exactly what a receiver's does.
Work open_worker(std::shared_ptr<kcipher::Cipher> c, kcipher_mode mode, std::shared_ptr<std::vector<uint8_t>> iv)
{
    auto sealed = std::make_shared<std::vector<uint8_t>>();
    return [c, mode, iv, sealed](const uint8_t *in, uint8_t *out, size_t n) {
        if (sealed->size() != n + 16) {
            sealed->assign(n + 16, 0);
            kcipher::check(kcipher_aead_seal(c->get(), mode, iv->data(), 12, nullptr, 0, in, n, sealed->data(), 16));
        }
        kcipher::check(kcipher_aead_open(c->get(), mode, iv->data(), 12, nullptr, 0, sealed->data(), n + 16, out, 16));
    };
}

// CFB, CFB8 and OFB: one stream across the calls, its register carried in iv from one call to
// the next (OFB's decryption is its encryption).
Work feedback_worker(std::shared_ptr<kcipher::Cipher> c, kcipher_mode mode, bool decrypt,
                     std::shared_ptr<std::vector<uint8_t>> iv)
{
    using Fn = kcipher_status (*)(const kcipher_ctx *, uint8_t *, size_t, const uint8_t *, uint8_t *, size_t);
    const Fn f = mode == KCIPHER_MODE_OFB ? kcipher_ofb_xor
                 : mode == KCIPHER_MODE_CFB ? (decrypt ? kcipher_cfb_decrypt : kcipher_cfb_encrypt)
                                            : (decrypt ? kcipher_cfb8_decrypt : kcipher_cfb8_encrypt);
    return [c, iv, f](const uint8_t *in, uint8_t *out, size_t n) {
        kcipher::check(f(c->get(), iv->data(), iv->size(), in, out, n));
    };
}

// CMAC and GMAC as one stream over every call of a worker: each call one update, so the row
// times the hash alone (GMAC: GHASH; CMAC: its chain) without a message's setup and tag.
Work mac_stream_worker(std::shared_ptr<kcipher::Cipher> c, kcipher_mode mode, std::shared_ptr<std::vector<uint8_t>> iv)
{
    kcipher_mac_state *raw = nullptr;
    kcipher::check(kcipher_mac_init(&raw, c->get(), mode, mode == KCIPHER_MODE_GMAC ? iv->data() : nullptr,
                                    mode == KCIPHER_MODE_GMAC ? 12 : 0, mode == KCIPHER_MODE_GMAC ? 16 : c->block_size()));
    std::shared_ptr<kcipher_mac_state> st(raw, kcipher_mac_free);
    return [c, st](const uint8_t *in, uint8_t *, size_t n) { kcipher::check(kcipher_mac_update(st.get(), in, n)); };
}

Target kcipher_target(const std::string &cipher, kcipher_mode mode,
                      const std::string &kernel, bool decrypt, bool stream)
{
    kcipher_cipher_info info;
    kcipher::check(kcipher_cipher_find(cipher.c_str(), &info));
    // An XTS context is its own kind, keyed with a data key and a tweak key.
    const bool xts = mode == KCIPHER_MODE_XTS;
    auto c = std::make_shared<kcipher::Cipher>(xts ? cipher + "-xts" : cipher,
                                               random_bytes((xts ? 2 : 1) * info.key_bytes),
                                               kernel.empty() ? nullptr : kernel.c_str());
    c->set_threads(1);
    static const char *modes[] = {"", "ecb", "cbc", "ctr", "gcm", "ccm", "cmac", "gmac", "xts", "cfb", "cfb8", "ofb"};
    const bool mac_stream = stream && (mode == KCIPHER_MODE_CMAC || mode == KCIPHER_MODE_GMAC);
    Target t{"kcipher", cipher, modes[mode], c->kernel(), kcipher_version(), decrypt, mac_stream, nullptr};
    size_t bs = info.block_bytes;
    t.make_worker = [c, mode, bs, decrypt, xts, mac_stream]() -> Work {
        auto iv = std::make_shared<std::vector<uint8_t>>(random_bytes(bs));
        if (mac_stream)
            return mac_stream_worker(c, mode, iv);
        if (decrypt && (mode == KCIPHER_MODE_GCM || mode == KCIPHER_MODE_CCM))
            return open_worker(c, mode, iv);
        if (mode == KCIPHER_MODE_CFB || mode == KCIPHER_MODE_CFB8 || mode == KCIPHER_MODE_OFB)
            return feedback_worker(c, mode, decrypt, iv);
        if (decrypt && mode == KCIPHER_MODE_ECB)
            return [c](const uint8_t *in, uint8_t *out, size_t n) { c->ecb_decrypt(in, out, n / c->block_size() * c->block_size()); };
        if (xts)
            // The message as one data unit under a random tweak, the way a file is encrypted.
            return [c, iv, decrypt](const uint8_t *in, uint8_t *out, size_t n) {
                if (decrypt)
                    c->xts_decrypt(iv->data(), 0, in, out, n);
                else
                    c->xts_encrypt(iv->data(), 0, in, out, n);
            };
        if (decrypt && mode == KCIPHER_MODE_CBC)
            return [c, iv](const uint8_t *in, uint8_t *out, size_t n) {
                c->cbc_decrypt(iv->data(), in, out, n / c->block_size() * c->block_size());
            };
        switch (mode) {
        // GCM and CCM seal the message (out: ciphertext || 16-byte tag; the buffers have room
        // past n) with one fixed IV (12 bytes; CCM's nonce 12 too); CMAC and GMAC give the tag
        // of the message (GMAC: the message as AAD, GHASH alone in effect).
        case KCIPHER_MODE_GCM:
        case KCIPHER_MODE_CCM:
            return [c, iv, mode](const uint8_t *in, uint8_t *out, size_t n) {
                kcipher::check(kcipher_aead_seal(c->get(), mode, iv->data(), 12, nullptr, 0, in, n, out, 16));
            };
        case KCIPHER_MODE_CMAC:
            return [c, bs](const uint8_t *in, uint8_t *out, size_t n) {
                kcipher::check(kcipher_mac(c->get(), KCIPHER_MODE_CMAC, nullptr, 0, in, n, out + n, bs));
            };
        case KCIPHER_MODE_GMAC:
            return [c, iv](const uint8_t *in, uint8_t *out, size_t n) {
                kcipher::check(kcipher_mac(c->get(), KCIPHER_MODE_GMAC, iv->data(), 12, in, n, out + n, 16));
            };
        case KCIPHER_MODE_ECB:
            return [c](const uint8_t *in, uint8_t *out, size_t n) { c->ecb_encrypt(in, out, n / c->block_size() * c->block_size()); };
        case KCIPHER_MODE_CBC:
            return [c, iv](const uint8_t *in, uint8_t *out, size_t n) {
                c->cbc_encrypt(iv->data(), in, out, n / c->block_size() * c->block_size());
            };
        default:
            return [c, iv](const uint8_t *in, uint8_t *out, size_t n) { c->ctr_xor(iv->data(), 0, in, out, n); };
        }
    };
    return t;
}

} // namespace cli
