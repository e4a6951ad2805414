// The fuzzer's bytes read as a sequence of choices: small integers, flags and byte strings.
// Past the end every read gives zeros, so every input is a complete, valid program and a
// shorter input only takes the first choices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kcfuzz {

class FuzzInput {
  public:
    FuzzInput(const uint8_t *data, size_t size) : p_(data), n_(size) {}

    uint8_t u8() { return n_ ? (n_--, *p_++) : 0; }
    uint16_t u16() { return uint16_t(u8() | u8() << 8); }
    uint32_t u32() { return uint32_t(u16()) | uint32_t(u16()) << 16; }
    uint64_t u64() { return uint64_t(u32()) | uint64_t(u32()) << 32; }
    bool flag() { return u8() & 1; }
    // A number in [0, n) for n >= 1, from one or two bytes.
    size_t below(size_t n) { return n <= 256 ? u8() % n : u16() % n; }

    // n bytes, zero-filled past the end of the input.
    std::vector<uint8_t> bytes(size_t n)
    {
        std::vector<uint8_t> v(n, 0);
        size_t k = n < n_ ? n : n_;
        if (k)
            std::memcpy(v.data(), p_, k);
        p_ += k;
        n_ -= k;
        return v;
    }
    // A byte string whose length (at most max) comes first.
    std::vector<uint8_t> sized_bytes(size_t max) { return bytes(below(max + 1)); }
    // Whatever input is left.
    std::vector<uint8_t> rest() { return bytes(n_); }
    std::string rest_string()
    {
        std::vector<uint8_t> v = rest();
        return std::string(v.begin(), v.end());
    }
    size_t left() const { return n_; }

  private:
    const uint8_t *p_;
    size_t n_;
};

} // namespace kcfuzz
