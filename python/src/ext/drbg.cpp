// kcipher._kcipher.Drbg: the C API's CTR_DRBG (SP 800-90A rev. 1). kcipher/_drbg.py adds the
// Python conveniences (output types, GPU arrays); this file owns the handle.
//
// A kcipher_drbg is not thread-safe: every call takes mutex_, always with the GIL released,
// since a Python entropy source called from inside the C call needs the GIL back.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstring>
#include <mutex>
#include <optional>
#include <string>

#include "common.hpp"

namespace kcpy {
namespace {

class Drbg {
  public:
    Drbg(const std::string &cipher, bool df, std::optional<std::string> kernel, nb::object entropy,
         std::optional<uint64_t> reseed_interval, std::optional<unsigned> threads, std::optional<int> gpu_device)
    {
        const char *forced = nullptr;
        if (kernel && *kernel == "gpu")
            check(kcipher_default_gpu_kernel(cipher.c_str(), &forced), "kernel='gpu' for " + cipher);
        else if (kernel && *kernel != "cpu")
            forced = kernel->c_str();
        kcipher_status st = kcipher_drbg_new(&d_, cipher.c_str(), df ? 0u : KCIPHER_DRBG_NO_DF, forced);
        if (st != KCIPHER_OK) {
            std::string detail = st == KCIPHER_ERR_UNKNOWN_CIPHER ? "'" + cipher + "' (a bare name such as 'lea-128')"
                                 : kernel ? "kernel '" + *kernel + "' for " + cipher
                                          : std::string();
            raise_status(st, detail);
        }
        try {
            if (entropy.is_none()) {
                // the library's default source (getrandom)
            } else if (nb::isinstance<nb::bool_>(entropy) && !nb::cast<bool>(entropy)) {
                check(kcipher_drbg_set_entropy_source(d_, nullptr, nullptr));
            } else if (PyCallable_Check(entropy.ptr())) {
                source_ = entropy;
                check(kcipher_drbg_set_entropy_source(d_, &Drbg::python_source, this));
            } else {
                throw nb::type_error("entropy_source must be None (getrandom), False (none: caller-seeded only) "
                                     "or a callable(min_len, max_len) -> bytes");
            }
            if (reseed_interval)
                check(kcipher_drbg_set_reseed_interval(d_, *reseed_interval),
                      "reseed_interval=" + std::to_string(*reseed_interval));
            if (threads)
                check(kcipher_drbg_set_threads(d_, *threads));
            if (gpu_device)
                check(kcipher_drbg_set_gpu(d_, *gpu_device), "gpu_device=" + std::to_string(*gpu_device));
        } catch (...) {
            kcipher_drbg_free(d_);
            throw;
        }
    }

    ~Drbg() { kcipher_drbg_free(d_); }

    void close()
    {
        nb::gil_scoped_release g;
        std::lock_guard<std::mutex> lk(mutex_);
        kcipher_drbg_free(d_); // wipes the state
        d_ = nullptr;
    }

    bool closed() const { return d_ == nullptr; }
    std::string kernel() const { return d_ ? kcipher_drbg_kernel(d_) : std::string(); }
    size_t max_request() const { return kcipher_drbg_max_request(d_); }

    uint64_t reseed_counter()
    {
        uint64_t c = 0;
        call([&] { return kcipher_drbg_reseed_counter(d_, &c); });
        return c;
    }

    void instantiate(nb::handle entropy, nb::handle nonce, nb::handle personalization)
    {
        std::string e = opt_bytes(entropy, "entropy"), n = opt_bytes(nonce, "nonce"),
                    p = opt_bytes(personalization, "personalization");
        call([&] {
            return kcipher_drbg_instantiate(d_, u8(e), e.size(), u8(n), n.size(), u8(p), p.size());
        });
    }

    void reseed(nb::handle entropy, nb::handle additional)
    {
        std::string e = opt_bytes(entropy, "entropy"), a = opt_bytes(additional, "additional");
        call([&] { return kcipher_drbg_reseed(d_, u8(e), e.size(), u8(a), a.size()); });
    }

