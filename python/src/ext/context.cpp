// kcipher._kcipher.Context: one keyed cipher over the C API. Host memory arrives as Python
// buffers (or, for arrays without the buffer protocol, as a pointer the Python layer read from
// the array); GPU memory as a device pointer and a CUDA stream (kcipher/_arrays.py finds both).
//
// Concurrency: common.hpp's OwnedContext (calls share the context, close() takes it alone).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstring>
#include <optional>
#include <vector>

#include "common.hpp"

namespace kcpy {
namespace {

// kReleaseGilBytes (common.hpp): host calls on a GPU context and all device calls always
// release the GIL.

class Context : public OwnedContext {
  public:
    Context(const std::string &cipher, nb::handle key, std::optional<std::string> kernel,
            std::optional<unsigned> threads, std::optional<int> gpu_device)
        : OwnedContext("Cipher")
    {
        const Buffer k = key_buffer(key);
        const char *forced = forced_kernel(cipher, kernel);
        ctx_ = new_context(cipher, k, forced, kernel);
        try {
            configure(cipher, k, kernel, threads, gpu_device);
        } catch (...) {
            release(); // a throwing constructor runs no destructor
            throw;
        }
    }

    void configure(const std::string &cipher, const Buffer &k, const std::optional<std::string> &kernel,
                   std::optional<unsigned> threads, std::optional<int> gpu_device)
    {
        setup_gpu(cipher, k, kernel);
        if (threads)
            check(kcipher_set_threads(ctx_, *threads));
        if (gpu_device) {
            if (!host_is_gpu_)
                throw nb::value_error("gpu_device= applies to a Cipher made with a GPU kernel (kernel='gpu'): "
                                      "GPU arrays always run on the GPU that holds them");
            check(kcipher_set_gpu(ctx_, *gpu_device), "gpu_device=" + std::to_string(*gpu_device));
        }
    }

    size_t block_size() const { return kcipher_block_size(ctx_); }

    // ---- host memory: Python buffers ----
    nb::object ecb(bool decrypt, nb::handle data, nb::handle out)
    {
        return host_call(data, out, [decrypt](const kcipher_ctx *c, const uint8_t *in, uint8_t *o, size_t n) {
            return decrypt ? kcipher_ecb_decrypt(c, in, o, n) : kcipher_ecb_encrypt(c, in, o, n);
        });
    }

    nb::object cbc(bool decrypt, nb::handle data, nb::handle iv, nb::handle out)
    {
        std::string v = small_bytes(iv, "iv");
        return host_call(data, out, [&](const kcipher_ctx *c, const uint8_t *in, uint8_t *o, size_t n) {
            uint8_t *ivp = reinterpret_cast<uint8_t *>(v.data()); // a copy: the caller's iv stays as it was
            return decrypt ? kcipher_cbc_decrypt(c, ivp, v.size(), in, o, n)
                           : kcipher_cbc_encrypt(c, ivp, v.size(), in, o, n);
        });
    }

    nb::object ctr(nb::handle data, nb::handle iv, uint64_t offset, nb::handle out)
    {
        std::string v = small_bytes(iv, "iv");
        return host_call(data, out, [&](const kcipher_ctx *c, const uint8_t *in, uint8_t *o, size_t n) {
            return kcipher_ctr_xor(c, reinterpret_cast<const uint8_t *>(v.data()), v.size(), offset, in, o, n);
        });
    }

    // CFB, CFB8 and OFB (op: "cfb_encrypt", "cfb_decrypt", "cfb8_encrypt", "cfb8_decrypt", "ofb").
    nb::object feedback(const std::string &op, nb::handle data, nb::handle iv, nb::handle out)
    {
        const FeedbackFn fn = feedback_fn(op);
        std::string v = small_bytes(iv, "iv");
        return host_call(data, out, [&](const kcipher_ctx *c, const uint8_t *in, uint8_t *o, size_t n) {
            return fn(c, reinterpret_cast<uint8_t *>(v.data()), v.size(), in, o, n);
        });
    }

