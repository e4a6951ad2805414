// What `kcipher info` and kcipher_gpu_runtime_status() say about the GPUs: on a machine
// without one, that no NVIDIA GPU was found (not the CUDA runtime's "driver version is
// insufficient", which is what it reports when no driver is installed).
#include <gtest/gtest.h>

#include <string>

#include "kcipher/kcipher.h"
#include "support/cli_kit.hpp"

TEST(GpuStatus, SaysPlainlyWhenThereIsNoGpu)
{
    const std::string s = kcipher_gpu_runtime_status();
#if defined(KCIPHER_HAVE_CUDA)
    if (kcipher_gpu_count() == 0) {
        EXPECT_NE(std::string::npos, s.find("no NVIDIA GPU found")) << s;
        EXPECT_EQ(std::string::npos, s.find("insufficient")) << s;
    } else {
        EXPECT_NE(std::string::npos, s.find(std::to_string(kcipher_gpu_count()) + " device(s)")) << s;
    }
#else
    EXPECT_EQ("built without CUDA", s);
#endif
    auto r = kct::kc({"info"});
    ASSERT_EQ(0, r.exit_code) << r.err;
    EXPECT_NE(std::string::npos, r.out.find("GPUs: " + s)) << r.out;
}
