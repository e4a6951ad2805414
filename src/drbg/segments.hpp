// The parallel step of large outputs on the CPU (see chain.hpp), and the whole large-output
// call built from the two steps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "drbg/chain.hpp"

namespace kc::drbg {

// Fills out with the segments' keystreams, segment i at i * max_request_bytes, on up to
// `threads` threads (0 = one per core) that each key their own clone of `proto`.
kcipher_status run_segments(const BlockCipher &proto, const Segment *segments, size_t count,
                            size_t max_request_bytes, uint8_t *out, unsigned threads);

// Where a batch of segments is computed (run_segments on CPU threads; the GPU path,
// drbg_gpu.hpp, runs its own pipeline over the same chain).
using SegmentRunner = std::function<kcipher_status(const Segment *, size_t, uint8_t *)>;

// Serves len bytes as consecutive max-size requests: chain and output in batches of about
// 16 MiB (bounded memory, and the chain of a batch is ready before its output starts).
// `a` is that of d's cipher (accelerations.hpp).
kcipher_status generate_large(Drbg &d, const Accelerations &a, uint8_t *out, size_t len, bool prediction_resistance,
                              const SegmentRunner &runner);

// generate_large on the CPU, with the DRBG's own cipher implementation.
kcipher_status generate_large_cpu(Drbg &d, const Accelerations &a, uint8_t *out, size_t len,
                                  bool prediction_resistance, unsigned threads);

} // namespace kc::drbg
