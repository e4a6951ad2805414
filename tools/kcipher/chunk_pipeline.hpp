// Reading, transforming and writing of a stream, overlapped: a reader thread fills buffers
// from the input, the calling thread transforms them in order, a writer thread writes them
// out, and a fixed ring of buffers goes round. So a file goes through at the speed of the
// slowest of the three, not of their sum. Memory: `slots` buffers of front + chunk + back
// bytes, whatever the input's size.
//
// A regular file is not copied into the buffers: it is mapped (Input::map), the reader only
// brings the next chunk's pages in, and a chunk's input is `src`, inside the mapping, with the
// bytes before it still readable. Then the caller transforms src into data (out of place),
// and the pages behind are dropped from the process as they are written; memory stays bounded.
//
// Several threads may take chunks (next, emit) at once when a chunk's output does not depend
// on the chunks before it: the writer still writes them in order. One that fails calls fail(),
// which ends the others' next(), emit() and finish() with its error.
//
// Errors: the reader's (an unreadable input) and the writer's (a full disk) are rethrown on
// the calling thread by next(), emit() or finish(); an exception of the caller stops both
// threads when the pipeline is destroyed. A reader blocked on a pipe finishes its read first,
// as any filter blocked on its input does.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "atomic_output.hpp"
#include "crypt_input.hpp"

namespace cli {

// One buffer: `n` input bytes at src (n < chunk only in the last one, which may be empty);
// data has `front` bytes of room before it and `back` bytes after data + chunk. src is data
// itself, or inside the input's mapping (then the input bytes before src are readable too).
struct Chunk {
    uint8_t *data = nullptr;
    const uint8_t *src = nullptr;
    uint64_t index = 0; // 0, 1, 2, ... in input order: src is index * chunk bytes into the stream
    size_t n = 0;
    bool last = false;
    const uint8_t *out = nullptr; // what emit() writes
    size_t out_n = 0;
};

class ChunkPipeline {
  public:
    ChunkPipeline(Input &in, AtomicOutput &out, size_t chunk, size_t front, size_t back, size_t slots = 4);
    ChunkPipeline(const ChunkPipeline &) = delete;
    ChunkPipeline &operator=(const ChunkPipeline &) = delete;
    ~ChunkPipeline(); // stops and joins both threads

    Chunk *next();                                   // the next chunk of the input, in order; null after the last
    bool mapped() const { return mapped_; }          // src is in the input's mapping
    void emit(Chunk &c, const uint8_t *p, size_t n); // write p[0..n) (inside c's buffer); c goes back to the ring after
    void finish();                                   // every emitted byte written (call after emitting the last chunk)
    void fail(std::exception_ptr e);                 // a caller's error: the pipeline stops
  private:
    struct Slot {
        std::unique_ptr<uint8_t[]> mem;
        Chunk c;
    };
    void read_loop();
    void write_loop();
    void rethrow_locked() const; // the writer's error, else the reader's

    Input &in_;
    AtomicOutput &out_;
    size_t chunk_;
    bool mapped_;
    std::vector<Slot> slots_;
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<Slot *> free_, filled_, to_write_;
    std::exception_ptr read_error_, write_error_, caller_error_;
    uint64_t read_index_ = 0, write_index_ = 0; // the next chunk to read, to write
    bool stop_ = false, handed_last_ = false, written_last_ = false;
    std::thread reader_, writer_;
};

} // namespace cli