    // PKCS#7-padded ECB or CBC: the output's length differs from the input's, so it is always a
    // new bytes (bytearray for a bytearray). The result passes through a buffer wiped after use.
    nb::object padded(bool decrypt, bool cbc, nb::handle data, nb::handle iv)
    {
        Buffer in(data, "data", false);
        std::string v = cbc ? small_bytes(iv, "iv") : std::string();
        const size_t n = in.size(), cap = decrypt ? n : n + kcipher_block_size(ctx_);
        std::vector<uint8_t> tmp(cap > 0 ? cap : 1);
        size_t got = 0;
        kcipher_status st;
        {
            auto lk = open_lock();
            nb::gil_scoped_release g;
            uint8_t *ivp = reinterpret_cast<uint8_t *>(v.data());
            if (cbc)
                st = decrypt ? kcipher_cbc_decrypt_padded(ctx_, ivp, v.size(), in.data(), n, tmp.data(), cap, &got)
                             : kcipher_cbc_encrypt_padded(ctx_, ivp, v.size(), in.data(), n, tmp.data(), cap, &got);
            else
                st = decrypt ? kcipher_ecb_decrypt_padded(ctx_, in.data(), n, tmp.data(), cap, &got)
                             : kcipher_ecb_encrypt_padded(ctx_, in.data(), n, tmp.data(), cap, &got);
        }
        if (st != KCIPHER_OK) {
            explicit_bzero(tmp.data(), tmp.size());
            check(st);
        }
        uint8_t *dst = nullptr;
        nb::object result = new_bytes(got, PyByteArray_Check(data.ptr()), dst);
        std::memcpy(dst, tmp.data(), got);
        explicit_bzero(tmp.data(), tmp.size());
        return result;
    }

    // XTS, on a context keyed with "NAME-xts" (kcipher.XTS).
    nb::object xts(bool decrypt, nb::handle data, nb::handle tweak, size_t data_unit, nb::handle out)
    {
        std::string t = small_bytes(tweak, "tweak");
        return host_call(data, out, [&](const kcipher_ctx *c, const uint8_t *in, uint8_t *o, size_t n) {
            const uint8_t *tp = reinterpret_cast<const uint8_t *>(t.data());
            return decrypt ? kcipher_xts_decrypt(c, tp, t.size(), data_unit, in, o, n)
                           : kcipher_xts_encrypt(c, tp, t.size(), data_unit, in, o, n);
        });
    }

    // ---- host memory: raw pointers (arrays without the buffer protocol, e.g. torch CPU tensors) ----
    void feedback_ptr(const std::string &op, nb::handle iv, uintptr_t in, uintptr_t out, size_t n)
    {
        const FeedbackFn fn = feedback_fn(op);
        std::string v = small_bytes(iv, "iv");
        pointer_call(n, [&](const kcipher_ctx *c) {
            return fn(c, reinterpret_cast<uint8_t *>(v.data()), v.size(), ptr(in), ptr(out), n);
        });
    }

    void xts_ptr(bool decrypt, nb::handle tweak, size_t data_unit, uintptr_t in, uintptr_t out, size_t n)
    {
        std::string t = small_bytes(tweak, "tweak");
        const uint8_t *tp = reinterpret_cast<const uint8_t *>(t.data());
        pointer_call(n, [&](const kcipher_ctx *c) {
            return decrypt ? kcipher_xts_decrypt(c, tp, t.size(), data_unit, ptr(in), ptr(out), n)
                           : kcipher_xts_encrypt(c, tp, t.size(), data_unit, ptr(in), ptr(out), n);
        });
    }

    void ecb_ptr(bool decrypt, uintptr_t in, uintptr_t out, size_t n)
    {
        pointer_call(n, [&](const kcipher_ctx *c) {
            return decrypt ? kcipher_ecb_decrypt(c, ptr(in), ptr(out), n) : kcipher_ecb_encrypt(c, ptr(in), ptr(out), n);
        });
    }

