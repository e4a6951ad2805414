#include "crypt_xts.hpp"

#include <memory>
#include <stdexcept>

#include <fmt/core.h>

namespace cli {
namespace {

constexpr size_t chunk_bytes = 4 << 20;

// tweak + n, the tweak a 128-bit little-endian integer (IEEE 1619's data unit sequence number).
std::vector<uint8_t> tweak_plus(std::vector<uint8_t> t, uint64_t n)
{
    for (size_t i = 0; i < t.size() && n != 0; i++) {
        const unsigned sum = t[i] + (unsigned)(n & 0xff);
        t[i] = (uint8_t)sum;
        n = (n >> 8) + (sum >> 8);
    }
    return t;
}

void xts(const kcipher::Cipher &c, bool encrypt, const std::vector<uint8_t> &tweak, size_t data_unit, uint8_t *buf,
         size_t n, const Input &in)
{
    // Checked here too: whether an empty input is one empty unit or none, XTS has nothing for it.
    kcipher_status st = n < c.block_size() ? KCIPHER_ERR_DATA_LENGTH
                        : encrypt ? kcipher_xts_encrypt(c.get(), tweak.data(), tweak.size(), data_unit, buf, buf, n)
                                : kcipher_xts_decrypt(c.get(), tweak.data(), tweak.size(), data_unit, buf, buf, n);
    if (st == KCIPHER_ERR_DATA_LENGTH)
        throw std::runtime_error(fmt::format("XTS: input {} ends in a data unit shorter than one block ({} bytes): "
                                             "every unit, and the input, must be at least one block",
                                             in.name(), c.block_size()));
    kcipher::check(st);
}

} // namespace

void run_xts(const kcipher::Cipher &c, bool encrypt, const std::vector<uint8_t> &tweak, size_t data_unit, Input &in,
             AtomicOutput &out, Progress &bar)
{
    // One unit (no --data-unit): the whole input, since its end decides its last blocks.
    if (data_unit == 0) {
        std::vector<uint8_t> all;
        for (size_t n = chunk_bytes; n == chunk_bytes;) {
            const size_t at = all.size();
            all.resize(at + chunk_bytes);
            n = in.read(all.data() + at, chunk_bytes);
            all.resize(at + n);
            bar.update(all.size());
        }
        xts(c, encrypt, tweak, 0, all.data(), all.size(), in);
        out.write(all.data(), all.size());
        return;
    }
    const size_t chunk = data_unit >= chunk_bytes ? data_unit : chunk_bytes / data_unit * data_unit;
    std::unique_ptr<uint8_t[]> buf(new uint8_t[chunk]);
    uint64_t pos = 0;
    for (;;) {
        const size_t n = in.read(buf.get(), chunk);
        if (n == 0 && pos != 0)
            break;
        xts(c, encrypt, tweak_plus(tweak, pos / data_unit), data_unit, buf.get(), n, in);
        out.write(buf.get(), n);
        pos += n;
        bar.update(pos);
        if (n < chunk)
            break;
    }
}

} // namespace cli
