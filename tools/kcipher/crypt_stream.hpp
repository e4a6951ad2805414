// `kcipher enc` and `dec` for the unauthenticated modes: the input streamed through the cipher
// in chunks of whole blocks, so memory stays bounded for any size. ECB and CBC pad with
// PKCS#7 as `openssl enc` does unless told not to; decryption holds the last block back
// between chunks, since only at the end of the input is it known to be the one whose pad is
// checked and stripped.
#pragma once

#include <cstdint>
#include <vector>

#include "atomic_output.hpp"
#include "crypt_input.hpp"
#include "gpu_start.hpp"
#include "kcipher/kcipher.hpp"
#include "progress.hpp"

namespace cli {

struct StreamJob {
    const kcipher::Cipher &cipher;
    kcipher_mode mode; // ECB, CBC, CTR, CFB, CFB8 or OFB
    bool encrypt;
    bool pad;                // ECB and CBC: PKCS#7 (false: --nopad, whole blocks only)
    std::vector<uint8_t> iv; // CTR: the counter; the others: the chain value, updated as the stream goes
    size_t chunk;            // bytes per buffer of the pipeline: stream_chunk_bytes()
    GpuStart *gpu = nullptr; // --gpu: `cipher` (a CPU kernel) stands in until the GPU has started
};

// With `gpu`, the CPU stands in only for inputs of this size or more, and only where the
// output appears all at once (a file, not standard output): a short --gpu run (a test's) is
// then all the GPU's work, as asked, and a GPU that fails to start (none present: "--gpu: no
// usable GPU") leaves no output behind, as before any byte was written.
constexpr uint64_t gpu_stand_in_min_bytes = uint64_t(64) << 20;

// The pipeline's buffer size (four of them go round, chunk_pipeline.hpp): 1 MiB per cipher
// thread, from 1 to 4 MiB; 4 MiB for a GPU kernel, whose every chunk is one transfer each way.
// Small buffers matter where cores are few: one the reader has just filled is still in the
// cache when the cipher reads it and when the writer copies it out, and on a 2-core machine
// (one cipher thread) 1 MiB buffers took a 1 GiB file to tmpfs in 6% (ARIA) to 14% (LEA)
// less time than 4 MiB ones. Many cipher threads want large chunks to share.
size_t stream_chunk_bytes(unsigned cipher_threads, bool gpu);

// Throws std::runtime_error with a message on a partial block (--nopad) or a bad pad; the
// caller's AtomicOutput then leaves no output file.
void run_stream(StreamJob &job, Input &in, AtomicOutput &out, Progress &bar);

} // namespace cli
