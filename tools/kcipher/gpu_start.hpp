// `--gpu` without waiting for the GPU. Starting it (the driver, a context, pinned buffers)
// takes about 0.3 s per process on an H200 host, while the CLI takes a file through at about
// 2 GiB/s: a 4 GiB file would spend one part in seven waiting. So the GPU's cipher is keyed on
// a thread of its own while a CPU kernel with the same key takes the stream's first chunks,
// and the stream moves to the GPU at the first chunk after it is ready. The bytes are the same
// either way: the modes keep their state (the counter's position, the chain value) outside
// the cipher, and every kernel matches the reference.
#pragma once

#include <functional>
#include <future>
#include <optional>

#include "kcipher/kcipher.hpp"

namespace cli {

class GpuStart {
  public:
    explicit GpuStart(std::function<kcipher::Cipher()> make);
    GpuStart(const GpuStart &) = delete;
    GpuStart &operator=(const GpuStart &) = delete;
    ~GpuStart(); // waits for the start to end, whatever it did

    // The GPU's cipher once started, else nullptr (wait = false) or after waiting for it
    // (wait = true). A start that failed ("--gpu: no usable GPU") throws its error here.
    const kcipher::Cipher *get(bool wait);

  private:
    std::future<kcipher::Cipher> start_;
    std::optional<kcipher::Cipher> cipher_;
};

} // namespace cli
