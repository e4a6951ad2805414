/*
 * kcipher: the Korean standard block ciphers ARIA, LEA, HIGHT, revised CHAM and SEED, with the
 * ECB, CBC and CTR modes, GCM, CCM, CMAC and GMAC, behind one C API that picks the fastest kernel the machine has.
 *
 * Every function validates its arguments and returns a status; none aborts, and none reads
 * or writes outside the buffers it was given. A keyed context is immutable once made and may
 * be used by several threads at once. Round keys are wiped when a context is freed.
 *
 * Cipher names: "aria-128", "aria-192", "aria-256", "lea-128", "lea-192", "lea-256",
 * "hight", "cham-64-128", "cham-128-128", "cham-128-256", "seed-128". A mode suffix ("-ecb", "-cbc",
 * "-ctr", "-gcm", "-ccm", "-cmac", "-gmac") names a cipher in a mode; see kcipher_parse_name().
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

/* A status a caller must not ignore: the compiler warns where it is dropped (tag checks). */
#if defined(__GNUC__) || defined(__clang__)
#define KCIPHER_MUST_CHECK __attribute__((warn_unused_result))
#else
#define KCIPHER_MUST_CHECK
#endif

typedef enum kcipher_status {
    KCIPHER_OK = 0,
    KCIPHER_ERR_NULL_POINTER = 1,     /* a required pointer was NULL */
    KCIPHER_ERR_UNKNOWN_CIPHER = 2,   /* the cipher name is not one of ours */
    KCIPHER_ERR_UNKNOWN_MODE = 3,     /* not a mode kcipher has (-ecb -cbc -ctr -gcm -ccm -cmac -gmac) */
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
    KCIPHER_ERR_NO_GPU = 18,          /* no usable GPU (none present, or the GPU index is out of range) */
    KCIPHER_ERR_MASK_BITS = 19,       /* key search: the mask has more than 64 bits set */
    KCIPHER_ERR_NO_PAIRS = 20,        /* key search: no known (plaintext, ciphertext) pair */
    KCIPHER_ERR_PAIR_LENGTH = 21,     /* key search: a known plaintext or ciphertext is not one block */
    KCIPHER_ERR_SEARCH_RANGE = 22,    /* key search: start/count outside the 2^(mask bits) candidates */
    KCIPHER_ERR_CHECKPOINT_MISMATCH = 23, /* the checkpoint file belongs to a different search */
    KCIPHER_ERR_CHECKPOINT = 24,      /* the checkpoint file cannot be read or written (errno: why) */
    KCIPHER_ERR_CANCELLED = 25,       /* stopped by the caller (progress callback); progress was saved */
    KCIPHER_ERR_DRBG_NOT_INSTANTIATED = 26,  /* the DRBG has no state: instantiate it first */
    KCIPHER_ERR_DRBG_REQUEST_TOO_LARGE = 27, /* one generate request over the standard's per-request limit */
    KCIPHER_ERR_DRBG_RESEED_REQUIRED = 28,   /* a reseed is due and the DRBG has no entropy source */
    KCIPHER_ERR_DRBG_ENTROPY_LENGTH = 29,    /* entropy input of a length the standard does not allow here */
    KCIPHER_ERR_DRBG_INPUT_LENGTH = 30,      /* nonce, personalization string or additional input too long */
    KCIPHER_ERR_DRBG_ENTROPY_SOURCE = 31,    /* the entropy source failed (or there is none) */
    KCIPHER_ERR_CPU_FEATURES = 32,    /* KCIPHER_CPU_FEATURES cannot be parsed (kcipher_cpu_features_status) */
    KCIPHER_ERR_UNSUPPORTED = 33,     /* this cipher does not offer the operation (e.g. no GPU key search) */
    KCIPHER_ERR_AUTH = 34,            /* authentication failed: the tag does not match; no plaintext released */
    KCIPHER_ERR_TAG_LENGTH = 35,      /* a tag length the mode does not allow */
    KCIPHER_ERR_MODE_LIMIT = 36,      /* the message, AAD or IV exceeds the mode's limit for one invocation */
    KCIPHER_ERR_STATE = 37,           /* a streaming call out of order (AAD after data, use after final) */
    KCIPHER_ERR_XTS_KEY = 38,         /* the two halves of an XTS key are equal */
    KCIPHER_ERR_PADDING = 39,         /* bad PKCS#7 padding on decryption; no plaintext released */
    KCIPHER_ERR_CONTEXT_MODE = 40,    /* the context was keyed for another mode (an XTS key serves XTS alone) */
    KCIPHER_ERR_CHECKPOINT_DAMAGED = 41 /* the checkpoint file fails its checksum or its checks: refused */
} kcipher_status;

