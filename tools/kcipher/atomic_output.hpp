// An output file that appears only when complete: data goes to a temporary file in the
// same directory, which is renamed over the target on success and removed on any failure,
// on exceptions and on SIGINT/SIGTERM. Standard output, devices and FIFOs are written
// directly (they cannot be replaced atomically, and renaming over a device would replace it),
// unless the output is held: then their bytes wait in an unlinked temporary file and are
// copied out only on commit (`kcipher dec` of GCM/CCM: no unverified plaintext on stdout).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

struct stat;

namespace cli {

class AtomicOutput {
  public:
    // path empty or "-": standard output. Throws std::runtime_error with a message.
    // hold: nothing reaches standard output, a device or a FIFO before commit().
    explicit AtomicOutput(const std::string &path, bool hold = false);
    AtomicOutput(const AtomicOutput &) = delete;
    AtomicOutput &operator=(const AtomicOutput &) = delete;
    ~AtomicOutput(); // not committed: the temporary file is removed

    void write(const void *p, size_t n); // throws on a short write (disk full, EIO)
    void commit();                       // flush, fsync, rename; throws on failure
    // Nothing reaches the target before commit(): a temporary file or held bytes, not a
    // stream written through (standard output, a device, a FIFO).
    bool all_or_nothing() const { return !is_stdout_ || held_for_ != nullptr; }

  private:
    void open_temporary(const std::string &target, const struct stat *existing);
    void discard();
    std::string display_name() const;
    std::string path_;   // as the user gave it, for messages
    std::string target_; // the file replaced on commit (a symlink's target)
    std::string tmp_;
    void release_held();
    FILE *f_ = nullptr;
    FILE *held_for_ = nullptr; // hold: the stream the held bytes go to on commit
    bool is_stdout_ = false; // written through: stdout, a device or a FIFO
    bool done_ = false;
};

// A temporary file in $TMPDIR (else /tmp), already unlinked: it vanishes when closed or when
// the process dies, whatever the signal. `what` names it in the error thrown on failure.
FILE *open_unlinked_temporary(const std::string &what);

} // namespace cli
