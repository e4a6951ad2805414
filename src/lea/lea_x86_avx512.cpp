// lea/avx512: LEA on AVX-512, word-sliced, 16 blocks per group of four zmm registers and
// four groups (64 blocks, 1 KiB) per step.
//
// Technique. A 4x4 transpose of 32-bit words inside each 128-bit lane turns four registers
// of four blocks each into four registers X[0..3], where X[j] holds word j of 16 blocks. The
// round function (TTAK.KO-12.0223, encryption) then runs on whole registers: six XORs with
// round keys (each word of the one key schedule broadcast from memory: a load, no vector ALU
// operation, shared by the groups), three 32-bit additions and three native rotations
// (vprold/vprord). Four independent groups per step give the two 512-bit ports enough
// independent work; with the rounds unrolled in full no state word is moved or spilled. CTR builds its counter blocks in
// registers, word-sliced from the start (no transpose on the way in), and skips the parts of
// rounds 0..3 that depend only on the counter's upper 96 bits (lea/lea_x86.hpp). Inputs
// shorter than a step run as one step of fewer groups with masked loads and stores, never
// one block at a time.
//
// Constant-time: LEA is ARX. The only operations on key or data are XOR, 32-bit addition
// and subtraction, fixed rotations, fixed word shuffles and loads/stores at addresses that
// depend on the (public) length alone; no table, no secret-dependent branch. Load/store
// masks depend on the block count only.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/counter.hpp"
#include "core/kernel.hpp"
#include "core/wipe.hpp"
#include "lea/lea.hpp"
#include "lea/lea_x86.hpp"

namespace kc {

namespace {

// This kernel's round-key layout: the key schedule's words for encryption, and the
// decryption words of lea_x86_decrypt_words. The vector code broadcasts each word from
// memory as it uses it.
struct Avx512Keys {
    LeaRoundKeys enc;
    uint32_t dec[lea_max_rounds][6];
};

} // namespace

} // namespace kc

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw")
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() (initialised from itself) as the
// unused merge source, and -Wuninitialized reports it once inlined here (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace kc {

