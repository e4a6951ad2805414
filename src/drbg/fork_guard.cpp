#include "drbg/fork_guard.hpp"

#include <atomic>
#include <pthread.h>
#include <unistd.h>

namespace kc::drbg {

namespace {

std::atomic<uint64_t> forks{0};

// Runs in the child, single-threaded, before fork() returns there.
void count_fork_in_child() { forks.fetch_add(1, std::memory_order_relaxed); }

bool register_handler() { return pthread_atfork(nullptr, nullptr, count_fork_in_child) == 0; }

} // namespace

uint64_t fork_generation()
{
    static const bool registered = register_handler();
    if (!registered)
        return uint64_t(getpid()) | uint64_t(1) << 63; // never equal to a count of forks
    return forks.load(std::memory_order_relaxed);
}

} // namespace kc::drbg
