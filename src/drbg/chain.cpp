#include "drbg/chain.hpp"

#include <cstring>

#include "core/counter.hpp"
#include "core/wipe.hpp"

namespace kc::drbg {

namespace {

// How many of the next `requests` requests may skip the reseed check: those before the
// reseed interval runs out (the next one reseeds, through begin_request).
size_t requests_before_reseed(const Drbg &d, size_t requests)
{
    if (!d.instantiated() || d.reseed_counter() > d.reseed_interval())
        return 0;
    const uint64_t room = d.reseed_interval() - d.reseed_counter() + 1;
    return requests < room ? requests : (size_t)room;
}

// `n` requests of the next `len` bytes with the fused block function: for each, its Segment,
// then its Update with no additional input (the seedlen bits of keystream at V + blocks + 1
// become Key || V), all on the raw Key and V; d takes the result over at the end. Returns the
// bytes planned, or 0 when d could not be rekeyed (then it is uninstantiated).
size_t plan_fused(Drbg &d, FusedEcb fused, Cipher c, size_t len, size_t n, SegmentSink &out)
{
    const Limits &lim = d.limits();
    const size_t bs = lim.block_bytes, kb = lim.key_bytes, u = (lim.seed_bytes + bs - 1) / bs;
    uint8_t key[32], v[16], ctr[48], temp[48];
    std::memcpy(key, d.key(), kb);
    std::memcpy(v, d.v(), bs);
    Segment s{};
    size_t done = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t bytes = len - done < lim.max_request_bytes ? len - done : lim.max_request_bytes;
        std::memcpy(s.key, key, kb);
        counter_plus(s.counter, v, bs, 1);
        s.bytes = bytes;
        out.put(s);
        const uint64_t first = (bytes + bs - 1) / bs + 1; // V + blocks + 1
        for (size_t j = 0; j < u; j++)
            counter_plus(ctr + j * bs, v, bs, first + j);
        fused(c, key, ctr, temp, u);
        std::memcpy(key, temp, kb);
        std::memcpy(v, temp + kb, bs);
        done += bytes;
    }
    const bool ok = d.finish_requests(key, v, n);
    secure_wipe(&s, sizeof s);
    secure_wipe(key, sizeof key);
    secure_wipe(v, sizeof v);
    secure_wipe(ctr, sizeof ctr);
    secure_wipe(temp, sizeof temp);
    return ok ? done : 0;
}

} // namespace

kcipher_status plan_segments(Drbg &d, const Accelerations &a, size_t len, bool prediction_resistance, SegmentSink &out)
{
    const Limits &lim = d.limits();
    uint8_t provided[64];
    const size_t requests = (len + lim.max_request_bytes - 1) / lim.max_request_bytes;
    size_t start = 0;
    if (a.fused != nullptr && !prediction_resistance) {
        const size_t n = requests_before_reseed(d, requests);
        if (n > 0 && (start = plan_fused(d, a.fused, a.cipher, len, n, out)) == 0)
            return KCIPHER_ERR_NO_MEMORY;
    }
    for (size_t done = start; done < len;) {
        size_t n = len - done < lim.max_request_bytes ? len - done : lim.max_request_bytes;
        kcipher_status st = d.begin_request(n, {}, prediction_resistance, provided);
        if (st != KCIPHER_OK)
            return st;
        Segment s{};
        std::memcpy(s.key, d.key(), lim.key_bytes);
        d.first_counter(s.counter);
        s.bytes = n;
        out.put(s);
        secure_wipe(&s, sizeof s);
        st = d.end_request(n, provided); // provided is all zeros: no additional input
        if (st != KCIPHER_OK)
            return st;
        done += n;
    }
    return KCIPHER_OK;
}

kcipher_status plan_segments(Drbg &d, const Accelerations &a, size_t len, bool prediction_resistance,
                             std::vector<Segment> &out)
{
    struct Append final : SegmentSink {
        std::vector<Segment> &v;
        explicit Append(std::vector<Segment> &x) : v(x) {}
        void put(const Segment &s) override { v.push_back(s); } // within the room reserved
    } append(out);
    const size_t max = d.limits().max_request_bytes;
    out.reserve(out.size() + (len + max - 1) / max);
    return plan_segments(d, a, len, prediction_resistance, append);
}

void wipe_segments(std::vector<Segment> &segments)
{
    if (!segments.empty())
        secure_wipe(segments.data(), segments.size() * sizeof(Segment));
    segments.clear();
}

} // namespace kc::drbg
