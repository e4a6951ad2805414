// Storage for a kernel's round keys: 64-byte aligned (for vector loads), zeroed before the
// key schedule runs, wiped before it is freed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/kernel.hpp"
#include "core/wipe.hpp"

namespace kc {

using KeySchedule = void (*)(void *state, Cipher c, const uint8_t *key);

class KeyState {
  public:
    KeyState() = default;
    KeyState(const KeyState &) = delete;
    KeyState &operator=(const KeyState &) = delete;
    ~KeyState() { reset(); }

    // Allocates and runs the kernel's key schedule; false when out of memory. A rekey with
    // the same layout size reuses the storage (wiped, which also zeroes it): CTR_DRBG rekeys
    // on every request, and an allocation each time is measurable there. schedule: another
    // key schedule of the same layout (CTR_DRBG's encryption-only one, kit/drbg_accel.hpp);
    // nullptr: the kernel's set_key.
    bool init(const Kernel &k, Cipher c, const uint8_t *key, KeySchedule schedule = nullptr)
    {
        if (schedule == nullptr)
            schedule = k.set_key;
        size_t n = (k.key_state_bytes + 63) / 64 * 64;
        if (n == 0)
            n = 64;
        if (mem_ != nullptr && bytes_ == n) {
            secure_wipe(mem_, n);
            schedule(mem_, c, key);
            return true;
        }
        reset();
        mem_ = std::aligned_alloc(64, n);
        if (mem_ == nullptr)
            return false;
        bytes_ = n;
        std::memset(mem_, 0, n);
        schedule(mem_, c, key);
        return true;
    }

    // Rekeys storage that init() set up for the same kernel and cipher, without wiping it
    // first: for CTR_DRBG's bursts (drbg/burst.cpp), which rekey on every 1 KiB request. A
    // key schedule writes every byte of its layout that depends on the key
    // (tests/test_drbg_burst.cpp checks it for the kernels the bursts use), so nothing of the
    // older key stays.
    void schedule_over(const Kernel &k, Cipher c, const uint8_t *key, KeySchedule schedule = nullptr)
    {
        (schedule != nullptr ? schedule : k.set_key)(mem_, c, key);
    }

    // Zeroes the round keys in place (what reset() does before freeing).
    void wipe()
    {
        if (mem_ != nullptr)
            secure_wipe(mem_, bytes_);
    }

    void reset()
    {
        wipe();
        std::free(mem_);
        mem_ = nullptr;
        bytes_ = 0;
    }

    size_t size() const { return bytes_; }

    const void *get() const { return mem_; }

  private:
    void *mem_ = nullptr;
    size_t bytes_ = 0;
};

} // namespace kc