typedef enum kcipher_mode {
    KCIPHER_MODE_NONE = 0, /* a bare cipher name, no mode suffix */
    KCIPHER_MODE_ECB = 1,
    KCIPHER_MODE_CBC = 2,
    KCIPHER_MODE_CTR = 3,
    KCIPHER_MODE_GCM = 4,  /* authenticated encryption: kcipher_aead_* */
    KCIPHER_MODE_CCM = 5,
    KCIPHER_MODE_CMAC = 6, /* message authentication: kcipher_mac_* */
    KCIPHER_MODE_GMAC = 7,
    KCIPHER_MODE_XTS = 8,  /* a context keyed with "NAME-xts" and a double-length key: kcipher_xts_* */
    KCIPHER_MODE_CFB = 9,  /* CFB with full-block segments (OpenSSL's -cfb) */
    KCIPHER_MODE_CFB8 = 10, /* CFB with 8-bit segments */
    KCIPHER_MODE_OFB = 11
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
/*
 * CPU features dispatch may use, space separated ("sse2 ssse3 aesni avx avx2 ... gfni vaes"):
 * those detected, less those the environment variable KCIPHER_CPU_FEATURES removes. That
 * variable, read once per process, is a comma- or space-separated list of `-feature` entries
 * (names as printed here, or `-all`), e.g. KCIPHER_CPU_FEATURES=-avx512f,-gfni: dispatch then
 * behaves as on a CPU without them (removing a feature also removes those that need it:
 * -avx takes AVX2, VAES and AVX-512 with it). Forcing a kernel that needs a removed feature is
 * KCIPHER_ERR_KERNEL_UNAVAILABLE.
 */
KCIPHER_API const char *kcipher_cpu_features(void);
/* Every CPU feature detected, before KCIPHER_CPU_FEATURES. */
KCIPHER_API const char *kcipher_cpu_features_detected(void);
/*
 * KCIPHER_OK when KCIPHER_CPU_FEATURES is unset or valid. KCIPHER_ERR_CPU_FEATURES when it
 * cannot be parsed: then no optional CPU feature is used, every kernel choice fails with that
 * status (kcipher_new with kernel == NULL, kcipher_default_kernel), and *detail (when
 * `detail` is not NULL) says what is wrong. *detail is "" on KCIPHER_OK.
 */
KCIPHER_API kcipher_status kcipher_cpu_features_status(const char **detail);
KCIPHER_API int kcipher_gpu_count(void);

/* One GPU as the CUDA runtime describes it. */
typedef struct kcipher_gpu_info {
    int index;                  /* 0 .. kcipher_gpu_count() - 1 */
    char name[256];             /* "NVIDIA H100 80GB HBM3" */
    int sm_major, sm_minor;     /* compute capability: 9, 0 */
    int multiprocessors;
    size_t global_memory_bytes;
    int clock_khz;
} kcipher_gpu_info;
/* KCIPHER_ERR_NO_GPU when `index` is not a GPU of this process (none, or out of range). */
KCIPHER_API kcipher_status kcipher_gpu_get(int index, kcipher_gpu_info *info);
/* The CUDA runtime and driver versions and the device count, or why no GPU can be used
 * ("built without CUDA", "no driver: ..."). */
KCIPHER_API const char *kcipher_gpu_runtime_status(void);

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

/*
 * CFB (full-block segments, "-cfb"), CFB8 (one-byte segments) and OFB, the same bytes as
 * OpenSSL's -cfb, -cfb8 and -ofb. len may be any length. iv (one block) is read, and on
 * success overwritten with the value that continues the stream, so a message may be processed
 * in pieces; every piece but the last must then be a whole number of blocks (CFB8: any length).
 * After a partial last block iv holds what OpenSSL's register holds, which continues nothing.
 * CFB decryption is parallel; CFB encryption, CFB8 both ways and OFB are chains of one block
 * after another. OFB encryption and decryption are the same operation.
 */
KCIPHER_API kcipher_status kcipher_cfb_encrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len,
                                               const uint8_t *in, uint8_t *out, size_t len);
KCIPHER_API kcipher_status kcipher_cfb_decrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len,
                                               const uint8_t *in, uint8_t *out, size_t len);
KCIPHER_API kcipher_status kcipher_cfb8_encrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len,
                                                const uint8_t *in, uint8_t *out, size_t len);
KCIPHER_API kcipher_status kcipher_cfb8_decrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len,
                                                const uint8_t *in, uint8_t *out, size_t len);
KCIPHER_API kcipher_status kcipher_ofb_xor(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len,
                                           const uint8_t *in, uint8_t *out, size_t len);

/*
 * XTS (IEEE 1619, SP 800-38E), for 128-bit-block ciphers, on a context made with the mode in its
 * name and a key twice the cipher's length, data key then tweak key: kcipher_new(&ctx,
 * "lea-128-xts", key, 32, NULL). Equal halves are KCIPHER_ERR_XTS_KEY. Such a context serves XTS
 * alone (other modes: KCIPHER_ERR_CONTEXT_MODE), and XTS needs one. tweak is 16 bytes (else
 * KCIPHER_ERR_IV_LENGTH). data_unit == 0: the whole input is one data unit; otherwise the input is
 * cut into units of data_unit bytes and unit i takes tweak + i (the tweak read as a 128-bit
 * little-endian integer: dm-crypt's plain64 sector numbers). Every unit, and a shorter last one,
 * must be one block or more (KCIPHER_ERR_DATA_LENGTH); a unit not of whole blocks ends with
 * ciphertext stealing (out as long as in; in may equal out). Units and long units run in parallel.
 */
KCIPHER_API kcipher_status kcipher_xts_encrypt(const kcipher_ctx *ctx, const uint8_t *tweak, size_t tweak_len,
                                               size_t data_unit, const uint8_t *in, uint8_t *out, size_t len);
KCIPHER_API kcipher_status kcipher_xts_decrypt(const kcipher_ctx *ctx, const uint8_t *tweak, size_t tweak_len,
                                               size_t data_unit, const uint8_t *in, uint8_t *out, size_t len);

