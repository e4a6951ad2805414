#include "chunk_pipeline.hpp"

namespace cli {

ChunkPipeline::ChunkPipeline(Input &in, AtomicOutput &out, size_t chunk, size_t front, size_t back, size_t slots)
    : in_(in), out_(out), chunk_(chunk), mapped_(in.map()), slots_(slots)
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
            if (mapped_) {
                s->c.src = in_.map_next(chunk_, s->c.n);
            } else {
                s->c.n = in_.read(s->c.data, chunk_);
                s->c.src = s->c.data;
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(m_);
            read_error_ = std::current_exception();
            cv_.notify_all();
            return;
        }
        s->c.last = s->c.n < chunk_;
        s->c.index = read_index_++;
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
            auto ready = [&] { return !to_write_.empty() && to_write_.front()->c.index == write_index_; };
            cv_.wait(lock, [&] { return stop_ || ready(); });
            if (!ready())
                return; // stopped with nothing left to write in order
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
        if (mapped_) // every chunk up to this one is transformed and written
            in_.map_release(s->c.src + s->c.n);
        {
            std::lock_guard<std::mutex> lock(m_);
            free_.push_back(s);
            write_index_++;
            written_last_ = last;
        }
        cv_.notify_all();
        if (last)
            return;
    }
}

void ChunkPipeline::rethrow_locked() const
{
    if (caller_error_)
        std::rethrow_exception(caller_error_);
    if (write_error_)
        std::rethrow_exception(write_error_);
    if (read_error_)
        std::rethrow_exception(read_error_);
}

Chunk *ChunkPipeline::next()
{
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return handed_last_ || !filled_.empty() || read_error_ || write_error_ || caller_error_; });
    if (write_error_ || caller_error_ || (filled_.empty() && read_error_))
        rethrow_locked();
    if (filled_.empty())
        return nullptr; // another thread took the last chunk
    Slot *s = filled_.front();
    filled_.pop_front();
    handed_last_ = s->c.last;
    if (handed_last_)
        cv_.notify_all(); // threads waiting for a chunk: there is none left
    return &s->c;
}

void ChunkPipeline::emit(Chunk &c, const uint8_t *p, size_t n)
{
    c.out = p;
    c.out_n = n;
    {
        std::lock_guard<std::mutex> lock(m_);
        if (write_error_ || caller_error_)
            rethrow_locked();
        for (Slot &s : slots_) // in index order: the writer takes the front when it is the next one
            if (&s.c == &c) {
                auto at = to_write_.begin();
                while (at != to_write_.end() && (*at)->c.index < c.index)
                    ++at;
                to_write_.insert(at, &s);
            }
    }
    cv_.notify_all();
}

void ChunkPipeline::finish()
{
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return written_last_ || write_error_ || caller_error_; });
    if (write_error_ || caller_error_)
        rethrow_locked();
}

void ChunkPipeline::fail(std::exception_ptr e)
{
    {
        std::lock_guard<std::mutex> lock(m_);
        if (!caller_error_)
            caller_error_ = e;
        stop_ = true;
    }
    cv_.notify_all();
}

} // namespace cli
