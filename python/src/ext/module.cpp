// kcipher._kcipher: the nanobind module behind the kcipher package. The Python package
// (src/kcipher/) is the public surface; this module is its private engine.
#include "common.hpp"

NB_MODULE(_kcipher, m)
{
    m.doc() = "kcipher's C library (private: use the kcipher package)";
    kcpy::register_library(m);
    kcpy::register_context(m);
    kcpy::register_aead(m);
    kcpy::register_keysearch(m);
    kcpy::register_drbg(m);
    kcpy::register_dlpack(m);
}
