/* An installed kcipher, used from C: RFC 5794 A.3 (ARIA-256). */
#include <kcipher/kcipher.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    uint8_t key[32], pt[16], out[16];
    static const uint8_t ct[16] = {0xf9, 0x2b, 0xd7, 0xc7, 0x9f, 0xb7, 0x2e, 0x2f,
                                   0x2b, 0x8f, 0x80, 0xc1, 0x97, 0x2d, 0x24, 0xfc};
    kcipher_ctx *ctx;
    int i;
    for (i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    for (i = 0; i < 16; i++)
        pt[i] = (uint8_t)(i * 0x11);
    if (kcipher_new(&ctx, "aria-256", key, sizeof key, NULL) != KCIPHER_OK)
        return 1;
    if (kcipher_ecb_encrypt(ctx, pt, out, 16) != KCIPHER_OK || memcmp(out, ct, 16) != 0) {
        puts("consumer: wrong ciphertext");
        return 1;
    }
    kcipher_free(ctx);
    printf("consumer (C, kcipher %s): ok\n", kcipher_version());
    return 0;
}
