// The DRBG after fork(): a child holds a copy of its parent's state, and must not give the
// parent's next bytes. Each test forks, lets the child draw from the copied handle, and
// checks the child's bytes against a twin handle reseeded from the same (deterministic)
// entropy source: the child reseeded before its first output, while the parent's bytes stay
// those of a handle that never forked. Handles without a source must refuse in the child.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <vector>

#include "cuda/devices.hpp"
#include "kcipher/kcipher.h"
#include "support/drbg_multi_check.hpp"

namespace {

using Bytes = std::vector<uint8_t>;
using kct::counting_entropy;

// What a child reports back through a pipe: a status per draw and the bytes drawn.
struct ChildReport {
    std::vector<int> status;
    Bytes bytes;
};

bool write_all(int fd, const void *p, size_t n)
{
    const auto *b = static_cast<const uint8_t *>(p);
    while (n > 0) {
        ssize_t w = write(fd, b, n);
        if (w <= 0)
            return false;
        b += w, n -= size_t(w);
    }
    return true;
}

bool read_all(int fd, void *p, size_t n)
{
    auto *b = static_cast<uint8_t *>(p);
    while (n > 0) {
        ssize_t r = read(fd, b, n);
        if (r <= 0)
            return false;
        b += r, n -= size_t(r);
    }
    return true;
}

// Runs `draw` in a forked child (which exits without returning to the test runner) and
// returns what it reported: `draws` statuses and `len` bytes.
ChildReport in_child(size_t draws, size_t len, const std::function<void(ChildReport &)> &draw)
{
    int fds[2];
    EXPECT_EQ(0, pipe(fds));
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        alarm(120); // a child stuck in a driver call dies instead of hanging the suite
        ChildReport r;
        draw(r);
        r.status.resize(draws, -1);
        r.bytes.resize(len);
        bool ok = write_all(fds[1], r.status.data(), draws * sizeof(int)) && write_all(fds[1], r.bytes.data(), len);
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    ChildReport r;
    r.status.resize(draws);
    r.bytes.resize(len);
    EXPECT_TRUE(read_all(fds[0], r.status.data(), draws * sizeof(int)) && read_all(fds[0], r.bytes.data(), len));
    close(fds[0]);
    int ws = 0;
    EXPECT_EQ(pid, waitpid(pid, &ws, 0));
    EXPECT_TRUE(WIFEXITED(ws) && WEXITSTATUS(ws) == 0) << "child status " << ws;
    return r;
}

// A handle and its twin: the same cipher, kernel, inputs and (separate but equal)
// deterministic entropy sources.
struct Twins {
    kcipher_drbg *d = nullptr, *twin = nullptr;
    uint32_t src_d = 11, src_twin = 11;
    ~Twins()
    {
        kcipher_drbg_free(d);
        kcipher_drbg_free(twin);
    }
};

// The entropy length instantiate needs: seedlen without df, the security strength with it.
size_t entropy_len(const char *cipher, unsigned flags)
{
    kcipher_cipher_info info{};
    EXPECT_EQ(KCIPHER_OK, kcipher_cipher_find(cipher, &info));
    return flags ? info.key_bytes + info.block_bytes : info.key_bytes;
}

void instantiate_twins(Twins &t, const char *cipher, unsigned flags, const char *kernel, bool with_source)
{
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_new(&t.d, cipher, flags, kernel));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_new(&t.twin, cipher, flags, kernel));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_entropy_source(t.d, with_source ? counting_entropy : nullptr, &t.src_d));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_entropy_source(t.twin, counting_entropy, &t.src_twin));
    const Bytes e(entropy_len(cipher, flags), 0x5a);
    for (kcipher_drbg *d : {t.d, t.twin}) {
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_instantiate(d, e.data(), e.size(), nullptr, 0, nullptr, 0)) << cipher;
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_set_threads(d, 2));
    }
}

using Draw = kcipher_status (*)(kcipher_drbg *, uint8_t *, size_t);

kcipher_status draw_one(kcipher_drbg *d, uint8_t *out, size_t len) { return kcipher_drbg_generate(d, out, len, nullptr, 0, 0); }
kcipher_status draw_large(kcipher_drbg *d, uint8_t *out, size_t len) { return kcipher_drbg_generate_large(d, out, len, 0); }

