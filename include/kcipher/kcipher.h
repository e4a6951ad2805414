/*
 * kcipher: the Korean standard block ciphers ARIA, LEA, HIGHT and revised CHAM, with the
 * ECB, CBC and CTR modes, behind one C API that picks the fastest kernel the machine has.
 *
 * Every function validates its arguments and returns a status; none aborts, and none reads
 * or writes outside the buffers it was given. A keyed context is immutable once made and may
 * be used by several threads at once. Round keys are wiped when a context is freed.
 *
 * Cipher names: "aria-128", "aria-192", "aria-256", "lea-128", "lea-192", "lea-256",
 * "hight", "cham-64-128", "cham-128-128", "cham-128-256". A mode suffix ("-ecb", "-cbc",
 * "-ctr") names a cipher in a mode; see kcipher_parse_name().
 */
#ifndef KCIPHER_H
#define KCIPHER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define KCIPHER_API
#else
#define KCIPHER_API __attribute__((visibility("default")))
#endif

typedef enum kcipher_status {
    KCIPHER_OK = 0,
    KCIPHER_ERR_NULL_POINTER = 1,     /* a required pointer was NULL */
    KCIPHER_ERR_UNKNOWN_CIPHER = 2,   /* the cipher name is not one of ours */
    KCIPHER_ERR_UNKNOWN_MODE = 3,     /* the mode suffix is not -ecb, -cbc or -ctr */
    KCIPHER_ERR_KEY_LENGTH = 4,       /* the key has the wrong length for the cipher */
    KCIPHER_ERR_IV_LENGTH = 5,        /* the IV or counter is not one block long */
    KCIPHER_ERR_DATA_LENGTH = 6,      /* ECB/CBC length not a multiple of the block size */
    KCIPHER_ERR_COUNTER_SPACE = 7,    /* the CTR request runs past the counter's 2^(8*block) blocks */
    KCIPHER_ERR_UNKNOWN_KERNEL = 8,   /* no kernel has this name */
    KCIPHER_ERR_KERNEL_UNAVAILABLE = 9, /* the kernel needs features this machine lacks */
    KCIPHER_ERR_KERNEL_MISMATCH = 10, /* the kernel does not implement this cipher */
    KCIPHER_ERR_OVERLAP = 11,         /* input and output overlap without being equal */
    KCIPHER_ERR_NO_MEMORY = 12,
    KCIPHER_ERR_INVALID_ARGUMENT = 13,
    KCIPHER_ERR_INTERNAL = 14,
    KCIPHER_ERR_CUDA = 15,            /* a CUDA call failed (details: kcipher_gpu_last_error) */
    KCIPHER_ERR_NOT_GPU_KERNEL = 16,  /* a device-memory call on a context whose kernel is not a GPU kernel */
    KCIPHER_ERR_NOT_DEVICE_MEMORY = 17, /* a pointer given as device memory is not GPU memory */
    KCIPHER_ERR_NO_GPU = 18           /* no usable GPU (none present, or the GPU index is out of range) */
} kcipher_status;

typedef enum kcipher_mode {
    KCIPHER_MODE_NONE = 0, /* a bare cipher name, no mode suffix */
    KCIPHER_MODE_ECB = 1,
    KCIPHER_MODE_CBC = 2,
    KCIPHER_MODE_CTR = 3
} kcipher_mode;

/* A constant English message for every status (never NULL). */
KCIPHER_API const char *kcipher_strerror(kcipher_status status);
KCIPHER_API const char *kcipher_version(void);

/* ---- ciphers ------------------------------------------------------------------------- */

typedef struct kcipher_cipher_info {
    const char *name;   /* "aria-128" */
    const char *family; /* "aria" */
    size_t block_bytes; /* 16, or 8 for hight and cham-64-128 */
    size_t key_bytes;
} kcipher_cipher_info;

