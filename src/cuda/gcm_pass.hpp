// What the GPU's GCM asks of a cipher kernel (GpuOps::gcm): the two passes that need the
// cipher, over a batch of messages described in device memory (kcipher_gpu_aead_msg). The
// cipher-independent rest (tables of H's powers, the scan, the finish) is modes/gpu_gcm.cu;
// the kernels themselves are cuda/gcm_kernels.cuh. Plain C++, so that builds without CUDA
// can name it.
//
// Each message is hashed as one sequence of blocks, AAD then ciphertext, with zero blocks in
// front so that its length is a whole number of segments of 2^log2_seg blocks (leading zero
// blocks do not change GHASH). A warp takes one segment at a time: chain l takes blocks
// l, l + 32, ... and keeps Horner's rule with multiplier H^32 (on the tensor cores); the
// chains' sums are then folded into the segment's value (sum of X_v H^(G-1-v)), which lift
// multiplies by H^(G x the segments after it) and finish XORs per message.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kcipher/kcipher.h"

namespace kc {

// Per message, written by the prep pass.
struct GcmWork {
    uint32_t j0[4];     // J0 as little-endian words
    uint32_t ek_j0[4];  // E_K(J0): masks the tag; wiped after the call
    uint64_t pad;       // zero blocks in front
    uint64_t nseg;      // segments
};

struct GcmPass {
    enum Kind { prep, seal, open } kind;
    kcipher_gpu_aead_msg *msgs; // device memory, n entries (finish writes each status)
    uint32_t n;
    GcmWork *work;        // device memory, n entries
    uint64_t *seg_end;    // prep: each message's segment count; seal/open: their inclusive sum
    uint32_t *seg_values; // 4 words per segment (seal/open write them)
    const uint32_t *tables; // device memory: tables of H^(2^j), j < gcm_table_count
    const uint32_t *bmma;   // device memory: H^(32 r), r = gcm_round .. 1, as the binary MMA's B
                            // operands (gf128_bmma.cuh), [r][j][lane]
    uint32_t log2_seg;
    const uint32_t *host_j0; // one message whose J0 the host knows: the cipher may precompute
                             // what depends on its fixed words (GpuOps::ctr's Pre); else null
};

// Tables of H^(2^j) for j = 0 .. gcm_table_count - 1: enough for 2^32 blocks in segments.
constexpr int gcm_table_count = 34;
constexpr int gcm_chain_power = 5; // H^32 = H^(2^5): the chains' multiplier per step
// Steps per round of the fused pass: Horner's rule takes gcm_round steps at once on the tensor
// cores (gf128_bmma.cuh: gf_bmma_horner), so the MMAs' counts are unpacked once per round:
// 4 steps unpack 19.5 ALU operations a block in LEA's SASS, 2 steps 37.5 (102 registers either
// way, none spilled).
#ifndef KC_GCM_ROUND
#define KC_GCM_ROUND 4
#endif
constexpr int gcm_round = KC_GCM_ROUND;
// Threads per CUDA block of the fused pass, and its launch bound: 512 leaves a thread up to
// 128 registers (the cipher, the Horner chains and the MMA operands; at 1024 they spill).
#ifndef KC_GCM_THREADS
#define KC_GCM_THREADS 512
#endif
constexpr unsigned gcm_threads = KC_GCM_THREADS;

} // namespace kc
