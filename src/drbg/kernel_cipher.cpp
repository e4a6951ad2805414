#include "drbg/kernel_cipher.hpp"

#include <cstring>
#include <new>

#include "core/counter.hpp"
#include "core/wipe.hpp"

namespace kc::drbg {

void KernelCipher::encrypt_block(const uint8_t *in, uint8_t *out) const
{
    k_.encrypt_blocks(keys_.get(), in, out, 1);
}

// Kernels only offer CTR as keystream XOR data: XOR into zeros, in place. Zeroing a slice
// at a time keeps the buffer in L1 between the two passes.
void KernelCipher::keystream(const uint8_t *ctr, uint8_t *out, size_t nblocks) const
{
    const size_t bs = desc_.block_bytes;
    const size_t slice = 16384 / bs;
    uint8_t c[16];
    std::memcpy(c, ctr, bs);
    for (size_t done = 0; done < nblocks;) {
        size_t n = nblocks - done < slice ? nblocks - done : slice;
        uint8_t *p = out + done * bs;
        std::memset(p, 0, n * bs);
        k_.ctr_xor_blocks(keys_.get(), c, p, p, n);
        done += n;
        counter_add(c, bs, n);
    }
    secure_wipe(c, sizeof c);
}

std::unique_ptr<BlockCipher> KernelCipher::clone_unkeyed() const
{
    return std::unique_ptr<BlockCipher>(new (std::nothrow) KernelCipher(k_, c_));
}

} // namespace kc::drbg