namespace {

using V = __m512i;

constexpr int step_groups = 4;     // groups of 16 blocks per full step
static_assert(step_groups == 4, "the masked tails' switches list one case per group count");
constexpr size_t group_blocks = 16; // blocks per group (one word per zmm lane)

inline V bc(uint32_t w) { return _mm512_set1_epi32((int)w); }
inline V vxor(V a, V b) { return _mm512_xor_si512(a, b); }
inline V vadd(V a, V b) { return _mm512_add_epi32(a, b); }
inline V vsub(V a, V b) { return _mm512_sub_epi32(a, b); }
template <int R> inline V rol(V x) { return _mm512_rol_epi32(x, R); }
template <int R> inline V ror(V x) { return _mm512_ror_epi32(x, R); }

// Word j of G groups of 16 blocks: a = X[0], b = X[1], c = X[2], d = X[3].
template <int G> struct Lanes {
    V a[G], b[G], c[G], d[G];
};

// One encryption round on G groups (see lea_ref.cpp for the formulas). The new X[0] goes
// where X[3] was, X[1] and X[2] stay in place, and X[0] becomes X[3]: two rounds with the
// arguments (a,b,c,d) then (d,b,c,a) bring the words back in order without a move.
template <int G> inline void encrypt_round(V *x0, V *x1, V *x2, V *x3, const uint32_t *k)
{
    for (int g = 0; g < G; g++) {
        V t0 = vadd(vxor(x0[g], bc(k[0])), vxor(x1[g], bc(k[1])));
        V t1 = vadd(vxor(x1[g], bc(k[2])), vxor(x2[g], bc(k[3])));
        V t2 = vadd(vxor(x2[g], bc(k[4])), vxor(x3[g], bc(k[5])));
        x3[g] = rol<9>(t0);
        x1[g] = ror<5>(t1);
        x2[g] = ror<3>(t2);
    }
}

// Rounds first..R-1 (R = 0: rk.rounds, a loop). With R known the rounds are unrolled in full,
// so the word order turns in the register names and no state is moved or spilled.
template <int G, int R>
inline void encrypt_rounds(Lanes<G> &s, const LeaRoundKeys &rk, int first)
{
    if constexpr (R == 0) {
        for (int i = first; i < rk.rounds; i += 2) {
            encrypt_round<G>(s.a, s.b, s.c, s.d, rk.rk[i]);
            encrypt_round<G>(s.d, s.b, s.c, s.a, rk.rk[i + 1]);
        }
    } else {
#pragma GCC unroll 16
        for (int i = first; i < R; i += 2) {
            encrypt_round<G>(s.a, s.b, s.c, s.d, rk.rk[i]);
            encrypt_round<G>(s.d, s.b, s.c, s.a, rk.rk[i + 1]);
        }
    }
}

// One decryption round on G groups, with the words w of lea_x86_decrypt_words:
//   X_i[1] = u1 ^ RK[1],  u1 = ROR9(X_{i+1}[0]) - (X_{i+1}[3] ^ RK[0])
//   X_i[2] = u2 ^ RK[3],  u2 = ROL5(X_{i+1}[1]) - (u1 ^ RK[1] ^ RK[2])
//   X_i[3] = u3 ^ RK[5],  u3 = ROL3(X_{i+1}[2]) - (u2 ^ RK[3] ^ RK[4])
// and X_i[0] = X_{i+1}[3]. The results go where X[0..2] were, so the word order turns by
// one place per round; four rounds bring it back.
template <int G> inline void decrypt_round(V *x0, V *x1, V *x2, V *x3, const uint32_t *w)
{
    for (int g = 0; g < G; g++) {
        V u1 = vsub(ror<9>(x0[g]), vxor(x3[g], bc(w[0])));
        V u2 = vsub(rol<5>(x1[g]), vxor(u1, bc(w[2])));
        V u3 = vsub(rol<3>(x2[g]), vxor(u2, bc(w[4])));
        x0[g] = vxor(u1, bc(w[1]));
        x1[g] = vxor(u2, bc(w[3]));
        x2[g] = vxor(u3, bc(w[5]));
    }
}

template <int G> inline void decrypt_4rounds(Lanes<G> &s, const Avx512Keys &k, int i)
{
    decrypt_round<G>(s.a, s.b, s.c, s.d, k.dec[i]);     // now (d, a, b, c)
    decrypt_round<G>(s.d, s.a, s.b, s.c, k.dec[i - 1]); // now (c, d, a, b)
    decrypt_round<G>(s.c, s.d, s.a, s.b, k.dec[i - 2]); // now (b, c, d, a)
    decrypt_round<G>(s.b, s.c, s.d, s.a, k.dec[i - 3]); // back to (a, b, c, d)
}

// All rounds, last to first (R = 0: k.enc.rounds, a loop; else unrolled in full).
template <int G, int R> inline void decrypt_rounds(Lanes<G> &s, const Avx512Keys &k)
{
    if constexpr (R == 0) {
        for (int i = k.enc.rounds - 1; i >= 0; i -= 4)
            decrypt_4rounds<G>(s, k, i);
    } else {
#pragma GCC unroll 8
        for (int i = R - 1; i >= 0; i -= 4)
            decrypt_4rounds<G>(s, k, i);
    }
}

// 4x4 transpose of 32-bit words inside each 128-bit lane; it is its own inverse. From four
// registers r[q] of blocks 4q..4q+3 it gives X[j] with word j of block 4i+l in dword i of
// lane l: the order CTR's counter offsets follow.
inline void transpose(V &r0, V &r1, V &r2, V &r3)
{
    V t0 = _mm512_unpacklo_epi32(r0, r1), t1 = _mm512_unpackhi_epi32(r0, r1);
    V t2 = _mm512_unpacklo_epi32(r2, r3), t3 = _mm512_unpackhi_epi32(r2, r3);
    r0 = _mm512_unpacklo_epi64(t0, t2);
    r1 = _mm512_unpackhi_epi64(t0, t2);
    r2 = _mm512_unpacklo_epi64(t1, t3);
    r3 = _mm512_unpackhi_epi64(t1, t3);
}

// The words of register j (64 bytes, blocks 4j..4j+3 of a step) that hold one of the first
// n blocks.
inline __mmask16 word_mask(size_t n, size_t j)
{
    size_t words = 4 * n, before = 16 * j;
    size_t w = words > before ? words - before : 0;
    return (__mmask16)((1u << (w < 16 ? w : 16)) - 1);
}

template <bool Masked> inline V load(const uint8_t *p, size_t n, size_t j)
{
    if constexpr (Masked)
        return _mm512_maskz_loadu_epi32(word_mask(n, j), p + 64 * j);
    else
        return _mm512_loadu_si512(p + 64 * j);
}

template <bool Masked> inline void store(uint8_t *p, size_t n, size_t j, V v)
{
    if constexpr (Masked)
        _mm512_mask_storeu_epi32(p + 64 * j, word_mask(n, j), v);
    else
        _mm512_storeu_si512(p + 64 * j, v);
}

// Loads G groups (the first n blocks when Masked; lanes past them are zero) word-sliced.
template <int G, bool Masked> inline void load_sliced(Lanes<G> &s, const uint8_t *in, size_t n)
{
    for (int g = 0; g < G; g++) {
        s.a[g] = load<Masked>(in, n, 4 * g);
        s.b[g] = load<Masked>(in, n, 4 * g + 1);
        s.c[g] = load<Masked>(in, n, 4 * g + 2);
        s.d[g] = load<Masked>(in, n, 4 * g + 3);
        transpose(s.a[g], s.b[g], s.c[g], s.d[g]);
    }
}

template <int G, bool Masked> inline void store_sliced(Lanes<G> &s, uint8_t *out, size_t n)
{
    for (int g = 0; g < G; g++) {
        transpose(s.a[g], s.b[g], s.c[g], s.d[g]);
        store<Masked>(out, n, 4 * g, s.a[g]);
        store<Masked>(out, n, 4 * g + 1, s.b[g]);
        store<Masked>(out, n, 4 * g + 2, s.c[g]);
        store<Masked>(out, n, 4 * g + 3, s.d[g]);
    }
}

template <int G, bool Masked, int R> struct EncryptStep {
    static void run(const Avx512Keys &k, const uint8_t *in, uint8_t *out, size_t n)
    {
        Lanes<G> s;
        load_sliced<G, Masked>(s, in, n);
        encrypt_rounds<G, R>(s, k.enc, 0);
        store_sliced<G, Masked>(s, out, n);
    }
};

template <int G, bool Masked, int R> struct DecryptStep {
    static void run(const Avx512Keys &k, const uint8_t *in, uint8_t *out, size_t n)
    {
        Lanes<G> s;
        load_sliced<G, Masked>(s, in, n);
        decrypt_rounds<G, R>(s, k);
        store_sliced<G, Masked>(s, out, n);
    }
};

template <template <int, bool, int> class Step, int R>
void whole_steps(const Avx512Keys &k, const uint8_t *in, uint8_t *out, size_t nsteps)
{
    constexpr size_t step = step_groups * group_blocks;
    for (size_t i = 0; i < nsteps; i++)
        Step<step_groups, false, R>::run(k, in + 16 * step * i, out + 16 * step * i, step);
}

// Whole steps (unrolled for the key's round count), then the last n < 64 blocks as one
// masked step of just enough groups.
template <template <int, bool, int> class Step>
void ecb(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const Avx512Keys &k = *static_cast<const Avx512Keys *>(state);
    constexpr size_t step = step_groups * group_blocks;
    size_t nsteps = nblocks / step;
    switch (k.enc.rounds) {
    case 24: whole_steps<Step, 24>(k, in, out, nsteps); break;
    case 28: whole_steps<Step, 28>(k, in, out, nsteps); break;
    default: whole_steps<Step, 32>(k, in, out, nsteps); break;
    }
    in += 16 * step * nsteps;
    out += 16 * step * nsteps;
    nblocks -= step * nsteps;
    switch ((nblocks + group_blocks - 1) / group_blocks) {
    case 1: Step<1, true, 0>::run(k, in, out, nblocks); break;
    case 2: Step<2, true, 0>::run(k, in, out, nblocks); break;
    case 3: Step<3, true, 0>::run(k, in, out, nblocks); break;
    case 4: Step<4, true, 0>::run(k, in, out, nblocks); break;
    default: break; // nblocks == 0
    }
}

void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    ecb<EncryptStep>(state, in, out, nblocks);
}

