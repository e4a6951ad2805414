// The CLI's streaming pipeline (tools/kcipher/chunk_pipeline.hpp): a file many times the
// ring of buffers goes through with the library's bytes, in bounded memory, from a file and
// from a pipe, and a write failure in the writer thread ends the run with the OS's reason.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kcipher/kcipher.hpp"
#include "support/cli_kit.hpp"

namespace {

using kct::kc;
using kct::TempDir;
using kct::operator+;

const std::string kKey = "000102030405060708090a0b0c0d0e0f", kIv = "f0e0d0c0b0a090807060504030201000";

std::string library_ctr(const std::string &plain)
{
    kcipher::Cipher c("lea-128", kct::unhex(kKey));
    std::string out(plain.size(), '\0');
    c.ctr_xor(kct::unhex(kIv).data(), 0, reinterpret_cast<const uint8_t *>(plain.data()),
              reinterpret_cast<uint8_t *>(out.data()), plain.size());
    return out;
}

std::vector<std::string> enc_args(const std::string &verb)
{
    return {verb, "-c", "lea-128-ctr", "-k", kKey, "--iv", kIv, "--no-progress"};
}

// 64 MiB (sixteen chunks, four times the ring) against 1 MiB: the larger input must not cost
// its size in memory. A tool holding the whole input would differ by 63 MiB; the ring is 16.
TEST(CliStreamPipeline, ManyChunksInBoundedMemory)
{
    TempDir dir;
    const std::string small = kct::random_str(1 << 20, 3), big = kct::random_str((64 << 20) + 13, 4);
    kct::write_file(dir / "small", small);
    kct::write_file(dir / "big", big);
    auto rs = kc(enc_args("enc") + std::vector<std::string>{"-i", dir / "small", "-o", dir / "small.enc"});
    auto rb = kc(enc_args("enc") + std::vector<std::string>{"-i", dir / "big", "-o", dir / "big.enc"});
    ASSERT_TRUE(kct::Succeeded(rs));
    ASSERT_TRUE(kct::Succeeded(rb));
    EXPECT_TRUE(kct::SameBytes(kct::read_file(dir / "big.enc"), library_ctr(big)));
    ASSERT_GT(rs.max_rss_kib, 0u);
    EXPECT_LT(rb.max_rss_kib, rs.max_rss_kib + 32 * 1024)
        << "peak memory " << rb.max_rss_kib << " KiB for 64 MiB against " << rs.max_rss_kib << " KiB for 1 MiB";

    // Back through a pipe (stdin to stdout), the same bytes.
    kct::ProcessOptions o;
    o.stdin_path = dir / "big.enc";
    auto rd = kc(enc_args("dec"), o);
    ASSERT_TRUE(kct::Succeeded(rd));
    EXPECT_TRUE(kct::SameBytes(rd.out, big));
}

// The writer thread meets a full disk while the reader is ahead: exit 1, the reason, and
// no output left behind.
TEST(CliStreamPipeline, WriteFailureInTheWriterThread)
{
    TempDir dir;
    kct::write_file(dir / "in", kct::random_str((12 << 20) + 1, 5));
    auto r = kc(enc_args("enc") + std::vector<std::string>{"-i", dir / "in", "-o", "/dev/full"});
    EXPECT_TRUE(kct::FailedWith(r, 1, "No space left on device"));
}

} // namespace
