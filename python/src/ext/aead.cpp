// kcipher._kcipher.Aead (GCM and CCM, one-shot) and the MAC functions (CMAC, GMAC) over the
// C API's kcipher_aead_seal/open, kcipher_gpu_aead_seal/open (GCM on device pointers) and
// kcipher_mac/mac_verify. kcipher/_aead.py adds the Python conveniences (argument types,
// arrays, InvalidTag); this file owns the keyed context.
//
// Opening never hands out unverified plaintext: kcipher_aead_open and kcipher_gpu_aead_open
// zero the output on a bad tag, and the Python layer drops that output when this file raises.
// Concurrency and GPU contexts as in context.cpp: the C context is immutable, calls share
// `use_`, close() takes it alone; kernel=None keys a GPU context on the first GPU array
// (common.hpp: OwnedContext).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>

#include "common.hpp"

namespace kcpy {
namespace {

const char *mode_name(kcipher_mode m)
{
    switch (m) {
    case KCIPHER_MODE_ECB: return "ECB";
    case KCIPHER_MODE_CBC: return "CBC";
    case KCIPHER_MODE_CTR: return "CTR";
    case KCIPHER_MODE_GCM: return "GCM";
    case KCIPHER_MODE_CCM: return "CCM";
    case KCIPHER_MODE_CMAC: return "CMAC";
    case KCIPHER_MODE_GMAC: return "GMAC";
    default: return "no mode";
    }
}

// "aria-128-gcm" -> ("aria-128", GCM). A name without a suffix gets `fallback`; with
// fallback == NONE the suffix is required. A suffix other than `want` (when given) is refused.
std::string split_name(const std::string &name, kcipher_mode fallback, kcipher_mode want, kcipher_mode &mode)
{
    char cipher[64];
    kcipher_status st = kcipher_parse_name(name.c_str(), cipher, sizeof cipher, &mode);
    if (st != KCIPHER_OK)
        raise_status(st, "'" + name + "' (kcipher.ciphers() lists the names)");
    if (mode == KCIPHER_MODE_NONE)
        mode = fallback;
    if (mode == KCIPHER_MODE_NONE)
        raise_status(KCIPHER_ERR_UNKNOWN_MODE, "'" + name + "' names no authenticated mode: add -gcm or -ccm ('" +
                                                   std::string(cipher) + "-gcm')");
    if (want != KCIPHER_MODE_NONE ? mode != want : (mode != KCIPHER_MODE_GCM && mode != KCIPHER_MODE_CCM))
        raise_status(KCIPHER_ERR_UNKNOWN_MODE, "'" + name + "' names " + mode_name(mode) + ", not " +
                                                   (want != KCIPHER_MODE_NONE ? mode_name(want) : "GCM or CCM"));
    return cipher;
}

// A keyed context for the MAC and AEAD calls (kernel: None or "cpu" = the library's choice).
kcipher_ctx *make_context(const std::string &cipher, nb::handle key, const std::optional<std::string> &kernel)
{
    const Buffer k = key_buffer(key);
    return new_context(cipher, k, kernel && *kernel != "cpu" ? kernel->c_str() : nullptr, kernel);
}

// The bytes of an optional buffer argument (AAD): (nullptr, 0) for None.
struct OptionalBuffer {
    OptionalBuffer(nb::handle obj, const char *what)
    {
        if (!obj.is_none()) {
            if (nb::isinstance<nb::str>(obj))
                throw nb::type_error((std::string(what) + " must be bytes (or bytes-like), not str").c_str());
            buf.emplace(obj, what, false);
        }
    }
    const uint8_t *data() const { return buf ? buf->data() : nullptr; }
    size_t size() const { return buf ? buf->size() : 0; }
    std::optional<Buffer> buf;
};

template <class F> kcipher_status call_maybe_released(size_t n, F &&f)
{
    if (n >= kReleaseGilBytes) {
        nb::gil_scoped_release g;
        return f();
    }
    return f();
}

class Aead : public OwnedContext {
  public:
    Aead(const std::string &name, nb::handle key, std::optional<std::string> kernel) : OwnedContext("AEAD")
    {
        std::string cipher = split_name(name, KCIPHER_MODE_NONE, KCIPHER_MODE_NONE, mode_);
        const Buffer k = key_buffer(key);
        ctx_ = new_context(cipher, k, forced_kernel(cipher, kernel), kernel);
        if (kcipher_block_size(ctx_) != 16) {
            release();
            raise_status(KCIPHER_ERR_UNSUPPORTED, std::string(mode_name(mode_)) + " needs a 128-bit block cipher; " +
                                                      cipher + " has 64-bit blocks (CMAC takes it)");
        }
        // CCM never takes GPU arrays (the Python layer refuses them): no key copy for it.
        setup_gpu(cipher, k, mode_ == KCIPHER_MODE_GCM ? kernel : std::optional<std::string>("cpu"));
    }

