// The CLI's streaming pipeline (tools/kcipher/chunk_pipeline.hpp): a file many times the
// ring of buffers goes through with the library's bytes, in bounded memory, from a file and
// from a pipe, and a write failure in the writer thread ends the run with the OS's reason.
// A file is mapped, a pipe read into buffers; several chunk workers give the bytes of one.
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

// Three chunks and a bit, every streaming mode: a mapped file with one chunk worker and with
// three (CTR, ECB and CBC/CFB decryption take chunks at once; the rest must refuse to), and
// a pipe, give the library's bytes (the CBC and ECB ones padded), and dec gives back the
// plaintext each way; padded decryption holds a block back across the chunks of each worker.
TEST(CliStreamPipeline, MappedFileAndPipeAndChunkWorkersAgree)
{
    TempDir dir;
    const std::string plain = kct::random_str((8 << 20) + 4096 + 5, 6);
    kct::write_file(dir / "p", plain);
    kcipher::Cipher c("lea-128", kct::unhex(kKey));
    const kcipher::Cipher::Bytes iv = kct::unhex(kIv), in(plain.begin(), plain.end());
    std::vector<uint8_t> padded(plain.size() + 16);
    for (const std::string mode : {"ctr", "ecb", "cbc", "cfb", "cfb8", "ofb"}) {
        SCOPED_TRACE(mode);
        std::string want(plain.size(), '\0');
        auto *w = reinterpret_cast<uint8_t *>(want.data());
        kcipher::Cipher::Bytes chain = iv;
        if (mode == "ctr") {
            c.ctr_xor(iv.data(), 0, in.data(), w, in.size());
        } else if (mode == "ecb" || mode == "cbc") {
            const size_t n = mode == "ecb" ? c.ecb_encrypt_padded(in.data(), in.size(), padded.data(), padded.size())
                                           : c.cbc_encrypt_padded(chain.data(), in.data(), in.size(), padded.data(),
                                                                  padded.size());
            want.assign(padded.begin(), padded.begin() + n);
        } else if (mode == "cfb") {
            c.cfb_encrypt(chain.data(), in.data(), w, in.size());
        } else if (mode == "cfb8") {
            c.cfb8_encrypt(chain.data(), in.data(), w, in.size());
        } else {
            c.ofb_xor(chain.data(), in.data(), w, in.size());
        }
        kct::write_file(dir / "want", want);
        auto args = [&](const std::string &verb, const std::string &workers) {
            std::vector<std::string> a{verb, "-c", "lea-128-" + mode, "-k", kKey, "--no-progress", "--chunk-workers",
                                       workers};
            if (mode != "ecb")
                a.insert(a.end(), {"--iv", kIv});
            return a;
        };
        for (const std::string workers : {"1", "3"}) {
            auto e = kc(args("enc", workers) + std::vector<std::string>{"-i", dir / "p", "-o", dir / "e"});
            ASSERT_TRUE(kct::Succeeded(e));
            EXPECT_TRUE(kct::SameBytes(kct::read_file(dir / "e"), want)) << "enc, mapped, workers " << workers;
            auto d = kc(args("dec", workers) + std::vector<std::string>{"-i", dir / "want", "-o", dir / "d"});
            ASSERT_TRUE(kct::Succeeded(d));
            EXPECT_TRUE(kct::SameBytes(kct::read_file(dir / "d"), plain)) << "dec, mapped, workers " << workers;
        }
        kct::ProcessOptions o;
        o.stdin_bytes = plain;
        auto e = kc(args("enc", "3"), o);
        ASSERT_TRUE(kct::Succeeded(e));
        EXPECT_TRUE(kct::SameBytes(e.out, want)) << "enc, pipe";
        o.stdin_bytes = want;
        auto d = kc(args("dec", "3"), o);
        ASSERT_TRUE(kct::Succeeded(d));
        EXPECT_TRUE(kct::SameBytes(d.out, plain)) << "dec, pipe";
    }
}

// A mapped input that starts past a header (the "Salted__" one of a password) is read from
// there, by every worker; a bad pad found by one worker ends the run with no output.
TEST(CliStreamPipeline, ChunkWorkersFromAnOffsetAndAFailingWorker)
{
    TempDir dir;
    const std::string plain = kct::random_str((12 << 20) + 16, 7); // whole blocks: the pad is what fails
    kct::write_file(dir / "p", plain);
    auto pass = [&](const std::string &verb, const std::string &in, const std::string &out) {
        return kc({verb, "-c", "lea-128-cbc", "--pass", "pass:secret", "--pbkdf2", "--iter", "1", "--no-progress",
                   "--chunk-workers", "3", "-i", dir / in, "-o", dir / out});
    };
    ASSERT_TRUE(kct::Succeeded(pass("enc", "p", "e")));
    ASSERT_TRUE(kct::Succeeded(pass("dec", "e", "d")));
    EXPECT_TRUE(kct::SameBytes(kct::read_file(dir / "d"), plain));

    // The last block's pad is checked by whichever worker takes the last chunk.
    auto r = kc({"dec", "-c", "lea-128-ecb", "-k", kKey, "--no-progress", "--chunk-workers", "3", "-i", dir / "p",
                 "-o", dir / "bad"});
    EXPECT_TRUE(kct::FailedWith(r, 1, "bad decrypt"));
    EXPECT_FALSE(kct::exists(dir / "bad"));
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