    // One request (large=false, at most max_request bytes) or any length as consecutive
    // maximum-size requests (large=true, no additional input), into `out` or a new bytes.
    nb::object generate(size_t n, nb::handle additional, bool prediction_resistance, bool large, nb::handle out)
    {
        std::string a = opt_bytes(additional, "additional");
        nb::object result;
        uint8_t *dst;
        std::optional<Buffer> o;
        if (out.is_none()) {
            result = nb::steal(PyBytes_FromStringAndSize(nullptr, Py_ssize_t(n)));
            if (!result.is_valid())
                throw nb::python_error();
            dst = reinterpret_cast<uint8_t *>(PyBytes_AS_STRING(result.ptr()));
        } else {
            o.emplace(out, "out", true);
            n = o->size();
            dst = o->data();
            result = nb::borrow(out);
        }
        call([&] {
            return large ? kcipher_drbg_generate_large(d_, dst, n, prediction_resistance)
                         : kcipher_drbg_generate(d_, dst, n, u8(a), a.size(), prediction_resistance);
        });
        return result;
    }

    // Any length into device memory at ptr, queued after the work on `stream` (a cudaStream_t);
    // the DRBG must have a GPU kernel. Returns when the bytes are written.
    void generate_device(uintptr_t ptr, size_t n, uintptr_t stream)
    {
        call([&] {
            return kcipher_drbg_generate_device(d_, reinterpret_cast<void *>(ptr), n, reinterpret_cast<void *>(stream));
        });
    }

    void uninstantiate()
    {
        call([&] { return kcipher_drbg_uninstantiate(d_); });
    }

  private:
    static const uint8_t *u8(const std::string &s) { return s.empty() ? nullptr : reinterpret_cast<const uint8_t *>(s.data()); }

    static std::string opt_bytes(nb::handle h, const char *what) { return h.is_none() ? std::string() : small_bytes(h, what); }

    template <class F>
    void call(F &&f)
    {
        kcipher_status st;
        {
            nb::gil_scoped_release g;
            std::lock_guard<std::mutex> lk(mutex_);
            st = d_ == nullptr ? KCIPHER_ERR_NULL_POINTER : f();
        }
        if (d_ == nullptr && st == KCIPHER_ERR_NULL_POINTER)
            throw nb::value_error("this DRBG is closed");
        if (pending_.pending())
            pending_.raise(); // the entropy source's own exception says more than the status
        check(st);
    }

    // SP 800-90A Get_entropy_input through the Python callable: between min_len and max_len bytes.
    static size_t python_source(void *user, uint8_t *buf, size_t min_len, size_t max_len)
    {
        Drbg &d = *static_cast<Drbg *>(user);
        nb::gil_scoped_acquire g;
        try {
            nb::object r = d.source_(min_len, max_len);
            Buffer b(r, "the entropy source's result", false);
            if (b.size() < min_len || b.size() > max_len)
                throw nb::value_error(("the entropy source returned " + std::to_string(b.size()) + " bytes; between " +
                                       std::to_string(min_len) + " and " + std::to_string(max_len) + " were asked for")
                                          .c_str());
            std::memcpy(buf, b.data(), b.size());
            return b.size();
        } catch (nb::python_error &e) {
            e.restore();
        } catch (const std::exception &e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
        d.pending_.take();
        return 0;
    }

    kcipher_drbg *d_ = nullptr;
    nb::object source_;
    PendingError pending_;
    std::mutex mutex_;
};

} // namespace

void register_drbg(nb::module_ &m)
{
    nb::class_<Drbg>(m, "Drbg")
        .def(nb::init<const std::string &, bool, std::optional<std::string>, nb::object, std::optional<uint64_t>,
                      std::optional<unsigned>, std::optional<int>>(),
             nb::arg("cipher"), nb::arg("df") = true, nb::arg("kernel") = nb::none(),
             nb::arg("entropy_source").none() = nb::none(), nb::arg("reseed_interval") = nb::none(),
             nb::arg("threads") = nb::none(), nb::arg("gpu_device") = nb::none())
        .def("close", &Drbg::close)
        .def_prop_ro("closed", &Drbg::closed)
        .def_prop_ro("kernel", &Drbg::kernel)
        .def_prop_ro("max_request", &Drbg::max_request)
        .def_prop_ro("reseed_counter", &Drbg::reseed_counter)
        .def("_instantiate", &Drbg::instantiate, nb::arg("entropy").none(), nb::arg("nonce").none(),
             nb::arg("personalization").none())
        .def("_reseed", &Drbg::reseed, nb::arg("entropy").none(), nb::arg("additional").none())
        .def("_generate", &Drbg::generate, nb::arg("n"), nb::arg("additional").none(),
             nb::arg("prediction_resistance"), nb::arg("large"), nb::arg("out").none())
        .def("_generate_device", &Drbg::generate_device, nb::arg("ptr"), nb::arg("n"), nb::arg("stream"))
        .def("uninstantiate", &Drbg::uninstantiate);
}

} // namespace kcpy
