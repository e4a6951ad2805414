// Fork detection for the DRBG handles. After fork() the child holds a copy of its parent's
// working state, so the next output of both would be the same bytes: every handle records the
// generation below when it is seeded and reseeds before any output when the generation has
// changed (as OpenSSL's DRBGs do), or refuses to output when it has no entropy source.
#pragma once

#include <cstdint>

namespace kc::drbg {

// How many fork()s lie between this process and the first caller of this function: the
// child's count is its parent's plus one. Counted by a pthread_atfork child handler, which
// the first call registers; where registration fails, the process id stands in (it changes
// in every child too).
uint64_t fork_generation();

} // namespace kc::drbg
