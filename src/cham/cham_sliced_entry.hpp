// The kernel entry points of the word-sliced CHAM kernels and their descriptors, written once
// over an Engine (cham_sliced_engine.hpp: the vector code of one instruction set).
//
// Baseline code: a kernel file includes this header outside its `KC_TARGET_PUSH` region
// (the x86 kernels; cham_neon.cpp, baseline aarch64 code, has no such region), so the entry
// points are compiled for the baseline, like cham_sliced.hpp's cham_sliced_ctr_segments and
// cham_sliced_ctr_head they call: only the Engine's functions (internal linkage, one copy per
// ISA) run the kernel's instruction set, so no out-of-line copy of a shared inline function is
// compiled for it. The descriptors are constant expressions: the objects are initialised at
// compile time, so no code of the kernel runs before dispatch has checked the CPU.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cham/cham.hpp"
#include "cham/cham_sliced.hpp"
#include "core/kernel.hpp"
#include "core/wipe.hpp"
#include "kit/drbg_accel.hpp"

// Internal linkage, like the engine each kernel file instantiates these over.
namespace kc::cham_sliced {
namespace {

template <class E> void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    E::template ecb_blocks<false>(*static_cast<const ChamSlicedKeys *>(state), in, out, nblocks);
}

template <class E> void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    E::template ecb_blocks<true>(*static_cast<const ChamSlicedKeys *>(state), in, out, nblocks);
}

// The counter is the whole block (8 or 16 bytes), big-endian; split into segments of constant
// upper words, each with its precomputed head (cham_sliced.hpp).
template <class E>
void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const ChamSlicedKeys &k = *static_cast<const ChamSlicedKeys *>(state);
    if (k.base.word_bits == 16)
        cham_sliced_ctr_segments<uint16_t>(k, ctr, in, out, nblocks, E::template ctr<uint16_t>);
    else
        cham_sliced_ctr_segments<uint32_t>(k, ctr, in, out, nblocks, E::template ctr<uint32_t>);
}

// DrbgAccel::keystream_blocks: CTR with no data (CTR_DRBG's output).
template <class E> void keystream_blocks(const void *state, const uint8_t *ctr, uint8_t *out, size_t nblocks)
{
    ctr_xor_blocks<E>(state, ctr, nullptr, out, nblocks);
}

// DrbgAccel::encrypt_blocks_keyed: every block under its own key (CTR_DRBG's bursts).
template <class E>
void encrypt_blocks_keyed(Cipher c, const uint8_t *keys, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    E::encrypt_keyed(c, keys, in, out, nblocks);
}

// One run of keystream_pair: half a step, as CTR over zeros (a run whose low counter word wraps).
template <class E> void pair_run_alone(const ChamSlicedKeys &k, const uint8_t *ctr, uint8_t *out, size_t nblocks)
{
    alignas(64) static const uint8_t zeros[E::pair_bytes] = {};
    ctr_xor_blocks<E>(&k, ctr, zeros, out, nblocks);
}

template <class E, class W, class Pair>
void pair_runs(const ChamSlicedKeys &ka, const uint8_t *ctr_a, uint8_t *out_a, const ChamSlicedKeys &kb,
               const uint8_t *ctr_b, uint8_t *out_b, Pair pair)
{
    constexpr size_t n = E::pair_bytes / (4 * sizeof(W));
    constexpr uint64_t words = uint64_t{1} << (8 * sizeof(W));
    ChamCtrHead<W> ha = cham_sliced_ctr_head<W>(ka, ctr_a), hb = cham_sliced_ctr_head<W>(kb, ctr_b);
    // A branch on the counters: public in CTR, V in CTR_DRBG (docs/architecture.md, constant time).
    if (words - ha.low >= n && words - hb.low >= n) {
        pair(ka, ha, out_a, kb, hb, out_b);
    } else {
        pair_run_alone<E>(ka, ctr_a, out_a, n);
        pair_run_alone<E>(kb, ctr_b, out_b, n);
    }
    secure_wipe_inline(ha);
    secure_wipe_inline(hb);
}

// DrbgAccel::keystream_pair: half a step under each key state, interleaved (CTR_DRBG's bursts).
template <class E>
void keystream_pair(const void *a, const uint8_t *ctr_a, uint8_t *out_a, const void *b, const uint8_t *ctr_b,
                    uint8_t *out_b)
{
    const ChamSlicedKeys &ka = *static_cast<const ChamSlicedKeys *>(a), &kb = *static_cast<const ChamSlicedKeys *>(b);
    if (ka.base.word_bits == 16)
        pair_runs<E, uint16_t>(ka, ctr_a, out_a, kb, ctr_b, out_b, E::template pair<uint16_t>);
    else
        pair_runs<E, uint32_t>(ka, ctr_a, out_a, kb, ctr_b, out_b, E::template pair<uint32_t>);
}

// A kernel's descriptor. block_bytes: CHAM-128/*; CHAM-64/128 uses 8 (cipher_desc(c).block_bytes
// decides); constant_time: ARX only (the kernel files' headers say why); the key schedule and its
// per-round tables are cham_sliced.hpp's, shared by every word-sliced kernel.
template <class E> constexpr Kernel kernel(const char *name, size_t batch_blocks, uint32_t requires, int rank)
{
    return {name, "cham", 16, batch_blocks, true, requires, rank, sizeof(ChamSlicedKeys),
            cham_sliced_supports, cham_sliced_set_key, encrypt_blocks<E>, decrypt_blocks<E>, ctr_xor_blocks<E>};
}

// CTR_DRBG's extras for the kernel k (kit/drbg_accel.hpp): its encryption-only key schedule, its
// keystream and bursts (keystream_pair, encrypt_blocks_keyed).
template <class E> constexpr DrbgAccel drbg_accel(const Kernel *k, uint32_t requires)
{
    return {k, requires, cham_sliced_set_encrypt_key, keystream_blocks<E>, keystream_pair<E>, E::pair_bytes,
            encrypt_blocks_keyed<E>};
}

} // namespace
} // namespace kc::cham_sliced