/*
 * ECB and CBC with PKCS#7 padding, as `openssl enc` pads by default: encryption writes
 * len / block * block + block bytes (always at least one byte of padding), into out of out_cap
 * bytes (too small: KCIPHER_ERR_DATA_LENGTH, nothing written); decryption checks and strips the
 * padding, writing *out_len bytes; its len must be a non-zero multiple of the block size and
 * out_cap at least len - 1, the longest plaintext possible (else KCIPHER_ERR_DATA_LENGTH);
 * a bad pad is KCIPHER_ERR_PADDING with out wiped and a CBC iv left as it was. out may
 * equal in when out_cap allows. Padding alone authenticates nothing: a decryptor that reveals
 * KCIPHER_ERR_PADDING to an attacker is a padding oracle; use GCM or CCM where that matters.
 * CBC's iv is updated as by kcipher_cbc_*.
 */
KCIPHER_API kcipher_status kcipher_ecb_encrypt_padded(const kcipher_ctx *ctx, const uint8_t *in, size_t len,
                                                      uint8_t *out, size_t out_cap, size_t *out_len);
KCIPHER_API kcipher_status kcipher_ecb_decrypt_padded(const kcipher_ctx *ctx, const uint8_t *in, size_t len,
                                                      uint8_t *out, size_t out_cap, size_t *out_len);
KCIPHER_API kcipher_status kcipher_cbc_encrypt_padded(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len,
                                                      const uint8_t *in, size_t len, uint8_t *out,
                                                      size_t out_cap, size_t *out_len);
KCIPHER_API kcipher_status kcipher_cbc_decrypt_padded(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len,
                                                      const uint8_t *in, size_t len, uint8_t *out,
                                                      size_t out_cap, size_t *out_len);

/* ---- GPUs ---------------------------------------------------------------------------
 *
 * GPU kernels are the ones named "<family>/cuda..." (see kcipher_kernel_get; they require
 * "cuda-gpu"). Dispatch never picks one by itself: name one in kcipher_new, or ask
 * kcipher_default_gpu_kernel for the fastest. A context made with a GPU kernel takes host
 * memory through the usual calls (ECB and CTR run on the GPU through pinned staging buffers
 * and several streams; CBC runs on the CPU: its decryption on the best kernel, its encryption,
 * a chain, on the one-block kernel)
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

/*
 * XTS over device memory, on a GPU context made with "NAME-xts" (lea-*, aria-*, cham-128-*,
 * seed-128): the contract of kcipher_xts_encrypt/decrypt (data_unit 0: one unit; unit i takes
 * tweak + i as a 128-bit little-endian integer; ciphertext stealing for a unit that is not whole
 * blocks; every unit at least one block, else KCIPHER_ERR_DATA_LENGTH), tweak in host memory
 * (read before the call returns), in and out in the memory of one GPU (in == out allowed),
 * queued on `stream` as the ECB calls are. Units and the blocks of a unit run in parallel.
 * KCIPHER_ERR_CONTEXT_MODE on a context without an XTS key, KCIPHER_ERR_UNSUPPORTED on a GPU
 * kernel without XTS (aria/cuda-bitslice). The tweak's encryptions (E_K2(tweak + i) and its
 * multiples) live in device scratch that is wiped and freed on the stream.
 */
KCIPHER_API kcipher_status kcipher_gpu_xts_encrypt(const kcipher_ctx *ctx, const uint8_t *tweak, size_t tweak_len,
                                                   size_t data_unit, const void *in, void *out, size_t len,
                                                   void *stream);
KCIPHER_API kcipher_status kcipher_gpu_xts_decrypt(const kcipher_ctx *ctx, const uint8_t *tweak, size_t tweak_len,
                                                   size_t data_unit, const void *in, void *out, size_t len,
                                                   void *stream);

/* The message of the last CUDA failure on this thread ("" when none): what
 * KCIPHER_ERR_CUDA stood for. */
KCIPHER_API const char *kcipher_gpu_last_error(void);

/* ---- authenticated encryption: GCM and CCM --------------------------------------------
 *
 * For the 128-bit-block ciphers (aria-*, lea-*, cham-128-*, seed-128; others give
 * KCIPHER_ERR_UNSUPPORTED). The output of sealing is ciphertext || tag (RFC 5116).
 *
 * GCM (NIST SP 800-38D): iv of any length from 1 byte (12 bytes is the standard's fast
 * path); tag_len 16, 15, 14, 13, 12, 8 or 4; plaintext at most 2^36 - 32 bytes per IV.
 * CCM (SP 800-38C): iv is the nonce, 7 to 13 bytes; tag_len 4, 6, ..., 16; the payload at
 * most 2^(8 * (15 - nonce length)) - 1 bytes.
 * Beyond a limit: KCIPHER_ERR_MODE_LIMIT, before any output. Never reuse an IV under a key.
 *
 * kcipher_aead_open checks the tag in constant time; on a mismatch it returns
 * KCIPHER_ERR_AUTH and zeroes `out`: it never releases unverified plaintext.
 * `in` and `out` may be the same buffer; no other overlap. AAD may be NULL when aad_len is 0.
 */
/* out: in_len + tag_len bytes. */
KCIPHER_API kcipher_status kcipher_aead_seal(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv,
                                             size_t iv_len, const uint8_t *aad, size_t aad_len,
                                             const uint8_t *in, size_t in_len, uint8_t *out, size_t tag_len);
/* in: ciphertext || tag, in_len >= tag_len; out: in_len - tag_len bytes. */
KCIPHER_API KCIPHER_MUST_CHECK kcipher_status kcipher_aead_open(const kcipher_ctx *ctx, kcipher_mode mode,
                                                                const uint8_t *iv, size_t iv_len,
                                                                const uint8_t *aad, size_t aad_len,
                                                                const uint8_t *in, size_t in_len, uint8_t *out,
                                                                size_t tag_len);

