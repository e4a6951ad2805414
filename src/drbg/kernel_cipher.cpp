#include "drbg/kernel_cipher.hpp"

#include <cstring>
#include <new>

#include "core/counter.hpp"
#include "core/wipe.hpp"
#include "core/write_prefetch.hpp"

namespace kc::drbg {

void KernelCipher::encrypt_block(const uint8_t *in, uint8_t *out) const
{
    a_.kernel->encrypt_blocks(keys_.get(), in, out, 1);
}

namespace {

// The data that CTR XORs the keystream into. Read-only and in L1, so the output is written
// once, by the kernel, with no zero-fill pass over it first.
alignas(64) const uint8_t zeros[write_prefetch_slice] = {};

} // namespace

// The kernel's own keystream_blocks where it has one (one call, the write prefetch inside its
// steps). Otherwise CTR over zeros, 1 KiB per kernel call (one batch of the x86 kernels),
// with the output two calls ahead prefetched (core/write_prefetch.hpp says why): the short
// calls cost LEA and CHAM-128 their per-call CTR setup each time, while the prefetch gains
// ARIA more than that; measured both ways (`kcipher bench --drbg`, one thread, against a
// build that makes one call per request), this was the better one.
void kernel_keystream(const Accelerations &a, const void *state, size_t bs, const uint8_t *ctr, uint8_t *out,
                      size_t nblocks)
{
    if (a.accel != nullptr && a.accel->keystream_blocks != nullptr) {
        a.accel->keystream_blocks(state, ctr, out, nblocks);
        return;
    }
    const Kernel &k = *a.kernel;
    const size_t bytes = nblocks * bs, slice = sizeof zeros / bs, ahead = 2 * sizeof zeros;
    uint8_t c[16];
    std::memcpy(c, ctr, bs);
    for (size_t done = 0; done < nblocks;) {
        size_t n = nblocks - done < slice ? nblocks - done : slice;
        size_t at = done * bs, later = at + ahead;
        if (later < bytes)
            prefetch_for_write(out + later, bytes - later < sizeof zeros ? bytes - later : sizeof zeros);
        k.ctr_xor_blocks(state, c, zeros, out + at, n);
        done += n;
        counter_add(c, bs, n);
    }
    secure_wipe(c, sizeof c);
}

void KernelCipher::keystream(const uint8_t *ctr, uint8_t *out, size_t nblocks) const
{
    kernel_keystream(a_, keys_.get(), desc_.block_bytes, ctr, out, nblocks);
}

std::unique_ptr<BlockCipher> KernelCipher::clone_unkeyed() const
{
    return std::unique_ptr<BlockCipher>(new (std::nothrow) KernelCipher(a_));
}

} // namespace kc::drbg
