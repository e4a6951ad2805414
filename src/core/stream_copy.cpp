#include "core/stream_copy.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace kc {

void stream_copy(void *dst, const void *src, size_t n)
{
    if (n == 0)
        return; // memcpy's pointers must be valid even then, and an empty buffer's may be null
#if defined(__x86_64__)
    // Below this, the destination may well be read again while still in cache.
    constexpr size_t min_bytes = size_t(64) << 10;
    if (n >= min_bytes) {
        uint8_t *d = static_cast<uint8_t *>(dst);
        const uint8_t *s = static_cast<const uint8_t *>(src);
        const size_t head = (64 - reinterpret_cast<uintptr_t>(d) % 64) % 64;
        std::memcpy(d, s, head);
        d += head, s += head, n -= head;
        for (; n >= 64; d += 64, s += 64, n -= 64) {
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 16));
            const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 32));
            const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 48));
            _mm_stream_si128(reinterpret_cast<__m128i *>(d), a);
            _mm_stream_si128(reinterpret_cast<__m128i *>(d + 16), b);
            _mm_stream_si128(reinterpret_cast<__m128i *>(d + 32), c);
            _mm_stream_si128(reinterpret_cast<__m128i *>(d + 48), e);
        }
        std::memcpy(d, s, n);
        _mm_sfence(); // the streamed lines are visible before whoever waits on this copy reads
        return;
    }
#endif
    std::memcpy(dst, src, n);
}

} // namespace kc
