// The GPU path of the DRBG (issue 6, items 3 and the many-instance mode). The state stays on
// the CPU; the GPU computes output blocks (and, for many instances, the Update's blocks).
//
//   generate_gpu: one DRBG's large output, as kcipher_drbg_generate_large serves it
//     (consecutive max-size requests). A thread of its own walks the chain of (Key, V)
//     updates batch by batch (chain.hpp); the calling thread uploads each batch's raw Keys
//     and counters, and the GPU derives the key states (GpuOps::set_keys; for a kernel
//     without it, CPU threads lay them out in its format into pinned memory); one launch of
//     the kernel's ctr_segments per batch computes the batch's blocks, straight into the
//     caller's device memory or into a device buffer copied back to pinned staging and from
//     there, by copy threads, to the caller's host memory. Several slots (pinned and device
//     buffers, a stream and an event each) keep batch k's copies, batch k+1's kernel and
//     batch k+2's chain in flight at once.
//
//   multi_generate_gpu: N independent instances, one request each per round: for a group of
//     instances, one ctr_segments launch computes every instance's output blocks and a
//     second one the seedlen bits of each instance's Update (E(V+n+1), ...), which come back
//     to the host as the instances' new Key and V. Reseeds and key schedules run on CPU
//     threads; groups go through the same slots, so that one group's key schedules overlap
//     another's kernels and copies.
//
// The CPU-only build answers KCIPHER_ERR_NO_GPU (drbg_gpu_none.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/cipher.hpp"
#include "core/kernel.hpp"
#include "drbg/accelerations.hpp"
#include "drbg/ctr_drbg.hpp"
#include "drbg/gpu_observer.hpp"

namespace kc::drbg {

// The GPU buffers, streams and events a DRBG handle keeps between calls (made on first use,
// on one GPU, grown as needed). Key material in them (key states, counters, Update blocks)
// is zeroed at the end of every call, on the device and in pinned memory; freeing zeroes
// the device buffers again before cudaFree.
class GpuWorkspace;
void free_gpu_workspace(GpuWorkspace *ws); // nullptr allowed

struct GpuOutput {
    uint8_t *out;      // where the bytes go
    bool on_device;    // out is device memory of `device` (else host memory)
    void *stream;      // on_device: the caller's cudaStream_t; the work starts after what it holds
    int device;        // the GPU that runs it
    unsigned threads;  // CPU threads for key schedules and host copies (0 = one per core)
    GpuCallObserver *observer = nullptr; // single mode: told each call's times (gpu_observer.hpp)
};

// len bytes of d served as consecutive requests of max_request_bytes (the last shorter),
// without additional input: the bytes and final state of kcipher_drbg_generate_large. The
// call returns when the bytes are written. On a failure of the chain (a reseed the source
// cannot serve) the requests planned before it are still written and the state stands after
// them, as for the CPU path.
// `a` is that of d's cipher (accelerations.hpp): the chain walks with it; a.cipher is the one
// gpu_kernel runs.
kcipher_status generate_gpu(Drbg &d, const Accelerations &a, const Kernel &gpu_kernel, GpuWorkspace *&ws,
                            const GpuOutput &o, size_t len, bool prediction_resistance);

// Many instances (drbg_multi.hpp): states[i] advances by the requests that give instance i
// its `len` bytes, written at out + i * len.
struct MultiJob {
    Drbg::State *states;
    size_t count;
    size_t len;        // bytes per instance
    Limits lim;
    unsigned workers;  // indexes 0 .. workers-1 that `before` accepts (at least 1)
    // Called before instance i's request `round` (any thread, `worker` distinct between
    // threads running at once): reseeds states[i] when due. Returns a status.
    std::function<kcipher_status(size_t i, size_t round, unsigned worker)> before;
};

// Fills the output of every instance; on failure the states are unspecified (the caller
// uninstantiates them all: some may have moved on the GPU without their output delivered).
kcipher_status multi_generate_gpu(const Kernel &gpu_kernel, Cipher c, GpuWorkspace *&ws, const GpuOutput &o,
                                  const MultiJob &job);

// Key-schedule threads the GPU path uses for `threads` (the worker count MultiJob needs).
unsigned gpu_key_threads(unsigned threads);

// For the tests: every buffer of the workspace that holds key material between the calls'
// steps (key states, raw keys, counters, Update blocks), whole, in device or pinned host
// memory; none where ws is nullptr. Between calls each must read zero.
struct SecretRegion {
    const uint8_t *p;
    size_t bytes;
    bool device;
};
std::vector<SecretRegion> gpu_workspace_secrets(const GpuWorkspace *ws);

// For the benchmark: the chain's walk in the workspace's last single-DRBG call, where the
// chain ran on the calling thread beside the submitter (zeros otherwise): its walking time,
// waits for room excluded, and its requests. Against the call's time it tells whether a
// call fell short of the chain timed alone because the chain ran slower in it or because
// the pipeline added time.
struct ChainWalk {
    double seconds;
    size_t requests;
};
ChainWalk gpu_last_chain_walk(const GpuWorkspace *ws);

} // namespace kc::drbg

// The workspace of a handle of the C API (drbg_api.cpp), for the same tests; nullptr before
// its first GPU call.
struct kcipher_drbg;
struct kcipher_drbg_multi;
namespace kc::drbg {
const GpuWorkspace *gpu_workspace_of(const kcipher_drbg *drbg);

// For harnesses (bench/tools/drbg_gpu_trace.hpp): the observer of the handle's GPU calls
// from now on (nullptr: none, the default). It must outlive them.
void set_gpu_observer(kcipher_drbg *drbg, GpuCallObserver *observer);
const GpuWorkspace *gpu_workspace_of(const kcipher_drbg_multi *multi);

} // namespace kc::drbg
