// Where a password comes from, with openssl's spellings (openssl-passphrase-options(1)).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "password.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

std::string first_line(const std::string &path)
{
    FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr)
        throw std::runtime_error("--pass file:" + path + ": cannot open: " + std::strerror(errno));
    std::string line;
    int ch;
    while ((ch = std::fgetc(f)) != EOF && ch != '\n')
        line.push_back((char)ch);
    const bool failed = std::ferror(f) != 0;
    const bool empty = line.empty() && ch == EOF;
    std::fclose(f);
    if (failed)
        throw std::runtime_error("--pass file:" + path + ": cannot read");
    if (empty)
        throw std::runtime_error("--pass file:" + path + " is empty");
    return line;
}

} // namespace

std::string read_password(const std::string &source)
{
    if (source.rfind("pass:", 0) == 0)
        return source.substr(5);
    if (source.rfind("env:", 0) == 0) {
        const char *v = std::getenv(source.c_str() + 4);
        if (v == nullptr)
            throw UsageError("--pass " + source + ": the environment variable is not set");
        return v;
    }
    if (source.rfind("file:", 0) == 0)
        return first_line(source.substr(5));
    throw UsageError("--pass '" + source + "': expected pass:TEXT, env:VAR or file:PATH");
}

} // namespace cli
