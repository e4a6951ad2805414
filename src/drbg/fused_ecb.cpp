#include "drbg/fused_ecb.hpp"

#include <array>
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
    // Chosen once per process: the chain asks on every plan_segments call.
    static const std::array<FusedEcb, cipher_count> chosen = [] {
        std::array<FusedEcb, cipher_count> a{};
        const char *e = std::getenv("KCIPHER_DRBG_CHAIN");
        if (e != nullptr && std::strcmp(e, "kernel") == 0)
            return a;
        for (int i = 0; i < cipher_count; i++) {
            const std::vector<FusedEcb> v = fused_ecb_candidates(cipher_by_index(i)->id);
            a[i] = v.empty() ? nullptr : v.front();
        }
        return a;
    }();
    return chosen[(int)c];
}

} // namespace kc::drbg