KCIPHER_API size_t kcipher_cipher_count(void);
KCIPHER_API kcipher_status kcipher_cipher_get(size_t index, kcipher_cipher_info *info);
/* name may carry a mode suffix; info describes the cipher. */
KCIPHER_API kcipher_status kcipher_cipher_find(const char *name, kcipher_cipher_info *info);

/* Splits "cham-128-256-ctr" into the cipher "cham-128-256" (copied into cipher, a buffer of
 * cipher_cap bytes, NUL-terminated) and KCIPHER_MODE_CTR. A bare cipher name gives
 * KCIPHER_MODE_NONE. */
KCIPHER_API kcipher_status kcipher_parse_name(const char *name, char *cipher, size_t cipher_cap,
                                              kcipher_mode *mode);

/* ---- kernels ------------------------------------------------------------------------- */

typedef struct kcipher_kernel_info {
    const char *name;     /* "aria/table" */
    const char *family;   /* "aria" */
    size_t block_bytes;
    size_t batch_blocks;  /* blocks computed together at full speed */
    int constant_time;    /* 1: no secret-dependent branch or memory address */
    int available;        /* 1: this machine can run it */
    const char *requires; /* space-separated features, "" for none */
} kcipher_kernel_info;

KCIPHER_API size_t kcipher_kernel_count(void);
KCIPHER_API kcipher_status kcipher_kernel_get(size_t index, kcipher_kernel_info *info);
/* The kernel that kcipher_new would pick for this cipher with kernel == NULL (this takes
 * KCIPHER_KERNEL into account). */
KCIPHER_API kcipher_status kcipher_default_kernel(const char *cipher, const char **kernel_name);
/* Features detected on this machine, space separated ("aesni avx avx2 ... gfni vaes"). */
KCIPHER_API const char *kcipher_cpu_features(void);
KCIPHER_API int kcipher_gpu_count(void);

/* ---- keyed contexts ------------------------------------------------------------------ */

typedef struct kcipher_ctx kcipher_ctx;

/*
 * Makes a keyed context for `cipher` (a mode suffix is accepted and ignored). `kernel`
 * forces a kernel by name; NULL lets dispatch choose: the environment variable
 * KCIPHER_KERNEL (a comma-separated list of kernel names, one per family) is honoured,
 * otherwise the fastest kernel this machine can run. Forcing a kernel the machine cannot
 * run is KCIPHER_ERR_KERNEL_UNAVAILABLE.
 */
KCIPHER_API kcipher_status kcipher_new(kcipher_ctx **ctx, const char *cipher, const uint8_t *key,
                                       size_t key_len, const char *kernel);
/* Wipes the round keys and frees. NULL is allowed. */
KCIPHER_API void kcipher_free(kcipher_ctx *ctx);

/* Threads used for large inputs: 0 = one per core (the default), 1 = the calling thread
 * only. The output never depends on it. Set it before sharing the context. */
KCIPHER_API kcipher_status kcipher_set_threads(kcipher_ctx *ctx, unsigned threads);

KCIPHER_API size_t kcipher_block_size(const kcipher_ctx *ctx);    /* 0 for NULL */
KCIPHER_API const char *kcipher_ctx_cipher(const kcipher_ctx *ctx); /* NULL for NULL */
KCIPHER_API const char *kcipher_ctx_kernel(const kcipher_ctx *ctx);

/*
 * Modes. `in` and `out` are len bytes; they may be the same buffer (in place) but must not
 * otherwise overlap. With len == 0 they may be NULL.
 *
 * ECB and CBC take no padding: len must be a multiple of the block size.
 * CBC's iv (one block) is read, and on success overwritten with the chaining value for the
 * next call, so a long message may be processed in pieces.
 *
 * CTR is the standard counter mode (the same bytes as OpenSSL's CTR): the whole iv block is a
 * big-endian integer incremented by one per block, wrapping at 2^(8*block size). Block
 * `block_offset` of the stream is the first one processed, so any slice of a stream can be
 * computed on its own; len may end in a partial block. A request whose blocks would reach
 * past 2^(8*block size) blocks from the iv (reusing keystream) is KCIPHER_ERR_COUNTER_SPACE.
 */
