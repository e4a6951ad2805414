// An observer of one DRBG's GPU calls (drbg_gpu.cu, single mode), for finding what bounds the
// pipeline: the pipeline times its stages as it goes and, at the end of each call, hands the
// sums to the observer; an observer never changes the bytes or the order of the pipeline's
// work. The library sets none; a harness sets one on a handle (set_gpu_observer,
// drbg_gpu.hpp), e.g. bench/tools/drbg_gpu_trace.hpp, which prints the report.
#pragma once

#include <cstddef>

namespace kc::drbg {

// Seconds, summed over the call; "since start": from the start of the pipeline's clock.
struct GpuCallReport {
    size_t batches = 0, requests = 0;

    // The submitting thread, per stage: waiting for the chain's next batch, for a slot (its
    // previous batch's GPU work and host copies), for the batch's key states on the key
    // threads, and the batch's copies and launches (issue), of which: wiping the segments
    // handed over, the upload and key-state launch, the keystream launch, the event.
    double wait_chain = 0, wait_slot = 0, wait_keys = 0, issue = 0;
    double wipe = 0, upload = 0, launch = 0, record = 0;
    double first_queued = 0, last_queued = 0; // since start: the first and last batch queued

    // The chain, where it walked on the calling thread beside the submitter (walked = 0 when
    // it did not): its walking time (and CPU time of the thread), the copy of its batches
    // into the hand-over, its waits for room, and when it started and ended (since start).
    size_t walked = 0;
    double walk = 0, walk_cpu = 0, handover = 0, wait_room = 0, chain_start = 0, chain_end = 0;

    double pipeline = 0;         // the pipeline, from its clock's start to its end
    double whole = 0;            // the whole call
    double finish = 0;           // the call's end: waits for the GPU, wipes
    double finish_gpu = 0;       // of which the wait for the GPU
    double pipeline_started = 0; // when the pipeline's clock started, since the call's start
};

class GpuCallObserver {
  public:
    virtual void call_done(const GpuCallReport &r) = 0; // on the calling thread, must not throw

  protected:
    ~GpuCallObserver() = default;
};

} // namespace kc::drbg
