// The GPU DRBG's trace (src/drbg/gpu_observer.hpp): an observer that prints where each
// single-DRBG GPU call's time went to stderr, for a harness to set on its handle:
//   kc::drbg::TracePrinter trace;
//   kc::drbg::set_gpu_observer(handle, &trace); // src/drbg/drbg_gpu.hpp
#pragma once

#include <algorithm>
#include <cstdio>

#include "drbg/gpu_observer.hpp"

namespace kc::drbg {

class TracePrinter final : public GpuCallObserver {
  public:
    void call_done(const GpuCallReport &r) override
    {
        const double us = 1e6 / std::max<size_t>(r.requests, 1), ub = 1e6 / std::max<size_t>(r.batches, 1);
        if (r.walked != 0) {
            const double uw = 1e6 / r.walked;
            std::fprintf(stderr, "drbg trace: chain (calling thread) per request: walk %.3f us (CPU %.3f us; the hand-over "
                         "%.3f us), waiting for room %.3f us; started at %.3f ms, done at %.3f ms\n", r.walk * uw,
                         r.walk_cpu * uw, r.handover * uw, r.wait_room * uw, r.chain_start * 1e3, r.chain_end * 1e3);
        }
        std::fprintf(stderr,
                     "drbg trace: %zu batches, %zu requests, %.3f ms; per request: wait for the chain %.3f us, "
                     "for a slot %.3f us, for key states %.3f us, copies and launch %.3f us, total %.3f us\n",
                     r.batches, r.requests, r.pipeline * 1e3, r.wait_chain * us, r.wait_slot * us, r.wait_keys * us,
                     r.issue * us, r.pipeline * us);
        std::fprintf(stderr, "drbg trace: per batch: segments wiped %.1f us, keys up %.1f us, keystream launch %.1f us, "
                     "event %.1f us; first batch queued at %.3f ms, last at %.3f ms\n",
                     r.wipe * ub, r.upload * ub, r.launch * ub, r.record * ub, r.first_queued * 1e3, r.last_queued * 1e3);
        std::fprintf(stderr, "drbg trace: whole call %.3f ms, of which finish() %.3f ms (waiting for the GPU %.3f ms); "
                     "the pipeline's clock started %.3f ms into the call\n", r.whole * 1e3, r.finish * 1e3,
                     r.finish_gpu * 1e3, r.pipeline_started * 1e3);
    }
};

} // namespace kc::drbg
