// Many independent CTR_DRBG instances of one cipher at once (issue 6, item 3's second GPU
// mode; the ARX paper's DRBG serving many clients). Each instance has its own entropy input,
// nonce, personalization string, Key, V and reseed counter; generate gives every instance
// `len` bytes as consecutive requests of at most max_request_bytes, and instance i's bytes
// and state are exactly those of a Drbg instantiated with instance i's inputs and given the
// same calls.
//
// The states live here, in one array (not one Drbg each: a SIMD kernel's key state is
// kilobytes, times a million instances). The SP 800-90A steps that are not output blocks
// (instantiate, reseed, Block_Cipher_df) run in worker Drbgs, one per thread, that load an
// instance's state, do the step and store it back. The output, and the Update after it:
//   - with a GPU kernel, on the GPU (drbg_gpu.hpp: multi_generate_gpu);
//   - with a CPU kernel, in the workers (Drbg::generate), on CPU threads.
//
// The entropy source is called on the calling thread, before any instance changes, in the
// order N Drbgs sharing it would call it when used one after another (instance 0's calls
// first): so a failing source leaves every instance as it was, and the bytes do not depend
// on threads. Calls that fail later (no memory, a CUDA error) uninstantiate every instance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/cipher.hpp"
#include "core/kernel.hpp"
#include "drbg/ctr_drbg.hpp"
#include "drbg/drbg_gpu.hpp"

namespace kc::drbg {

class Multi {
  public:
    // Bounded so that states (64 bytes each) and per-call plans stay reasonable.
    static constexpr size_t max_instances = size_t(1) << 24;

    // cpu: the CPU kernel of the workers; gpu: a GPU kernel for the output, or nullptr.
    Multi(const Kernel &cpu, const Kernel *gpu, Cipher c, bool df);
    ~Multi();
    Multi(const Multi &) = delete;
    Multi &operator=(const Multi &) = delete;

    kcipher_status init(size_t count); // 1 .. max_instances (the caller checks); NO_MEMORY

    size_t count() const { return states_.size(); }
    const Limits &limits() const { return lim_; }
    bool instantiated() const { return inst_; }
    const Kernel *gpu_kernel() const { return gpu_; }
    const Kernel &cpu_kernel() const { return cpu_; }
    const GpuWorkspace *gpu_workspace() const { return ws_; } // the tests read its secrets
    uint64_t reseed_counter(size_t i) const { return inst_ ? states_[i].counter : 0; }

    void set_entropy_source(EntropyFn fn, void *user) { src_ = fn, src_user_ = user; }
    kcipher_status set_reseed_interval(uint64_t requests);
    void set_threads(unsigned threads) { threads_ = threads; }
    void set_gpu(int device) { gpu_device_ = device; }

    // Arrays of count() inputs, instance i's at p + i * n; entropy == nullptr: from the source.
    kcipher_status instantiate(const uint8_t *entropy, size_t entropy_len, const uint8_t *nonce, size_t nonce_len,
                               const uint8_t *personalization, size_t personalization_len);
    kcipher_status reseed(const uint8_t *entropy, size_t entropy_len, const uint8_t *additional,
                          size_t additional_len);
    // len bytes per instance, instance i's at out + i * len. on_device: out is device memory
    // of `device`, queued after `stream`'s work (GPU kernel only; the caller checks).
    kcipher_status generate(uint8_t *out, size_t len, bool prediction_resistance, bool on_device, void *stream,
                            int device);
    void uninstantiate();

  private:
    struct Reseeds; // entropy taken for the reseeds a generate call will do
    kcipher_status ensure_workers(size_t n);
    void release_workers(); // the workers' last loaded state wiped
    kcipher_status plan_reseeds(size_t rounds, bool pr, Reseeds &plan) const;
    kcipher_status generate_cpu(uint8_t *out, size_t len, bool pr, const Reseeds &plan);
    kcipher_status reseed_if_forked(); // as Drbg::reseed_if_forked, every instance

    const Kernel &cpu_;
    const Kernel *gpu_;
    Cipher c_;
    bool df_;
    Limits lim_;
    std::vector<Drbg::State> states_;
    std::vector<std::unique_ptr<Drbg>> workers_;
    bool inst_ = false;
    uint64_t fork_gen_ = 0; // fork_generation() when last instantiated or reseeded
    uint64_t interval_;
    EntropyFn src_ = entropy_getrandom;
    void *src_user_ = nullptr;
    unsigned threads_ = 0;
    int gpu_device_ = -1;
    GpuWorkspace *ws_ = nullptr;
};

} // namespace kc::drbg
