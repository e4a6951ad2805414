#include "numbers.hpp"

#include <fmt/core.h>

#include "usage_error.hpp"

namespace cli {
namespace {

constexpr const char *forms = "digits, then optionally k, M, G, T, KiB, MiB, GiB or TiB, powers of 1024";

// The power of 1024 a suffix stands for as a shift, or -1. The one-letter forms are those
// `rand -n` always took (either case for k, m, g), with t added.
int suffix_shift(std::string_view s)
{
    if (s.empty())
        return 0;
    static const struct {
        const char *letters, *iec;
        int shift;
    } units[] = {{"kK", "KiB", 10}, {"mM", "MiB", 20}, {"gG", "GiB", 30}, {"tT", "TiB", 40}};
    for (const auto &u : units)
        if ((s.size() == 1 && (s[0] == u.letters[0] || s[0] == u.letters[1])) || s == u.iec)
            return u.shift;
    return -1;
}

} // namespace

std::string size_text(uint64_t n)
{
    static const char *units[] = {"M", "G", "T"};
    for (int i = 2; i >= 0; i--) {
        const int shift = 10 * (i + 2);
        if (n >= (uint64_t(1) << shift) && n % (uint64_t(1) << shift) == 0)
            return fmt::format("{} ({}{})", n, n >> shift, units[i]);
    }
    return std::to_string(n);
}

std::optional<uint64_t> parse_number(std::string_view text, NumberLimits limits, std::string *why)
{
    size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
        digits++;
    const int shift = suffix_shift(text.substr(digits));
    if (digits == 0 || shift < 0) {
        *why = fmt::format("'{}' is not a number ({})", text, forms);
        return std::nullopt;
    }
    const std::string too_large = fmt::format("'{}' is too large: at most {}", text, size_text(limits.max));
    uint64_t n = 0;
    for (size_t i = 0; i < digits; i++) {
        const unsigned d = unsigned(text[i] - '0');
        if (n > (UINT64_MAX - d) / 10) { // n * 10 + d would wrap
            *why = too_large;
            return std::nullopt;
        }
        n = n * 10 + d;
    }
    if (shift != 0 && n > (UINT64_MAX >> shift)) {
        *why = too_large;
        return std::nullopt;
    }
    n <<= shift;
    if (n > limits.max) {
        *why = too_large;
        return std::nullopt;
    }
    if (n < limits.min) {
        *why = fmt::format("'{}' is too small: at least {}", text, size_text(limits.min));
        return std::nullopt;
    }
    return n;
}

uint64_t parse_number_option(const std::string &option, std::string_view text, NumberLimits limits)
{
    std::string why;
    std::optional<uint64_t> n = parse_number(text, limits, &why);
    if (!n)
        throw UsageError(option + ": " + why);
    return *n;
}

CLI::Validator number(NumberLimits limits)
{
    return CLI::Validator(
        [limits](std::string &text) {
            std::string why;
            std::optional<uint64_t> n = parse_number(text, limits, &why);
            if (!n)
                return why;
            text = std::to_string(*n);
            return std::string();
        },
        "", "number");
}

} // namespace cli
