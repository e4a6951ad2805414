// Two probes for the x86 ceilings in docs/performance.md, in core cycles calibrated by a
// dependent imul chain (3 cycles an imul on Intel and AMD cores alike):
//   - LEA's one-block chain (lea/ref's round, as CBC, CFB, OFB and CMAC run it) in several
//     instruction forms: the C round as the library has it, and asm rounds whose rotates are
//     ror/rol, rorx, shld, or a mix; with their single-instruction latencies. Cycles a round.
//   - ymm throughput of the instruction classes of ARIA's AVX2 kernels (vpunpcklbw, vpshufb,
//     vgf2p8affineinvqb, vpxor, vaesenclast), alone and mixed: 12 independent accumulators,
//     instructions a cycle. Which ports a class may use follows from the mixes (two classes
//     that share no port add up; sharing one, they do not).
//   g++ -O2 -mavx2 -mgfni -mvaes -maes -mbmi2 -o x86_ports bench/tools/x86_ports.cpp
//   taskset -c 3 ./x86_ports
#include <immintrin.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <algorithm>

static double now() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static double sec_per_cycle()
{
    long a = 1; const long n = 20000000; double best = 1e9;
    for (int r = 0; r < 3; r++) {
        const double t0 = now();
        for (long i = 0; i < n; i++)
            asm volatile("imul %0,%0\n imul %0,%0\n imul %0,%0\n imul %0,%0\n imul %0,%0\n imul %0,%0\n imul %0,%0\n imul %0,%0" : "+r"(a));
        best = std::min(best, (now() - t0) / (24.0 * n));
    }
    return best;
}
static double spc;

alignas(64) static uint32_t rk[24][6];

static inline uint32_t rotr(uint32_t x, int r) { return (x >> r) | (x << (32 - r)); }
static inline uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

// C form (the library's chain_round)
__attribute__((noinline)) void chain_c(uint32_t *s, long blocks)
{
    uint32_t x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3];
    for (long b = 0; b < blocks; b++)
        for (int i = 0; i < 24; i += 2) {
#define RND(k) { const uint32_t *r = rk[k]; const uint32_t n2 = rotr((x2 ^ r[4]) + (x3 ^ r[5]), 3); \
            const uint32_t n1 = rotr((x1 ^ r[2]) + (x2 ^ r[3]), 5); const uint32_t n0 = rotl((x0 ^ r[0]) + (x1 ^ r[1]), 9); \
            x3 = x0; x0 = n0; x1 = n1; x2 = n2; }
            RND(i) RND(i + 1)
        }
    s[0] = x0, s[1] = x1, s[2] = x2, s[3] = x3;
}

// The same round in asm, each of its three rotates given as an instruction string.
#define ASMROUND(ROT2, ROT1, ROT0) \
    "mov 16(%[k]), %%r8d\n xor %[x2], %%r8d\n mov 20(%[k]), %%r9d\n xor %[x3], %%r9d\n add %%r9d, %%r8d\n" ROT2 \
    "mov 8(%[k]), %%r10d\n xor %[x1], %%r10d\n mov 12(%[k]), %%r11d\n xor %[x2], %%r11d\n add %%r11d, %%r10d\n" ROT1 \
    "mov 0(%[k]), %%r12d\n xor %[x0], %%r12d\n mov 4(%[k]), %%r13d\n xor %[x1], %%r13d\n add %%r13d, %%r12d\n" ROT0 \
    "mov %[x0], %[x3]\n mov %%r12d, %[x0]\n mov %%r10d, %[x1]\n mov %%r8d, %[x2]\n add $24, %[k]\n"

#define CHAIN_ASM(name, R2, R1, R0) \
__attribute__((noinline)) void name(uint32_t *s, long blocks) \
{ \
    uint32_t x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3]; \
    for (long b = 0; b < blocks; b++) { \
        const uint32_t *k = &rk[0][0]; \
        for (int i = 0; i < 24; i += 2) \
            asm volatile(ASMROUND(R2, R1, R0) ASMROUND(R2, R1, R0) \
                : [x0] "+r"(x0), [x1] "+r"(x1), [x2] "+r"(x2), [x3] "+r"(x3), [k] "+r"(k) \
                : : "r8", "r9", "r10", "r11", "r12", "r13", "cc", "memory"); \
    } \
    s[0] = x0, s[1] = x1, s[2] = x2, s[3] = x3; \
}
CHAIN_ASM(chain_ror, "ror $3, %%r8d\n", "ror $5, %%r10d\n", "rol $9, %%r12d\n")
CHAIN_ASM(chain_rorx, "rorx $3, %%r8d, %%r8d\n", "rorx $5, %%r10d, %%r10d\n", "rorx $23, %%r12d, %%r12d\n")
CHAIN_ASM(chain_shld, "shld $29, %%r8d, %%r8d\n", "shld $27, %%r10d, %%r10d\n", "shld $9, %%r12d, %%r12d\n")
CHAIN_ASM(chain_mix0, "ror $3, %%r8d\n", "ror $5, %%r10d\n", "shld $9, %%r12d, %%r12d\n")
CHAIN_ASM(chain_mix1, "ror $3, %%r8d\n", "shld $27, %%r10d, %%r10d\n", "rol $9, %%r12d\n")