    void cbc_ptr(bool decrypt, nb::handle iv, uintptr_t in, uintptr_t out, size_t n)
    {
        std::string v = small_bytes(iv, "iv");
        uint8_t *ivp = reinterpret_cast<uint8_t *>(v.data());
        pointer_call(n, [&](const kcipher_ctx *c) {
            return decrypt ? kcipher_cbc_decrypt(c, ivp, v.size(), ptr(in), ptr(out), n)
                           : kcipher_cbc_encrypt(c, ivp, v.size(), ptr(in), ptr(out), n);
        });
    }

    void ctr_ptr(nb::handle iv, uint64_t offset, uintptr_t in, uintptr_t out, size_t n)
    {
        std::string v = small_bytes(iv, "iv");
        pointer_call(n, [&](const kcipher_ctx *c) {
            return kcipher_ctr_xor(c, reinterpret_cast<const uint8_t *>(v.data()), v.size(), offset, ptr(in), ptr(out), n);
        });
    }

    // ---- device memory: queued on `stream` (a cudaStream_t as an integer; 0 = default) ----
    void gpu_ecb(bool decrypt, uintptr_t in, uintptr_t out, size_t n, uintptr_t stream)
    {
        device_call([&](const kcipher_ctx *c) {
            void *s = reinterpret_cast<void *>(stream);
            return decrypt ? kcipher_gpu_ecb_decrypt(c, vptr(in), vptr(out), n, s)
                           : kcipher_gpu_ecb_encrypt(c, vptr(in), vptr(out), n, s);
        });
    }

    void gpu_ctr(nb::handle iv, uint64_t offset, uintptr_t in, uintptr_t out, size_t n, uintptr_t stream)
    {
        std::string v = small_bytes(iv, "iv");
        device_call([&](const kcipher_ctx *c) {
            return kcipher_gpu_ctr_xor(c, reinterpret_cast<const uint8_t *>(v.data()), v.size(), offset, vptr(in),
                                       vptr(out), n, reinterpret_cast<void *>(stream));
        });
    }

    void gpu_xts(bool decrypt, nb::handle tweak, size_t data_unit, uintptr_t in, uintptr_t out, size_t n,
                 uintptr_t stream)
    {
        std::string t = small_bytes(tweak, "tweak");
        const uint8_t *tp = reinterpret_cast<const uint8_t *>(t.data());
        device_call([&](const kcipher_ctx *c) {
            void *s = reinterpret_cast<void *>(stream);
            return decrypt ? kcipher_gpu_xts_decrypt(c, tp, t.size(), data_unit, vptr(in), vptr(out), n, s)
                           : kcipher_gpu_xts_encrypt(c, tp, t.size(), data_unit, vptr(in), vptr(out), n, s);
        });
    }

  private:
    using FeedbackFn = kcipher_status (*)(const kcipher_ctx *, uint8_t *, size_t, const uint8_t *, uint8_t *, size_t);

    static FeedbackFn feedback_fn(const std::string &op)
    {
        if (op == "cfb_encrypt")
            return kcipher_cfb_encrypt;
        if (op == "cfb_decrypt")
            return kcipher_cfb_decrypt;
        if (op == "cfb8_encrypt")
            return kcipher_cfb8_encrypt;
        if (op == "cfb8_decrypt")
            return kcipher_cfb8_decrypt;
        if (op == "ofb")
            return kcipher_ofb_xor;
        throw nb::value_error(("unknown feedback mode operation " + op).c_str());
    }

    static uint8_t *ptr(uintptr_t p) { return reinterpret_cast<uint8_t *>(p); }
    static void *vptr(uintptr_t p) { return reinterpret_cast<void *>(p); }

