#include "keysearch/cpu_searchers.hpp"

#include <cstring>

#include "dispatch/registry.hpp"

namespace kc::keysearch {

const std::vector<const CpuSearcher *> &cpu_searchers()
{
    static const std::vector<const CpuSearcher *> list = {
#if defined(__x86_64__)
        &lea_x86_keysearch_avx512,
        &lea_x86_keysearch_avx2,
        &cham_x86_keysearch_avx512,
        &cham_x86_keysearch_avx2,
        &hight_x86_keysearch_avx512_gfni,
        &hight_x86_keysearch_avx2,
        &aria_x86_keysearch_avx512_gfni,
#endif
        &aria_table_keysearch,
    };
    return list;
}

const CpuSearcher *cpu_searcher_for(Cipher c, const Kernel &k)
{
    for (const CpuSearcher *s : cpu_searchers())
        if (std::strcmp(s->kernel, k.name) == 0 && std::strcmp(s->family, cipher_desc(c).family) == 0 &&
            (machine_features() & s->requires) == s->requires)
            return s;
    return nullptr;
}

} // namespace kc::keysearch
