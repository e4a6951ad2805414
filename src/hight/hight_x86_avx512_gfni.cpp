// hight/avx512-gfni: HIGHT (TTAS.KO-12.0040/R1) byte-sliced over 64 blocks per group of eight
// zmm registers, two groups interleaved, F0 and F1 each one GF2P8AFFINEQB.
//
// Technique. HIGHT is ARX on the eight bytes of a 64-bit block, so the blocks are transposed
// ("byte-sliced"): register j of a group holds byte X_j of 64 blocks, and one VPADDB/VPXORQ
// does the same byte operation for all of them. F0(x) = ROL1^ROL2^ROL7 and F1(x) =
// ROL3^ROL4^ROL6 are linear maps of GF(2)^8, so each is one GF2P8AFFINEQB with a fixed 8x8
// bit matrix. The round's byte rotation of the state (X_{i+1,1} = X_{i,0}, ...) is register
// renaming in the unrolled code: round r updates the odd bytes of the state seen as
// a_j = x[(j - r) mod 8], in place, so eight rounds bring the names back and no move is spent.
// The last round of the standard, which has no rotation, is the same in-place update without
// the renaming. Two groups (128 blocks) run interleaved so that the two vector ports always
// have independent work beside the chain F (GF2P8AFFINEQB, 3 cycles or more) -> add -> XOR.
// A round is 12 vector operations per group: 4 GF2P8AFFINEQB (port 0 only on Intel cores)
// and 8 byte additions or XORs; the subkeys are 4 VPBROADCASTD loads shared by both groups.
//
// Transposes. Blocks go in through four stages of byte unpacks and come out through three
// (byte, word, dword unpacks), all within 128-bit lanes. These put the blocks in a fixed
// order across the 64 byte positions of a register (slice_order below); the order is the
// same both ways, so ECB needs nothing more, and CTR builds its counters directly in that
// order, byte-sliced, so CTR has no input transpose at all.
//
// CTR also folds the part of rounds 0..6 that is the same for all lanes (hight_x86_fold.hpp):
// about 10% of its time.
//
// Short inputs: the last step of a call is one group (up to 64 blocks) or two, with masked
// loads and stores of whole blocks (AVX-512 mask registers); never one block at a time.
//
// Constant-time: the only data-dependent operations are byte additions, XORs, in-register
// GF2P8AFFINEQB with constant matrices and in-register shuffles with constant indices. Round
// keys are read at addresses fixed by the public round number; load and store masks and
// the branches of the counter code depend on the public length and counter only. CTR's folded
// values come from the same vector operations on one broadcast block; they live on the stack
// and are wiped before return. No table is indexed by key or data, and no branch depends on
// them.
#if defined(__x86_64__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/kernel.hpp"
#include "core/wipe.hpp"
#include "hight/hight.hpp"
#include "hight/hight_x86_fold.hpp"

namespace kc {

namespace {

// The round keys of hight::HightRoundKeys, each byte repeated four times: VPBROADCASTD from
// memory is a plain load (a byte broadcast from memory also takes a shuffle uop).
struct HightKeysAvx512 {
    uint32_t wk[8];
    uint32_t sk[128];
};

// GF2P8AFFINEQB matrix of x -> ROL_a(x) ^ ROL_b(x) ^ ROL_c(x): byte 7-i of the matrix is the
// row that gives result bit i, and ROL_k takes result bit i from input bit i-k (mod 8).
constexpr uint64_t rotations_matrix(int a, int b, int c)
{
    uint64_t m = 0;
    for (int i = 0; i < 8; i++) {
        unsigned row = (1u << ((i - a) & 7)) ^ (1u << ((i - b) & 7)) ^ (1u << ((i - c) & 7));
        m |= (uint64_t)row << (8 * (7 - i));
    }
    return m;
}

constexpr uint64_t f0_matrix = rotations_matrix(1, 2, 7);
constexpr uint64_t f1_matrix = rotations_matrix(3, 4, 6);

// Which block of a group of 64 each byte position of a slice register holds, as the unpack
// transposes leave them: position q = 16*lane + p holds block 8*(p/2) + 2*lane + p%2.
struct SliceOrder {
    uint8_t block[64];
};

constexpr SliceOrder make_slice_order()
{
    SliceOrder s{};
    for (int q = 0; q < 64; q++)
        s.block[q] = (uint8_t)(8 * ((q & 15) >> 1) + 2 * (q >> 4) + (q & 1));
    return s;
}

alignas(64) constexpr SliceOrder slice_order = make_slice_order();

constexpr size_t group_blocks = 64;

using namespace hight_fold; // CTR's folded rounds: see hight_x86_fold.hpp

} // namespace

} // namespace kc

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,gfni")

