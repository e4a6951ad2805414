// A one-line progress bar on standard error, shown only when it is a terminal and the job
// is long enough to be worth watching.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace cli {

class Progress {
  public:
    // total 0 = unknown (shows bytes and rate only)
    Progress(std::string label, uint64_t total, bool enabled);
    ~Progress();
    void update(uint64_t done);
    void finish();

  private:
    void draw(uint64_t done, bool final);
    std::string label_;
    uint64_t total_;
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_, last_;
};

bool stderr_is_terminal();

} // namespace cli