KCIPHER_API kcipher_status kcipher_ecb_encrypt(const kcipher_ctx *ctx, const uint8_t *in,
                                               uint8_t *out, size_t len);
KCIPHER_API kcipher_status kcipher_ecb_decrypt(const kcipher_ctx *ctx, const uint8_t *in,
                                               uint8_t *out, size_t len);
KCIPHER_API kcipher_status kcipher_cbc_encrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len,
                                               const uint8_t *in, uint8_t *out, size_t len);
KCIPHER_API kcipher_status kcipher_cbc_decrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len,
                                               const uint8_t *in, uint8_t *out, size_t len);
KCIPHER_API kcipher_status kcipher_ctr_xor(const kcipher_ctx *ctx, const uint8_t *iv, size_t iv_len,
                                           uint64_t block_offset, const uint8_t *in, uint8_t *out,
                                           size_t len);

/* ---- GPUs ---------------------------------------------------------------------------
 *
 * GPU kernels are the ones named "<family>/cuda..." (see kcipher_kernel_get; they require
 * "cuda-gpu"). Dispatch never picks one by itself: name one in kcipher_new, or ask
 * kcipher_default_gpu_kernel for the fastest. A context made with a GPU kernel takes host
 * memory through the usual calls (ECB and CTR run on the GPU through pinned staging buffers
 * and several streams; CBC runs on the CPU's best kernel, since CBC encryption is a chain)
 * and device memory through the kcipher_gpu_* calls below.
 */

/* The fastest GPU kernel for this cipher, or KCIPHER_ERR_NO_GPU when none can run here. */
KCIPHER_API kcipher_status kcipher_default_gpu_kernel(const char *cipher, const char **kernel_name);

/* Which GPU a GPU context uses for host memory: -1 (the default) spreads large jobs over
 * every GPU present, 0..n-1 picks one. */
KCIPHER_API kcipher_status kcipher_set_gpu(kcipher_ctx *ctx, int device);

/*
 * Device memory: in and out are pointers into the memory of one GPU (cudaMalloc, or managed
 * memory), stream is a cudaStream_t of that GPU (NULL: the default stream). The work is
 * queued on the stream and these calls return without waiting; a kernel fault surfaces on
 * the caller's next synchronisation. Lengths and overlap rules are those of the host calls.
 * For CTR, in == NULL writes the keystream itself to out.
 */
KCIPHER_API kcipher_status kcipher_gpu_ecb_encrypt(const kcipher_ctx *ctx, const void *in, void *out,
                                                   size_t len, void *stream);
KCIPHER_API kcipher_status kcipher_gpu_ecb_decrypt(const kcipher_ctx *ctx, const void *in, void *out,
                                                   size_t len, void *stream);
KCIPHER_API kcipher_status kcipher_gpu_ctr_xor(const kcipher_ctx *ctx, const uint8_t *iv, size_t iv_len,
                                               uint64_t block_offset, const void *in, void *out,
                                               size_t len, void *stream);

/* The message of the last CUDA failure on this thread ("" when none): what
 * KCIPHER_ERR_CUDA stood for. */
KCIPHER_API const char *kcipher_gpu_last_error(void);

/* ---- self-test ----------------------------------------------------------------------- */

/* Runs the built-in known-answer tests (every cipher, ECB, CBC and CTR) on every kernel
 * this machine can run, and every kernel against the reference kernel on random inputs.
 * Returns KCIPHER_OK when all pass. `report` (may be NULL) is called once per check. */
typedef void (*kcipher_selftest_report)(void *user, const char *kernel, const char *check,
                                        int passed);
KCIPHER_API kcipher_status kcipher_selftest(kcipher_selftest_report report, void *user);

#ifdef __cplusplus
}
#endif

#endif /* KCIPHER_H */
