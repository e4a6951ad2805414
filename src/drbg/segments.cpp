#include "drbg/segments.hpp"

#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "modes/gpu_modes.hpp"
#include "drbg/burst.hpp"
#include "modes/parallel.hpp"

namespace kc::drbg {
namespace {

constexpr size_t batch_bytes = size_t(16) << 20; // a multiple of both request sizes

bool run_range(const BlockCipher &proto, const Segment *s, size_t first, size_t end, size_t stride,
               uint8_t *out)
{
    std::unique_ptr<BlockCipher> c = proto.clone_unkeyed();
    if (!c)
        return false;
    for (size_t i = first; i < end; i++) {
        if (!c->set_key(s[i].key))
            return false;
        keystream_bytes(*c, s[i].counter, out + i * stride, s[i].bytes);
    }
    return true; // ~clone wipes the last round keys
}

} // namespace

kcipher_status run_segments(const BlockCipher &proto, const Segment *segments, size_t count,
                            size_t max_request_bytes, uint8_t *out, unsigned threads)
{
    // The same threshold as the CTR mode's threads (modes/parallel.hpp), in whole segments.
    size_t n = resolve_threads(threads);
    size_t max_workers = count * max_request_bytes / (parallel_min_bytes / 2);
    if (n > max_workers)
        n = max_workers;
    if (n > count)
        n = count;
    if (n <= 1)
        return run_range(proto, segments, 0, count, max_request_bytes, out) ? KCIPHER_OK : KCIPHER_ERR_NO_MEMORY;

    std::vector<char> ok(n, 0);
    std::vector<std::thread> pool;
    try {
        pool.reserve(n - 1);
        for (size_t w = 1; w < n; w++)
            pool.emplace_back([&, w] {
                ok[w] = run_range(proto, segments, count * w / n, count * (w + 1) / n, max_request_bytes, out);
            });
    } catch (const std::exception &) { // no thread: the ones started finish, then fail
        for (std::thread &t : pool)
            t.join();
        return KCIPHER_ERR_NO_MEMORY;
    }
    ok[0] = run_range(proto, segments, 0, count / n, max_request_bytes, out);
    for (std::thread &t : pool)
        t.join();
    for (char x : ok)
        if (!x)
            return KCIPHER_ERR_NO_MEMORY;
    return KCIPHER_OK;
}

kcipher_status generate_large(Drbg &d, const Accelerations &a, uint8_t *out, size_t len, bool prediction_resistance,
                              const SegmentRunner &runner)
{
    // A pipeline of two batches: while the runner fills batch k's output (GPU or worker
    // threads), this thread walks the chain of batch k+1, so the sequential chain and the
    // parallel output overlap. The runner reads only its segments and writes only its part
    // of out, never the DRBG.
    std::vector<Segment> cur, next;
    size_t cur_at = 0, cur_len = len < batch_bytes ? len : batch_bytes;
    kcipher_status chain = plan_segments(d, a, cur_len, prediction_resistance, cur);
    kcipher_status run = KCIPHER_OK;
    while (!cur.empty()) {
        // On a failed chain the planned segments are still served: the state has moved past
        // them, exactly as after the requests that succeeded one by one.
        kcipher_status this_run = KCIPHER_OK;
        std::string gpu_message; // the worker's kcipher_gpu_last_error, for the caller's
        std::thread worker([&] {
            this_run = runner(cur.data(), cur.size(), out + cur_at);
            gpu_message = gpu_last_error();
        });
        const size_t next_at = cur_at + cur_len;
        size_t next_len = 0;
        if (chain == KCIPHER_OK && next_at < len) {
            next_len = len - next_at < batch_bytes ? len - next_at : batch_bytes;
            chain = plan_segments(d, a, next_len, prediction_resistance, next);
        }
        worker.join();
        run = this_run;
        if (run == KCIPHER_ERR_CUDA)
            gpu_set_error(gpu_message.c_str());
        wipe_segments(cur);
        if (run != KCIPHER_OK) // output lost: stop (the state stands after the planned requests)
            break;
        std::swap(cur, next);
        cur_at = next_at, cur_len = next_len;
    }
    wipe_segments(next);
    return chain != KCIPHER_OK ? chain : run;
}

kcipher_status generate_large_cpu(Drbg &d, const Accelerations &a, uint8_t *out, size_t len,
                                  bool prediction_resistance, unsigned threads)
{
    size_t stride = d.limits().max_request_bytes;
    // On one thread the state's own cipher, already keyed with each request's Key by the
    // previous Update, computes the output: one key schedule per request instead of two; runs
    // of whole requests go through bursts where the kernel offers them (burst.hpp).
    //
    // A 64-bit block cipher's 1 KiB request costs about as much in its chain step (rekey,
    // 3-block Update) as in its output. With two threads, the threaded path below leaves the
    // output to one worker that keys every request a second time, so one core's bursts are
    // faster (HIGHT and CHAM-64/128 both). With many threads it depends on the kernel: HIGHT's
    // bursts on one core have beaten the threaded path on a 16-core host and CHAM-64/128's
    // have not, so more threads keep that path. Re-measure with `kcipher bench --drbg
    // --threads N` for N = 1, 2 and the core count.
    const bool chain_bound = d.limits().block_bytes == 8 && a.bursts() && resolve_threads(threads) <= 2;
    if (resolve_threads(threads) == 1 || len < parallel_min_bytes || chain_bound) {
        for (size_t done = 0; done < len;) {
            kcipher_status st;
            size_t n = burst_requests(d, a, (len - done) / stride, prediction_resistance);
            if (n > 0) {
                st = generate_burst(d, a, out + done, n);
                done += n * stride;
            } else {
                n = len - done < stride ? len - done : stride;
                st = d.generate(out + done, n, {}, prediction_resistance);
                done += n;
            }
            if (st != KCIPHER_OK)
                return st;
        }
        return KCIPHER_OK;
    }
    const BlockCipher &proto = d.cipher();
    return generate_large(d, a, out, len, prediction_resistance, [&](const Segment *s, size_t n, uint8_t *o) {
        return run_segments(proto, s, n, stride, o, threads);
    });
}

} // namespace kc::drbg