void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    ecb<DecryptStep>(state, in, out, nblocks);
}

// CTR: rounds 0..3 of G groups from the segment's constants h and the counters' low 32
// bits (lane p of group g holds low + 16g + offset(p); see lea_x86.hpp for the formulas),
// then rounds 4.. as usual.
template <int G> inline void ctr_head(Lanes<G> &s, const LeaRoundKeys &rk, const LeaCtrHead &h,
                                      V low)
{
    // Byte-swap each 32-bit word: X[3] = load_le32 of the big-endian low word.
    const V bswap = _mm512_broadcast_i32x4(
        _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
    const uint32_t *k0 = rk.rk[0], *k1 = rk.rk[1], *k2 = rk.rk[2], *k3 = rk.rk[3];
    for (int g = 0; g < G; g++) {
        V x3 = _mm512_shuffle_epi8(vadd(low, bc(16 * g)), bswap);
        V r0c = ror<3>(vadd(vxor(x3, bc(k0[5])), bc(h.c[0])));       // round 0: X1[2]
        V r1b = ror<5>(vadd(bc(h.c[1]), vxor(r0c, bc(k1[3]))));      // round 1: X2[1]
        V r1c = ror<3>(vadd(vxor(r0c, bc(k1[4])), bc(h.c[2])));      // round 1: X2[2]
        V r2a = rol<9>(vadd(bc(h.c[3]), vxor(r1b, bc(k2[1]))));      // round 2: X3[0]
        V r2b = ror<5>(vadd(vxor(r1b, bc(k2[2])), vxor(r1c, bc(k2[3]))));
        V r2c = ror<3>(vadd(vxor(r1c, bc(k2[4])), bc(h.c[4])));
        s.a[g] = rol<9>(vadd(vxor(r2a, bc(k3[0])), vxor(r2b, bc(k3[1])))); // round 3: X4
        s.b[g] = ror<5>(vadd(vxor(r2b, bc(k3[2])), vxor(r2c, bc(k3[3]))));
        s.c[g] = ror<3>(vadd(vxor(r2c, bc(k3[4])), bc(h.c[5])));
        s.d[g] = r2a;
    }
}

template <int G, bool Masked, int R>
void ctr_step(const LeaRoundKeys &rk, const LeaCtrHead &h, V low, const uint8_t *in,
              uint8_t *out, size_t n)
{
    Lanes<G> s;
    ctr_head<G>(s, rk, h, low);
    encrypt_rounds<G, R>(s, rk, 4);
    for (int g = 0; g < G; g++) {
        transpose(s.a[g], s.b[g], s.c[g], s.d[g]);
        store<Masked>(out, n, 4 * g, vxor(s.a[g], load<Masked>(in, n, 4 * g)));
        store<Masked>(out, n, 4 * g + 1, vxor(s.b[g], load<Masked>(in, n, 4 * g + 1)));
        store<Masked>(out, n, 4 * g + 2, vxor(s.c[g], load<Masked>(in, n, 4 * g + 2)));
        store<Masked>(out, n, 4 * g + 3, vxor(s.d[g], load<Masked>(in, n, 4 * g + 3)));
    }
}

// Whole steps of one segment; returns the counters' low words after them.
template <int R>
V ctr_whole_steps(const LeaRoundKeys &rk, const LeaCtrHead &h, V low, const uint8_t *in,
                  uint8_t *out, size_t nsteps)
{
    constexpr size_t step = step_groups * group_blocks;
    for (size_t i = 0; i < nsteps; i++) {
        ctr_step<step_groups, false, R>(rk, h, low, in + 16 * step * i, out + 16 * step * i, step);
        low = vadd(low, bc(step));
    }
    return low;
}

// n blocks of one segment: counters whose low 32 bits run from h.low up without wrapping.
void ctr_segment(const Avx512Keys &k, const LeaCtrHead &h, const uint8_t *in, uint8_t *out,
                 size_t n)
{
    constexpr size_t step = step_groups * group_blocks;
    // Lane p = 4l + i of a group holds block 4i + l (see transpose).
    const V offset = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    V low = vadd(bc(h.low), offset);
    size_t nsteps = n / step;
    switch (k.enc.rounds) {
    case 24: low = ctr_whole_steps<24>(k.enc, h, low, in, out, nsteps); break;
    case 28: low = ctr_whole_steps<28>(k.enc, h, low, in, out, nsteps); break;
    default: low = ctr_whole_steps<32>(k.enc, h, low, in, out, nsteps); break;
    }
    in += 16 * step * nsteps;
    out += 16 * step * nsteps;
    n -= step * nsteps;
    switch ((n + group_blocks - 1) / group_blocks) {
    case 1: ctr_step<1, true, 0>(k.enc, h, low, in, out, n); break;
    case 2: ctr_step<2, true, 0>(k.enc, h, low, in, out, n); break;
    case 3: ctr_step<3, true, 0>(k.enc, h, low, in, out, n); break;
    case 4: ctr_step<4, true, 0>(k.enc, h, low, in, out, n); break;
    default: break; // n == 0
    }
}

} // namespace

} // namespace kc

