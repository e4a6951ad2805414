// `kcipher selftest`: the known answers each family's module carries (kit/known_answer.hpp:
// from the standards, in src/<family>/<family>_known_answers.txt), run on every kernel this machine can run, then every
// kernel against its family's reference on pseudo-random inputs. The full vector files are in
// tests/; these are the ones a user's binary carries so that a deployed machine can check
// itself.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"

namespace {

enum class Mode { ecb, cbc, ctr, cfb, cfb8, ofb };

// The record's mode (kit/known_answer.cpp has refused any other name).
Mode mode_named(const std::string &m)
{
    const std::pair<const char *, Mode> names[] = {
        {"ecb", Mode::ecb}, {"cbc", Mode::cbc}, {"cfb", Mode::cfb}, {"cfb8", Mode::cfb8}, {"ofb", Mode::ofb}};
    for (const auto &n : names)
        if (m == n.first)
            return n.second;
    return Mode::ctr;
}

std::vector<uint8_t> unhex(const std::string &s)
{
    std::vector<uint8_t> v(s.size() / 2);
    for (size_t i = 0; i < v.size(); i++)
        v[i] = (uint8_t)std::stoul(s.substr(2 * i, 2), nullptr, 16);
    return v;
}

// Runs the mode in the given direction; false on any API error.
bool run_mode(const kcipher_ctx *c, Mode m, bool enc, std::vector<uint8_t> iv, const uint8_t *in,
              uint8_t *out, size_t len)
{
    switch (m) {
    case Mode::ecb:
        return (enc ? kcipher_ecb_encrypt : kcipher_ecb_decrypt)(c, in, out, len) == KCIPHER_OK;
    case Mode::cbc:
        return (enc ? kcipher_cbc_encrypt : kcipher_cbc_decrypt)(c, iv.data(), iv.size(), in, out, len) ==
               KCIPHER_OK;
    case Mode::ctr:
        return kcipher_ctr_xor(c, iv.data(), iv.size(), 0, in, out, len) == KCIPHER_OK;
    case Mode::cfb:
        return (enc ? kcipher_cfb_encrypt : kcipher_cfb_decrypt)(c, iv.data(), iv.size(), in, out, len) ==
               KCIPHER_OK;
    case Mode::cfb8:
        return (enc ? kcipher_cfb8_encrypt : kcipher_cfb8_decrypt)(c, iv.data(), iv.size(), in, out, len) ==
               KCIPHER_OK;
    case Mode::ofb:
        return kcipher_ofb_xor(c, iv.data(), iv.size(), in, out, len) == KCIPHER_OK;
    }
    return false;
}

bool check_kat(const kc::Kernel &k, const kc::KnownAnswer &t)
{
    const Mode mode = mode_named(t.mode);
    std::vector<uint8_t> key = unhex(t.key), iv = unhex(t.iv), pt = unhex(t.pt), ct = unhex(t.ct);
    kcipher_ctx *c = nullptr;
    if (kcipher_new(&c, t.cipher.c_str(), key.data(), key.size(), k.name) != KCIPHER_OK)
        return false;
    std::vector<uint8_t> out(pt.size()), back(pt.size());
    bool ok = run_mode(c, mode, true, iv, pt.data(), out.data(), pt.size()) && out == ct &&
              run_mode(c, mode, false, iv, ct.data(), back.data(), ct.size()) && back == pt;
    kcipher_free(c);
    return ok;
}

// xorshift64*: a fixed stream, so a failure is reproducible; not for keys.
struct Prng {
    uint64_t s;
    uint8_t byte()
    {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return (uint8_t)((s * 0x2545f4914f6cdd1dULL) >> 56);
    }
    std::vector<uint8_t> bytes(size_t n)
    {
        std::vector<uint8_t> v(n);
        for (auto &b : v)
            b = byte();
        return v;
    }
};

// Same output as the reference kernel: ECB both ways, CBC, CTR from a counter two blocks
// below the wrap, and CFB, CFB8 and OFB, the stream modes over a length that ends in a
// partial block.
bool check_against_reference(const kc::Kernel &k, const kc::CipherDesc &d)
{
    const kc::Kernel *ref = kc::reference_kernel(d.id);
    Prng g{0x9e3779b97f4a7c15ULL ^ (uint64_t)d.id};
    std::vector<uint8_t> key = g.bytes(d.key_bytes);
    const size_t len = 67 * d.block_bytes;
    std::vector<uint8_t> pt = g.bytes(len + 5), iv(d.block_bytes, 0xff);
    iv.back() = 0xfd;
    kcipher_ctx *a = nullptr, *b = nullptr;
    bool ok = kcipher_new(&a, d.name, key.data(), key.size(), k.name) == KCIPHER_OK &&
              kcipher_new(&b, d.name, key.data(), key.size(), ref->name) == KCIPHER_OK;
    for (Mode m : {Mode::ecb, Mode::cbc, Mode::ctr, Mode::cfb, Mode::cfb8, Mode::ofb}) {
        size_t n = m == Mode::ecb || m == Mode::cbc ? len : pt.size();
        std::vector<uint8_t> x(n), y(n);
        for (bool enc : {true, false}) {
            ok = ok && run_mode(a, m, enc, iv, pt.data(), x.data(), n) &&
                 run_mode(b, m, enc, iv, pt.data(), y.data(), n) && x == y;
        }
    }
    kcipher_free(a);
    kcipher_free(b);
    return ok;
}

} // namespace

extern "C" kcipher_status kcipher_selftest(kcipher_selftest_report report, void *user)
{
    bool all = true;
    auto note = [&](const kc::Kernel &k, const std::string &what, bool ok) {
        all = all && ok;
        if (report != nullptr)
            report(user, k.name, what.c_str(), ok ? 1 : 0);
    };
    // A record the build compiled in but that does not read as one (a typo in a family's
    // known-answers file) fails here, once, rather than being skipped on every kernel.
    for (const kc::CipherModule *m : kc::modules())
        for (const kc::KnownAnswer &t : m->known_answers)
            if (!t.error.empty() || kc::cipher_by_name(t.cipher.c_str()) == nullptr) {
                all = false;
                if (report != nullptr)
                    report(user, m->family, ("known answer '" + t.source + "': " +
                                             (t.error.empty() ? "unknown cipher " + t.cipher : t.error)).c_str(), 0);
            }
    for (const kc::Kernel *k : kc::all_kernels()) {
        if (!kc::kernel_runnable(*k))
            continue;
        for (const kc::CipherModule *m : kc::modules())
            for (const kc::KnownAnswer &t : m->known_answers) {
                const kc::CipherDesc *d = kc::cipher_by_name(t.cipher.c_str());
                if (t.error.empty() && d != nullptr && k->supports(d->id))
                    note(*k, t.cipher + "-" + t.mode + " " + t.source, check_kat(*k, t));
            }
        for (int i = 0; i < kc::cipher_count; i++) {
            const kc::CipherDesc &d = *kc::cipher_by_index(i);
            if (k->supports(d.id) && kc::reference_kernel(d.id) != k)
                note(*k, std::string(d.name) + " equals " + kc::reference_kernel(d.id)->name,
                     check_against_reference(*k, d));
        }
    }
    return all ? KCIPHER_OK : KCIPHER_ERR_INTERNAL;
}
