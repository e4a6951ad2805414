#include "common.hpp"

#include <cstring>

namespace kcpy {

static nb::dict &error_classes()
{
    static nb::dict *d = new nb::dict(); // kept for the life of the process (no teardown order issue)
    return *d;
}

void set_error_classes(nb::dict classes)
{
    error_classes().clear();
    for (auto [k, v] : classes)
        error_classes()[k] = v;
}

void raise_status(kcipher_status st, const std::string &detail)
{
    std::string msg = kcipher_strerror(st);
    if (st == KCIPHER_ERR_CUDA) {
        const char *cuda = kcipher_gpu_last_error();
        if (cuda != nullptr && cuda[0] != '\0')
            msg += std::string(" (") + cuda + ")";
    }
    if (!detail.empty())
        msg += ": " + detail;
    nb::int_ key{int(st)};
    nb::handle cls = PyExc_RuntimeError;
    if (error_classes().contains(key))
        cls = error_classes()[key];
    nb::object exc = cls(nb::str(msg.c_str()), key);
    PyErr_SetObject(cls.ptr(), exc.ptr());
    throw nb::python_error();
}

Buffer::Buffer(nb::handle obj, const char *what, bool writable)
{
    if (!PyObject_CheckBuffer(obj.ptr())) {
        std::string t = nb::type_name(obj.type()).c_str();
        throw nb::type_error((std::string(what) + " must be a bytes-like object or an array (bytes, bytearray, "
                              "memoryview, numpy, or a CuPy/PyTorch GPU array), not '" + t + "'").c_str());
    }
    int flags = PyBUF_STRIDES | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj.ptr(), &view_, flags) != 0) {
        PyErr_Clear();
        std::string t = nb::type_name(obj.type()).c_str();
        if (writable && PyObject_GetBuffer(obj.ptr(), &view_, PyBUF_STRIDES) == 0) {
            PyBuffer_Release(&view_);
            throw nb::type_error((std::string(what) + " must be writable; '" + t + "' is read-only (use a "
                                  "bytearray or an array)").c_str());
        }
        PyErr_Clear();
        throw nb::type_error((std::string(what) + ": '" + t + "' does not export its memory as a buffer").c_str());
    }
    if (!PyBuffer_IsContiguous(&view_, 'C')) {
        PyBuffer_Release(&view_); // a throwing constructor runs no destructor
        throw nb::value_error((std::string(what) + " is not C-contiguous: pass a contiguous array "
                               "(numpy.ascontiguousarray(x), x.copy()) or a slice along the first axis").c_str());
    }
    held_ = true;
}

Buffer::~Buffer()
{
    if (held_)
        PyBuffer_Release(&view_);
}

std::string small_bytes(nb::handle obj, const char *what)
{
    if (nb::isinstance<nb::str>(obj))
        throw nb::type_error((std::string(what) + " must be bytes (or bytes-like), not str: use bytes.fromhex(...)").c_str());
    Buffer b(obj, what, false);
    return std::string(reinterpret_cast<const char *>(b.data()), b.size());
}

std::string creation_detail(kcipher_status st, const std::string &cipher, size_t key_len,
                            const std::optional<std::string> &kernel)
{
    kcipher_cipher_info info;
    switch (st) {
    case KCIPHER_ERR_UNKNOWN_CIPHER:
    case KCIPHER_ERR_UNKNOWN_MODE:
        return "'" + cipher + "' (kcipher.ciphers() lists the names)";
    case KCIPHER_ERR_KEY_LENGTH:
        if (kcipher_cipher_find(cipher.c_str(), &info) == KCIPHER_OK)
            return cipher + " takes a " + std::to_string(info.key_bytes) + "-byte key, got " + std::to_string(key_len) +
                   " bytes";
        return std::string();
    case KCIPHER_ERR_UNKNOWN_KERNEL:
    case KCIPHER_ERR_KERNEL_UNAVAILABLE:
    case KCIPHER_ERR_KERNEL_MISMATCH:
        return "kernel '" + kernel.value_or("") + "' for " + cipher + " (kcipher.kernels() lists them)";
    default:
        return std::string();
    }
}

nb::object new_bytes(size_t n, bool bytearray, uint8_t *&dst)
{
    nb::object r = nb::steal(bytearray ? PyByteArray_FromStringAndSize(nullptr, Py_ssize_t(n))
                                       : PyBytes_FromStringAndSize(nullptr, Py_ssize_t(n)));
    if (!r.is_valid())
        throw nb::python_error();
    dst = reinterpret_cast<uint8_t *>(bytearray ? PyByteArray_AS_STRING(r.ptr()) : PyBytes_AS_STRING(r.ptr()));
    return r;
}

Buffer key_buffer(nb::handle key)
{
    if (nb::isinstance<nb::str>(key))
        throw nb::type_error("key must be bytes (or bytes-like), not str: use bytes.fromhex(...)");
    return Buffer(key, "key", false);
}

kcipher_ctx *new_context(const std::string &cipher, const Buffer &key, const char *forced,
                         const std::optional<std::string> &kernel)
{
    kcipher_ctx *ctx = nullptr;
    kcipher_status st;
    {
        nb::gil_scoped_release g;
        st = kcipher_new(&ctx, cipher.c_str(), key.data(), key.size(), forced);
    }
    if (st != KCIPHER_OK)
        raise_status(st, creation_detail(st, cipher, key.size(), kernel));
    return ctx;
}

} // namespace kcpy
