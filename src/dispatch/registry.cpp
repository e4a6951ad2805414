#include "dispatch/registry.hpp"

#include <array>
#include <cstdlib>
#include <cstring>
#include <string>

namespace kc {

// One line per cipher family: its module (src/<family>/<family>_module.cpp) declares what it
// offers. Order does not matter: dispatch goes by rank.
const CipherModule &aria_module();
const CipherModule &lea_module();
const CipherModule &hight_module();
const CipherModule &cham_module();
const CipherModule &seed_module();

const std::vector<const CipherModule *> &modules()
{
    static const std::vector<const CipherModule *> list = [] {
        std::vector<const CipherModule *> all = {&aria_module(), &lea_module(), &hight_module(), &cham_module(),
                                                  &seed_module()};
        for (const CipherModule *m : all)
            for (const FamilyOption &o : m->options)
                if (runnable(o.requires))
                    o.enable();
        return all;
    }();
    return list;
}

// The CUDA runtime is asked only about what needs a GPU: starting the driver costs a process
// that never uses one about 0.13 s (an H200 host), as much as `kcipher enc` of 256 MiB.
bool runnable(uint32_t requires)
{
    const uint32_t have = (requires & feat_cuda_gpu) != 0 ? machine_features() : machine_cpu_features();
    return (have & requires) == requires;
}

const CipherModule *module_of(Cipher c)
{
    for (const CipherModule *m : modules())
        if (std::strcmp(m->family, cipher_desc(c).family) == 0)
            return m;
    return nullptr;
}

const std::vector<const Kernel *> &all_kernels()
{
    static const std::vector<const Kernel *> list = [] {
        std::vector<const Kernel *> all;
        for (const CipherModule *m : modules())
            all.insert(all.end(), m->kernels.begin(), m->kernels.end());
        return all;
    }();
    return list;
}

const std::vector<const keysearch::CpuSearcher *> &all_cpu_searchers()
{
    static const std::vector<const keysearch::CpuSearcher *> list = [] {
        std::vector<const keysearch::CpuSearcher *> all;
        for (const CipherModule *m : modules())
            all.insert(all.end(), m->cpu_searchers.begin(), m->cpu_searchers.end());
        return all;
    }();
    return list;
}

const keysearch::CpuSearcher *cpu_searcher_for(Cipher c, const Kernel &k)
{
    const CipherModule *m = module_of(c);
    if (m == nullptr)
        return nullptr;
    for (const keysearch::CpuSearcher *s : m->cpu_searchers)
        if (std::strcmp(s->kernel, k.name) == 0 && runnable(s->requires))
            return s;
    return nullptr;
}

keysearch::cuda::GpuSearchFn gpu_search_for(Cipher c)
{
    const CipherModule *m = module_of(c);
    return m == nullptr ? nullptr : m->gpu_search;
}

const Kernel &chain_kernel(Cipher c, const Kernel &k)
{
    if (const CipherModule *m = module_of(c))
        for (const Kernel *x : m->chain_kernels)
            if (x->gpu == nullptr && kernel_runnable(*x) && x->supports(c) && (x->constant_time || !k.constant_time))
                return *x;
    return k;
}

// A kernel's accelerator from the modules' list `list` (chains, CTR_DRBG, XTS): the one
// declared for k, where the machine runs both; null where none is.
template <class Accel>
static const Accel *accel_for(const Kernel &k, std::vector<const Accel *> CipherModule::*list)
{
    for (const CipherModule *m : modules())
        for (const Accel *a : m->*list)
            if (a->kernel == &k)
                return runnable(a->requires) && kernel_runnable(k) ? a : nullptr;
    return nullptr;
}

const ChainAccel *chain_accel_for(const Kernel &k) { return accel_for(k, &CipherModule::chain_accels); }

std::vector<FusedEcb> fused_ecb_candidates(Cipher c)
{
    std::vector<FusedEcb> v;
    if (const CipherModule *m = module_of(c))
        for (const FusedEcbEntry &e : m->fused_ecb)
            if (runnable(e.requires))
                v.push_back(e.fn);
    return v;
}

FusedEcb drbg_fused_ecb(Cipher c)
{
    // Chosen once per process: the chain asks on every plan_segments call.
    static const std::array<FusedEcb, cipher_count> chosen = [] {
        std::array<FusedEcb, cipher_count> a{};
        for (int i = 0; i < cipher_count; i++) {
            const std::vector<FusedEcb> v = fused_ecb_candidates(cipher_by_index(i)->id);
            a[i] = v.empty() ? nullptr : v.front();
        }
        return a;
    }();
    return chosen[(int)c];
}

const DrbgAccel *drbg_accel_for(const Kernel &k) { return accel_for(k, &CipherModule::drbg_accels); }

const XtsAccel *xts_accel_for(const Kernel &k) { return accel_for(k, &CipherModule::xts_accels); }

const std::vector<const GhashKernel *> &all_ghash_kernels()
{
    static const std::vector<const GhashKernel *> all = {
#if defined(__x86_64__)
        &ghash_vpclmul_avx512_kernel,
        &ghash_vpclmul_avx2_kernel,
        &ghash_pclmul_kernel,
#endif
#if defined(__aarch64__)
        &ghash_neon_pmull_kernel,
#endif
        &ghash_portable_kernel,
    };
    return all;
}

const GhashKernel &ghash_kernel()
{
    static const GhashKernel *chosen = [] {
        const GhashKernel *best = &ghash_portable_kernel;
        for (const GhashKernel *g : all_ghash_kernels())
            if (runnable(g->requires) && g->rank > best->rank)
                best = g;
        return best;
    }();
    return *chosen;
}

const Kernel *find_kernel(std::string_view name)
{
    for (const Kernel *k : all_kernels())
        if (name == k->name)
            return k;
    return nullptr;
}

bool kernel_runnable(const Kernel &k) { return runnable(k.requires); }

const Kernel *reference_kernel(Cipher c)
{
    std::string name = std::string(cipher_desc(c).family) + "/ref";
    return find_kernel(name);
}

// KCIPHER_KERNEL="aria/table,lea/ref": the entry whose family matches, or empty. An entry
// that names no kernel at all is returned too, so that a typo is an error, not ignored.
static std::string env_choice(const char *family)
{
    const char *env = std::getenv("KCIPHER_KERNEL");
    if (env == nullptr)
        return {};
    std::string_view all(env);
    size_t flen = std::strlen(family);
    while (!all.empty()) {
        size_t comma = all.find(',');
        std::string_view item = all.substr(0, comma);
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ')
            item.remove_suffix(1);
        if (!item.empty() && find_kernel(item) == nullptr)
            return std::string(item);
        if (item.size() > flen && item.substr(0, flen) == family && item[flen] == '/')
            return std::string(item);
        if (comma == std::string_view::npos)
            break;
        all.remove_prefix(comma + 1);
    }
    return {};
}

static kcipher_status check_forced(Cipher c, std::string_view name, const Kernel **out)
{
    const Kernel *k = find_kernel(name);
    if (k == nullptr)
        return KCIPHER_ERR_UNKNOWN_KERNEL;
    if (!k->supports(c))
        return KCIPHER_ERR_KERNEL_MISMATCH;
    if (!kernel_runnable(*k))
        return KCIPHER_ERR_KERNEL_UNAVAILABLE;
    *out = k;
    return KCIPHER_OK;
}

kcipher_status select_kernel(Cipher c, std::string_view forced, const Kernel **out)
{
    if (!feature_mask_error().empty())
        return KCIPHER_ERR_CPU_FEATURES;
    if (!forced.empty())
        return check_forced(c, forced, out);
    std::string env = env_choice(cipher_desc(c).family);
    if (!env.empty())
        return check_forced(c, env, out);
    const Kernel *best = nullptr;
    for (const Kernel *k : all_kernels()) {
        if (k->gpu != nullptr || !k->supports(c) || !kernel_runnable(*k))
            continue; // GPU kernels only when named (kcipher.h: "GPUs")
        if (best == nullptr || k->rank > best->rank)
            best = k;
    }
    if (best == nullptr)
        return KCIPHER_ERR_INTERNAL; // every family has a portable reference kernel
    *out = best;
    return KCIPHER_OK;
}

const Kernel *best_cpu_kernel(Cipher c)
{
    const Kernel *best = nullptr;
    for (const Kernel *k : all_kernels())
        if (k->gpu == nullptr && k->supports(c) && kernel_runnable(*k) && (best == nullptr || k->rank > best->rank))
            best = k;
    return best;
}

const Kernel *best_gpu_kernel(Cipher c)
{
    const Kernel *best = nullptr;
    for (const Kernel *k : all_kernels())
        if (k->gpu != nullptr && k->supports(c) && kernel_runnable(*k) && (best == nullptr || k->rank > best->rank))
            best = k;
    return best;
}

} // namespace kc
