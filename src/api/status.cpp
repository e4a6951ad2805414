#include "kcipher/kcipher.h"

extern "C" {

const char *kcipher_strerror(kcipher_status status)
{
    switch (status) {
    case KCIPHER_OK:
        return "success";
    case KCIPHER_ERR_NULL_POINTER:
        return "a required pointer argument is NULL";
    case KCIPHER_ERR_UNKNOWN_CIPHER:
        return "unknown cipher (expected aria-128, aria-192, aria-256, lea-128, lea-192, lea-256, "
               "hight, cham-64-128, cham-128-128 or cham-128-256)";
    case KCIPHER_ERR_UNKNOWN_MODE:
        return "unknown mode (expected a -ecb, -cbc or -ctr suffix)";
    case KCIPHER_ERR_KEY_LENGTH:
        return "wrong key length for this cipher";
    case KCIPHER_ERR_IV_LENGTH:
        return "wrong IV length: it must be exactly one block";
    case KCIPHER_ERR_DATA_LENGTH:
        return "data length is not a multiple of the block size (ECB and CBC take no padding)";
    case KCIPHER_ERR_COUNTER_SPACE:
        return "the request runs past the end of the CTR counter space";
    case KCIPHER_ERR_UNKNOWN_KERNEL:
        return "unknown kernel name (see `kcipher info`)";
    case KCIPHER_ERR_KERNEL_UNAVAILABLE:
        return "this machine cannot run the requested kernel (missing CPU feature or GPU)";
    case KCIPHER_ERR_KERNEL_MISMATCH:
        return "the requested kernel does not implement this cipher";
    case KCIPHER_ERR_OVERLAP:
        return "input and output buffers overlap without being the same buffer";
    case KCIPHER_ERR_NO_MEMORY:
        return "out of memory";
    case KCIPHER_ERR_INVALID_ARGUMENT:
        return "invalid argument";
    case KCIPHER_ERR_INTERNAL:
        return "internal error";
    case KCIPHER_ERR_CUDA:
        return "a CUDA call failed (kcipher_gpu_last_error has the CUDA message)";
    case KCIPHER_ERR_NOT_GPU_KERNEL:
        return "device memory needs a context made with a GPU kernel (see kcipher_default_gpu_kernel)";
    case KCIPHER_ERR_NOT_DEVICE_MEMORY:
        return "a pointer passed as device memory is not GPU memory";
    case KCIPHER_ERR_NO_GPU:
        return "no usable GPU (none present, no CUDA in this build, or the GPU index is out of range)";
    }
    return "unknown status code";
}

const char *kcipher_version(void) { return KCIPHER_VERSION; }

} // extern "C"
