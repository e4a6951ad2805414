/* The public header compiles as C99 with -pedantic, and a C program links against the
 * shared library: RFC 5794 A.1 through the C API, and a few misuse cases. */
#include <kcipher/kcipher.h>

#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                                              \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);             \
            failures++;                                                                          \
        }                                                                                        \
    } while (0)

int main(void)
{
    static const uint8_t key[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                                    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
    static const uint8_t pt[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                   0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    static const uint8_t ct[16] = {0xd7, 0x18, 0xfb, 0xd6, 0xab, 0x64, 0x4c, 0x73,
                                   0x9d, 0xa9, 0x5f, 0x3b, 0xe6, 0x45, 0x17, 0x78};
    uint8_t out[16], iv[16] = {0};
    kcipher_ctx *ctx = NULL;

    CHECK(kcipher_new(&ctx, "aria-128", key, sizeof key, NULL) == KCIPHER_OK);
    CHECK(ctx != NULL);
    CHECK(kcipher_ecb_encrypt(ctx, pt, out, sizeof out) == KCIPHER_OK);
    CHECK(memcmp(out, ct, 16) == 0);
    CHECK(kcipher_ecb_decrypt(ctx, out, out, sizeof out) == KCIPHER_OK);
    CHECK(memcmp(out, pt, 16) == 0);
    CHECK(kcipher_ecb_encrypt(ctx, pt, out, 15) == KCIPHER_ERR_DATA_LENGTH);
    CHECK(kcipher_cbc_encrypt(ctx, iv, 8, pt, out, 16) == KCIPHER_ERR_IV_LENGTH);
    CHECK(kcipher_ctr_xor(ctx, NULL, 16, 0, pt, out, 16) == KCIPHER_ERR_NULL_POINTER);
    CHECK(kcipher_block_size(ctx) == 16);
    CHECK(strcmp(kcipher_ctx_cipher(ctx), "aria-128") == 0);
    kcipher_free(ctx);

    ctx = (kcipher_ctx *)&failures; /* must be reset to NULL on failure */
    CHECK(kcipher_new(&ctx, "aria-129", key, sizeof key, NULL) == KCIPHER_ERR_UNKNOWN_CIPHER);
    CHECK(ctx == NULL);
    CHECK(kcipher_new(&ctx, "lea-256", key, sizeof key, NULL) == KCIPHER_ERR_KEY_LENGTH);
    CHECK(strlen(kcipher_strerror(KCIPHER_ERR_KEY_LENGTH)) > 0);
    kcipher_free(NULL);

    if (failures == 0)
        printf("c_api: all checks passed\n");
    return failures == 0 ? 0 : 1;
}
