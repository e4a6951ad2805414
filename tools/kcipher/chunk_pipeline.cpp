#include "chunk_pipeline.hpp"

namespace cli {

ChunkPipeline::ChunkPipeline(Input &in, AtomicOutput &out, size_t chunk, size_t front, size_t back, size_t slots)
    : in_(in), out_(out), chunk_(chunk), slots_(slots)
{
    for (Slot &s : slots_) {
        s.mem.reset(new uint8_t[front + chunk + back]);
        s.c.data = s.mem.get() + front;
        free_.push_back(&s);
    }
    reader_ = std::thread([this] { read_loop(); });
    writer_ = std::thread([this] { write_loop(); });
}

ChunkPipeline::~ChunkPipeline()
{
    {
        std::lock_guard<std::mutex> lock(m_);
        stop_ = true;
    }
    cv_.notify_all();
    reader_.join();
    writer_.join();
}

void ChunkPipeline::read_loop()
{
    for (;;) {
        Slot *s;
        {
            std::unique_lock<std::mutex> lock(m_);
            cv_.wait(lock, [&] { return stop_ || !free_.empty(); });
            if (stop_)
                return;
            s = free_.front();
            free_.pop_front();
        }
        try {
            s->c.n = in_.read(s->c.data, chunk_);
        } catch (...) {
            std::lock_guard<std::mutex> lock(m_);
            read_error_ = std::current_exception();
            cv_.notify_all();
            return;
        }
        s->c.last = s->c.n < chunk_;
        {
            std::lock_guard<std::mutex> lock(m_);
            filled_.push_back(s);
        }
        cv_.notify_all();
        if (s->c.last)
            return;
    }
}

void ChunkPipeline::write_loop()
{
    for (;;) {
        Slot *s;
        {
            std::unique_lock<std::mutex> lock(m_);
            cv_.wait(lock, [&] { return stop_ || !to_write_.empty(); });
            if (to_write_.empty())
                return; // stopped with nothing left to write
            s = to_write_.front();
            to_write_.pop_front();
        }
        try {
            out_.write(s->c.out, s->c.out_n);
        } catch (...) {
            std::lock_guard<std::mutex> lock(m_);
            write_error_ = std::current_exception();
            cv_.notify_all();
            return;
        }
        const bool last = s->c.last;
        {
            std::lock_guard<std::mutex> lock(m_);
            free_.push_back(s);
            written_last_ = last;
        }
        cv_.notify_all();
        if (last)
            return;
    }
}

void ChunkPipeline::rethrow_locked() const
{
    if (write_error_)
        std::rethrow_exception(write_error_);
    if (read_error_)
        std::rethrow_exception(read_error_);
}

Chunk &ChunkPipeline::next()
{
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return !filled_.empty() || read_error_ || write_error_; });
    if (write_error_ || filled_.empty())
        rethrow_locked();
    Slot *s = filled_.front();
    filled_.pop_front();
    return s->c;
}

void ChunkPipeline::emit(Chunk &c, const uint8_t *p, size_t n)
{
    c.out = p;
    c.out_n = n;
    {
        std::lock_guard<std::mutex> lock(m_);
        if (write_error_)
            std::rethrow_exception(write_error_);
        for (Slot &s : slots_)
            if (&s.c == &c)
                to_write_.push_back(&s);
    }
    cv_.notify_all();
}

void ChunkPipeline::finish()
{
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return written_last_ || write_error_; });
    if (write_error_)
        std::rethrow_exception(write_error_);
}

} // namespace cli
