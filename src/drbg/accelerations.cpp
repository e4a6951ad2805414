#include "drbg/accelerations.hpp"

#include "dispatch/registry.hpp"

namespace kc::drbg {

Accelerations accelerations_for(const Kernel &k, Cipher c)
{
    Accelerations a;
    a.kernel = &k;
    a.cipher = c;
    a.accel = drbg_accel_for(k);
    a.fused = drbg_fused_ecb(c);
    return a;
}

} // namespace kc::drbg
