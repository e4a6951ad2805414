// The options of `kcipher enc` and `kcipher dec` (registered in cmd_crypt.cpp).
#pragma once

#include <cstddef>
#include <string>

#include "key_source.hpp"

namespace cli {

struct CryptOptions {
    KeySource key;        // -k, --key-file or --key-env (or --pass)
    std::string name, iv_hex, in_path, out_path, kernel;
    std::string aad_hex, aad_path; // GCM/CCM: --aad or --aad-file
    size_t tag_len = 0;            // GCM/CCM: --tag-len; 0 = not given (16)
    unsigned threads = 0;
    bool progress = true;
    bool gpu = false;    // --gpu: the fastest GPU kernel unless --kernel names one
    int gpu_device = -1; // --gpu-device: one GPU (default: all)
    bool nopad = false;  // --nopad: ECB/CBC of whole blocks, no PKCS#7
    size_t data_unit = 0; // XTS: --data-unit; 0 = the whole input is one unit
    // --pass SOURCE with --pbkdf2 [--iter N] [--md NAME] instead of --key and --iv
    std::string pass, md;
    bool pbkdf2 = false;
    unsigned iter = 0; // 0: not given (10000)
};

} // namespace cli
