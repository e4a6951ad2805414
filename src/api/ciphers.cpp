// Names, ciphers and kernels as the C API shows them.
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cuda/devices.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"

using namespace kc;

// "cham-128-256-ctr" -> ("cham-128-256", CTR). Only a known cipher name counts as a
// prefix, so "aria-128-xyz" is an unknown mode and "aria-999" an unknown cipher.
static kcipher_status split_name(std::string_view full, const CipherDesc **cipher, kcipher_mode *mode)
{
    if (const CipherDesc *d = cipher_by_name(full)) {
        *cipher = d;
        *mode = KCIPHER_MODE_NONE;
        return KCIPHER_OK;
    }
    size_t dash = full.rfind('-');
    if (dash == std::string_view::npos)
        return KCIPHER_ERR_UNKNOWN_CIPHER;
    const CipherDesc *d = cipher_by_name(full.substr(0, dash));
    if (d == nullptr)
        return KCIPHER_ERR_UNKNOWN_CIPHER;
    std::string_view m = full.substr(dash + 1);
    if (m == "ecb")
        *mode = KCIPHER_MODE_ECB;
    else if (m == "cbc")
        *mode = KCIPHER_MODE_CBC;
    else if (m == "ctr")
        *mode = KCIPHER_MODE_CTR;
    else if (m == "gcm")
        *mode = KCIPHER_MODE_GCM;
    else if (m == "ccm")
        *mode = KCIPHER_MODE_CCM;
    else if (m == "cmac")
        *mode = KCIPHER_MODE_CMAC;
    else if (m == "gmac")
        *mode = KCIPHER_MODE_GMAC;
    else if (m == "xts")
        *mode = KCIPHER_MODE_XTS;
    else if (m == "cfb")
        *mode = KCIPHER_MODE_CFB;
    else if (m == "cfb8")
        *mode = KCIPHER_MODE_CFB8;
    else if (m == "ofb")
        *mode = KCIPHER_MODE_OFB;
    else
        return KCIPHER_ERR_UNKNOWN_MODE;
    *cipher = d;
    return KCIPHER_OK;
}

kcipher_status kc_split_name(const char *name, const CipherDesc **cipher, kcipher_mode *mode)
{
    return split_name(name, cipher, mode);
}

kcipher_status kc_lookup_cipher(const char *name, const CipherDesc **out)
{
    kcipher_mode mode;
    return split_name(name, out, &mode);
}

static void fill(const CipherDesc &d, kcipher_cipher_info *info)
{
    info->name = d.name;
    info->family = d.family;
    info->block_bytes = d.block_bytes;
    info->key_bytes = d.key_bytes;
}

extern "C" {

size_t kcipher_cipher_count(void) { return cipher_count; }

kcipher_status kcipher_cipher_get(size_t index, kcipher_cipher_info *info)
{
    if (info == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const CipherDesc *d = cipher_by_index(index < (size_t)cipher_count ? (int)index : -1);
    if (d == nullptr)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    fill(*d, info);
    return KCIPHER_OK;
}

kcipher_status kcipher_cipher_find(const char *name, kcipher_cipher_info *info)
{
    if (name == nullptr || info == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const CipherDesc *d;
    kcipher_status st = kc_lookup_cipher(name, &d);
    if (st == KCIPHER_OK)
        fill(*d, info);
    return st;
}

kcipher_status kcipher_parse_name(const char *name, char *cipher, size_t cipher_cap, kcipher_mode *mode)
{
    if (name == nullptr || cipher == nullptr || mode == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const CipherDesc *d;
    kcipher_status st = split_name(name, &d, mode);
    if (st != KCIPHER_OK)
        return st;
    size_t n = std::strlen(d->name);
    if (n + 1 > cipher_cap)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    std::memcpy(cipher, d->name, n + 1);
    return KCIPHER_OK;
}

size_t kcipher_kernel_count(void) { return all_kernels().size(); }

kcipher_status kcipher_kernel_get(size_t index, kcipher_kernel_info *info)
{
    if (info == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const auto &ks = all_kernels();
    if (index >= ks.size())
        return KCIPHER_ERR_INVALID_ARGUMENT;
    // Feature strings live as long as the process, one per kernel, built once.
    static const std::vector<std::string> requires = [] {
        std::vector<std::string> r;
        for (const Kernel *k : all_kernels())
            r.push_back(feature_names(k->requires));
        return r;
    }();
    const Kernel &k = *ks[index];
    info->name = k.name;
    info->family = k.family;
    info->block_bytes = k.block_bytes;
    info->batch_blocks = k.batch_blocks;
    info->constant_time = k.constant_time ? 1 : 0;
    info->available = kernel_runnable(k) ? 1 : 0;
    info->requires = requires[index].c_str();
    return KCIPHER_OK;
}

kcipher_status kcipher_default_kernel(const char *cipher, const char **kernel_name)
{
    if (cipher == nullptr || kernel_name == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const CipherDesc *d;
    kcipher_status st = kc_lookup_cipher(cipher, &d);
    if (st != KCIPHER_OK)
        return st;
    const Kernel *k;
    st = select_kernel(d->id, {}, &k);
    if (st == KCIPHER_OK)
        *kernel_name = k->name;
    return st;
}

const char *kcipher_cpu_features(void)
{
    static const std::string s = feature_names(machine_cpu_features());
    return s.c_str();
}

const char *kcipher_cpu_features_detected(void)
{
    static const std::string s = feature_names(detected_features() & cpu_feature_bits);
    return s.c_str();
}

kcipher_status kcipher_cpu_features_status(const char **detail)
{
    const std::string &e = feature_mask_error();
    if (detail != nullptr)
        *detail = e.c_str();
    return e.empty() ? KCIPHER_OK : KCIPHER_ERR_CPU_FEATURES;
}

int kcipher_gpu_count(void) { return cuda_device_count(); }

} // extern "C"