/*
 * Streaming, for data larger than memory: init, any number of kcipher_aead_aad calls, any
 * number of kcipher_aead_update calls (any lengths; out gets exactly len bytes each time),
 * then kcipher_aead_final (sealing: writes the tag) or kcipher_aead_final_verify (opening).
 * CCM needs the total AAD and payload lengths at init (its first block encodes them) and
 * then exactly that many bytes; GCM ignores both (pass 0). A GCM opening stream may pass
 * tag_len 0 when the tag's length is not known yet: kcipher_aead_final_verify then takes
 * any GCM tag length.
 *
 * WARNING: when opening, kcipher_aead_update returns plaintext BEFORE the tag is checked
 * (as OpenSSL's EVP interface does). Treat it as unauthenticated until
 * kcipher_aead_final_verify returns KCIPHER_OK, and discard all of it on any other status.
 * Where that is not possible, use kcipher_aead_open, or hold the output back (the CLI keeps
 * it in a temporary file until the tag verifies). A failed final_verify leaves the state
 * unusable (every later call is KCIPHER_ERR_STATE).
 */
typedef struct kcipher_aead kcipher_aead;
KCIPHER_API kcipher_status kcipher_aead_init(kcipher_aead **st, const kcipher_ctx *ctx, kcipher_mode mode,
                                             int seal, const uint8_t *iv, size_t iv_len, size_t tag_len,
                                             uint64_t aad_len, uint64_t text_len);
KCIPHER_API kcipher_status kcipher_aead_aad(kcipher_aead *st, const uint8_t *aad, size_t len);
KCIPHER_API kcipher_status kcipher_aead_update(kcipher_aead *st, const uint8_t *in, uint8_t *out, size_t len);
/* tag: tag_len bytes, the length given at init. */
KCIPHER_API kcipher_status kcipher_aead_final(kcipher_aead *st, uint8_t *tag, size_t tag_len);
KCIPHER_API KCIPHER_MUST_CHECK kcipher_status kcipher_aead_final_verify(kcipher_aead *st, const uint8_t *tag,
                                                                        size_t tag_len);
/* Wipes the state (keys, H, partial tags) and frees. NULL is allowed. */
KCIPHER_API void kcipher_aead_free(kcipher_aead *st);
/* An independent copy of the stream st at its current point, continuing on ctx: st's own
 * context, or another made with the same cipher and key (OpenSSL's EVP_CIPHER_CTX_copy keys
 * one of its own). Another key is KCIPHER_ERR_INVALID_ARGUMENT. Both contexts must still exist. */
KCIPHER_API kcipher_status kcipher_aead_dup(kcipher_aead **copy, const kcipher_aead *st, const kcipher_ctx *ctx);

/*
 * GCM on the GPU (a context made with a GPU kernel). A GPU context's kcipher_aead_seal and
 * kcipher_aead_open on host memory run through the same pinned pipeline as CTR (the GPU
 * makes the keystream, the CPU XORs and hashes). Over device memory:
 *
 * kcipher_gpu_aead_seal/open: one message; iv and aad in host memory, in and out in the
 * memory of the context's GPU, the layout and rules of kcipher_aead_seal/open (out of seal
 * is ciphertext || tag; open zeroes out on a bad tag). The work runs on `stream` and the
 * call waits for it (the tag is checked before the call returns).
 *
 * kcipher_gpu_aead_seal_batch/open_batch: n independent messages under the context's key in
 * one call (TLS records, IPsec packets). `msgs` and every pointer in it are device memory;
 * seal writes each out as ciphertext || tag (len + tag_len bytes), open reads each in as
 * ciphertext || tag and writes len bytes. Open sets each message's status to KCIPHER_OK or
 * KCIPHER_ERR_AUTH, zeroes the output of every message that failed, and returns
 * KCIPHER_ERR_AUTH when any did. Both wait for `stream`. Tables derived from H are built on
 * the device for the call and wiped before it returns.
 *
 * The device code's main pass multiplies by powers of H on the tensor cores (no lookup), but
 * the per-segment fold and the per-message finish use 8-bit lookup tables of powers of H in
 * global memory, indexed by the hash state: it is not constant-time (`kcipher info` says so;
 * the CPU's carry-less multiplication is).
 */
KCIPHER_API kcipher_status kcipher_gpu_aead_seal(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv,
                                                 size_t iv_len, const uint8_t *aad, size_t aad_len,
                                                 const void *in, size_t in_len, void *out, size_t tag_len,
                                                 void *stream);
KCIPHER_API KCIPHER_MUST_CHECK kcipher_status kcipher_gpu_aead_open(const kcipher_ctx *ctx, kcipher_mode mode,
                                                                    const uint8_t *iv, size_t iv_len,
                                                                    const uint8_t *aad, size_t aad_len,
                                                                    const void *in, size_t in_len, void *out,
                                                                    size_t tag_len, void *stream);

typedef struct kcipher_gpu_aead_msg {
    const uint8_t *iv;  /* iv_len bytes, 1 or more */
    const uint8_t *aad; /* aad_len bytes; NULL when aad_len is 0 */
    const uint8_t *in;  /* seal: len bytes of plaintext; open: len + tag_len (ciphertext || tag) */
    uint8_t *out;       /* seal: len + tag_len bytes; open: len bytes */
    uint64_t iv_len;
    uint64_t aad_len;
    uint64_t len;       /* plaintext (= ciphertext) length, at most 2^36 - 32 */
    int32_t status;     /* open: written, KCIPHER_OK or KCIPHER_ERR_AUTH */
    int32_t reserved;   /* 0 */
} kcipher_gpu_aead_msg;