    template <class F>
    nb::object host_call(nb::handle data, nb::handle out, F &&f)
    {
        Buffer in(data, "data", false);
        const size_t n = in.size();
        nb::object result;
        uint8_t *dst = nullptr;
        std::optional<Buffer> o;
        if (out.is_none()) {
            result = new_bytes(n, PyByteArray_Check(data.ptr()), dst);
        } else {
            o.emplace(out, "out", true);
            if (o->size() != n)
                throw nb::value_error(("out has " + std::to_string(o->size()) + " bytes, data " + std::to_string(n) +
                                       ": they must be the same size").c_str());
            dst = o->data();
            result = nb::borrow(out);
        }
        auto lk = open_lock();
        kcipher_status st;
        if (n >= kReleaseGilBytes || host_is_gpu_) {
            nb::gil_scoped_release g;
            st = f(ctx_, in.data(), dst, n);
        } else {
            st = f(ctx_, in.data(), dst, n);
        }
        check(st);
        return result;
    }

    template <class F>
    void pointer_call(size_t n, F &&f)
    {
        auto lk = open_lock();
        kcipher_status st;
        if (n >= kReleaseGilBytes || host_is_gpu_) {
            nb::gil_scoped_release g;
            st = f(ctx_);
        } else {
            st = f(ctx_);
        }
        check(st);
    }

    template <class F>
    void device_call(F &&f)
    {
        auto lk = open_lock();
        const kcipher_ctx *c = device_context();
        kcipher_status st;
        {
            nb::gil_scoped_release g;
            st = f(c);
        }
        check(st);
    }
};

} // namespace

void register_context(nb::module_ &m)
{
    // The base of Context and Aead (register_aead runs after this, module.cpp).
    nb::class_<OwnedContext>(m, "_OwnedContext")
        .def("close", &OwnedContext::close)
        .def_prop_ro("closed", &OwnedContext::closed)
        .def_prop_ro("name", &OwnedContext::cipher)
        .def_prop_ro("kernel", &OwnedContext::kernel)
        .def_prop_ro("gpu_kernel", &OwnedContext::gpu_kernel);
    nb::class_<Context, OwnedContext>(m, "Context")
        .def(nb::init<const std::string &, nb::handle, std::optional<std::string>, std::optional<unsigned>,
                      std::optional<int>>(),
             nb::arg("cipher"), nb::arg("key"), nb::arg("kernel") = nb::none(), nb::arg("threads") = nb::none(),
             nb::arg("gpu_device") = nb::none())
        .def_prop_ro("block_size", &Context::block_size)
        .def("_ecb", &Context::ecb, nb::arg("decrypt"), nb::arg("data"), nb::arg("out").none())
        .def("_cbc", &Context::cbc, nb::arg("decrypt"), nb::arg("data"), nb::arg("iv"), nb::arg("out").none())
        .def("_ctr", &Context::ctr, nb::arg("data"), nb::arg("iv"), nb::arg("offset"), nb::arg("out").none())
        .def("_feedback", &Context::feedback, nb::arg("op"), nb::arg("data"), nb::arg("iv"), nb::arg("out").none())
        .def("_padded", &Context::padded, nb::arg("decrypt"), nb::arg("cbc"), nb::arg("data"), nb::arg("iv").none())
        .def("_xts", &Context::xts, nb::arg("decrypt"), nb::arg("data"), nb::arg("tweak"), nb::arg("data_unit"),
             nb::arg("out").none())
        .def("_feedback_ptr", &Context::feedback_ptr)
        .def("_xts_ptr", &Context::xts_ptr)
        .def("_ecb_ptr", &Context::ecb_ptr)
        .def("_cbc_ptr", &Context::cbc_ptr)
        .def("_ctr_ptr", &Context::ctr_ptr)
        .def("_gpu_ecb", &Context::gpu_ecb)
        .def("_gpu_ctr", &Context::gpu_ctr)
        .def("_gpu_xts", &Context::gpu_xts);
}

} // namespace kcpy
