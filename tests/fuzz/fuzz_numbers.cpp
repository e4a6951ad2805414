// libFuzzer target: the CLI's strict number and size parser (tools/kcipher/numbers.cpp). The
// first 16 bytes are the option's limits, the rest the text. The parser must agree with a
// model written from its contract (digits, then nothing or one of k K m M g G t T KiB MiB GiB
// TiB, powers of 1024; no sign, no space; no wrap; inside the limits), and
// parse_number_option must throw exactly when parse_number refuses.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz/fuzz_catalog.hpp"
#include "fuzz/fuzz_input.hpp"
#include "numbers.hpp"
#include "usage_error.hpp"

namespace {

std::optional<uint64_t> model(std::string_view s, cli::NumberLimits lim)
{
    size_t d = 0;
    while (d < s.size() && s[d] >= '0' && s[d] <= '9')
        d++;
    const std::string_view suf = s.substr(d);
    int shift = -1;
    if (suf.empty())
        shift = 0;
    else if (suf == "k" || suf == "K" || suf == "KiB")
        shift = 10;
    else if (suf == "m" || suf == "M" || suf == "MiB")
        shift = 20;
    else if (suf == "g" || suf == "G" || suf == "GiB")
        shift = 30;
    else if (suf == "t" || suf == "T" || suf == "TiB")
        shift = 40;
    if (d == 0 || shift < 0)
        return std::nullopt;
    unsigned __int128 n = 0;
    for (size_t i = 0; i < d; i++) {
        n = n * 10 + unsigned(s[i] - '0');
        if (n > UINT64_MAX)
            return std::nullopt;
    }
    n <<= shift;
    if (n > UINT64_MAX || n > lim.max || n < lim.min)
        return std::nullopt;
    return uint64_t(n);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kcfuzz::FuzzInput f(data, size);
    cli::NumberLimits lim;
    lim.min = f.flag() ? f.u64() : f.u8();
    lim.max = f.flag() ? f.u64() : UINT64_MAX;
    const std::string text = f.rest_string();
    std::string why;
    const std::optional<uint64_t> got = cli::parse_number(text, lim, &why);
    const std::optional<uint64_t> want = model(text, lim);
    KCFUZZ_CHECK(got == want, text.c_str());
    KCFUZZ_CHECK(got || !why.empty(), "a refusal says why");
    bool threw = false;
    try {
        KCFUZZ_CHECK(cli::parse_number_option("--opt", text, lim) == got.value_or(0), "option value");
    } catch (const cli::UsageError &) {
        threw = true;
    }
    KCFUZZ_CHECK(threw == !got.has_value(), "parse_number_option throws exactly on a refusal");
    return 0;
}