namespace kc {

namespace {

using V = __m512i;

#define KC_HIGHT_INLINE [[gnu::always_inline]] inline

KC_HIGHT_INLINE V bcast(uint32_t k) { return _mm512_set1_epi32((int)k); }
KC_HIGHT_INLINE V add8(V a, V b) { return _mm512_add_epi8(a, b); }
KC_HIGHT_INLINE V sub8(V a, V b) { return _mm512_sub_epi8(a, b); }
KC_HIGHT_INLINE V xor8(V a, V b) { return _mm512_xor_si512(a, b); }
KC_HIGHT_INLINE V f0(V x)
{
    return _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)f0_matrix), 0);
}
KC_HIGHT_INLINE V f1(V x)
{
    return _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)f1_matrix), 0);
}

// Round r (0..31) on G groups, the state seen as a_j = x[(j - r) mod 8]:
//   a_7 ^= F0(a_6) + SK_{4r+3}    a_1 += F1(a_0) ^ SK_{4r}
//   a_3 ^= F0(a_2) + SK_{4r+1}    a_5 += F1(a_4) ^ SK_{4r+2}
// which is the standard's round i = r with the byte rotation left to the next round's names.
template <int R, int G>
KC_HIGHT_INLINE void encrypt_round(V (&x)[G][8], const uint32_t *sk)
{
    constexpr int a0 = (0 - R) & 7, a1 = (1 - R) & 7, a2 = (2 - R) & 7, a3 = (3 - R) & 7;
    constexpr int a4 = (4 - R) & 7, a5 = (5 - R) & 7, a6 = (6 - R) & 7, a7 = (7 - R) & 7;
    const V k0 = bcast(sk[0]), k1 = bcast(sk[1]), k2 = bcast(sk[2]), k3 = bcast(sk[3]);
#pragma GCC unroll 2
    for (int g = 0; g < G; g++) {
        x[g][a7] = xor8(x[g][a7], add8(f0(x[g][a6]), k3));
        x[g][a1] = add8(x[g][a1], xor8(f1(x[g][a0]), k0));
        x[g][a3] = xor8(x[g][a3], add8(f0(x[g][a2]), k1));
        x[g][a5] = add8(x[g][a5], xor8(f1(x[g][a4]), k2));
    }
}

// The inverse of encrypt_round<R>: the even a_j are unchanged by it, so the same F-values
// are recomputed and taken off again.
template <int R, int G>
KC_HIGHT_INLINE void decrypt_round(V (&x)[G][8], const uint32_t *sk)
{
    constexpr int a0 = (0 - R) & 7, a1 = (1 - R) & 7, a2 = (2 - R) & 7, a3 = (3 - R) & 7;
    constexpr int a4 = (4 - R) & 7, a5 = (5 - R) & 7, a6 = (6 - R) & 7, a7 = (7 - R) & 7;
    const V k0 = bcast(sk[0]), k1 = bcast(sk[1]), k2 = bcast(sk[2]), k3 = bcast(sk[3]);
#pragma GCC unroll 2
    for (int g = 0; g < G; g++) {
        x[g][a7] = xor8(x[g][a7], add8(f0(x[g][a6]), k3));
        x[g][a1] = sub8(x[g][a1], xor8(f1(x[g][a0]), k0));
        x[g][a3] = xor8(x[g][a3], add8(f0(x[g][a2]), k1));
        x[g][a5] = sub8(x[g][a5], xor8(f1(x[g][a4]), k2));
    }
}

// Rounds From..7 of the first eight, unrolled, then rounds 8..31.
template <int R, int G>
KC_HIGHT_INLINE void encrypt_rounds_to_8(V (&x)[G][8], const uint32_t *sk)
{
    if constexpr (R < 8) {
        encrypt_round<R>(x, sk + 4 * R);
        encrypt_rounds_to_8<R + 1>(x, sk);
    }
}

