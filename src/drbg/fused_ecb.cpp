#include "drbg/fused_ecb.hpp"

#include <cstdlib>
#include <cstring>

#include "aria/aria.hpp"
#include "cham/cham.hpp"
#include "dispatch/features.hpp"
#include "hight/hight.hpp"
#include "lea/lea.hpp"

namespace kc::drbg {

FusedEcb fused_ecb_for(Cipher c)
{
    static const bool off = [] {
        const char *e = std::getenv("KCIPHER_DRBG_CHAIN");
        return e != nullptr && std::strcmp(e, "kernel") == 0;
    }();
    if (off)
        return nullptr;
    switch (c) {
    case Cipher::lea128:
    case Cipher::lea192:
    case Cipher::lea256:
        return lea_fused_ecb;
    default:
        break;
    }
    const bool cham = c == Cipher::cham64_128 || c == Cipher::cham128_128 || c == Cipher::cham128_256;
#if defined(__x86_64__)
    const uint32_t f = machine_features(), avx512 = feat_avx512f | feat_avx512bw | feat_avx512vl;
    if (cham && (f & (avx512 | feat_avx512vbmi2)) == (avx512 | feat_avx512vbmi2))
        return cham_fused_ecb_avx512;
    if (!cham && (f & (avx512 | feat_gfni)) == (avx512 | feat_gfni))
        return c == Cipher::hight ? hight_fused_ecb_gfni : aria_fused_ecb_gfni;
#endif
    return cham ? cham_fused_ecb : nullptr;
}

} // namespace kc::drbg
