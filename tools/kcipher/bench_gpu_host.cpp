#include "bench_gpu_host.hpp"

#include <chrono>
#include <stdexcept>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "bench_cpu.hpp"
#include "bench_json.hpp"
#include "kcipher/kcipher.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

std::vector<std::string> gpu_ciphers(const GpuHostBenchOptions &o)
{
    std::vector<std::string> out;
    if (o.ciphers.empty()) {
        for (size_t i = 0; i < kcipher_cipher_count(); i++) {
            kcipher_cipher_info c;
            const char *kernel = nullptr;
            if (kcipher_cipher_get(i, &c) == KCIPHER_OK && kcipher_default_gpu_kernel(c.name, &kernel) == KCIPHER_OK)
                out.push_back(c.name);
        }
        return out;
    }
    for (const std::string &name : o.ciphers) {
        const CipherArg arg = parse_cipher_arg(name);
        if (arg.mode > KCIPHER_MODE_CTR)
            throw UsageError("--cipher '" + name + "': --gpu measures ECB and CTR (the authenticated modes: "
                             "`kcipher bench -c " + name + "` on the CPU)");
        out.push_back(arg.cipher);
    }
    return out;
}

} // namespace

int run_gpu_host_bench(const GpuHostBenchOptions &o)
{
    if (kcipher_gpu_count() <= 0)
        throw std::runtime_error(fmt::format("--gpu: no usable GPU ({})", kcipher_gpu_runtime_status()));
    kcipher_gpu_info g;
    kcipher::check(kcipher_gpu_get(o.device < 0 ? 0 : o.device, &g));
    const std::vector<std::string> ciphers = gpu_ciphers(o);
    fmt::print("# {}{}; host memory to host memory through the GPU, copies included (as kcipher enc --gpu)\n",
               g.name, o.device < 0 && kcipher_gpu_count() > 1 ? fmt::format(" and {} more", kcipher_gpu_count() - 1) : "");
    fmt::print("# {} MiB per call, median of {} calls after a warm-up; kernels on device memory: kcipher-lab --gpu\n",
               o.bytes >> 20, o.rounds);
    fmt::print("{:<14} {:<4} {:<24} {:>10} {:>9} {:>9}\n", "cipher", "mode", "kernel", "ms", "GB/s", "Gbps");
    nlohmann::json records = nlohmann::json::array();
    std::vector<uint8_t> buf = random_bytes(o.bytes);
    for (const std::string &c : ciphers) {
        const char *kernel = nullptr;
        kcipher_status st = kcipher_default_gpu_kernel(c.c_str(), &kernel);
        if (st != KCIPHER_OK)
            throw std::runtime_error(fmt::format("{}: {}", c, kcipher_strerror(st)));
        kcipher_cipher_info info;
        kcipher::check(kcipher_cipher_find(c.c_str(), &info));
        kcipher::Cipher ctx(c, random_bytes(info.key_bytes), kernel);
        ctx.set_gpu(o.device);
        const std::vector<uint8_t> iv = random_bytes(info.block_bytes);
        const size_t n = o.bytes / info.block_bytes * info.block_bytes;
        for (const char *mode : {"ctr", "ecb"}) {
            auto call = [&] {
                if (mode[0] == 'c')
                    ctx.ctr_xor(iv.data(), 0, buf.data(), buf.data(), n);
                else
                    ctx.ecb_encrypt(buf.data(), buf.data(), n);
            };
            call(); // warm-up: the device's key schedule, buffers, the first launch
            std::vector<double> t;
            for (int r = 0; r < o.rounds; r++) {
                auto t0 = std::chrono::steady_clock::now();
                call();
                t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
            const double s = median(t);
            fmt::print("{:<14} {:<4} {:<24} {:>10.2f} {:>9.2f} {:>9.1f}\n", c, mode, kernel, s * 1e3, n / s / 1e9,
                       n * 8 / s / 1e9);
            std::fflush(stdout);
            records.push_back({{"implementation", "kcipher"},
                               {"cipher", c},
                               {"mode", mode},
                               {"kernel", kernel},
                               {"what", "host-to-host"},
                               {"bytes", n},
                               {"seconds_median", s},
                               {"seconds", t},
                               {"gbytes_per_second", n / s / 1e9},
                               {"gpu", g.name},
                               {"gpu_device", o.device}});
        }
    }
    if (!o.json.empty())
        write_json_file(o.json, records);
    return 0;
}

} // namespace cli
