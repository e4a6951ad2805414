// Known answers from the standards, which `kcipher selftest` checks on every kernel a family
// has. Each family keeps its own in a text file beside its module (src/aria/aria_known_answers.txt);
// its sources.cmake names it with kc_known_answers(), and the build compiles the text into
// the library as the string `<family>_known_answers` (so a deployed binary checks itself
// without reading files). read_known_answers() turns that text into records.
#pragma once

#include <string>
#include <vector>

namespace kc {

// One record, as in the file: hex strings, iv empty for ECB; mode "ecb", "cbc", "ctr", "cfb",
// "cfb8" or "ofb" (kcipher.h's modes of those names).
// error is empty for a well-formed record and says what is wrong otherwise (selftest reports
// such a record as a failure instead of skipping it).
struct KnownAnswer {
    std::string source, cipher, mode, key, iv, pt, ct;
    std::string error;
};

// Paragraphs of "field = value" lines; '#' starts a comment line; an indented line continues
// the value above it. Fields: source, cipher, mode, key, iv (optional), pt, ct.
std::vector<KnownAnswer> read_known_answers(const char *text);

} // namespace kc
