#include "progress.hpp"

#include <cstdio>
#include <unistd.h>

#include <fmt/core.h>

namespace cli {

using clock_type = std::chrono::steady_clock;

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::string label, uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled), start_(clock_type::now()), last_(start_)
{
}

Progress::~Progress() { finish(); }

void Progress::update(uint64_t done)
{
    if (!enabled_)
        return;
    auto now = clock_type::now();
    // Quiet for the first half second (short jobs never draw), then 10 redraws a second.
    if (now - start_ < std::chrono::milliseconds(500) || now - last_ < std::chrono::milliseconds(100))
        return;
    last_ = now;
    draw(done, false);
}

void Progress::finish()
{
    if (drawn_)
        std::fputs("\n", stderr);
    drawn_ = false;
    enabled_ = false;
}

void Progress::draw(uint64_t done, bool)
{
    double secs = std::chrono::duration<double>(clock_type::now() - start_).count();
    double rate = secs > 0 ? done / secs : 0;
    std::string line;
    if (total_ > 0) {
        double frac = (double)done / (double)total_;
        int width = 30, fill = (int)(frac * width);
        double eta = rate > 0 ? (double)(total_ - done) / rate : 0;
        line = fmt::format("\r{} [{}{}] {:5.1f}%  {:.1f} MB/s  ETA {:.0f}s ", label_, std::string(fill, '#'),
                           std::string(width - fill, '.'), 100 * frac, rate / 1e6, eta);
    } else {
        line = fmt::format("\r{} {:.1f} MB  {:.1f} MB/s ", label_, done / 1e6, rate / 1e6);
    }
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    drawn_ = true;
}

} // namespace cli
