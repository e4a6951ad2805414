// Reading a DLPack capsule (the protocol's __dlpack__ result) without taking ownership: the
// capsule keeps the producer's tensor alive and frees it when collected, and the caller keeps
// the capsule until the work is queued. The structures are the DLPack ABI (dlpack.h, v0.8 and
// v1.x), declared here from the specification.
#include <cstdint>

#include "common.hpp"

namespace kcpy {
namespace {

struct DLDevice {
    int32_t device_type; // 1 CPU, 2 CUDA, 3 CUDA host (pinned), 13 CUDA managed
    int32_t device_id;
};
struct DLDataType {
    uint8_t code, bits;
    uint16_t lanes;
};
struct DLTensor {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides; // in elements; NULL: compact row-major
    uint64_t byte_offset;
};
struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(DLManagedTensor *);
};
struct DLPackVersion {
    uint32_t major, minor;
};
struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(DLManagedTensorVersioned *);
    uint64_t flags; // bit 0: read-only
    DLTensor dl_tensor;
};

// (pointer, bytes, device type, device id, C-contiguous, read-only)
nb::tuple dlpack_view(nb::handle capsule)
{
    const DLTensor *t = nullptr;
    bool readonly = false;
    if (PyCapsule_IsValid(capsule.ptr(), "dltensor")) {
        t = &static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"))->dl_tensor;
    } else if (PyCapsule_IsValid(capsule.ptr(), "dltensor_versioned")) {
        auto *v = static_cast<DLManagedTensorVersioned *>(PyCapsule_GetPointer(capsule.ptr(), "dltensor_versioned"));
        if (v->version.major > 1)
            throw nb::type_error("DLPack tensor of an unknown major version");
        t = &v->dl_tensor;
        readonly = (v->flags & 1u) != 0;
    } else {
        throw nb::type_error("__dlpack__() did not return an unused DLPack capsule");
    }
    const uint64_t item = (uint64_t(t->dtype.bits) * t->dtype.lanes + 7) / 8;
    uint64_t n = item;
    bool contiguous = true;
    int64_t expect = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        const int64_t dim = t->shape[i];
        if (dim < 0)
            throw nb::value_error("DLPack tensor with a negative dimension");
        n *= uint64_t(dim);
        if (t->strides != nullptr && dim != 1 && t->strides[i] != expect)
            contiguous = false;
        expect *= dim;
    }
    if (t->dtype.bits % 8 != 0 && t->ndim > 0)
        contiguous = false; // sub-byte elements: no byte view
    uintptr_t p = reinterpret_cast<uintptr_t>(t->data) + t->byte_offset;
    return nb::make_tuple(p, n, t->device.device_type, t->device.device_id, contiguous, readonly);
}

} // namespace

void register_dlpack(nb::module_ &m)
{
    m.def("dlpack_view", &dlpack_view);
}

} // namespace kcpy
