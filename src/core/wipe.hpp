// Wiping key material: a store the compiler may not remove as dead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace kc {

void secure_wipe(void *p, size_t n);

// The same for a small object, inlined (the technique of Linux's memzero_explicit): a memset
// followed by an empty asm that takes the object's address and clobbers memory, so that the
// compiler must assume the zeros are read. For the few bytes of key-derived state that
// per-request code leaves on the stack, where the call to secure_wipe showed in profiles.
template <class T> inline void secure_wipe_inline(T &x)
{
#if defined(__GNUC__)
    std::memset(static_cast<void *>(&x), 0, sizeof x);
    asm volatile("" : : "r"(&x) : "memory");
#else
    secure_wipe(&x, sizeof x);
#endif
}

// secure_wipe over each object whole (arrays and structs of key-derived state), for the
// destructors of the mode states.
template <class... T> inline void secure_wipe_each(T &...x)
{
    (secure_wipe(&x, sizeof x), ...);
}

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
