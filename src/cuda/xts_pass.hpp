// What the GPU's XTS asks of a cipher kernel (GpuOps::xts): one launch over device memory cut
// into data units, each unit cut into segments of at most xts_seg_blocks blocks. A prep pass
// computes each segment's first tweak (its anchor, E_K2(tweak + unit) * alpha^first block)
// into device scratch, a thread per segment; the crypt pass gives each segment to a warp,
// whose lanes take blocks lane, lane + 32, ... and step their tweaks by alpha^32. The kernels
// are cuda/xts_kernels.cuh; modes/gpu_xts.cu cuts a call into launches and owns the scratch.
// Plain C++, so that builds without CUDA can name it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kc {

// Blocks per segment: a warp walks a segment carrying its tweaks, so this bounds the GF(2^128)
// exponentiation of the prep pass (one per segment) against the crypt pass's work.
constexpr uint64_t xts_seg_blocks = 4096;

struct XtsPass {
    const uint8_t *in; // device memory, len bytes; in == out allowed
    uint8_t *out;
    uint64_t len;         // bytes, at most 2^34 (the caller cuts larger calls)
    uint64_t unit_bytes;  // every unit's length but the last one's (len's rest); both >= 16
    uint64_t first_block; // each unit's block 0 is this block of its data unit: a launch that
                          // holds a piece of a unit larger than itself; 0 otherwise
    uint32_t tweak[4];    // the first unit's tweak as a little-endian 128-bit integer in
                          // little-endian words; unit u takes tweak + u
    uint32_t *anchors;    // device scratch, 4 words per segment (prep writes, crypt reads)
    uint32_t nseg;        // segments in the launch
    uint32_t seg_per_unit; // segments of a whole unit
    bool decrypt;
};

// Full blocks of a unit of len bytes: a last partial block rides with the one before it
// (ciphertext stealing), so a unit has len / 16 block slots.
inline uint64_t xts_segments_of(uint64_t unit_len) { return (unit_len / 16 + xts_seg_blocks - 1) / xts_seg_blocks; }

// Fills nseg and seg_per_unit from len and unit_bytes.
inline void xts_count_segments(XtsPass &p)
{
    const uint64_t units = (p.len + p.unit_bytes - 1) / p.unit_bytes;
    const uint64_t last = p.len - (units - 1) * p.unit_bytes;
    p.seg_per_unit = (uint32_t)xts_segments_of(p.unit_bytes);
    p.nseg = (uint32_t)((units - 1) * p.seg_per_unit + xts_segments_of(last));
}

} // namespace kc