KCIPHER_API kcipher_status kcipher_gpu_aead_seal_batch(const kcipher_ctx *ctx, kcipher_mode mode,
                                                       kcipher_gpu_aead_msg *msgs, size_t n, size_t tag_len,
                                                       void *stream);
KCIPHER_API KCIPHER_MUST_CHECK kcipher_status kcipher_gpu_aead_open_batch(const kcipher_ctx *ctx,
                                                                          kcipher_mode mode,
                                                                          kcipher_gpu_aead_msg *msgs, size_t n,
                                                                          size_t tag_len, void *stream);

/* ---- message authentication: CMAC and GMAC ------------------------------------------------
 *
 * CMAC (SP 800-38B), every cipher (64-bit blocks too): iv NULL/0; tag_len 4 .. block size.
 * GMAC (GCM with the data as AAD): 128-bit-block ciphers; iv and tag_len as for GCM.
 * kcipher_mac_verify compares in constant time: KCIPHER_OK or KCIPHER_ERR_AUTH.
 */
KCIPHER_API kcipher_status kcipher_mac(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv,
                                       size_t iv_len, const uint8_t *data, size_t len, uint8_t *tag,
                                       size_t tag_len);
KCIPHER_API KCIPHER_MUST_CHECK kcipher_status kcipher_mac_verify(const kcipher_ctx *ctx, kcipher_mode mode,
                                                                 const uint8_t *iv, size_t iv_len,
                                                                 const uint8_t *data, size_t len,
                                                                 const uint8_t *tag, size_t tag_len);
typedef struct kcipher_mac_state kcipher_mac_state;
KCIPHER_API kcipher_status kcipher_mac_init(kcipher_mac_state **st, const kcipher_ctx *ctx, kcipher_mode mode,
                                            const uint8_t *iv, size_t iv_len, size_t tag_len);
KCIPHER_API kcipher_status kcipher_mac_update(kcipher_mac_state *st, const uint8_t *data, size_t len);
KCIPHER_API kcipher_status kcipher_mac_final(kcipher_mac_state *st, uint8_t *tag, size_t tag_len);
KCIPHER_API KCIPHER_MUST_CHECK kcipher_status kcipher_mac_final_verify(kcipher_mac_state *st,
                                                                       const uint8_t *tag, size_t tag_len);
KCIPHER_API void kcipher_mac_free(kcipher_mac_state *st);

/* ---- self-test ----------------------------------------------------------------------- */

/* Runs the built-in known-answer tests (every cipher, ECB, CBC and CTR) on every kernel
 * this machine can run, and every kernel against the reference kernel on random inputs.
 * Returns KCIPHER_OK when all pass. `report` (may be NULL) is called once per check. */
typedef void (*kcipher_selftest_report)(void *user, const char *kernel, const char *check,
                                        int passed);
KCIPHER_API kcipher_status kcipher_selftest(kcipher_selftest_report report, void *user);

/* ---- exhaustive key search -----------------------------------------------------------
 *
 * Given known (plaintext, ciphertext) block pairs and a key of which the bits set in `mask`
 * are unknown (at most 64 of them), finds a key that encrypts each plaintext to its
 * ciphertext: by default it stops at the first one (all_keys: it searches on and finds every
 * one). Candidate i (0 <= i < 2^popcount(mask)) is `key` with the bits of i deposited
 * into the mask's positions, lowest mask bit first; key and mask are read as big-endian
 * numbers (the lowest bit is bit 0 of the last byte). Candidates [start, start + count) are
 * tested, on every CPU core through the SIMD kernels and/or every GPU.
 *
 * With a checkpoint file, the finished ranges and every key found so far are saved there
 * (atomically: a temporary file, fsync, rename) every checkpoint_seconds, whenever a key is
 * found (before the search goes on) and when the call returns; it is first written before
 * any candidate is tested, so a path that cannot be written fails at once. A call with the
 * same cipher, pairs, key, mask and range resumes from it without testing any candidate twice
 * and reports the keys it holds again (without all_keys, a file holding a key ends the search
 * there); a file from another search is KCIPHER_ERR_CHECKPOINT_MISMATCH. The file ends with
 * a checksum that detects accidental damage (not tampering: it is no MAC), every field is
 * checked against this search (finished ranges inside the range, ordered, disjoint; keys
 * inside it) and every key it holds is tested against every pair before it is reported: a
 * file that fails any of that is KCIPHER_ERR_CHECKPOINT_DAMAGED. KCIPHER_ERR_CHECKPOINT (the
 * file cannot be read or written) leaves the OS's reason in errno.
 */

typedef enum kcipher_device {
    KCIPHER_DEVICE_CPU = 0, /* every core (see threads) */
    KCIPHER_DEVICE_GPU = 1, /* every GPU: KCIPHER_ERR_NO_GPU when there is none */
    KCIPHER_DEVICE_ALL = 2  /* every GPU and the CPU cores beside them */
} kcipher_device;

typedef struct kcipher_keysearch_progress_info {
    uint64_t done;          /* candidates of the range finished, counting earlier runs */
    uint64_t total;         /* candidates in the range */
    uint64_t tested;        /* candidates tested by this call */
    uint64_t found;         /* keys matching every pair so far */
    double keys_per_second; /* this call's rate */
    double elapsed_seconds;
    double eta_seconds;     /* at this rate; negative while unknown */
} kcipher_keysearch_progress_info;

