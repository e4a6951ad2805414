// libFuzzer target: the key-search checkpoint reader (src/keysearch/checkpoint.cpp). The
// input is written to an in-memory file (memfd) and read back by load_checkpoint against a
// fixed search's fingerprint and range; it must return a status and never crash. What it
// accepts must fit the search (finished ranges inside the range, ordered, disjoint; found
// keys' indexes inside it: their keys are tested against the search's pairs by the driver,
// which has them) and survive a save and a second load unchanged.
// The seeds carry valid checksums (checksum fnv1a64 over the lines above it), so that the
// fuzzer starts past the checksum and reaches the field checks.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_catalog.hpp"
#include "keysearch/checkpoint.hpp"

namespace {

// The fingerprint of the search the seed corpus's checkpoints belong to (ARIA-128, one pair,
// 8 unknown bits); its lines are what checkpoint_fingerprint writes.
const std::string fingerprint = "cipher aria-128\n"
                                "pair 00112233445566778899aabbccddeeff 4eb97d97dfe6e3b7ea75bc72a2ab9d34\n"
                                "key 000102030405060708090a0b0c0d0e00\n"
                                "mask 000000000000000000000000000000ff\n"
                                "range 0 255\n";
const kc::keysearch::Range search_range{0, 255};

int memfd()
{
    static const int fd = memfd_create("kcipher-fuzz-checkpoint", 0);
    KCFUZZ_CHECK(fd >= 0, "memfd_create");
    return fd;
}

std::string fd_path(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace kc::keysearch;
    const int fd = memfd();
    KCFUZZ_CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, data, size, 0) == ssize_t(size), "write");
    bool exists = false;
    CheckpointState st;
    kcipher_status s = load_checkpoint(fd_path(fd), fingerprint, search_range, &exists, &st);
    KCFUZZ_CHECK(exists, "the file is there");
    if (s != KCIPHER_OK)
        return 0;
    uint64_t next = 0; // the first index a following finished range may start at
    for (const Range &r : st.finished.ranges()) {
        KCFUZZ_CHECK(r.first >= next && r.first <= r.last && r.last <= search_range.last, "finished ranges fit");
        next = r.last + 1;
    }
    for (const Found &f : st.found)
        KCFUZZ_CHECK(f.index <= search_range.last && !f.key.empty(), "found keys inside the range");

    // Accepted: save it (to a real temporary file, since save renames) and load it again.
    char dir[] = "/tmp/kcipher-fuzz-XXXXXX";
    KCFUZZ_CHECK(mkdtemp(dir) != nullptr, "mkdtemp");
    const std::string path = std::string(dir) + "/checkpoint";
    KCFUZZ_CHECK(save_checkpoint(path, fingerprint, st) == KCIPHER_OK, "save");
    CheckpointState again;
    KCFUZZ_CHECK(load_checkpoint(path, fingerprint, search_range, &exists, &again) == KCIPHER_OK, "reload");
    const auto &r1 = st.finished.ranges(), &r2 = again.finished.ranges();
    KCFUZZ_CHECK(r1.size() == r2.size(), "finished ranges round-trip");
    for (size_t i = 0; i < r1.size(); i++)
        KCFUZZ_CHECK(r1[i].first == r2[i].first && r1[i].last == r2[i].last, "finished ranges round-trip");
    KCFUZZ_CHECK(again.found.size() == st.found.size(), "found keys round-trip");
    for (size_t i = 0; i < st.found.size(); i++)
        KCFUZZ_CHECK(again.found[i].index == st.found[i].index && again.found[i].key == st.found[i].key,
                     "found keys round-trip");
    unlink(path.c_str());
    rmdir(dir);
    return 0;
}
