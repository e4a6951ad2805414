// What the binding's files share: raising the library's statuses as kcipher.Error subclasses,
// and borrowing Python buffers (bytes, bytearray, memoryview, numpy arrays, ...) as bytes.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "kcipher/kcipher.h"

namespace kcpy {

namespace nb = nanobind;

// kcipher/_errors.py hands its classes over at import (_set_error_classes); until then, and
// for a status it does not list, RuntimeError is raised.
void set_error_classes(nb::dict classes);

// Raises the class registered for `st` with kcipher_strerror(st) as its message, followed by
// `detail` when given; a CUDA failure adds kcipher_gpu_last_error(). Needs the GIL.
[[noreturn]] void raise_status(kcipher_status st, const std::string &detail = std::string());

inline void check(kcipher_status st, const std::string &detail = std::string())
{
    if (st != KCIPHER_OK)
        raise_status(st, detail);
}

// A contiguous byte view of a Python object (the buffer protocol), released on scope exit.
class Buffer {
  public:
    // what: "data", "out", "iv" (for messages). writable: out= buffers.
    Buffer(nb::handle obj, const char *what, bool writable);
    ~Buffer();
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;

    uint8_t *data() const { return static_cast<uint8_t *>(view_.buf); }
    size_t size() const { return size_t(view_.len); }

  private:
    Py_buffer view_{};
    bool held_ = false;
};

// A Python exception caught inside a C callback (which must return a status, not throw),
// raised again once the C call has returned and the GIL is held.
class PendingError {
  public:
    void take() { PyErr_Fetch(&type_, &value_, &trace_); } // the current error, which is cleared
    bool pending() const { return type_ != nullptr; }
    [[noreturn]] void raise()
    {
        PyErr_Restore(type_, value_, trace_);
        type_ = value_ = trace_ = nullptr;
        throw nb::python_error();
    }
    ~PendingError()
    {
        Py_XDECREF(type_);
        Py_XDECREF(value_);
        Py_XDECREF(trace_);
    }

  private:
    PyObject *type_ = nullptr, *value_ = nullptr, *trace_ = nullptr;
};

// Copies a small buffer argument (IV, key, pair) into a std::string of bytes.
std::string small_bytes(nb::handle obj, const char *what);

// What to add to kcipher_new's failure for the message: the names, the expected key length.
std::string creation_detail(kcipher_status st, const std::string &cipher, size_t key_len,
                            const std::optional<std::string> &kernel);

// Below this a call takes well under a microsecond: releasing and retaking the GIL would cost
// more than the work.
constexpr size_t kReleaseGilBytes = 4096;

// A new bytes (or bytearray) of n bytes, and where to write them.
nb::object new_bytes(size_t n, bool bytearray, uint8_t *&dst);

// The key argument as bytes (a str is refused with a hint).
Buffer key_buffer(nb::handle key);

// kcipher_new with the GIL released; its failure raised with creation_detail (kernel: the
// kernel= argument as given, for the message).
kcipher_ctx *new_context(const std::string &cipher, const Buffer &key, const char *forced,
                         const std::optional<std::string> &kernel);

// Whether `name` is a kernel of kcipher.kernels() that runs on a CUDA GPU.
bool is_gpu_kernel(const char *name);

// The kernel kcipher_new is forced to for kernel= as the Python classes take it: nullptr for
// None and "cpu" (the library's choice), the fastest GPU kernel for "gpu", else the name.
const char *forced_kernel(const std::string &cipher, const std::optional<std::string> &kernel);

// A keyed C context that a Python object owns (kcipher.Cipher, kcipher.AEAD). The C context is
// immutable and thread-safe, so calls share `use_` (open_lock); close() takes it alone, so a
// context is never freed under a call running without the GIL.
//
// GPU arrays: a context made with a GPU kernel takes them itself; one made with kernel=None
// keys a second context with the fastest GPU kernel on the first GPU array (device_context),
// for which it keeps a copy of the key until close(); one made with "cpu" or a CPU kernel
// name refuses them (KCIPHER_ERR_NOT_GPU_KERNEL).
class OwnedContext {
  public:
    explicit OwnedContext(const char *what) : what_(what) {} // "Cipher": "this Cipher is closed"
    virtual ~OwnedContext() { OwnedContext::release(); }      // kcipher_free wipes the round keys
    OwnedContext(const OwnedContext &) = delete;
    OwnedContext &operator=(const OwnedContext &) = delete;

    void close()
    {
        nb::gil_scoped_release g;
        std::unique_lock<std::shared_mutex> lk(use_);
        release();
    }
    bool closed() const { return ctx_ == nullptr; }
    std::string cipher() const { return ctx_ ? kcipher_ctx_cipher(ctx_) : std::string(); }
    std::string kernel() const { return ctx_ ? kcipher_ctx_kernel(ctx_) : std::string(); }

    // The kernel device arrays use: this context's when it is a GPU kernel; for kernel=None
    // the fastest GPU kernel (None where there is none); None for a CPU-only context.
    std::optional<std::string> gpu_kernel() const;

  protected:
    // Frees the contexts and wipes the key copy; a subclass that owns more overrides it (and
    // calls it from its own destructor).
    virtual void release();
    std::shared_lock<std::shared_mutex> open_lock()
    {
        std::shared_lock<std::shared_mutex> lk(use_);
        if (ctx_ == nullptr)
            throw nb::value_error(("this " + std::string(what_) + " is closed").c_str());
        return lk;
    }
    // Once ctx_ is made: kernel= as the caller gave it (None keeps `key` for device_context),
    // name as given to kcipher_new (its mode suffix matters for "NAME-xts").
    void setup_gpu(const std::string &name, const Buffer &key, const std::optional<std::string> &kernel);
    // Under open_lock(): the context that takes device pointers (raises where there is none).
    const kcipher_ctx *device_context();

    kcipher_ctx *ctx_ = nullptr;
    std::shared_mutex use_;
    bool host_is_gpu_ = false; // ctx_'s kernel is a GPU kernel: it takes device memory too

  private:
    const char *what_;
    kcipher_ctx *gpu_ = nullptr; // kernel=None: device memory, keyed on the first GPU array
    std::vector<uint8_t> key_;   // kernel=None only, to key gpu_ later; wiped by release()
    std::string name_;           // as given to kcipher_new
    bool auto_gpu_ = false;
    std::mutex make_gpu_;
};

// Where each file registers its part of the module.
void register_context(nb::module_ &m);
void register_aead(nb::module_ &m);
void register_library(nb::module_ &m);
void register_keysearch(nb::module_ &m);
void register_drbg(nb::module_ &m);
void register_dlpack(nb::module_ &m);

} // namespace kcpy
