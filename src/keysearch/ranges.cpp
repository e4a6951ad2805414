#include "keysearch/ranges.hpp"

#include <algorithm>

namespace kc::keysearch {

// True when a and b overlap or touch (no index between them), so they merge into one.
static bool joinable(const Range &a, const Range &b)
{
    return !(a.last < b.first && b.first - a.last > 1) && !(b.last < a.first && a.first - b.last > 1);
}

void RangeSet::add(Range r)
{
    auto it = std::lower_bound(v_.begin(), v_.end(), r, [](const Range &x, const Range &y) { return x.last < y.first; });
    // `it` is the first interval that does not end before r starts; back up one if it touches.
    if (it != v_.begin() && joinable(*(it - 1), r))
        --it;
    auto end = it;
    while (end != v_.end() && joinable(*end, r)) {
        r.first = std::min(r.first, end->first);
        r.last = std::max(r.last, end->last);
        ++end;
    }
    it = v_.erase(it, end);
    v_.insert(it, r);
}

std::vector<Range> RangeSet::missing_from(Range whole) const
{
    std::vector<Range> out;
    uint64_t cursor = whole.first;
    bool open = true; // false once cursor would pass 2^64 - 1
    for (const Range &r : v_) {
        if (!open || r.last < cursor)
            continue;
        if (r.first > whole.last)
            break;
        if (r.first > cursor)
            out.push_back({cursor, std::min(r.first - 1, whole.last)});
        if (r.last >= whole.last) {
            open = false;
            break;
        }
        cursor = r.last + 1;
    }
    if (open && cursor <= whole.last)
        out.push_back({cursor, whole.last});
    return out;
}

uint64_t RangeSet::count_within(Range whole) const
{
    uint64_t n = 0;
    for (const Range &r : v_) {
        uint64_t a = std::max(r.first, whole.first), b = std::min(r.last, whole.last);
        if (a > b)
            continue;
        uint64_t add = b - a;
        n = (n + add < n || n + add == UINT64_MAX) ? UINT64_MAX : n + add + 1;
    }
    return n;
}

bool RangeSet::contains(uint64_t i) const
{
    for (const Range &r : v_)
        if (r.first <= i && i <= r.last)
            return true;
    return false;
}

} // namespace kc::keysearch
