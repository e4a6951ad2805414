// lea/neon: LEA on ARMv8 NEON, word-sliced: a group of four registers holds four blocks, one
// word of each per register, and a step runs four groups (16 blocks) at once.
//
// Technique. LD4 of 64 bytes (four 32-bit elements per structure) puts word j of four
// consecutive blocks into register j: the loads transpose, ST4 transposes back, and no
// shuffle is spent. A round (TTAK.KO-12.0223, encryption) is then six XORs with round-key
// words (LD1R broadcasts), three additions and three rotations, each rotation a SHL and an
// SRI (shift right and insert): 15 instructions per round and four blocks. Four groups give
// the two vector pipes independent work while one group's chain waits. Decryption uses the
// words of lea_sliced_decrypt_words (plain C++ shared with the x86 kernels despite the header's
// name). CTR builds the counters' low words in registers and skips the parts of rounds 0..3
// that depend only on the upper 96 counter bits (the precomputation in lea/lea_sliced.hpp).
// A last partial group runs as a whole one on a zero-padded stack copy.
//
// Constant-time: ARX only (XOR, 32-bit add/sub, fixed shifts), loads and stores at addresses
// fixed by the public length, round keys at addresses fixed by the public round number.
#if defined(__aarch64__)
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/counter.hpp"
#include "core/kernel.hpp"
#include "core/wipe.hpp"
#include "lea/lea.hpp"
#include "lea/lea_sliced.hpp"

