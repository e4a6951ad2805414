// Reading, transforming and writing of a stream, overlapped: a reader thread fills buffers
// from the input, the calling thread transforms them in order, a writer thread writes them
// out, and a fixed ring of buffers goes round. So a file goes through at the speed of the
// slowest of the three, not of their sum. Memory: `slots` buffers of front + chunk + back
// bytes, whatever the input's size.
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

// One buffer: `n` input bytes at data (n < chunk only in the last one, which may be empty),
// with `front` bytes of room before data and `back` bytes after data + chunk.
struct Chunk {
    uint8_t *data = nullptr;
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

    Chunk &next();                                   // the next chunk of the input, in order
    void emit(Chunk &c, const uint8_t *p, size_t n); // write p[0..n) (inside c's buffer); c goes back to the ring after
    void finish();                                   // every emitted byte written (call after emitting the last chunk)

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
    std::vector<Slot> slots_;
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<Slot *> free_, filled_, to_write_;
    std::exception_ptr read_error_, write_error_;
    bool stop_ = false, written_last_ = false;
    std::thread reader_, writer_;
};

} // namespace cli
