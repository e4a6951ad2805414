#include "drbg/chain.hpp"

#include <cstring>

#include "core/wipe.hpp"

namespace kc::drbg {

kcipher_status plan_segments(Drbg &d, size_t len, bool prediction_resistance, std::vector<Segment> &out)
{
    const Limits &lim = d.limits();
    uint8_t provided[64];
    out.reserve(out.size() + (len + lim.max_request_bytes - 1) / lim.max_request_bytes);
    for (size_t done = 0; done < len;) {
        size_t n = len - done < lim.max_request_bytes ? len - done : lim.max_request_bytes;
        kcipher_status st = d.begin_request(n, {}, prediction_resistance, provided);
        if (st != KCIPHER_OK)
            return st;
        Segment s{};
        std::memcpy(s.key, d.key(), lim.key_bytes);
        d.first_counter(s.counter);
        s.bytes = n;
        out.push_back(s);
        secure_wipe(&s, sizeof s);
        st = d.end_request(n, provided); // provided is all zeros: no additional input
        if (st != KCIPHER_OK)
            return st;
        done += n;
    }
    return KCIPHER_OK;
}

void wipe_segments(std::vector<Segment> &segments)
{
    if (!segments.empty())
        secure_wipe(segments.data(), segments.size() * sizeof(Segment));
    segments.clear();
}

} // namespace kc::drbg
