// Latencies of the instructions on aria/avx512-gfni-block's path (docs/performance.md, "CCM and
// CMAC"): each a chain of one instruction (or a pair) on an xmm register, in core cycles,
// calibrated by a dependent imul chain (3 cycles an imul on Intel and AMD cores alike).
//   g++ -O2 -mavx512f -mavx512vl -mavx512bw -mgfni -maes -o x86_latency bench/tools/x86_latency.cpp
//   taskset -c 3 ./x86_latency
#include <immintrin.h>

#include <cstdio>
#include <ctime>

namespace {

double now()
{
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

constexpr long n = 20000000;

// Seconds per cycle: eight dependent imuls an iteration.
double cycle()
{
    long a = 1;
    const double t0 = now();
    for (long i = 0; i < n; i++)
        asm volatile("imul %0,%0\n imul %0,%0\n imul %0,%0\n imul %0,%0\n"
                     "imul %0,%0\n imul %0,%0\n imul %0,%0\n imul %0,%0"
                     : "+r"(a));
    return (now() - t0) / (24.0 * n);
}

} // namespace

// Eight copies of BODY an iteration, each depending on the one before through x.
#define CHAIN(name, body)                                                                   \
    {                                                                                       \
        const double t0 = now();                                                            \
        for (long i = 0; i < n; i++) {                                                      \
            body body body body body body body body                                         \
        }                                                                                   \
        std::printf("%-24s %5.2f cycles\n", name, (now() - t0) / (8.0 * n) / cyc);         \
    }

int main()
{
    const double cyc = cycle();
    std::printf("clock %.2f GHz (imul chain)\n", 1e-9 / cyc);
    __m128i x = _mm_set1_epi32(0x12345678);
    const __m128i m = _mm_set1_epi64x(0x0102040810204080LL), z = _mm_setzero_si128();
    CHAIN("vgf2p8affineinvqb", asm volatile("vgf2p8affineinvqb $0x63, %1, %0, %0" : "+v"(x) : "v"(m));)
    CHAIN("vgf2p8affineqb", asm volatile("vgf2p8affineqb $0x63, %1, %0, %0" : "+v"(x) : "v"(m));)
    CHAIN("vaesdeclast", asm volatile("vaesdeclast %1, %0, %0" : "+x"(x) : "x"(z));)
    CHAIN("vpshufb", asm volatile("vpshufb %1, %0, %0" : "+v"(x) : "v"(m));)
    CHAIN("vpternlogd", asm volatile("vpternlogd $0x96, %1, %1, %0" : "+v"(x) : "v"(m));)
    CHAIN("vpxor", asm volatile("vpxor %1, %0, %0" : "+x"(x) : "x"(m));)
    CHAIN("gfni + vpternlogd", asm volatile("vgf2p8affineinvqb $0x63, %1, %0, %0\n vpternlogd $0x96, %1, %1, %0" : "+v"(x) : "v"(m));)
    CHAIN("aesdeclast + vpternlogd", asm volatile("vaesdeclast %1, %0, %0\n vpternlogd $0x96, %1, %1, %0" : "+x"(x) : "x"(z));)
    CHAIN("gfni + vpshufb", asm volatile("vgf2p8affineinvqb $0x63, %1, %0, %0\n vpshufb %1, %0, %0" : "+v"(x) : "v"(m));)
    CHAIN("vpshufb + vpternlogd", asm volatile("vpshufb %1, %0, %0\n vpternlogd $0x96, %1, %1, %0" : "+v"(x) : "v"(m));)
    volatile int sink = _mm_cvtsi128_si32(x);
    (void)sink;
    return 0;
}
