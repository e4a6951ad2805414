// Runs of max-size requests on one CPU thread, with each request's Update blocks computed in
// the same SIMD step as its output, so that the DRBG's output runs near the kernel's CTR rate
// (`kcipher bench --drbg --threads 1` prints both).
//
// Why. Request i is the CTR keystream under Key_i at counters V_i + 1 .. V_i + R (R blocks
// of output), then its Update: seedlen bits at V_i + R + 1 .. V_i + R + u give Key_{i+1} and
// V_{i+1}. Computed request by request, the u Update blocks (u = 3 for HIGHT and CHAM-64/128,
// whose requests are only R = 128 blocks) cost a whole SIMD group of their own, latency-bound,
// and the next request cannot start before they are done: HIGHT's DRBG ran at a fraction of
// its CTR rate that way.
//
// So a burst computes counters V_i + u + 1 .. V_i + R + u instead: exactly R blocks, whole
// SIMD steps, the last u of them the Update. The u blocks this leaves out, V_i + 1 .. V_i + u,
// depend on nothing later: they wait, and the waiting blocks of 128 / u requests go
// through one call of the kernel's encrypt_blocks_keyed (kit/drbg_accel.hpp), each block under its own request's
// key. The output lands in place: request i's run writes its last u blocks over the first u
// of request i + 1, which are read as the Update and later overwritten by the waiting blocks.
//
// Where the kernel has keystream_pair (and a request is two of its runs), each request is
// split in halves, and the half holding the Update of request i + 1 runs beside the other half
// of request i: that half needs no new key, so its work hides the rekey and the latency of the
// step that made the key.
//
// The bytes are those of Drbg::generate request by request (tests/test_drbg_burst.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "drbg/accelerations.hpp"
#include "drbg/ctr_drbg.hpp"

namespace kc::drbg {

// How many of the next `requests` max-size requests a burst may serve now: 0 unless d's
// kernel offers bursts (a.bursts(): encrypt_blocks_keyed), prediction resistance is off and
// enough requests are asked for to pay for the burst's start; never past the reseed interval.
// `a` is that of d's cipher (accelerations.hpp).
size_t burst_requests(const Drbg &d, const Accelerations &a, size_t requests, bool prediction_resistance);

// Serves `requests` max-size requests (requests * max_request_bytes bytes to out), as
// burst_requests allows, and leaves d where generate() would. On an allocation failure
// nothing is written and d is unchanged.
kcipher_status generate_burst(Drbg &d, const Accelerations &a, uint8_t *out, size_t requests);

} // namespace kc::drbg
