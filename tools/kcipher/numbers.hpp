// The one reader of counts and sizes on the command line, used by every numeric option of
// every command, so that `--threads`, `rand -n`, `bench -s`, `--gpu-bytes` and keysearch's
// `--start` accept the same forms and refuse the same mistakes:
//   digits, leading zeros allowed ("0004096" is 4096), then optionally a suffix that multiplies
//   by a power of 1024: k/K or KiB, m/M or MiB, g/G or GiB, t/T or TiB ("64k", "16MiB").
// No sign ("-1" would otherwise wrap to 2^64 - 1, "+1" is a typo as often as not), no spaces,
// no fractions; a value that does not fit in 64 bits, or lies outside the option's limits, is
// an error whose message names the limit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace cli {

struct NumberLimits {
    uint64_t min = 0;
    uint64_t max = UINT64_MAX;
};

// The limits of the options several commands share. --threads: far above any machine's core
// count yet low enough that a typo (99999) is caught instead of spawning it (the library takes
// up to 4096). --gpu-device: an index, far above the GPUs one host holds.
constexpr uint64_t max_threads = 1024;
constexpr uint64_t max_gpu_device = 1023;

// The value of `text`, or nullopt with `*why` saying what is wrong ("at most 1024").
std::optional<uint64_t> parse_number(std::string_view text, NumberLimits limits, std::string *why);

// The same for a value that is part of an option's argument (--shard's I and N): throws
// UsageError("OPTION: why").
uint64_t parse_number_option(const std::string &option, std::string_view text, NumberLimits limits);

// A CLI11 transform for a numeric option: replaces the argument with its plain decimal value
// (which CLI11 then stores in the option's integer) or rejects it, and CLI11's message names
// the option ("--threads: '5000' is too large: at most 1024"). Works on repeatable options too.
CLI::Validator number(NumberLimits limits);

// A limit as the messages write it: "1024", "1073741824 (1G)" (the suffix form from 1M up).
std::string size_text(uint64_t n);

} // namespace cli
