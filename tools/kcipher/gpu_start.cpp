#include "gpu_start.hpp"

#include <chrono>

namespace cli {

GpuStart::GpuStart(std::function<kcipher::Cipher()> make) : start_(std::async(std::launch::async, std::move(make)))
{
}

GpuStart::~GpuStart()
{
    if (start_.valid())
        start_.wait();
}

const kcipher::Cipher *GpuStart::get(bool wait)
{
    if (cipher_)
        return &*cipher_;
    if (!wait && start_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return nullptr;
    cipher_.emplace(start_.get()); // rethrows the start's error
    return &*cipher_;
}

} // namespace cli
