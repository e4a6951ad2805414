// An installed kcipher, used from C++ through the static library and the wrapper.
#include <kcipher/kcipher.hpp>

#include <cstdio>

int main()
{
    kcipher::Cipher c("lea-128", std::vector<uint8_t>(16, 7));
    std::vector<uint8_t> iv(16, 0), msg(1000, 42);
    if (c.ctr_xor(iv, c.ctr_xor(iv, msg)) != msg)
        return 1;
    std::printf("consumer (C++ static, kernel %s): ok\n", c.kernel().c_str());
    return 0;
}
