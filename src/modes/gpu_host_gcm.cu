// GCM over host memory through a GPU context: the text goes through the pinned CTR pipeline
// (modes/gpu_host.cu: the GPU makes keystream, the CPU workers XOR it and hash each chunk's
// ciphertext from zero); here the rest: J0 and E_K(J0) with the companion CPU kernel, the
// AAD's hash, and the chunks' partial hashes combined in order,
//
//   Y <- Y * H^(blocks of chunk c) ^ P_c,
//
// then the lengths block. A counter whose low 32 bits would wrap (inc32, IVs other than 96
// bits) splits the text into two pipeline runs at that block.
#include <cstring>
#include <vector>

#include "core/bytes.hpp"
#include "core/wipe.hpp"
#include "cuda/gf128_tables.cuh"
#include "modes/gcm_parts.hpp"
#include "modes/gpu_modes.hpp"

namespace kc {

namespace {

using cuda::Gf128;

// H^n by squaring and multiplying.
Gf128 power(Gf128 h, uint64_t n)
{
    Gf128 r{0x8000000000000000ull, 0}; // 1 (x^0 is the string's first bit)
    for (; n != 0; n >>= 1, h = cuda::gf_mul_slow(h, h))
        if (n & 1)
            r = cuda::gf_mul_slow(r, h);
    return r;
}

// Y * H^blocks ^ P for each chunk of a run of len bytes.
kcipher_status combine(uint8_t y[16], const Gf128 &h, const std::vector<uint8_t> &partials, size_t len)
{
    const size_t chunk = gpu_host_chunk_bytes();
    const Gf128 full = power(h, chunk / 16);
    Gf128 acc = cuda::gf_from_bytes(y);
    for (size_t c = 0, off = 0; off < len; c++, off += chunk) {
        const size_t n = len - off < chunk ? len - off : chunk;
        const Gf128 m = n == chunk ? full : power(h, (n + 15) / 16);
        acc = cuda::gf_mul_slow(acc, m);
        const Gf128 p = cuda::gf_from_bytes(partials.data() + 16 * c);
        acc.hi ^= p.hi, acc.lo ^= p.lo;
    }
    cuda::gf_to_bytes(acc, y);
    secure_wipe(&acc, sizeof acc);
    return KCIPHER_OK;
}

} // namespace

kcipher_status gpu_host_gcm(const GpuJob &j, const Keyed &cpu, const GcmKey &key, bool open, const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                            size_t len, int device, unsigned threads, uint8_t tag[16])
{
    uint8_t h[16] = {}, j0[16], ek_j0[16], y[16] = {}, ctr[16];
    cpu.kernel->encrypt_blocks(cpu.keys, h, h, 1);
    const Gf128 hf = cuda::gf_from_bytes(h);
    gcm_pre_counter(key, iv, iv_len, j0);
    cpu.kernel->encrypt_blocks(cpu.keys, j0, ek_j0, 1);
    if (aad_len != 0)
        ghash_bytes(*key.g, key.h, y, aad, aad_len);

    // The text's counter runs: from inc32(J0) up to where the low word wraps, then from 0.
    std::memcpy(ctr, j0, 16);
    store_be32(ctr + 12, load_be32(j0 + 12) + 1);
    const uint64_t until_wrap = ((uint64_t)1 << 32) - load_be32(ctr + 12);
    const size_t first = (uint64_t)len / 16 + (len % 16 != 0) > until_wrap ? (size_t)until_wrap * 16 : len;
    kcipher_status st = KCIPHER_OK;
    for (size_t off = 0; off < len && st == KCIPHER_OK;) {
        const size_t n = off == 0 ? first : len - off;
        std::vector<uint8_t> partials(16 * (n / gpu_host_chunk_bytes() + 1));
        st = gpu_host_ctr_hash(j, ctr, in + off, out + off, n, device, threads, *key.g, key.h, open, partials.data());
        if (st == KCIPHER_OK)
            st = combine(y, hf, partials, n);
        secure_wipe(partials.data(), partials.size());
        store_be32(ctr + 12, 0);
        off += n;
    }
    uint8_t lengths[16];
    store_be64(lengths, (uint64_t)aad_len * 8);
    store_be64(lengths + 8, (uint64_t)len * 8);
    key.g->update(key.h, y, lengths, 1);
    for (int k = 0; k < 16; k++)
        tag[k] = y[k] ^ ek_j0[k];
    secure_wipe(h, sizeof h);
    secure_wipe(y, sizeof y);
    secure_wipe(ek_j0, sizeof ek_j0);
    secure_wipe(j0, sizeof j0);
    return st;
}

} // namespace kc