template <int From, int G>
KC_HIGHT_INLINE void encrypt_rounds_from(V (&x)[G][8], const uint32_t *sk)
{
    encrypt_rounds_to_8<From>(x, sk);
    for (int i = 1; i < 4; i++) {
        const uint32_t *s = sk + 32 * i;
        encrypt_round<0>(x, s);
        encrypt_round<1>(x, s + 4);
        encrypt_round<2>(x, s + 8);
        encrypt_round<3>(x, s + 12);
        encrypt_round<4>(x, s + 16);
        encrypt_round<5>(x, s + 20);
        encrypt_round<6>(x, s + 24);
        encrypt_round<7>(x, s + 28);
    }
}

// Final transformation: after round 31 the state X_j sits in x[(j + 1) mod 8]; on exit
// x[g][j] = C_j.
template <int G>
KC_HIGHT_INLINE void final_transform(const HightKeysAvx512 &k, V (&x)[G][8])
{
    const V w4 = bcast(k.wk[4]), w5 = bcast(k.wk[5]), w6 = bcast(k.wk[6]), w7 = bcast(k.wk[7]);
    for (int g = 0; g < G; g++) {
        V s[8];
        for (int j = 0; j < 8; j++)
            s[j] = x[g][(j + 1) & 7];
        x[g][0] = add8(s[0], w4);
        x[g][1] = s[1];
        x[g][2] = xor8(s[2], w5);
        x[g][3] = s[3];
        x[g][4] = add8(s[4], w6);
        x[g][5] = s[5];
        x[g][6] = xor8(s[6], w7);
        x[g][7] = s[7];
    }
}

// Initial transformation, 32 rounds and final transformation: x[g][j] = P_j in, C_j out.
template <int G>
KC_HIGHT_INLINE void encrypt_slices(const HightKeysAvx512 &k, V (&x)[G][8])
{
    const V w0 = bcast(k.wk[0]), w1 = bcast(k.wk[1]), w2 = bcast(k.wk[2]), w3 = bcast(k.wk[3]);
    for (int g = 0; g < G; g++) {
        x[g][0] = add8(x[g][0], w0);
        x[g][2] = xor8(x[g][2], w1);
        x[g][4] = add8(x[g][4], w2);
        x[g][6] = xor8(x[g][6], w3);
    }
    encrypt_rounds_from<0>(x, k.sk);
    final_transform(k, x);
}

// The inverse of encrypt_slices: on entry x[g][j] = C_j, on exit x[g][j] = P_j.
template <int G>
KC_HIGHT_INLINE void decrypt_slices(const HightKeysAvx512 &k, V (&x)[G][8])
{
    const V w4 = bcast(k.wk[4]), w5 = bcast(k.wk[5]), w6 = bcast(k.wk[6]), w7 = bcast(k.wk[7]);
    for (int g = 0; g < G; g++) {
        V c[8];
        for (int j = 0; j < 8; j++)
            c[j] = x[g][j];
        c[0] = sub8(c[0], w4);
        c[2] = xor8(c[2], w5);
        c[4] = sub8(c[4], w6);
        c[6] = xor8(c[6], w7);
        for (int j = 0; j < 8; j++)
            x[g][(j + 1) & 7] = c[j];
    }
    const uint32_t *sk = k.sk + 96;
    for (int i = 0; i < 4; i++, sk -= 32) {
        decrypt_round<7>(x, sk + 28);
        decrypt_round<6>(x, sk + 24);
        decrypt_round<5>(x, sk + 20);
        decrypt_round<4>(x, sk + 16);
        decrypt_round<3>(x, sk + 12);
        decrypt_round<2>(x, sk + 8);
        decrypt_round<1>(x, sk + 4);
        decrypt_round<0>(x, sk);
    }
    const V w0 = bcast(k.wk[0]), w1 = bcast(k.wk[1]), w2 = bcast(k.wk[2]), w3 = bcast(k.wk[3]);
    for (int g = 0; g < G; g++) {
        x[g][0] = sub8(x[g][0], w0);
        x[g][2] = xor8(x[g][2], w1);
        x[g][4] = sub8(x[g][4], w2);
        x[g][6] = xor8(x[g][6], w3);
    }
}

