// What the binding's files share: raising the library's statuses as kcipher.Error subclasses,
// and borrowing Python buffers (bytes, bytearray, memoryview, numpy arrays, ...) as bytes.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <optional>
#include <string>

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

// Where each file registers its part of the module.
void register_context(nb::module_ &m);
void register_aead(nb::module_ &m);
void register_library(nb::module_ &m);
void register_keysearch(nb::module_ &m);
void register_drbg(nb::module_ &m);
void register_dlpack(nb::module_ &m);

} // namespace kcpy