// single-instruction latency chains (8 per iteration)
#define LAT(name, ins) static double name() { uint32_t a = 1; const long n = 10000000; double best = 1e9; \
    for (int r = 0; r < 3; r++) { const double t0 = now(); for (long i = 0; i < n; i++) \
    asm volatile(ins "\n" ins "\n" ins "\n" ins "\n" ins "\n" ins "\n" ins "\n" ins : "+r"(a) :: "cc"); \
    best = std::min(best, (now() - t0) / (8.0 * n)); } return best / spc; }
LAT(lat_ror, "ror $3, %0")
LAT(lat_rorx, "rorx $3, %0, %0")
LAT(lat_shld, "shld $29, %0, %0")

// ymm throughput: 12 independent accumulators, each updated once a step by the instruction
// string seq gives it (%12 is the shared source operand).
#define TP(name, seq) static double name() { __m256i a0 = _mm256_set1_epi8(1), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0, s = _mm256_set1_epi8(3); \
    const long n = 5000000; double best = 1e9; for (int r = 0; r < 3; r++) { const double t0 = now(); for (long i = 0; i < n; i++) \
    asm volatile(seq : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4), "+x"(a5), "+x"(a6), "+x"(a7), "+x"(a8), "+x"(a9), "+x"(a10), "+x"(a11) : "x"(s)); \
    best = std::min(best, (now() - t0) / (12.0 * n)); } return spc / best; }
#define I_UNPCK(i) "vpunpcklbw %12, %" #i ", %" #i "\n"
#define I_SHUFB(i) "vpshufb %12, %" #i ", %" #i "\n"
#define I_GF(i) "vgf2p8affineinvqb $0, %12, %" #i ", %" #i "\n"
#define I_XOR(i) "vpxor %12, %" #i ", %" #i "\n"
#define I_AES(i) "vaesenclast %12, %" #i ", %" #i "\n"
#define ALL12(I) I(0) I(1) I(2) I(3) I(4) I(5) I(6) I(7) I(8) I(9) I(10) I(11)
TP(tp_unpck, ALL12(I_UNPCK))
TP(tp_shufb, ALL12(I_SHUFB))
TP(tp_gf, ALL12(I_GF))
TP(tp_xor, ALL12(I_XOR))
TP(tp_aes, ALL12(I_AES))
// mixes: 6 GF + 6 unpack; 4 GF + 8 XOR; 4 unpack + 8 XOR
TP(tp_gf_unpck, I_GF(0) I_UNPCK(1) I_GF(2) I_UNPCK(3) I_GF(4) I_UNPCK(5) I_GF(6) I_UNPCK(7) I_GF(8) I_UNPCK(9) I_GF(10) I_UNPCK(11))
TP(tp_gf_xor, I_GF(0) I_XOR(1) I_XOR(2) I_GF(3) I_XOR(4) I_XOR(5) I_GF(6) I_XOR(7) I_XOR(8) I_GF(9) I_XOR(10) I_XOR(11))
TP(tp_unpck_xor, I_UNPCK(0) I_XOR(1) I_XOR(2) I_UNPCK(3) I_XOR(4) I_XOR(5) I_UNPCK(6) I_XOR(7) I_XOR(8) I_UNPCK(9) I_XOR(10) I_XOR(11))

typedef void (*chainfn)(uint32_t *, long);
int main()
{
    spc = sec_per_cycle();
    printf("clock %.3f GHz\n", 1e-9 / spc);
    for (int i = 0; i < 24; i++) for (int j = 0; j < 6; j++) rk[i][j] = 0x9e3779b9u * (i * 6 + j + 1);
    struct { const char *n; chainfn f; } v[] = {{"c", chain_c}, {"ror", chain_ror}, {"rorx", chain_rorx}, {"shld", chain_shld}, {"mix0-shld", chain_mix0}, {"mix1-shld", chain_mix1}};
    uint32_t ref[4] = {1, 2, 3, 4}; chain_c(ref, 3);
    for (auto &x : v) {
        uint32_t s[4] = {1, 2, 3, 4}; x.f(s, 3);
        const bool ok = memcmp(s, ref, 16) == 0;
        double best = 1e9; const long blocks = 200000;
        for (int r = 0; r < 7; r++) { const double t0 = now(); x.f(s, blocks); best = std::min(best, (now() - t0)); }
        printf("chain %-10s %s cycles/round %.2f  c/B(16B) %.2f\n", x.n, ok ? "ok " : "BAD", best / spc / blocks / 24, best / spc / blocks / 16);
    }
    printf("lat ror %.2f rorx %.2f shld %.2f\n", lat_ror(), lat_rorx(), lat_shld());
    printf("tp/cycle unpck %.2f shufb %.2f gf %.2f xor %.2f aesenclast %.2f | gf+unpck %.2f gf+2xor %.2f unpck+2xor %.2f\n",
           tp_unpck(), tp_shufb(), tp_gf(), tp_xor(), tp_aes(), tp_gf_unpck(), tp_gf_xor(), tp_unpck_xor());
}