// Mask of the blocks of register r (blocks 8r..8r+7 of a group) among the first n.
KC_HIGHT_INLINE __mmask8 register_mask(size_t n, int r)
{
    size_t have = n > (size_t)(8 * r) ? n - 8 * r : 0;
    return (__mmask8)((1u << (have < 8 ? have : 8)) - 1);
}

// One unpack stage on the pairs of registers whose index differs in bit `bit`.
KC_HIGHT_INLINE void unpack_bytes_stage(V *v, int bit)
{
    for (int a = 0; a < 8; a++) {
        if (a & (1 << bit))
            continue;
        int b = a | (1 << bit);
        V lo = _mm512_unpacklo_epi8(v[a], v[b]), hi = _mm512_unpackhi_epi8(v[a], v[b]);
        v[a] = lo;
        v[b] = hi;
    }
}

// Loads the first n (<= 64) blocks at `in` and byte-slices them: x[j] = byte j of each block,
// blocks in slice_order. Within a 128-bit lane a byte's position is (block i of the lane's
// two, byte j); each byte-unpack stage moves the top bit of the position into the register
// index and a register-index bit into the bottom of the position, so after four stages the
// register index holds j, and the position holds (register, i).
KC_HIGHT_INLINE void load_slices(const uint8_t *in, size_t n, V *x)
{
    V v[8];
    for (int r = 0; r < 8; r++)
        v[r] = _mm512_maskz_loadu_epi64(register_mask(n, r), in + 64 * r);
    unpack_bytes_stage(v, 2);
    unpack_bytes_stage(v, 1);
    unpack_bytes_stage(v, 0);
    unpack_bytes_stage(v, 2);
    // The stages leave byte j in register 0, 4, 1, 5, 2, 6, 3, 7 for j = 0..7.
    x[0] = v[0];
    x[1] = v[4];
    x[2] = v[1];
    x[3] = v[5];
    x[4] = v[2];
    x[5] = v[6];
    x[6] = v[3];
    x[7] = v[7];
}

// The inverse of load_slices' transpose: byte, word and dword unpacks give back 8 registers
// of 8 whole blocks each, register r holding blocks 8r..8r+7.
KC_HIGHT_INLINE void slices_to_blocks(const V *x, V *w)
{
    V t[8], u[8];
    for (int m = 0; m < 4; m++) {
        t[2 * m] = _mm512_unpacklo_epi8(x[2 * m], x[2 * m + 1]);
        t[2 * m + 1] = _mm512_unpackhi_epi8(x[2 * m], x[2 * m + 1]);
    }
    for (int m = 0; m < 4; m++) { // pairs (0,2) (1,3) (4,6) (5,7)
        int a = (m & 1) + 4 * (m >> 1);
        u[2 * m] = _mm512_unpacklo_epi16(t[a], t[a + 2]);
        u[2 * m + 1] = _mm512_unpackhi_epi16(t[a], t[a + 2]);
    }
    // The maskz forms with a full mask compile to plain VPUNPCK[LH]DQ; the plain intrinsics
    // draw a false -Wmaybe-uninitialized from GCC 12's headers.
    for (int i = 0; i < 4; i++) {
        w[2 * i] = _mm512_maskz_unpacklo_epi32(0xffff, u[i], u[i + 4]);
        w[2 * i + 1] = _mm512_maskz_unpackhi_epi32(0xffff, u[i], u[i + 4]);
    }
}

KC_HIGHT_INLINE void store_slices(const V *x, uint8_t *out, size_t n)
{
    V w[8];
    slices_to_blocks(x, w);
    for (int r = 0; r < 8; r++)
        _mm512_mask_storeu_epi64(out + 64 * r, register_mask(n, r), w[r]);
}

// out = in XOR (the blocks in x), for the first n blocks.
KC_HIGHT_INLINE void xor_store_slices(const V *x, const uint8_t *in, uint8_t *out, size_t n)
{
    V w[8];
    slices_to_blocks(x, w);
    for (int r = 0; r < 8; r++) {
        __mmask8 m = register_mask(n, r);
        V d = _mm512_maskz_loadu_epi64(m, in + 64 * r);
        _mm512_mask_storeu_epi64(out + 64 * r, m, xor8(d, w[r]));
    }
}