/* Called on the calling thread once for every key found (also for keys read back from the
 * checkpoint, re-tested against every pair), after it has been written to the checkpoint and
 * before any later failure is returned; key_len is always the cipher's key length. */
typedef void (*kcipher_keysearch_found_fn)(void *user, const uint8_t *key, size_t key_len, uint64_t index);
/* Called on the calling thread after chunks finish and at least 5 times a second; a non-zero
 * return stops the search (the chunks in progress end early, progress is saved) and makes
 * kcipher_keysearch return KCIPHER_ERR_CANCELLED. A signal handler can set a flag that this
 * callback returns. */
typedef int (*kcipher_keysearch_progress_fn)(void *user, const kcipher_keysearch_progress_info *info);

typedef struct kcipher_keysearch_params {
    const char *cipher;          /* a bare cipher name, e.g. "aria-128" */
    const uint8_t *plaintexts;   /* pair_count blocks, one after another */
    const uint8_t *ciphertexts;  /* pair_count blocks */
    size_t block_len;            /* bytes per plaintext/ciphertext: the cipher's block size */
    size_t pair_count;           /* at least 1 */
    const uint8_t *key;          /* template; the bits under the mask are ignored */
    size_t key_len;              /* the cipher's key size (KCIPHER_ERR_KEY_LENGTH otherwise) */
    const uint8_t *mask;         /* unknown bits, key_len bytes as well */
    size_t mask_len;
    uint64_t start;              /* first candidate */
    uint64_t count;              /* 0: to the end of the candidate space (which must then hold
                                    fewer than 2^64 candidates: use count or shards) */
    kcipher_device device;
    unsigned threads;            /* CPU threads; 0 = one per core (less one per GPU with ALL) */
    const char *kernel;          /* CPU kernel to use; NULL = the fastest measured per key */
    const char *checkpoint_path; /* NULL: no checkpoint */
    double checkpoint_seconds;   /* between checkpoints; 0 = 30 */
    uint64_t chunk_keys;         /* candidates per chunk; 0 = about one second of work */
    kcipher_keysearch_found_fn on_found;       /* may be NULL */
    kcipher_keysearch_progress_fn on_progress; /* may be NULL */
    void *user;                  /* passed to both callbacks */
    int all_keys;                /* 0: stop at the first key that matches every pair (the
                                    chunks in progress end early; progress is saved); non-zero:
                                    search the whole range and report every key */
} kcipher_keysearch_params;

/* Zeroes *params (fields may be added at the end in later versions: always start here). */
KCIPHER_API void kcipher_keysearch_init(kcipher_keysearch_params *params);

/* KCIPHER_OK when a key was found (without all_keys: the search stopped there, so info->done
 * may be less than info->total) or the whole range was searched (info->found keys were
 * reported), KCIPHER_ERR_CANCELLED when on_progress stopped it (and the checkpoint, if any,
 * was saved), or why the search could not run or went on.
 * info (may be NULL) receives the final counts. */
KCIPHER_API kcipher_status kcipher_keysearch(const kcipher_keysearch_params *params,
                                             kcipher_keysearch_progress_info *info);

/*
 * Part `index` of `count` parts of the candidate indices first..last (inclusive, so that one
 * range may hold all 2^64): an exact cover, every index in exactly one part, sizes differing
 * by at most one (the first (size mod count) parts take one more). What the CLI's
 * --shard I/N and its MPI ranks search. KCIPHER_OK with *part_first and *part_last set;
 * KCIPHER_ERR_SEARCH_RANGE when the part is empty (more parts than candidates);
 * KCIPHER_ERR_INVALID_ARGUMENT when count == 0, index >= count or first > last.
 */
KCIPHER_API kcipher_status kcipher_keysearch_shard(uint64_t first, uint64_t last, uint64_t index, uint64_t count,
                                                   uint64_t *part_first, uint64_t *part_last);

/* ---- CTR_DRBG (SP 800-90A rev. 1; TTAK.KO-12.0189) ---------------------------------
 *
 * A CTR_DRBG over any of the ten ciphers, with the derivation function (the default) or
 * without it (KCIPHER_DRBG_NO_DF), ctr_len = block length. Limits (SP 800-90A table 3): one
 * request gives at most kcipher_drbg_max_request() bytes (2^19 bits for a 128-bit block,
 * 2^13 for a 64-bit one); after 2^48 (resp. 2^32) requests, or an interval set lower, a
 * reseed is due. Entropy comes from the entropy source (getrandom by default) unless the
 * caller gives it; the source also serves automatic reseeds and prediction resistance.
 *
 * Entropy input: without df exactly seedlen = key + block bytes; with df at least the key
 * length (the security strength), at most 1 MiB. Without df the nonce is not used and the
 * personalization string and additional input are at most seedlen bytes; with df each is at
 * most 1 MiB. A NULL pointer with length 0 is an empty input.
 *
 * A handle is not thread-safe: one per thread, or a lock around it. The state is wiped by
 * kcipher_drbg_uninstantiate and kcipher_drbg_free.
 *
 * Fork safety: a child of fork() holds a copy of the parent's state, and both would give the
 * same next bytes. Every handle (single or many instances, CPU or GPU kernel) notices that it
 * runs in a new child and reseeds from its entropy source before its first output there; a
 * handle without a source fails that output with KCIPHER_ERR_DRBG_RESEED_REQUIRED until the
 * caller reseeds it (kcipher_drbg_reseed with fresh entropy). A GPU kernel's handle needs the
 * CUDA runtime, which a child cannot use once its parent has: give the child its own handle.
 */