    std::string mode() const { return mode_ == KCIPHER_MODE_GCM ? "gcm" : "ccm"; }

    // ciphertext || tag, as bytes (a bytearray when `bytearray`).
    nb::object seal(nb::handle iv, nb::handle data, nb::handle aad, size_t tag_len, bool bytearray)
    {
        std::string v = small_bytes(iv, "nonce");
        Buffer in(data, "data", false);
        OptionalBuffer a(aad, "associated_data");
        const size_t n = in.size();
        if (tag_len > 16) // refused by the C call too; `out` is sized by it
            raise_status(KCIPHER_ERR_TAG_LENGTH, tag_detail(tag_len));
        uint8_t *dst = nullptr;
        nb::object result = new_bytes(n + tag_len, bytearray, dst);
        auto lk = open_lock();
        kcipher_status st = call_maybe_released(host_is_gpu_ ? kReleaseGilBytes : n, [&] {
            return kcipher_aead_seal(ctx_, mode_, reinterpret_cast<const uint8_t *>(v.data()), v.size(), a.data(),
                                     a.size(), in.data(), n, dst, tag_len);
        });
        check(st, detail(st, v.size(), tag_len));
        return result;
    }

    // The plaintext, as bytes (a bytearray when `bytearray`); KCIPHER_ERR_AUTH on a bad tag.
    nb::object open(nb::handle iv, nb::handle data, nb::handle aad, size_t tag_len, bool bytearray)
    {
        std::string v = small_bytes(iv, "nonce");
        Buffer in(data, "data", false);
        OptionalBuffer a(aad, "associated_data");
        const size_t n = in.size();
        uint8_t *dst = nullptr;
        nb::object result = new_bytes(n >= tag_len ? n - tag_len : 0, bytearray, dst);
        auto lk = open_lock();
        kcipher_status st = call_maybe_released(host_is_gpu_ ? kReleaseGilBytes : n, [&] {
            return kcipher_aead_open(ctx_, mode_, reinterpret_cast<const uint8_t *>(v.data()), v.size(), a.data(),
                                     a.size(), in.data(), n, dst, tag_len);
        });
        if (st != KCIPHER_OK) {
            result.reset(); // zeroed by kcipher_aead_open on a bad tag; never returned
            open_failed(st, n, v.size(), tag_len);
        }
        return result;
    }

    // ---- device memory (GCM): in and out on one GPU, n bytes in; the C call waits for `stream`
    // (a cudaStream_t as an integer), so `out` is final when this returns. aad in host memory.

    // out: n + tag_len bytes, ciphertext || tag.
    void gpu_seal(nb::handle iv, uintptr_t in, size_t n, nb::handle aad, uintptr_t out, size_t tag_len,
                  uintptr_t stream)
    {
        size_t iv_len = 0;
        const kcipher_status st = gpu_call(kcipher_gpu_aead_seal, iv, in, n, aad, out, tag_len, stream, &iv_len);
        check(st, detail(st, iv_len, tag_len));
    }

    // in: n bytes, ciphertext || tag; out: n - tag_len bytes, zeroed when this raises.
    void gpu_open(nb::handle iv, uintptr_t in, size_t n, nb::handle aad, uintptr_t out, size_t tag_len,
                  uintptr_t stream)
    {
        size_t iv_len = 0;
        const kcipher_status st = gpu_call(kcipher_gpu_aead_open, iv, in, n, aad, out, tag_len, stream, &iv_len);
        if (st != KCIPHER_OK)
            open_failed(st, n, iv_len, tag_len);
    }

