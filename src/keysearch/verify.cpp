#include "keysearch/verify.hpp"

#include <cstring>
#include <new>

#include "core/key_state.hpp"
#include "core/wipe.hpp"
#include "dispatch/registry.hpp"

namespace kc::keysearch {

bool matches_all_pairs(const Problem &p, uint64_t index)
{
    const CipherDesc &d = cipher_desc(p.cipher);
    uint8_t key[32], out[16];
    candidate_key(p, index, key);
    KeyState ks;
    // Out of memory must not read as "no match": a key would be lost.
    if (!ks.init(*reference_kernel(p.cipher), p.cipher, key))
        throw std::bad_alloc();
    bool ok = true;
    for (size_t i = 0; ok && i < p.pairs.size(); i++) {
        reference_kernel(p.cipher)->encrypt_blocks(ks.get(), p.pairs[i].pt, out, 1);
        ok = std::memcmp(out, p.pairs[i].ct, d.block_bytes) == 0;
    }
    secure_wipe(key, sizeof key);
    secure_wipe(out, sizeof out);
    return ok;
}

} // namespace kc::keysearch
