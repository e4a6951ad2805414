#include "core/wipe.hpp"

#include <cstring>

namespace kc {

void secure_wipe(void *p, size_t n)
{
    if (p == nullptr || n == 0)
        return;
    // explicit_bzero (glibc >= 2.25) is documented never to be optimised away.
    explicit_bzero(p, n);
}

} // namespace kc
