// The default entropy source: the kernel's CSPRNG through getrandom(2), which blocks only
// until the pool is first initialised and then always returns full-entropy bytes.
#include <cerrno>
#include <sys/random.h>

#include "drbg/ctr_drbg.hpp"

namespace kc::drbg {

size_t entropy_getrandom(void *, uint8_t *buf, size_t min_len, size_t)
{
    size_t got = 0;
    while (got < min_len) {
        ssize_t r = getrandom(buf + got, min_len - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        got += size_t(r);
    }
    return got;
}

} // namespace kc::drbg
