// Wiping key material: a store the compiler may not remove as dead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kc {

void secure_wipe(void *p, size_t n);

// Wipes a byte vector when the scope ends, however it ends (early returns, exceptions).
class WipeOnExit {
  public:
    explicit WipeOnExit(std::vector<uint8_t> &v) : v_(v) {}
    ~WipeOnExit()
    {
        if (!v_.empty())
            secure_wipe(v_.data(), v_.size());
    }
    WipeOnExit(const WipeOnExit &) = delete;
    WipeOnExit &operator=(const WipeOnExit &) = delete;

  private:
    std::vector<uint8_t> &v_;
};

} // namespace kc
