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
    case Cipher::cham64_128:
    case Cipher::cham128_128:
    case Cipher::cham128_256:
        return cham_fused_ecb;
    default:
        break;
    }
#if defined(__x86_64__)
    const uint32_t need = feat_avx512f | feat_avx512bw | feat_avx512vl | feat_gfni;
    if ((machine_features() & need) == need)
        return c == Cipher::hight ? hight_fused_ecb_gfni : aria_fused_ecb_gfni;
#endif
    return nullptr;
}

} // namespace kc::drbg