typedef struct kcipher_drbg kcipher_drbg;

#define KCIPHER_DRBG_NO_DF 1u /* flag for kcipher_drbg_new: no derivation function */

/* Get_entropy_input: writes between min_len and max_len bytes of full entropy to buf and
 * returns how many; any other return is a failure (KCIPHER_ERR_DRBG_ENTROPY_SOURCE). */
typedef size_t (*kcipher_entropy_fn)(void *user, uint8_t *buf, size_t min_len, size_t max_len);
/* The default source: min_len bytes from getrandom(2). */
KCIPHER_API size_t kcipher_entropy_getrandom(void *user, uint8_t *buf, size_t min_len, size_t max_len);

/* cipher: a bare name ("lea-128"). kernel: NULL lets dispatch choose the CPU kernel
 * (KCIPHER_KERNEL is honoured); a GPU kernel name (kcipher_default_gpu_kernel) makes
 * kcipher_drbg_generate_large compute its output blocks on the GPU (the state stays on the
 * CPU) and enables kcipher_drbg_generate_device. flags: 0 or KCIPHER_DRBG_NO_DF. The new
 * DRBG is not instantiated. */
KCIPHER_API kcipher_status kcipher_drbg_new(kcipher_drbg **drbg, const char *cipher, unsigned flags,
                                            const char *kernel);
KCIPHER_API void kcipher_drbg_free(kcipher_drbg *drbg); /* wipes; NULL is allowed */

/* fn NULL: no source. A reseed that comes due is then KCIPHER_ERR_DRBG_RESEED_REQUIRED, and
 * instantiate and reseed need the caller's entropy: a reproducible, caller-seeded DRBG. */
KCIPHER_API kcipher_status kcipher_drbg_set_entropy_source(kcipher_drbg *drbg, kcipher_entropy_fn fn,
                                                           void *user);
/* Requests between reseeds: 1 .. the standard's maximum (the default). */
KCIPHER_API kcipher_status kcipher_drbg_set_reseed_interval(kcipher_drbg *drbg, uint64_t requests);
/* CPU threads for kcipher_drbg_generate_large: 0 = one per core (the default). The output
 * never depends on it. With a GPU kernel: threads for the key schedules and host copies. */
KCIPHER_API kcipher_status kcipher_drbg_set_threads(kcipher_drbg *drbg, unsigned threads);
/* The GPU of kcipher_drbg_generate_large with a GPU kernel: -1 (the default) GPU 0, 0..n-1
 * that one; KCIPHER_ERR_NO_GPU when a CUDA build has no such GPU (kcipher_gpu_count()).
 * Device-memory output runs on the GPU that owns the buffer. */
KCIPHER_API kcipher_status kcipher_drbg_set_gpu(kcipher_drbg *drbg, int device);

/* entropy NULL (length 0): from the source, and with df a nonce from the source too when
 * none is given. Instantiating again replaces the state. */
KCIPHER_API kcipher_status kcipher_drbg_instantiate(kcipher_drbg *drbg, const uint8_t *entropy,
                                                    size_t entropy_len, const uint8_t *nonce, size_t nonce_len,
                                                    const uint8_t *personalization,
                                                    size_t personalization_len);
/* entropy NULL (length 0): from the source. */
KCIPHER_API kcipher_status kcipher_drbg_reseed(kcipher_drbg *drbg, const uint8_t *entropy, size_t entropy_len,
                                               const uint8_t *additional, size_t additional_len);
/* One request of at most kcipher_drbg_max_request() bytes (KCIPHER_ERR_DRBG_REQUEST_TOO_LARGE
 * above). prediction_resistance != 0 reseeds from the source first. */
KCIPHER_API kcipher_status kcipher_drbg_generate(kcipher_drbg *drbg, uint8_t *out, size_t len,
                                                 const uint8_t *additional, size_t additional_len,
                                                 int prediction_resistance);
/* Any length, served as consecutive requests of kcipher_drbg_max_request() bytes (the last
 * shorter) without additional input: the same bytes and final state as calling
 * kcipher_drbg_generate that way, computed in parallel. */
KCIPHER_API kcipher_status kcipher_drbg_generate_large(kcipher_drbg *drbg, uint8_t *out, size_t len,
                                                       int prediction_resistance);
/* kcipher_drbg_generate_large into GPU memory: the same bytes and final state, len bytes
 * at device_out (cudaMalloc or managed memory of one GPU; that GPU runs it), no prediction
 * resistance. The work starts after what cuda_stream (a cudaStream_t of that GPU, NULL: the
 * default stream) holds, and the call returns when the bytes are written. The chain of
 * (Key, V) updates runs on this thread, overlapped with the GPU's blocks of earlier
 * requests. KCIPHER_ERR_NOT_GPU_KERNEL when the DRBG was not made with a GPU kernel,
 * KCIPHER_ERR_NOT_DEVICE_MEMORY when device_out is host memory. */
KCIPHER_API kcipher_status kcipher_drbg_generate_device(kcipher_drbg *drbg, void *device_out, size_t len,
                                                        void *cuda_stream);
/* Wipes the state; the handle stays usable for a new instantiate. */
KCIPHER_API kcipher_status kcipher_drbg_uninstantiate(kcipher_drbg *drbg);