// The parent's and the child's next `len` bytes after a fork, by `draw`: the parent's equal
// the never-forked twin's, the child's equal the twin's after a reseed from the source.
void check_fork(const char *cipher, unsigned flags, const char *kernel, Draw draw, size_t len)
{
    SCOPED_TRACE(std::string(cipher) + (flags ? " no df" : " df") + " " + std::to_string(len) + " bytes");
    Twins t;
    ASSERT_NO_FATAL_FAILURE(instantiate_twins(t, cipher, flags, kernel, true));
    Bytes warm(40);
    ASSERT_EQ(KCIPHER_OK, draw_one(t.d, warm.data(), warm.size()));
    ASSERT_EQ(KCIPHER_OK, draw_one(t.twin, warm.data(), warm.size()));

    ChildReport child = in_child(3, 2 * len, [&](ChildReport &r) {
        r.bytes.resize(2 * len);
        r.status.push_back(draw(t.d, r.bytes.data(), len));
        r.status.push_back(kcipher_drbg_reseed(t.twin, nullptr, 0, nullptr, 0));
        r.status.push_back(draw(t.twin, r.bytes.data() + len, len));
    });
    for (int st : child.status)
        ASSERT_EQ(KCIPHER_OK, st);
    const Bytes child_d(child.bytes.begin(), child.bytes.begin() + len);
    const Bytes child_twin(child.bytes.begin() + len, child.bytes.end());
    EXPECT_EQ(child_d, child_twin) << "the child did not reseed from its source before its first output";

    Bytes parent(len), parent_twin(len);
    ASSERT_EQ(KCIPHER_OK, draw(t.d, parent.data(), len));
    ASSERT_EQ(KCIPHER_OK, draw(t.twin, parent_twin.data(), len));
    EXPECT_EQ(parent, parent_twin) << "the fork changed the parent's stream";
    EXPECT_NE(parent, child_d) << "parent and child gave the same bytes";
}

TEST(DrbgFork, ChildReseedsBeforeItsFirstRequest)
{
    for (const char *cipher : kct::drbg_ciphers)
        for (unsigned flags : {0u, (unsigned)KCIPHER_DRBG_NO_DF})
            ASSERT_NO_FATAL_FAILURE(check_fork(cipher, flags, nullptr, draw_one, 64));
}

// generate_large's chained and burst paths do not pass through a single request's steps.
TEST(DrbgFork, ChildReseedsBeforeALargeOutput)
{
    for (const char *cipher : {"aria-128", "lea-256", "hight", "cham-128-128"}) {
        kcipher_drbg *d = nullptr;
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_new(&d, cipher, 0, nullptr));
        const size_t max = kcipher_drbg_max_request(d);
        kcipher_drbg_free(d);
        ASSERT_NO_FATAL_FAILURE(check_fork(cipher, 0, nullptr, draw_large, 5 * max + 7));
    }
}

// The default entropy source (getrandom): parent and child differ.
TEST(DrbgFork, GetrandomSeededHandleDiffersInTheChild)
{
    kcipher_drbg *d = nullptr;
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_new(&d, "aria-256", 0, nullptr));
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_instantiate(d, nullptr, 0, nullptr, 0, nullptr, 0));
    ChildReport child = in_child(1, 32, [&](ChildReport &r) {
        r.bytes.resize(32);
        r.status.push_back(kcipher_drbg_generate(d, r.bytes.data(), 32, nullptr, 0, 0));
    });
    Bytes parent(32);
    ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate(d, parent.data(), 32, nullptr, 0, 0));
    EXPECT_EQ(KCIPHER_OK, child.status[0]);
    EXPECT_NE(parent, child.bytes);
    kcipher_drbg_free(d);
}

// Without a source the child cannot reseed by itself: it refuses until the caller reseeds.
TEST(DrbgFork, WithoutASourceTheChildMustReseed)
{
    Twins t;
    ASSERT_NO_FATAL_FAILURE(instantiate_twins(t, "lea-128", 0, nullptr, false));
    const Bytes fresh(16, 0xc3);
    ChildReport child = in_child(4, 32, [&](ChildReport &r) {
        r.bytes.resize(32);
        r.status.push_back(kcipher_drbg_generate(t.d, r.bytes.data(), 32, nullptr, 0, 0));
        r.status.push_back(kcipher_drbg_generate_large(t.d, r.bytes.data(), 32, 0));
        r.status.push_back(kcipher_drbg_reseed(t.d, fresh.data(), fresh.size(), nullptr, 0));
        r.status.push_back(kcipher_drbg_generate(t.d, r.bytes.data(), 32, nullptr, 0, 0));
    });
    EXPECT_EQ(KCIPHER_ERR_DRBG_RESEED_REQUIRED, child.status[0]);
    EXPECT_EQ(KCIPHER_ERR_DRBG_RESEED_REQUIRED, child.status[1]);
    EXPECT_EQ(KCIPHER_OK, child.status[2]);
    EXPECT_EQ(KCIPHER_OK, child.status[3]);
    Bytes parent(32);
    EXPECT_EQ(KCIPHER_OK, kcipher_drbg_generate(t.d, parent.data(), 32, nullptr, 0, 0)); // the parent is unaffected
}