// The counters base + slice_order[q] (mod 2^64), byte-sliced: x[j] = byte j (big-endian) of
// each. The low byte is one byte addition; the 64 counters carry out of it at most once, so
// bytes 0..6 are those of `high` or of high + 256, picked per lane by the carry mask.
KC_HIGHT_INLINE void counter_slices(uint64_t base, V *x)
{
    const V order = _mm512_load_si512(slice_order.block);
    const V low = add8(_mm512_set1_epi8((char)base), order);
    const __mmask64 carry = _mm512_cmplt_epu8_mask(low, order);
    const uint64_t high = base & ~(uint64_t)0xff;
    const V h0 = _mm512_set1_epi64((long long)__builtin_bswap64(high));
    if (carry == 0) { // public: the counter is not secret
        for (int j = 0; j < 7; j++)
            x[j] = _mm512_shuffle_epi8(h0, _mm512_set1_epi8((char)j));
    } else {
        const V h1 = _mm512_set1_epi64((long long)__builtin_bswap64(high + 0x100));
        for (int j = 0; j < 7; j++) {
            const V idx = _mm512_set1_epi8((char)j);
            x[j] = _mm512_mask_shuffle_epi8(_mm512_shuffle_epi8(h0, idx), carry, h1, idx);
        }
    }
    x[7] = low;
}

KC_HIGHT_INLINE size_t group_count(size_t n, int g)
{
    size_t first = group_blocks * g;
    return n > first ? n - first : 0;
}

// ECB over G groups: n blocks, 64 * (G - 1) < n <= 64 * G.
template <int G, bool Decrypt>
KC_HIGHT_INLINE void ecb_groups(const HightKeysAvx512 &k, const uint8_t *in, uint8_t *out, size_t n)
{
    V x[G][8];
    for (int g = 0; g < G; g++)
        load_slices(in + 512 * g, group_count(n, g), x[g]);
    if constexpr (Decrypt)
        decrypt_slices(k, x);
    else
        encrypt_slices(k, x);
    for (int g = 0; g < G; g++)
        store_slices(x[g], out + 512 * g, group_count(n, g));
}

template <bool Decrypt>
void ecb_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const HightKeysAvx512 &k = *static_cast<const HightKeysAvx512 *>(state);
    for (; nblocks >= 2 * group_blocks; nblocks -= 2 * group_blocks) {
        ecb_groups<2, Decrypt>(k, in, out, 2 * group_blocks);
        in += 16 * group_blocks;
        out += 16 * group_blocks;
    }
    if (nblocks > group_blocks)
        ecb_groups<2, Decrypt>(k, in, out, nblocks);
    else if (nblocks > 0)
        ecb_groups<1, Decrypt>(k, in, out, nblocks);
}

void avx512_encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    ecb_blocks<false>(state, in, out, nblocks);
}

void avx512_decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    ecb_blocks<true>(state, in, out, nblocks);
}

// CTR over G groups from counter `base`: n blocks, 64 * (G - 1) < n <= 64 * G.
template <int G>
KC_HIGHT_INLINE void ctr_groups(const HightKeysAvx512 &k, uint64_t base, const uint8_t *in,
                                uint8_t *out, size_t n)
{
    V x[G][8];
    for (int g = 0; g < G; g++)
        counter_slices(base + group_blocks * g, x[g]);
    encrypt_slices(k, x);
    for (int g = 0; g < G; g++)
        xor_store_slices(x[g], in + 512 * g, out + 512 * g, group_count(n, g));
}

// The lane-independent vectors of the folded rounds (fold_slot) for the counters whose
// bytes 0..5 are those of high << 16.
struct CtrFold {
    uint64_t high; // ~0: none yet
    V value[fold_slot_count];
};

