// The CTR entry points of the x86 word-sliced LEA kernels (lea_x86_avx2.cpp,
// lea_x86_avx512.cpp), written once over a kernel's key layout and its vector CTR segment
// (lea_x86_word_sliced.hpp's ctr_segment<Ops>).
//
// Baseline code: a kernel file includes this header outside its `KC_TARGET_PUSH` region,
// so these entry points, and the scalar CTR precomputation of lea_sliced.hpp they call, are
// compiled for the baseline (lea_sliced.hpp says why that matters); only the segment passed
// in (internal linkage, one copy per ISA) runs the kernel's instruction set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/counter.hpp"
#include "core/wipe.hpp"
#include "lea/lea.hpp"
#include "lea/lea_sliced.hpp"

// Internal linkage, like the segments each kernel file instantiates these over.
namespace kc::lea_x86 {
namespace {

// n blocks of one segment (counters of constant upper 96 bits) from its precomputed head h;
// in == nullptr: the keystream itself.
template <class Keys>
using CtrSegment = void (*)(const Keys &k, const LeaCtrHead &h, const uint8_t *in, uint8_t *out, size_t n);

// Kernel::ctr_xor_blocks over a key layout Keys (k.rk: the key schedule, LeaRoundKeys) and
// its segment. Splits the call into segments of constant upper 96 counter bits, with the
// scalar precomputation once per segment; in == nullptr: the keystream itself. Where a
// segment ends depends on the counter, which in CTR_DRBG is the secret V: the split is a
// branch taken once per 2^32 blocks, and its time shows only whether V's low 32 bits are that
// close to wrapping.
template <class Keys, CtrSegment<Keys> segment>
void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const Keys &k = *static_cast<const Keys *>(state);
    uint8_t next[16];
    std::memcpy(next, ctr, 16);
    while (nblocks > 0) {
        LeaCtrHead h = lea_sliced_ctr_head(k.rk, next);
        uint64_t room = lea_sliced_segment_room(h.low);
        size_t n = nblocks < room ? nblocks : (size_t)room;
        segment(k, h, in, out, n);
        secure_wipe(&h, sizeof h);
        counter_add(next, 16, n);
        if (in != nullptr)
            in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

// DrbgAccel::keystream_blocks.
template <class Keys, CtrSegment<Keys> segment>
void keystream_blocks(const void *state, const uint8_t *ctr, uint8_t *out, size_t nblocks)
{
    ctr_xor_blocks<Keys, segment>(state, ctr, nullptr, out, nblocks);
}

} // namespace
} // namespace kc::lea_x86
