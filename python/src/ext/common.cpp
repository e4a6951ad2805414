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

bool is_gpu_kernel(const char *name)
{
    for (size_t i = 0; i < kcipher_kernel_count(); i++) {
        kcipher_kernel_info k;
        if (kcipher_kernel_get(i, &k) == KCIPHER_OK && std::strcmp(k.name, name) == 0)
            return std::strstr(k.requires, "cuda-gpu") != nullptr;
    }
    return false;
}

const char *forced_kernel(const std::string &cipher, const std::optional<std::string> &kernel)
{
    if (!kernel || *kernel == "cpu")
        return nullptr;
    if (*kernel != "gpu")
        return kernel->c_str();
    const char *name = nullptr;
    check(kcipher_default_gpu_kernel(cipher.c_str(), &name), "kernel='gpu' for " + cipher);
    return name;
}

// ---- OwnedContext ----

void OwnedContext::release()
{
    kcipher_free(ctx_); // kcipher_free wipes the round keys
    ctx_ = nullptr;
    kcipher_free(gpu_);
    gpu_ = nullptr;
    if (!key_.empty())
        explicit_bzero(key_.data(), key_.size());
    key_.clear();
    key_.shrink_to_fit();
}

void OwnedContext::setup_gpu(const std::string &name, const Buffer &key, const std::optional<std::string> &kernel)
{
    name_ = name;
    host_is_gpu_ = is_gpu_kernel(kcipher_ctx_kernel(ctx_));
    auto_gpu_ = !kernel.has_value();
    if (auto_gpu_) // kernel=None: a GPU array may come later and needs a GPU context keyed alike
        key_.assign(key.data(), key.data() + key.size());
}

std::optional<std::string> OwnedContext::gpu_kernel() const
{
    if (ctx_ == nullptr)
        return std::nullopt;
    if (host_is_gpu_)
        return std::string(kcipher_ctx_kernel(ctx_));
    if (gpu_ != nullptr)
        return std::string(kcipher_ctx_kernel(gpu_));
    const char *name = nullptr;
    if (auto_gpu_ && kcipher_default_gpu_kernel(kcipher_ctx_cipher(ctx_), &name) == KCIPHER_OK)
        return std::string(name);
    return std::nullopt;
}

const kcipher_ctx *OwnedContext::device_context()
{
    if (host_is_gpu_)
        return ctx_;
    if (!auto_gpu_)
        raise_status(KCIPHER_ERR_NOT_GPU_KERNEL,
                     "this " + std::string(what_) + " was made with kernel='" + kcipher_ctx_kernel(ctx_) +
                         "', which cannot take GPU arrays; make it with kernel=None (the default) or kernel='gpu'");
    std::lock_guard<std::mutex> g(make_gpu_);
    if (gpu_ == nullptr) {
        const char *name = nullptr;
        const char *cipher = kcipher_ctx_cipher(ctx_);
        check(kcipher_default_gpu_kernel(cipher, &name), std::string("a GPU array was passed to a ") + cipher + " " +
                                                             what_ + ", but no GPU kernel can run here");
        check(kcipher_new(&gpu_, name_.c_str(), key_.data(), key_.size(), name));
    }
    return gpu_;
}

} // namespace kcpy
