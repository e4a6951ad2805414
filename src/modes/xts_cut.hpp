// XTS work cut into pieces of at most max_bytes without breaking what a launch needs whole:
// a piece is whole data units when a unit fits, else a run of one unit's blocks; a unit's
// last partial block always stays with the full block before it (ciphertext stealing reads
// both). The GPU's launches (2^34 bytes at most) and the host pipeline's chunks (4 MiB) are
// both cut here, so that a chunk's tweaks do not depend on where the job was split.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kc {

struct XtsPiece {
    size_t offset;       // in the job
    size_t len;
    uint64_t unit;       // the job's unit index of the piece's first unit
    size_t unit_bytes;   // the piece's unit length (its last unit may be shorter)
    uint64_t first_block; // the block of that unit where the piece starts (0 when whole units)
};

class XtsCut {
  public:
    // unit: the data unit (0 or >= len: one unit); max_bytes a multiple of 16, >= 32.
    XtsCut(size_t len, size_t unit, size_t max_bytes)
        : len_(len), unit_(unit == 0 || unit > len ? len : unit), max_(max_bytes)
    {
        units_ = (len_ + unit_ - 1) / unit_;
        last_ = len_ - (units_ - 1) * unit_;
        if (unit_ <= max_) {
            per_ = max_ / unit_;
            count_ = (units_ + per_ - 1) / per_;
        } else {
            split_ = (unit_ + max_ - 1) / max_;
            count_ = (units_ - 1) * split_ + (last_ + max_ - 1) / max_;
        }
    }

    size_t count() const { return count_; }

    XtsPiece piece(size_t i) const
    {
        if (split_ == 0) {
            const uint64_t u = (uint64_t)i * per_;
            const size_t off = (size_t)u * unit_;
            const size_t n = len_ - off < per_ * unit_ ? len_ - off : per_ * unit_;
            return {off, n, u, unit_, 0};
        }
        const uint64_t u = i / split_;
        const size_t k = i % split_;
        const size_t ulen = u + 1 == units_ ? last_ : unit_;
        const size_t pieces = (ulen + max_ - 1) / max_;
        size_t at = k * max_, n = ulen - at < max_ ? ulen - at : max_;
        // A tail shorter than a block would stand alone: the piece before it gives up a block.
        const size_t tail = ulen - (pieces - 1) * max_;
        if (pieces > 1 && tail < 16) {
            if (k + 2 == pieces)
                n -= 16;
            else if (k + 1 == pieces)
                at -= 16, n += 16;
        }
        return {(size_t)u * unit_ + at, n, u, n, at / 16};
    }

  private:
    size_t len_, unit_, max_;
    uint64_t units_ = 0;
    size_t last_ = 0, per_ = 0, split_ = 0, count_ = 0;
};

} // namespace kc