  private:
    // One device call (kcipher_gpu_aead_seal or _open, which take the same arguments), without
    // the GIL: its status, and the nonce's length for the message.
    template <class Call>
    kcipher_status gpu_call(Call call, nb::handle iv, uintptr_t in, size_t n, nb::handle aad, uintptr_t out,
                            size_t tag_len, uintptr_t stream, size_t *iv_len)
    {
        std::string v = small_bytes(iv, "nonce");
        OptionalBuffer a(aad, "associated_data");
        auto lk = open_lock();
        const kcipher_ctx *c = device_context();
        *iv_len = v.size();
        nb::gil_scoped_release g;
        return call(c, mode_, reinterpret_cast<const uint8_t *>(v.data()), v.size(), a.data(), a.size(), vptr(in),
                    n, vptr(out), tag_len, vptr(stream));
    }

    static void *vptr(uintptr_t p) { return reinterpret_cast<void *>(p); }

    [[noreturn]] void open_failed(kcipher_status st, size_t n, size_t iv_len, size_t tag_len) const
    {
        if (st == KCIPHER_ERR_DATA_LENGTH)
            raise_status(st, "the data (" + std::to_string(n) + " bytes) is shorter than the " +
                                 std::to_string(tag_len) + "-byte tag");
        raise_status(st, detail(st, iv_len, tag_len));
    }

    std::string tag_detail(size_t tag_len) const
    {
        return mode_ == KCIPHER_MODE_GCM ? "GCM takes tag_length 16, 15, 14, 13, 12, 8 or 4, got " + std::to_string(tag_len)
                                         : "CCM takes tag_length 4, 6, 8, 10, 12, 14 or 16, got " + std::to_string(tag_len);
    }

    std::string detail(kcipher_status st, size_t iv_len, size_t tag_len) const
    {
        switch (st) {
        case KCIPHER_ERR_TAG_LENGTH:
            return tag_detail(tag_len);
        case KCIPHER_ERR_IV_LENGTH:
            return mode_ == KCIPHER_MODE_GCM ? "a GCM nonce is at least 1 byte (12 is standard), got 0"
                                             : "a CCM nonce is 7 to 13 bytes, got " + std::to_string(iv_len);
        case KCIPHER_ERR_MODE_LIMIT:
            if (mode_ == KCIPHER_MODE_GCM)
                return "GCM takes at most 2**36 - 32 bytes per nonce";
            // SP 800-38C A.1: a nonce of n bytes leaves 15 - n bytes for the length
            return "CCM with a " + std::to_string(iv_len) + "-byte nonce takes at most 2**" +
                   std::to_string(8 * (15 - iv_len)) + " - 1 bytes (a shorter nonce takes more)";
        default:
            return std::string();
        }
    }

