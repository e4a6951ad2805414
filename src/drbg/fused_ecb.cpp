#include "drbg/fused_ecb.hpp"

#include <cstdlib>
#include <cstring>

#include "aria/aria.hpp"
#include "cham/cham.hpp"
#include "dispatch/features.hpp"
#include "hight/hight.hpp"
#include "lea/lea.hpp"

namespace kc::drbg {

std::vector<FusedEcb> fused_ecb_candidates(Cipher c)
{
    const bool lea = c == Cipher::lea128 || c == Cipher::lea192 || c == Cipher::lea256;
    const bool cham = c == Cipher::cham64_128 || c == Cipher::cham128_128 || c == Cipher::cham128_256;
    std::vector<FusedEcb> v;
#if defined(__x86_64__)
    const uint32_t f = machine_features(), avx512 = feat_avx512f | feat_avx512bw | feat_avx512vl;
    if (cham && (f & (avx512 | feat_avx512vbmi2)) == (avx512 | feat_avx512vbmi2))
        v.push_back(cham_fused_ecb_avx512);
    if (!lea && !cham && (f & (avx512 | feat_gfni)) == (avx512 | feat_gfni))
        v.push_back(c == Cipher::hight ? hight_fused_ecb_gfni : aria_fused_ecb_gfni);
#endif
    if (lea)
        v.push_back(lea_fused_ecb);
    if (cham)
        v.push_back(cham_fused_ecb);
    return v;
}

FusedEcb fused_ecb_for(Cipher c)
{
    static const bool off = [] {
        const char *e = std::getenv("KCIPHER_DRBG_CHAIN");
        return e != nullptr && std::strcmp(e, "kernel") == 0;
    }();
    if (off)
        return nullptr;
    const std::vector<FusedEcb> v = fused_ecb_candidates(c);
    return v.empty() ? nullptr : v.front();
}

} // namespace kc::drbg
