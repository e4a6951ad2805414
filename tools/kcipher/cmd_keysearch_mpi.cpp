#include "cmd_keysearch_mpi.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#ifdef KC_HAVE_MPI
// The C interface only: OpenMPI's deprecated C++ bindings need a library we do not link.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace cli {

static int launcher_size()
{
    for (const char *v : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"})
        if (const char *s = std::getenv(v))
            return std::max(1, std::atoi(s));
    return std::getenv("PMIX_RANK") != nullptr ? 2 : 1; // PMIx without a size: assume several
}

#ifdef KC_HAVE_MPI

MpiWorld mpi_begin()
{
    MpiWorld w;
    if (launcher_size() <= 1)
        return w;
    int provided = 0;
    // Only the main thread calls MPI, before and after the search threads run.
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w.size);
    return w;
}

void mpi_end(const MpiWorld &w)
{
    if (w.size > 1)
        MPI_Finalize();
}

RankSummary mpi_combine(const MpiWorld &w, const RankSummary &mine)
{
    if (w.size <= 1)
        return mine;
    RankSummary all = mine;
    uint64_t sums[3] = {mine.tested, mine.done, mine.total}, out[3] = {0, 0, 0};
    MPI_Reduce(sums, out, 3, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine.outcome, &all.outcome, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine.seconds, &all.seconds, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    int len = int(mine.found_lines.size());
    std::vector<int> lens(w.size), offs(w.size);
    MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (int i = 0; i < w.size; i++) {
        offs[i] = total;
        total += lens[i];
    }
    std::vector<char> buf(std::max(1, total));
    MPI_Gatherv(mine.found_lines.data(), len, MPI_CHAR, buf.data(), lens.data(), offs.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    if (w.rank == 0) {
        all.tested = out[0];
        all.done = out[1];
        all.total = out[2];
        all.found_lines.assign(buf.data(), size_t(total));
    }
    return all;
}

int mpi_agree_exit(const MpiWorld &w, int code)
{
    if (w.size > 1)
        MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return code;
}

namespace {

constexpr int key_found_tag = 7; // the announcements' tag (a key found, or a failure)

// This rank's announcement (sent once: what, to every other rank) and the first it received.
struct Announcements {
    std::vector<MPI_Request> sent;
    int announced = 0, what = 0, received = 0;
    PeerNews first = PeerNews::none;
} g_announce;

void receive_one()
{
    int what = 0;
    MPI_Recv(&what, 1, MPI_INT, MPI_ANY_SOURCE, key_found_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    g_announce.received++;
    if (g_announce.first == PeerNews::none)
        g_announce.first = static_cast<PeerNews>(what);
}

} // namespace

void mpi_announce(const MpiWorld &w, PeerNews what)
{
    if (w.size <= 1 || g_announce.announced != 0 || what == PeerNews::none)
        return;
    g_announce.announced = 1;
    g_announce.what = static_cast<int>(what);
    g_announce.sent.reserve(size_t(w.size));
    for (int r = 0; r < w.size; r++) {
        if (r == w.rank)
            continue;
        g_announce.sent.emplace_back();
        MPI_Isend(&g_announce.what, 1, MPI_INT, r, key_found_tag, MPI_COMM_WORLD, &g_announce.sent.back());
    }
}

PeerNews mpi_peer_news(const MpiWorld &w)
{
    if (w.size <= 1)
        return PeerNews::none;
    int waiting = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, key_found_tag, MPI_COMM_WORLD, &waiting, MPI_STATUS_IGNORE);
    if (waiting != 0)
        receive_one();
    return g_announce.first;
}

// Every rank that announced sent one message to each other rank: receive exactly the ones
// not yet received, so none is left unmatched at MPI_Finalize.
void mpi_settle_announcements(const MpiWorld &w)
{
    if (w.size <= 1)
        return;
    int senders = 0;
    MPI_Allreduce(&g_announce.announced, &senders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const int expected = senders - g_announce.announced;
    while (g_announce.received < expected)
        receive_one();
    MPI_Waitall(int(g_announce.sent.size()), g_announce.sent.data(), MPI_STATUSES_IGNORE);
    g_announce.sent.clear();
}

#else

MpiWorld mpi_begin()
{
    if (launcher_size() > 1)
        throw std::runtime_error("started by mpirun, but this kcipher was built without MPI support "
                                 "(install libopenmpi-dev and rebuild); every rank would search the whole range");
    return {};
}

void mpi_end(const MpiWorld &) {}
RankSummary mpi_combine(const MpiWorld &, const RankSummary &mine) { return mine; }
int mpi_agree_exit(const MpiWorld &, int code) { return code; }
void mpi_announce(const MpiWorld &, PeerNews) {}
PeerNews mpi_peer_news(const MpiWorld &) { return PeerNews::none; }
void mpi_settle_announcements(const MpiWorld &) {}

#endif

} // namespace cli
