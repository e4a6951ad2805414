// MPI for `mpirun -np N kcipher keysearch ...` (OpenMPI): each rank searches its share of the
// range and rank 0 reports for all. MPI is initialised only when the process was started by
// a launcher (OMPI_COMM_WORLD_SIZE or PMIX/PMI variables set), so a plain run never touches
// it, and a build without MPI refuses such a launch instead of letting every rank search the
// whole range.
#pragma once

#include <cstdint>
#include <string>

namespace cli {

struct MpiWorld {
    int rank = 0;
    int size = 1;
};

MpiWorld mpi_begin(); // throws std::runtime_error when launched by mpirun without MPI support
void mpi_end(const MpiWorld &w);

// One rank's outcome; mpi_combine gives rank 0 the sums and every rank's keys.
struct RankSummary {
    uint64_t tested = 0, done = 0, total = 0;
    double seconds = 0;
    int outcome = 0;         // 0 done (range finished or a key found), 1 interrupted, 2 runtime error,
                             // 3 bad usage: the worst rank's wins
    std::string found_lines; // "index keyhex\n" per key
};

RankSummary mpi_combine(const MpiWorld &w, const RankSummary &mine);
int mpi_agree_exit(const MpiWorld &w, int code); // every rank returns rank 0's code

// Stopping every rank: a rank that finds a key (at the first key) or fails (a checkpoint it
// cannot write, a GPU error) announces it, once, to every other; a searching rank polls from
// its progress callback (the main thread, several times a second) and stops, saving its
// checkpoint, on a failure always and on a key unless it searches for every key (--all-keys
// sends no key announcements). After the search every rank calls mpi_settle_announcements
// (collective), which receives the announcements still in flight and completes the sends.
enum class PeerNews { none, key_found, failed };
void mpi_announce(const MpiWorld &w, PeerNews what);
PeerNews mpi_peer_news(const MpiWorld &w); // the first announcement received so far
void mpi_settle_announcements(const MpiWorld &w);

} // namespace cli
