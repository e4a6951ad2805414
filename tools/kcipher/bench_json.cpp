#include "bench_json.hpp"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <fmt/core.h>

namespace cli {

void write_json_file(const std::string &path, const nlohmann::json &j)
{
    const std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp);
        f << j.dump(2) << "\n";
        if (!f) {
            std::remove(tmp.c_str());
            throw std::runtime_error("cannot write " + path);
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw std::runtime_error("cannot write " + path);
    }
    fmt::print("# wrote {} records to {}\n", j.is_array() ? j.size() : size_t(1), path);
}

} // namespace cli