// One update of round R on the constant bytes c of a block (the bytes that vary are never
// read): constant-on-constant updates are done, and the vectors the lanes need are recorded.
template <int R, unsigned Varying, int U, bool Xor>
KC_HIGHT_INLINE void fold_update(V (&c)[8], CtrFold &f, uint32_t sk)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    constexpr bool even_varies = (Varying >> e) & 1, odd_varies = (Varying >> o) & 1;
    constexpr int slot = fold_slot(R, o);
    if constexpr (even_varies && !odd_varies) {
        f.value[slot] = c[o];
    } else if constexpr (!even_varies) {
        const V key = bcast(sk);
        const V term = Xor ? add8(f0(c[e]), key) : xor8(f1(c[e]), key);
        if constexpr (odd_varies)
            f.value[slot] = term;
        else
            c[o] = Xor ? xor8(c[o], term) : add8(c[o], term);
    }
}

template <int R, unsigned Varying>
KC_HIGHT_INLINE void fold_rounds(V (&c)[8], CtrFold &f, const uint32_t *sk)
{
    if constexpr (R < folded_round_count) {
        fold_update<R, Varying, 0, true>(c, f, sk[4 * R + 3]);
        fold_update<R, Varying, 1, false>(c, f, sk[4 * R]);
        fold_update<R, Varying, 2, true>(c, f, sk[4 * R + 1]);
        fold_update<R, Varying, 3, false>(c, f, sk[4 * R + 2]);
        fold_rounds<R + 1, varying_after_round(R, Varying)>(c, f, sk);
    }
}

// Once per message and per 2^16 blocks: about 45 vector operations.
void fold_counter_rounds(const HightKeysAvx512 &k, uint64_t high, CtrFold *f)
{
    const V h = _mm512_set1_epi64((long long)__builtin_bswap64(high << 16));
    V c[8];
    for (int j = 0; j < 8; j++) // c[6] and c[7] are placeholders: those bytes vary
        c[j] = _mm512_shuffle_epi8(h, _mm512_set1_epi8((char)j));
    c[0] = add8(c[0], bcast(k.wk[0]));
    c[2] = xor8(c[2], bcast(k.wk[1]));
    c[4] = add8(c[4], bcast(k.wk[2]));
    fold_rounds<0, initial_varying>(c, *f, k.sk);
    f->high = high;
}

// One update of a folded round on the lanes: the full update where its F-term varies (from
// the folded value of the target byte if that did not vary yet), one operation with the
// folded F-term where only the target varies, nothing where neither does.
template <int R, unsigned Varying, int U, bool Xor, int G>
KC_HIGHT_INLINE void folded_update(V (&x)[G][8], const CtrFold &f, uint32_t sk)
{
    constexpr int o = updated_byte(R, U), e = source_byte(R, U);
    constexpr bool target_varies = (Varying >> o) & 1;
    constexpr int slot = fold_slot(R, o);
    if constexpr ((Varying >> e) & 1) {
        const V key = bcast(sk);
        for (int g = 0; g < G; g++) {
            V t;
            if constexpr (target_varies)
                t = x[g][o];
            else
                t = f.value[slot];
            x[g][o] = Xor ? xor8(t, add8(f0(x[g][e]), key)) : add8(t, xor8(f1(x[g][e]), key));
        }
    } else if constexpr (target_varies) {
        const V d = f.value[slot];
        for (int g = 0; g < G; g++)
            x[g][o] = Xor ? xor8(x[g][o], d) : add8(x[g][o], d);
    }
}

template <int R, unsigned Varying, int G>
KC_HIGHT_INLINE void folded_rounds(V (&x)[G][8], const CtrFold &f, const uint32_t *sk)
{
    if constexpr (R < folded_round_count) {
        folded_update<R, Varying, 0, true>(x, f, sk[4 * R + 3]);
        folded_update<R, Varying, 1, false>(x, f, sk[4 * R]);
        folded_update<R, Varying, 2, true>(x, f, sk[4 * R + 1]);
        folded_update<R, Varying, 3, false>(x, f, sk[4 * R + 2]);
        folded_rounds<R + 1, varying_after_round(R, Varying)>(x, f, sk);
    } else {
        static_assert(Varying == 0xff, "every byte varies after the folded rounds");
    }
}

