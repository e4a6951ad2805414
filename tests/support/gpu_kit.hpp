// What the GPU tests share: a context that frees itself, and (CUDA builds) a device buffer
// with copies in and out.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kcipher/kcipher.h"

#if defined(KCIPHER_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

namespace kct {

struct Ctx {
    kcipher_ctx *c = nullptr;
    Ctx(const char *cipher, const std::vector<uint8_t> &key, const char *kernel)
    {
        kcipher_status st = kcipher_new(&c, cipher, key.data(), key.size(), kernel);
        if (st != KCIPHER_OK)
            throw std::runtime_error(std::string("kcipher_new: ") + kcipher_strerror(st));
    }
    ~Ctx() { kcipher_free(c); }
    Ctx(const Ctx &) = delete;
    Ctx &operator=(const Ctx &) = delete;
};

#if defined(KCIPHER_HAVE_CUDA)

struct DeviceBuffer {
    uint8_t *p = nullptr;
    explicit DeviceBuffer(size_t n)
    {
        if (cudaMalloc((void **)&p, n ? n : 1) != cudaSuccess)
            throw std::runtime_error("cudaMalloc");
    }
    ~DeviceBuffer() { cudaFree(p); }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    void put(const std::vector<uint8_t> &v, size_t at = 0)
    {
        ASSERT_EQ(cudaSuccess, cudaMemcpy(p + at, v.data(), v.size(), cudaMemcpyHostToDevice));
    }
    std::vector<uint8_t> get(size_t n, size_t at = 0)
    {
        std::vector<uint8_t> v(n);
        EXPECT_EQ(cudaSuccess, cudaMemcpy(v.data(), p + at, n, cudaMemcpyDeviceToHost));
        return v;
    }
};

#endif

} // namespace kct