// Many instances: every instance reseeds in the child, from the source in instance order, as
// an explicit reseed of a twin handle takes it.
TEST(DrbgFork, ManyInstancesReseedInTheChild)
{
    const size_t n = 5, len = 100;
    for (unsigned flags : {0u, (unsigned)KCIPHER_DRBG_NO_DF}) {
        kct::MultiHandle a, b;
        uint32_t src_a = 3, src_b = 3;
        for (kct::MultiHandle *m : {&a, &b}) {
            ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_new(&m->m, "cham-128-256", n, flags, nullptr));
            ASSERT_EQ(KCIPHER_OK,
                      kcipher_drbg_multi_set_entropy_source(m->m, counting_entropy, m == &a ? &src_a : &src_b));
            ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_instantiate(m->m, nullptr, 0, nullptr, 0, nullptr, 0));
        }
        ChildReport child = in_child(3, 2 * n * len, [&](ChildReport &r) {
            r.bytes.resize(2 * n * len);
            r.status.push_back(kcipher_drbg_multi_generate(a.m, r.bytes.data(), len, 0));
            r.status.push_back(kcipher_drbg_multi_reseed(b.m, nullptr, 0, nullptr, 0));
            r.status.push_back(kcipher_drbg_multi_generate(b.m, r.bytes.data() + n * len, len, 0));
        });
        for (int s : child.status)
            EXPECT_EQ(KCIPHER_OK, s);
        EXPECT_TRUE(std::equal(child.bytes.begin(), child.bytes.begin() + n * len, child.bytes.begin() + n * len));
        Bytes pa(n * len), pb(n * len);
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_generate(a.m, pa.data(), len, 0));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_generate(b.m, pb.data(), len, 0));
        EXPECT_EQ(pa, pb);
        EXPECT_FALSE(std::equal(pa.begin(), pa.end(), child.bytes.begin()));

        kct::MultiHandle none;
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_new(&none.m, "aria-128", 2, flags, nullptr));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_set_entropy_source(none.m, nullptr, nullptr));
        const Bytes e(2 * 64, 0x11);
        const size_t elen = flags ? 32 : 16;
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_instantiate(none.m, e.data(), elen, nullptr, 0, nullptr, 0));
        ChildReport refused = in_child(1, 0, [&](ChildReport &r) {
            uint8_t out[2 * 16];
            r.status.push_back(kcipher_drbg_multi_generate(none.m, out, 16, 0));
        });
        EXPECT_EQ(KCIPHER_ERR_DRBG_RESEED_REQUIRED, refused.status[0]);
    }
}

// A GPU kernel's handle keeps its state on the CPU: single requests reseed in the child as
// on the CPU; the child's GPU output, where CUDA still serves it, is never the parent's.
TEST(DrbgFork, GpuKernelHandles)
{
    if (kc::cuda_device_count() == 0)
        GTEST_SKIP() << "no GPU on this machine (or no CUDA build)";
    for (const char *cipher : {"aria-128", "lea-128"}) {
        const char *gpu = nullptr;
        ASSERT_EQ(KCIPHER_OK, kcipher_default_gpu_kernel(cipher, &gpu));
        ASSERT_NO_FATAL_FAILURE(check_fork(cipher, 0, gpu, draw_one, 64));
        Twins t;
        ASSERT_NO_FATAL_FAILURE(instantiate_twins(t, cipher, 0, gpu, true));
        const size_t len = 4 * kcipher_drbg_max_request(t.d) + 3;
        ChildReport child = in_child(1, len, [&](ChildReport &r) {
            r.bytes.resize(len);
            r.status.push_back(kcipher_drbg_generate_large(t.d, r.bytes.data(), len, 0));
        });
        Bytes parent(len);
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_generate_large(t.d, parent.data(), len, 0));
        if (child.status[0] == KCIPHER_OK)
            EXPECT_NE(parent, child.bytes);

        kct::MultiHandle m;
        uint32_t src = 1;
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_new(&m.m, cipher, 3, 0, gpu));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_set_entropy_source(m.m, counting_entropy, &src));
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_instantiate(m.m, nullptr, 0, nullptr, 0, nullptr, 0));
        ChildReport mc = in_child(1, 3 * 64, [&](ChildReport &r) {
            r.bytes.resize(3 * 64);
            r.status.push_back(kcipher_drbg_multi_generate(m.m, r.bytes.data(), 64, 0));
        });
        Bytes mp(3 * 64);
        ASSERT_EQ(KCIPHER_OK, kcipher_drbg_multi_generate(m.m, mp.data(), 64, 0));
        if (mc.status[0] == KCIPHER_OK)
            EXPECT_NE(mp, mc.bytes);
    }
}

} // namespace