    kcipher_mode mode_ = KCIPHER_MODE_NONE;
};

std::string mac_detail(kcipher_status st, kcipher_mode mode, const kcipher_ctx *ctx, size_t tag_len)
{
    if (st == KCIPHER_ERR_TAG_LENGTH) {
        if (mode == KCIPHER_MODE_CMAC)
            return "CMAC with " + std::string(kcipher_ctx_cipher(ctx)) + " takes tag_length 4 to " +
                   std::to_string(kcipher_block_size(ctx)) + ", got " + std::to_string(tag_len);
        return "GMAC takes tag_length 16, 15, 14, 13, 12, 8 or 4, got " + std::to_string(tag_len);
    }
    if (st == KCIPHER_ERR_IV_LENGTH)
        return "a GMAC iv is at least 1 byte (12 is standard)";
    if (st == KCIPHER_ERR_UNSUPPORTED)
        return "GMAC needs a 128-bit block cipher; " + std::string(kcipher_ctx_cipher(ctx)) +
               " has 64-bit blocks (CMAC takes it)";
    return std::string();
}

// One CMAC or GMAC call: the tag (bytes), or with `expected` whether it matches (constant time).
// mode: KCIPHER_MODE_CMAC or KCIPHER_MODE_GMAC; a name's own suffix must agree with it.
nb::object mac(const std::string &name, nb::handle key, int mode_int, nb::handle iv, nb::handle data,
               std::optional<size_t> tag_len, nb::handle expected, std::optional<std::string> kernel)
{
    const kcipher_mode want = kcipher_mode(mode_int);
    kcipher_mode mode;
    std::string cipher = split_name(name, want, want, mode);
    std::string v;
    if (!iv.is_none())
        v = small_bytes(iv, "iv");
    Buffer in(data, "data", false);
    std::optional<Buffer> tag;
    if (!expected.is_none()) {
        if (nb::isinstance<nb::str>(expected))
            throw nb::type_error("tag must be bytes (or bytes-like), not str: use bytes.fromhex(...)");
        tag.emplace(expected, "tag", false);
    }
    kcipher_ctx *ctx = make_context(cipher, key, kernel);
    struct Free {
        kcipher_ctx *c;
        ~Free() { kcipher_free(c); }
    } free_ctx{ctx};
    // CMAC's default tag is the whole block; GMAC's is 16 bytes.
    const size_t t = tag ? tag->size() : tag_len ? *tag_len : mode == KCIPHER_MODE_CMAC ? kcipher_block_size(ctx) : 16;
    const uint8_t *ivp = mode == KCIPHER_MODE_GMAC ? reinterpret_cast<const uint8_t *>(v.data()) : nullptr;
    const size_t iv_len = mode == KCIPHER_MODE_GMAC ? v.size() : 0;
    if (tag) {
        kcipher_status st = call_maybe_released(in.size(), [&] {
            return kcipher_mac_verify(ctx, mode, ivp, iv_len, in.data(), in.size(), tag->data(), t);
        });
        if (st == KCIPHER_ERR_AUTH)
            return nb::bool_(false);
        check(st, mac_detail(st, mode, ctx, t));
        return nb::bool_(true);
    }
    if (t > 16)
        raise_status(KCIPHER_ERR_TAG_LENGTH, mac_detail(KCIPHER_ERR_TAG_LENGTH, mode, ctx, t));
    uint8_t *dst = nullptr;
    nb::object result = new_bytes(t, false, dst);
    kcipher_status st = call_maybe_released(in.size(), [&] {
        return kcipher_mac(ctx, mode, ivp, iv_len, in.data(), in.size(), dst, t);
    });
    check(st, mac_detail(st, mode, ctx, t));
    return result;
}

} // namespace

void register_aead(nb::module_ &m)
{
    nb::class_<Aead, OwnedContext>(m, "Aead") // the base: register_context
        .def(nb::init<const std::string &, nb::handle, std::optional<std::string>>(), nb::arg("name"), nb::arg("key"),
             nb::arg("kernel") = nb::none())
        .def_prop_ro("mode", &Aead::mode)
        .def("_seal", &Aead::seal, nb::arg("nonce"), nb::arg("data"), nb::arg("aad").none(), nb::arg("tag_len"),
             nb::arg("bytearray"))
        .def("_open", &Aead::open, nb::arg("nonce"), nb::arg("data"), nb::arg("aad").none(), nb::arg("tag_len"),
             nb::arg("bytearray"))
        .def("_gpu_seal", &Aead::gpu_seal, nb::arg("nonce"), nb::arg("data"), nb::arg("n"), nb::arg("aad").none(),
             nb::arg("out"), nb::arg("tag_len"), nb::arg("stream"))
        .def("_gpu_open", &Aead::gpu_open, nb::arg("nonce"), nb::arg("data"), nb::arg("n"), nb::arg("aad").none(),
             nb::arg("out"), nb::arg("tag_len"), nb::arg("stream"));
    m.def("mac", &mac, nb::arg("name"), nb::arg("key"), nb::arg("mode"), nb::arg("iv").none(), nb::arg("data"),
          nb::arg("tag_len").none(), nb::arg("expected").none(), nb::arg("kernel").none());
}

} // namespace kcpy
