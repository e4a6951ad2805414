#include "drbg/fused_ecb.hpp"

#include <array>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "dispatch/registry.hpp"

namespace kc::drbg {

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