#pragma GCC diagnostic pop
#pragma GCC pop_options

namespace kc {

namespace {

bool supports(Cipher c)
{
    return c == Cipher::lea128 || c == Cipher::lea192 || c == Cipher::lea256;
}

void set_key(void *state, Cipher c, const uint8_t *key)
{
    Avx512Keys &k = *static_cast<Avx512Keys *>(state);
    lea_key_schedule(c, key, &k.enc);
    for (int i = 0; i < k.enc.rounds; i++)
        lea_x86_decrypt_words(k.enc.rk[i], k.dec[i]);
}

// Splits the call into segments of constant upper 96 counter bits (public: the counter is
// not secret), with the scalar precomputation once per segment.
void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                    size_t nblocks)
{
    const Avx512Keys &k = *static_cast<const Avx512Keys *>(state);
    uint8_t next[16];
    std::memcpy(next, ctr, 16);
    while (nblocks > 0) {
        LeaCtrHead h = lea_x86_ctr_head(k.enc, next);
        uint64_t room = lea_x86_segment_room(h.low);
        size_t n = nblocks < room ? nblocks : (size_t)room;
        ctr_segment(k, h, in, out, n);
        secure_wipe(&h, sizeof h);
        counter_add(next, 16, n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

} // namespace

extern const Kernel lea_avx512_kernel = {
    "lea/avx512",
    "lea",
    16,    // block_bytes
    64,    // batch_blocks: four groups of 16 blocks (one word per zmm lane)
    true,  // constant_time: ARX only (see the file header)
    feat_avx512f | feat_avx512bw, // bw: vpshufb zmm, the counter's byte swap
    40,    // rank: AVX-512
    sizeof(Avx512Keys),
    supports,
    set_key,
    encrypt_blocks,
    decrypt_blocks,
    ctr_xor_blocks,
};

} // namespace kc
