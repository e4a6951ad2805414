// Module-level functions: the ciphers and kernels the library has, what this machine offers
// (as `kcipher info` prints it), the built-in self-test, and the status table for errors.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "common.hpp"

namespace kcpy {
namespace {

nb::list ciphers()
{
    nb::list out;
    for (size_t i = 0; i < kcipher_cipher_count(); i++) {
        kcipher_cipher_info c;
        if (kcipher_cipher_get(i, &c) != KCIPHER_OK)
            continue;
        const char *k = nullptr;
        nb::object def = nb::none(), gpu = nb::none();
        if (kcipher_default_kernel(c.name, &k) == KCIPHER_OK)
            def = nb::str(k);
        if (kcipher_default_gpu_kernel(c.name, &k) == KCIPHER_OK)
            gpu = nb::str(k);
        out.append(nb::make_tuple(c.name, c.family, c.block_bytes, c.key_bytes, def, gpu));
    }
    return out;
}

nb::list kernels()
{
    nb::list out;
    for (size_t i = 0; i < kcipher_kernel_count(); i++) {
        kcipher_kernel_info k;
        if (kcipher_kernel_get(i, &k) != KCIPHER_OK)
            continue;
        out.append(nb::make_tuple(k.name, k.family, k.block_bytes, k.batch_blocks, bool(k.constant_time),
                                  bool(k.available), std::string(k.requires)));
    }
    return out;
}

nb::list gpus()
{
    std::vector<kcipher_gpu_info> devs;
    {
        nb::gil_scoped_release g; // the first call initialises the CUDA runtime
        for (int i = 0; i < kcipher_gpu_count(); i++) {
            kcipher_gpu_info d;
            if (kcipher_gpu_get(i, &d) == KCIPHER_OK)
                devs.push_back(d);
        }
    }
    nb::list out;
    for (const kcipher_gpu_info &d : devs)
        out.append(nb::make_tuple(d.index, std::string(d.name), d.sm_major, d.sm_minor, d.multiprocessors,
                                  d.global_memory_bytes, d.clock_khz));
    return out;
}

std::string gpu_runtime()
{
    nb::gil_scoped_release g;
    return kcipher_gpu_runtime_status();
}

// The checks are collected on the C side and handed to Python afterwards: the report
// callback must not need the GIL.
struct Check {
    std::string kernel, check;
    bool passed;
};

void collect(void *user, const char *kernel, const char *check, int passed)
{
    static_cast<std::vector<Check> *>(user)->push_back({kernel, check, passed != 0});
}

nb::tuple selftest()
{
    std::vector<Check> checks;
    kcipher_status st;
    {
        nb::gil_scoped_release g;
        st = kcipher_selftest(collect, &checks);
    }
    nb::list out;
    for (const Check &c : checks)
        out.append(nb::make_tuple(c.kernel, c.check, c.passed));
    return nb::make_tuple(int(st), out);
}

nb::dict statuses()
{
    nb::dict d;
    for (int s = 0; s < 64; s++) {
        std::string m = kcipher_strerror(kcipher_status(s));
        if (m != "unknown status code")
            d[nb::int_(s)] = nb::str(m.c_str());
    }
    return d;
}

} // namespace

void register_library(nb::module_ &m)
{
    m.def("version", [] { return std::string(kcipher_version()); });
    m.def("cpu_features", [] { return std::string(kcipher_cpu_features()); });
    m.def("gpu_count", [] {
        nb::gil_scoped_release g;
        return kcipher_gpu_count();
    });
    m.def("ciphers", &ciphers);
    m.def("kernels", &kernels);
    m.def("gpus", &gpus);
    m.def("gpu_runtime", &gpu_runtime);
    m.def("selftest", &selftest);
    m.def("statuses", &statuses);
    m.def("strerror", [](int s) { return std::string(kcipher_strerror(kcipher_status(s))); });
    m.def("_set_error_classes", &set_error_classes);
}

} // namespace kcpy