namespace kc {
namespace {

using V = uint32x4_t;
constexpr size_t group_blocks = 4, step_groups = 4;

struct NeonKeys {
    LeaRoundKeys rk;
    uint32_t dec[lea_max_rounds][6];
};

inline V key(const uint32_t *w) { return vld1q_dup_u32(w); }
template <int R> inline V rol(V x) { return vsriq_n_u32(vshlq_n_u32(x, R), x, 32 - R); }
template <int R> inline V ror(V x) { return rol<32 - R>(x); }

template <int G> struct Groups {
    V a[G], b[G], c[G], d[G]; // words 0..3
};

// One round; the new X[0] goes where X[3] was, so rounds alternate (a,b,c,d), (d,b,c,a).
template <int G> inline void encrypt_round(V *x0, V *x1, V *x2, V *x3, const uint32_t *k)
{
    const V k0 = key(k), k1 = key(k + 1), k2 = key(k + 2), k3 = key(k + 3), k4 = key(k + 4),
            k5 = key(k + 5);
    for (int g = 0; g < G; g++) {
        const V t0 = vaddq_u32(veorq_u32(x0[g], k0), veorq_u32(x1[g], k1));
        const V t1 = vaddq_u32(veorq_u32(x1[g], k2), veorq_u32(x2[g], k3));
        const V t2 = vaddq_u32(veorq_u32(x2[g], k4), veorq_u32(x3[g], k5));
        x3[g] = rol<9>(t0);
        x1[g] = ror<5>(t1);
        x2[g] = ror<3>(t2);
    }
}

template <int G> inline void encrypt_rounds(Groups<G> &s, const LeaRoundKeys &rk, int first)
{
    for (int i = first; i < rk.rounds; i += 2) {
        encrypt_round<G>(s.a, s.b, s.c, s.d, rk.rk[i]);
        encrypt_round<G>(s.d, s.b, s.c, s.a, rk.rk[i + 1]);
    }
}

// The inverse round with the words w of lea_sliced_decrypt_words (lea_x86_word_sliced.hpp has
// the formulas); the word order turns by one place per round, four rounds bring it back.
template <int G> inline void decrypt_round(V *x0, V *x1, V *x2, V *x3, const uint32_t *w)
{
    const V w0 = key(w), w1 = key(w + 1), w2 = key(w + 2), w3 = key(w + 3), w4 = key(w + 4),
            w5 = key(w + 5);
    for (int g = 0; g < G; g++) {
        const V u1 = vsubq_u32(ror<9>(x0[g]), veorq_u32(x3[g], w0));
        const V u2 = vsubq_u32(rol<5>(x1[g]), veorq_u32(u1, w2));
        const V u3 = vsubq_u32(rol<3>(x2[g]), veorq_u32(u2, w4));
        x0[g] = veorq_u32(u1, w1);
        x1[g] = veorq_u32(u2, w3);
        x2[g] = veorq_u32(u3, w5);
    }
}

template <int G> inline void decrypt_rounds(Groups<G> &s, const NeonKeys &k)
{
    for (int i = k.rk.rounds - 1; i >= 0; i -= 4) {
        decrypt_round<G>(s.a, s.b, s.c, s.d, k.dec[i]);
        decrypt_round<G>(s.d, s.a, s.b, s.c, k.dec[i - 1]);
        decrypt_round<G>(s.c, s.d, s.a, s.b, k.dec[i - 2]);
        decrypt_round<G>(s.b, s.c, s.d, s.a, k.dec[i - 3]);
    }
}

template <int G> inline void load_groups(Groups<G> &s, const uint8_t *in)
{
    for (int g = 0; g < G; g++) {
        const uint32x4x4_t v = vld4q_u32(reinterpret_cast<const uint32_t *>(in + 64 * g));
        s.a[g] = v.val[0], s.b[g] = v.val[1], s.c[g] = v.val[2], s.d[g] = v.val[3];
    }
}

// out = the state, XORed with `in` when Xor (CTR), in block order.
template <int G, bool Xor> inline void store_groups(Groups<G> &s, const uint8_t *in, uint8_t *out)
{
    for (int g = 0; g < G; g++) {
        uint32x4x4_t v = {{s.a[g], s.b[g], s.c[g], s.d[g]}};
        if constexpr (Xor) {
            const uint32x4x4_t d = vld4q_u32(reinterpret_cast<const uint32_t *>(in + 64 * g));
            for (int j = 0; j < 4; j++)
                v.val[j] = veorq_u32(v.val[j], d.val[j]);
        }
        vst4q_u32(reinterpret_cast<uint32_t *>(out + 64 * g), v);
    }
}

template <int G, bool Decrypt> void ecb_step(const NeonKeys &k, const uint8_t *in, uint8_t *out)
{
    Groups<G> s;
    load_groups<G>(s, in);
    if constexpr (Decrypt)
        decrypt_rounds<G>(s, k);
    else
        encrypt_rounds<G>(s, k.rk, 0);
    store_groups<G, false>(s, nullptr, out);
}

// Whole steps of four groups, then single groups, then a partial group on a padded copy.
// step(G, in, out, first_block) computes G whole groups.
template <class Step> void drive(const uint8_t *in, uint8_t *out, size_t n, Step step)
{
    constexpr size_t wide = step_groups * group_blocks;
    size_t first = 0;
    for (; n - first >= wide; first += wide)
        step(std::integral_constant<int, step_groups>{}, in + 16 * first, out + 16 * first, first);
    for (; n - first >= group_blocks; first += group_blocks)
        step(std::integral_constant<int, 1>{}, in + 16 * first, out + 16 * first, first);
    if (n == first)
        return;
    alignas(16) uint8_t buf[16 * group_blocks] = {};
    std::memcpy(buf, in + 16 * first, 16 * (n - first));
    step(std::integral_constant<int, 1>{}, buf, buf, first);
    std::memcpy(out + 16 * first, buf, 16 * (n - first));
    secure_wipe(buf, sizeof buf);
}

template <bool Decrypt> void ecb(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    const NeonKeys &k = *static_cast<const NeonKeys *>(state);
    drive(in, out, n, [&](auto g, const uint8_t *i, uint8_t *o, size_t) {
        ecb_step<decltype(g)::value, Decrypt>(k, i, o);
    });
}

void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    ecb<false>(state, in, out, n);
}

void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t n)
{
    ecb<true>(state, in, out, n);
}