KCIPHER_API size_t kcipher_drbg_max_request(const kcipher_drbg *drbg); /* 0 for NULL */
/* Requests since the last (re)seed, plus one (0 when not instantiated). */
KCIPHER_API kcipher_status kcipher_drbg_reseed_counter(const kcipher_drbg *drbg, uint64_t *counter);
KCIPHER_API const char *kcipher_drbg_kernel(const kcipher_drbg *drbg); /* NULL for NULL */

/* ---- many CTR_DRBG instances at once -----------------------------------------------
 *
 * A kcipher_drbg_multi holds N independent CTR_DRBG instances of one cipher, all with or
 * all without df, each with its own entropy input, nonce, personalization string, Key, V and
 * reseed counter. A generate call gives every instance len bytes, instance i's at
 * out + i * len, served as consecutive requests of at most kcipher_drbg_multi_max_request()
 * bytes without additional input: instance i's bytes and state are exactly those of a
 * kcipher_drbg instantiated with instance i's inputs and given the same calls
 * (kcipher_drbg_generate_large; kcipher_drbg_reseed).
 *
 * kernel: a GPU kernel name computes every instance's output blocks and Update on the GPU
 * (the key schedules too, where the kernel has a GPU key schedule, as every default GPU
 * kernel does; reseeds on CPU threads); NULL or a CPU kernel runs it all on CPU threads.
 * Inputs are arrays of N equal-length strings, instance i's at p + i * len; NULL
 * entropy (length 0) takes it from the entropy source (getrandom by default). The source is
 * called on the calling thread before any instance changes, instance after instance, with
 * the calls N kcipher_drbg sharing it would make one handle after another; a failing source
 * leaves every instance as it was. Any later failure (no memory, a CUDA error) uninstantiates
 * every instance. A handle is not thread-safe; free and uninstantiate wipe every state.
 * After fork() every instance reseeds from the source before the child's first output, as a
 * kcipher_drbg does (KCIPHER_ERR_DRBG_RESEED_REQUIRED without a source).
 */
typedef struct kcipher_drbg_multi kcipher_drbg_multi;

/* instances: 1 .. 2^24. flags: 0 or KCIPHER_DRBG_NO_DF. Not instantiated. */
KCIPHER_API kcipher_status kcipher_drbg_multi_new(kcipher_drbg_multi **multi, const char *cipher, size_t instances,
                                                  unsigned flags, const char *kernel);
KCIPHER_API void kcipher_drbg_multi_free(kcipher_drbg_multi *multi); /* wipes; NULL is allowed */
KCIPHER_API kcipher_status kcipher_drbg_multi_set_entropy_source(kcipher_drbg_multi *multi, kcipher_entropy_fn fn,
                                                                 void *user);
/* Requests between reseeds, the same for every instance. */
KCIPHER_API kcipher_status kcipher_drbg_multi_set_reseed_interval(kcipher_drbg_multi *multi, uint64_t requests);
/* CPU threads (0 = one per core); the output never depends on it. */
KCIPHER_API kcipher_status kcipher_drbg_multi_set_threads(kcipher_drbg_multi *multi, unsigned threads);
/* The GPU for host-memory output: -1 (GPU 0) or 0..n-1, as kcipher_drbg_set_gpu. */
KCIPHER_API kcipher_status kcipher_drbg_multi_set_gpu(kcipher_drbg_multi *multi, int device);
/* Every instance, from instances * entropy_len bytes of entropy (or the source), as many
 * nonces and personalization strings (NULL: none). The lengths follow kcipher_drbg_instantiate. */
KCIPHER_API kcipher_status kcipher_drbg_multi_instantiate(kcipher_drbg_multi *multi, const uint8_t *entropy,
                                                          size_t entropy_len, const uint8_t *nonce, size_t nonce_len,
                                                          const uint8_t *personalization,
                                                          size_t personalization_len);
/* Every instance, as kcipher_drbg_reseed with instance i's entropy (or the source's) and
 * additional input. */
KCIPHER_API kcipher_status kcipher_drbg_multi_reseed(kcipher_drbg_multi *multi, const uint8_t *entropy,
                                                     size_t entropy_len, const uint8_t *additional,
                                                     size_t additional_len);
/* len bytes for every instance into host memory (instances * len bytes). */
KCIPHER_API kcipher_status kcipher_drbg_multi_generate(kcipher_drbg_multi *multi, uint8_t *out, size_t len,
                                                       int prediction_resistance);
/* The same into GPU memory (device_out: instances * len bytes of one GPU, which runs it),
 * after what cuda_stream holds; returns when the bytes are written. GPU kernels only
 * (KCIPHER_ERR_NOT_GPU_KERNEL). */
KCIPHER_API kcipher_status kcipher_drbg_multi_generate_device(kcipher_drbg_multi *multi, void *device_out, size_t len,
                                                              int prediction_resistance, void *cuda_stream);
KCIPHER_API kcipher_status kcipher_drbg_multi_uninstantiate(kcipher_drbg_multi *multi);
KCIPHER_API size_t kcipher_drbg_multi_instances(const kcipher_drbg_multi *multi);   /* 0 for NULL */
KCIPHER_API size_t kcipher_drbg_multi_max_request(const kcipher_drbg_multi *multi); /* 0 for NULL */
/* Instance i's reseed counter (0 when not instantiated). */
KCIPHER_API kcipher_status kcipher_drbg_multi_reseed_counter(const kcipher_drbg_multi *multi, size_t instance,
                                                             uint64_t *counter);
KCIPHER_API const char *kcipher_drbg_multi_kernel(const kcipher_drbg_multi *multi); /* NULL for NULL */

#ifdef __cplusplus
}
#endif

#endif /* KCIPHER_H */