// Bytes 6 and 7 of the counters base + slice_order[q], byte-sliced, byte 6 whitened; the
// caller has checked that no counter of the step crosses a multiple of 2^16.
KC_HIGHT_INLINE void counter_low_slices(uint64_t base, V wk3, V *x)
{
    const V order = _mm512_load_si512(slice_order.block);
    const V low = add8(_mm512_set1_epi8((char)base), order);
    const __mmask64 carry = _mm512_cmplt_epu8_mask(low, order);
    const V b6 = _mm512_set1_epi8((char)(base >> 8));
    x[6] = xor8(_mm512_mask_add_epi8(b6, carry, b6, _mm512_set1_epi8(1)), wk3);
    x[7] = low;
}

template <int G>
KC_HIGHT_INLINE void ctr_groups_folded(const HightKeysAvx512 &k, const CtrFold &f, uint64_t base,
                                       const uint8_t *in, uint8_t *out, size_t n)
{
    V x[G][8];
    const V wk3 = bcast(k.wk[3]);
    for (int g = 0; g < G; g++)
        counter_low_slices(base + group_blocks * g, wk3, x[g]);
    folded_rounds<0, initial_varying>(x, f, k.sk);
    encrypt_rounds_from<folded_round_count>(x, k.sk);
    final_transform(k, x);
    for (int g = 0; g < G; g++)
        xor_store_slices(x[g], in + 512 * g, out + 512 * g, group_count(n, g));
}

// G groups from counter `base`: folded when the 64 * G counters share counter >> 16.
template <int G>
KC_HIGHT_INLINE void ctr_step(const HightKeysAvx512 &k, CtrFold &f, uint64_t base,
                              const uint8_t *in, uint8_t *out, size_t n)
{
    if ((base & 0xffff) <= 0x10000 - group_blocks * G) { // public: the counter
        if (f.high != base >> 16)
            fold_counter_rounds(k, base >> 16, &f);
        ctr_groups_folded<G>(k, f, base, in, out, n);
    } else {
        ctr_groups<G>(k, base, in, out, n);
    }
}

void avx512_ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                           size_t nblocks)
{
    const HightKeysAvx512 &k = *static_cast<const HightKeysAvx512 *>(state);
    uint64_t base;
    std::memcpy(&base, ctr, 8);
    base = __builtin_bswap64(base); // the counter is the whole block, big-endian
    CtrFold fold;
    fold.high = ~(uint64_t)0;
    for (; nblocks >= 2 * group_blocks; nblocks -= 2 * group_blocks) {
        ctr_step<2>(k, fold, base, in, out, 2 * group_blocks);
        base += 2 * group_blocks;
        in += 16 * group_blocks;
        out += 16 * group_blocks;
    }
    if (nblocks > group_blocks)
        ctr_step<2>(k, fold, base, in, out, nblocks);
    else if (nblocks > 0)
        ctr_step<1>(k, fold, base, in, out, nblocks);
    secure_wipe(&fold, sizeof fold); // round values derived from the key
}

#undef KC_HIGHT_INLINE

} // namespace

} // namespace kc

#pragma GCC pop_options

namespace kc {

namespace {

bool avx512_supports(Cipher c) { return c == Cipher::hight; }

// The family's key schedule, then each round-key byte repeated over a 32-bit word.
void avx512_set_key(void *state, Cipher, const uint8_t *key)
{
    HightRoundKeys rk;
    hight_key_schedule(key, &rk);
    HightKeysAvx512 *k = static_cast<HightKeysAvx512 *>(state);
    for (int i = 0; i < 8; i++)
        k->wk[i] = rk.wk[i] * 0x01010101u;
    for (int i = 0; i < 128; i++)
        k->sk[i] = rk.sk[i] * 0x01010101u;
    secure_wipe(&rk, sizeof rk);
}

} // namespace

extern const Kernel hight_avx512_gfni_kernel = {
    "hight/avx512-gfni",
    "hight",
    8,   // block_bytes
    128, // batch_blocks: two interleaved groups of 64
    true, // constant_time: byte-sliced ARX, GF2P8AFFINEQB, no secret index or branch (header)
    feat_avx512f | feat_avx512bw | feat_avx512vl | feat_gfni,
    45, // rank: AVX-512 with GFNI
    sizeof(HightKeysAvx512),
    avx512_supports,
    avx512_set_key,
    avx512_encrypt_blocks,
    avx512_decrypt_blocks,
    avx512_ctr_xor_blocks,
};

} // namespace kc

#endif // __x86_64__