// CTR rounds 0..3 of G groups from the segment's constants (lea_sliced.hpp) and the counters'
// low words: lane b of group g is block first + 4g + b of the segment.
template <int G>
inline void ctr_head(Groups<G> &s, const LeaRoundKeys &rk, const LeaCtrHead &h, uint32_t first)
{
    const uint32_t *k0 = rk.rk[0], *k1 = rk.rk[1], *k2 = rk.rk[2], *k3 = rk.rk[3];
    const uint32_t lanes[4] = {0, 1, 2, 3};
    const V low = vaddq_u32(vdupq_n_u32(h.low + first), vld1q_u32(lanes));
    for (int g = 0; g < G; g++) {
        const V ctr = vaddq_u32(low, vdupq_n_u32(group_blocks * g));
        const V x3 = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(ctr)));
        const V r0c = ror<3>(vaddq_u32(veorq_u32(x3, key(k0 + 5)), vdupq_n_u32(h.c[0])));
        const V r1b = ror<5>(vaddq_u32(vdupq_n_u32(h.c[1]), veorq_u32(r0c, key(k1 + 3))));
        const V r1c = ror<3>(vaddq_u32(veorq_u32(r0c, key(k1 + 4)), vdupq_n_u32(h.c[2])));
        const V r2a = rol<9>(vaddq_u32(vdupq_n_u32(h.c[3]), veorq_u32(r1b, key(k2 + 1))));
        const V r2b = ror<5>(vaddq_u32(veorq_u32(r1b, key(k2 + 2)), veorq_u32(r1c, key(k2 + 3))));
        const V r2c = ror<3>(vaddq_u32(veorq_u32(r1c, key(k2 + 4)), vdupq_n_u32(h.c[4])));
        s.a[g] = rol<9>(vaddq_u32(veorq_u32(r2a, key(k3)), veorq_u32(r2b, key(k3 + 1))));
        s.b[g] = ror<5>(vaddq_u32(veorq_u32(r2b, key(k3 + 2)), veorq_u32(r2c, key(k3 + 3))));
        s.c[g] = ror<3>(vaddq_u32(veorq_u32(r2c, key(k3 + 4)), vdupq_n_u32(h.c[5])));
        s.d[g] = r2a;
    }
}

template <int G>
void ctr_step(const LeaRoundKeys &rk, const LeaCtrHead &h, uint32_t first, const uint8_t *in,
              uint8_t *out)
{
    Groups<G> s;
    ctr_head<G>(s, rk, h, first);
    encrypt_rounds<G>(s, rk, 4);
    store_groups<G, true>(s, in, out);
}

bool supports(Cipher c)
{
    return c == Cipher::lea128 || c == Cipher::lea192 || c == Cipher::lea256;
}

void set_key(void *state, Cipher c, const uint8_t *key)
{
    NeonKeys &k = *static_cast<NeonKeys *>(state);
    lea_key_schedule(c, key, &k.rk);
    for (int i = 0; i < k.rk.rounds; i++)
        lea_sliced_decrypt_words(k.rk.rk[i], k.dec[i]);
}

// Segments of constant upper 96 counter bits (the counter is public), the scalar
// precomputation once per segment.
void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                    size_t nblocks)
{
    const NeonKeys &k = *static_cast<const NeonKeys *>(state);
    uint8_t next[16];
    std::memcpy(next, ctr, 16);
    while (nblocks > 0) {
        LeaCtrHead h = lea_sliced_ctr_head(k.rk, next);
        const uint64_t room = lea_sliced_segment_room(h.low);
        const size_t n = nblocks < room ? nblocks : (size_t)room;
        drive(in, out, n, [&](auto g, const uint8_t *i, uint8_t *o, size_t first) {
            ctr_step<decltype(g)::value>(k.rk, h, (uint32_t)first, i, o);
        });
        secure_wipe(&h, sizeof h);
        counter_add(next, 16, n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

} // namespace

// Descriptor: batch_blocks: four groups of four blocks; constant_time: ARX only (see the file
// header); rank: the only LEA kernel for aarch64 besides lea/ref.
extern const Kernel lea_neon_kernel = {
    "lea/neon", "lea", 16, 16, true, feat_neon, 30, sizeof(NeonKeys),
    supports, set_key, encrypt_blocks, decrypt_blocks, ctr_xor_blocks};

} // namespace kc

#endif // __aarch64__
