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
// CTR also folds the part of rounds 0..6 that is the same for all lanes (hight_fold.hpp):
// about 10% of its time.
//
// Short inputs: the last step of a call is one group (up to 64 blocks) or two, with masked
// loads and stores of whole blocks (AVX-512 mask registers); never one block at a time.
//
// The rounds, the transposes, the folded CTR rounds and the ECB and CTR steps are
// hight_x86_byte_sliced.hpp, shared with hight/avx2; this file holds their operations on zmm
// registers (Zmm: the F-terms, the unpacks, the masked loads and stores, the counters), the
// key layout and CTR_DRBG's bursts.
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
#include <type_traits>

#include "core/kernel.hpp"
#include "core/target_region.hpp"
#include "kit/drbg_accel.hpp"
#include "core/wipe.hpp"
#include "hight/hight.hpp"
#include "hight/hight_gf_matrices.hpp"
#include "hight/hight_fold.hpp"
#include "hight/hight_key_step.hpp"

namespace kc {

namespace {

// The round keys of hight::HightRoundKeys, each byte repeated four times: VPBROADCASTD from
// memory is a plain load (a byte broadcast from memory also takes a shuffle uop).
struct HightKeysAvx512 {
    uint32_t wk[8];
    uint32_t sk[128];
};

using hight_gf::f0_matrix;
using hight_gf::f1_matrix;

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

} // namespace

} // namespace kc

KC_TARGET_PUSH("avx512f,avx512bw,avx512vl,gfni")
#include "hight/hight_x86_byte_sliced.hpp"

namespace kc {

namespace {

namespace sliced = hight_byte_sliced; // compiled for this target: see the include above

#define KC_HIGHT_INLINE [[gnu::always_inline]] inline

// The byte-sliced code's operations (hight_x86_byte_sliced.hpp lists them) on zmm registers.
struct Zmm {
    using vec = __m512i;
    using V = vec;
    using Keys = HightKeysAvx512;

    static constexpr size_t group_blocks = 64;
    static constexpr int step_groups = 2; // two groups interleaved (see the file header)
    static constexpr bool masked = true;  // a partial step uses masked loads and stores
    template <class K> static constexpr bool unroll_all_rounds = false;

    KC_HIGHT_INLINE static V bcast(uint32_t k) { return _mm512_set1_epi32((int)k); }
    KC_HIGHT_INLINE static V add8(V a, V b) { return _mm512_add_epi8(a, b); }
    KC_HIGHT_INLINE static V sub8(V a, V b) { return _mm512_sub_epi8(a, b); }
    KC_HIGHT_INLINE static V xor8(V a, V b) { return _mm512_xor_si512(a, b); }
    KC_HIGHT_INLINE static V f0(V x)
    {
        return _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)f0_matrix), 0);
    }
    KC_HIGHT_INLINE static V f1(V x)
    {
        return _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)f1_matrix), 0);
    }

    // One Keys serves every group; WK_i is a word of four copies of the byte.
    KC_HIGHT_INLINE static const Keys &group_keys(const Keys &k, int) { return k; }
    KC_HIGHT_INLINE static V whitening(const Keys &k, int i) { return bcast(k.wk[i]); }

    // Round r's four subkeys, broadcast once and shared by the groups.
    struct RoundKeys {
        V k0, k1, k2, k3;
    };

    KC_HIGHT_INLINE static RoundKeys round_keys(const HightKeysAvx512 &k, int r)
    {
        const uint32_t *sk = k.sk + 4 * r;
        return {bcast(sk[0]), bcast(sk[1]), bcast(sk[2]), bcast(sk[3])};
    }

    // The F-term of update U (hight_fold.hpp's update_pairs) from the even byte x:
    // F0(x) + SK_{4r+3}, F1(x) ^ SK_{4r}, F0(x) + SK_{4r+1}, F1(x) ^ SK_{4r+2} for U = 0..3.
    template <int U> KC_HIGHT_INLINE static V f_term(V x, const RoundKeys &rk)
    {
        if constexpr (U == 0)
            return add8(f0(x), rk.k3);
        else if constexpr (U == 1)
            return xor8(f1(x), rk.k0);
        else if constexpr (U == 2)
            return add8(f0(x), rk.k1);
        else
            return xor8(f1(x), rk.k2);
    }

    // Mask of the blocks of register r (blocks 8r..8r+7 of a group) among the first n.
    KC_HIGHT_INLINE static __mmask8 register_mask(size_t n, int r)
    {
        size_t have = n > (size_t)(8 * r) ? n - 8 * r : 0;
        return (__mmask8)((1u << (have < 8 ? have : 8)) - 1);
    }

    KC_HIGHT_INLINE static V unpacklo8(V a, V b) { return _mm512_unpacklo_epi8(a, b); }
    KC_HIGHT_INLINE static V unpackhi8(V a, V b) { return _mm512_unpackhi_epi8(a, b); }
    KC_HIGHT_INLINE static V unpacklo16(V a, V b) { return _mm512_unpacklo_epi16(a, b); }
    KC_HIGHT_INLINE static V unpackhi16(V a, V b) { return _mm512_unpackhi_epi16(a, b); }
    // The maskz forms with a full mask compile to plain VPUNPCK[LH]DQ; the plain intrinsics
    // draw a false -Wmaybe-uninitialized from GCC 12's headers.
    KC_HIGHT_INLINE static V unpacklo32(V a, V b) { return _mm512_maskz_unpacklo_epi32(0xffff, a, b); }
    KC_HIGHT_INLINE static V unpackhi32(V a, V b) { return _mm512_maskz_unpackhi_epi32(0xffff, a, b); }

    // Register r of a group (blocks 8r..8r+7), masked to the blocks among the first n.
    KC_HIGHT_INLINE static V load_reg(const uint8_t *p, size_t n, int r)
    {
        return _mm512_maskz_loadu_epi64(register_mask(n, r), p + 64 * r);
    }
    KC_HIGHT_INLINE static void store_reg(uint8_t *p, size_t n, int r, V v)
    {
        _mm512_mask_storeu_epi64(p + 64 * r, register_mask(n, r), v);
    }

    // The counters base + slice_order[q] (mod 2^64), byte-sliced: x[j] = byte j (big-endian)
    // of each. The low byte is one byte addition; the 64 counters carry out of it at most
    // once, so bytes 0..6 are those of `high` or of high + 256, picked per lane by the carry
    // mask. No branch on the carry: CTR_DRBG's counters are its secret V, and a random V's low
    // byte carries a quarter of the time, which mispredicted (HIGHT's bursts ran 175 against
    // 155 ns per request with random counters against counters that never carry).
    KC_HIGHT_INLINE static void counter_slices(uint64_t base, V *x)
    {
        const V order = _mm512_load_si512(slice_order.block);
        const V low = add8(_mm512_set1_epi8((char)base), order);
        const __mmask64 carry = _mm512_cmplt_epu8_mask(low, order);
        const uint64_t high = base & ~(uint64_t)0xff;
        const V h0 = _mm512_set1_epi64((long long)__builtin_bswap64(high));
        const V h1 = _mm512_set1_epi64((long long)__builtin_bswap64(high + 0x100));
        for (int j = 0; j < 7; j++) {
            const V idx = _mm512_set1_epi8((char)j);
            x[j] = _mm512_mask_shuffle_epi8(_mm512_shuffle_epi8(h0, idx), carry, h1, idx);
        }
        x[7] = low;
    }

    // c[j] = byte j of v, big-endian, in every lane.
    KC_HIGHT_INLINE static void splat_be_bytes(uint64_t v, V (&c)[8])
    {
        const V h = _mm512_set1_epi64((long long)__builtin_bswap64(v));
        for (int j = 0; j < 8; j++)
            c[j] = _mm512_shuffle_epi8(h, _mm512_set1_epi8((char)j));
    }

    // Bytes 6 and 7 of the counters base + slice_order[q], byte-sliced, byte 6 whitened; the
    // caller has checked that no counter of the step crosses a multiple of 2^16.
    KC_HIGHT_INLINE static void counter_low_slices(uint64_t base, V wk3, V *x)
    {
        const V order = _mm512_load_si512(slice_order.block);
        const V low = add8(_mm512_set1_epi8((char)base), order);
        const __mmask64 carry = _mm512_cmplt_epu8_mask(low, order);
        const V b6 = _mm512_set1_epi8((char)(base >> 8));
        x[6] = xor8(_mm512_mask_add_epi8(b6, carry, b6, _mm512_set1_epi8(1)), wk3);
        x[7] = low;
    }
};

using V = Zmm::vec;
using Keys = Zmm::Keys;
constexpr size_t group_blocks = Zmm::group_blocks;

// CTR_DRBG's bursts (drbg/burst.hpp) --------------------------------------------------------

// Two key states, one per group: keystream_pair's group 0 runs under a, group 1 under b.
struct PairKeys {
    const Keys *k[2];
};

// A group whose 64 lanes each have their own master key: mk[j] holds byte MK_j of every lane's
// key, and the subkeys are computed where a round needs them (SK_n = MK_src(n) + δ_n, one
// byte addition each), so a round costs 16 operations instead of 12 and no per-lane subkey
// table is ever stored.
struct LaneKeys {
    V mk[16];
    const uint32_t *delta; // delta_words.w, through delta_operands()
};

// Two groups of lanes with keys of their own, interleaved like CTR's two groups.
struct LaneKeyPair {
    LaneKeys g[2];
};

struct DeltaWords {
    uint32_t w[128];
};

constexpr DeltaWords make_delta_words()
{
    DeltaWords d{};
    for (int n = 0; n < 128; n++)
        d.w[n] = hight_key::delta[n] * 0x01010101u;
    return d;
}

alignas(64) constexpr DeltaWords delta_words = make_delta_words();

// δ as memory operands: with the rounds unrolled, GCC otherwise turns each known δ_n into a
// VPBROADCASTB of a constant byte, one more uop per subkey than a VPADDB with a {1to16} load.
KC_HIGHT_INLINE const uint32_t *delta_operands()
{
    const uint32_t *p = delta_words.w;
    asm("" : "+r"(p));
    return p;
}

// Zmm with the bursts' key sources (hight_x86_byte_sliced.hpp, "Key sources") beside one Keys.
struct ZmmBurstKeys : Zmm {
    using Zmm::group_keys;
    using Zmm::round_keys;
    using Zmm::whitening;

    KC_HIGHT_INLINE static const Keys &group_keys(const PairKeys &p, int g) { return *p.k[g]; }

    KC_HIGHT_INLINE static V lane_subkey(const LaneKeys &k, int n)
    {
        return add8(k.mk[hight_key::subkey_source(n)], bcast(k.delta[n]));
    }

    KC_HIGHT_INLINE static const LaneKeys &group_keys(const LaneKeys &k, int) { return k; }
    KC_HIGHT_INLINE static RoundKeys round_keys(const LaneKeys &k, int r)
    {
        return {lane_subkey(k, 4 * r), lane_subkey(k, 4 * r + 1), lane_subkey(k, 4 * r + 2),
                lane_subkey(k, 4 * r + 3)};
    }
    KC_HIGHT_INLINE static V whitening(const LaneKeys &k, int i) { return k.mk[hight_key::whitening_source(i)]; }

    KC_HIGHT_INLINE static const LaneKeys &group_keys(const LaneKeyPair &p, int g) { return p.g[g]; }
    // SK_n's source byte is a constant only where the round number is.
    template <class K> static constexpr bool unroll_all_rounds = std::is_same_v<K, LaneKeyPair>;
};

KC_HIGHT_INLINE uint64_t load_be64(const uint8_t *p)
{
    uint64_t v;
    std::memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

// DrbgAccel::keystream_pair: one group of 64 counters under each key state, interleaved. Not
// folded (hight_fold.hpp): the fold is per key and counter, each call has two new ones,
// and folding both groups measured slower (162 against 157 ns per call).
void keystream_pair(const void *a, const uint8_t *ctr_a, uint8_t *out_a, const void *b,
                    const uint8_t *ctr_b, uint8_t *out_b)
{
    const PairKeys k{{static_cast<const Keys *>(a), static_cast<const Keys *>(b)}};
    V x[2][8];
    Zmm::counter_slices(load_be64(ctr_a), x[0]);
    Zmm::counter_slices(load_be64(ctr_b), x[1]);
    sliced::encrypt_slices<ZmmBurstKeys>(k, x);
    sliced::store_slices<Zmm>(x[0], out_a, group_blocks);
    sliced::store_slices<Zmm>(x[1], out_b, group_blocks);
}

// Mask of the keys of register q (lanes 4q..4q+3, 16 bytes each) among the first n lanes,
// two qwords a lane.
KC_HIGHT_INLINE __mmask8 key_mask(size_t n, int q)
{
    size_t have = n > (size_t)(4 * q) ? n - 4 * q : 0;
    return (__mmask8)((1u << (2 * (have < 4 ? have : 4))) - 1);
}

// The master keys of lanes 0..n-1 of a group, byte-sliced: each half of the keys gathered
// into registers of eight (VPERMT2Q of two loads) and sliced like blocks. Straight from
// registers: through a stack copy, the eight-byte stores and the wide loads behind them
// missed store forwarding.
KC_HIGHT_INLINE void slice_lane_keys(const uint8_t *keys, size_t n, LaneKeys &k)
{
    const V even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    V lo[8], hi[8];
    for (int r = 0; r < 8; r++) { // lanes 8r..8r+7: 128 bytes of keys, two registers
        const V a = _mm512_maskz_loadu_epi64(key_mask(n, 2 * r), keys + 128 * r);
        const V b = _mm512_maskz_loadu_epi64(key_mask(n, 2 * r + 1), keys + 128 * r + 64);
        lo[r] = _mm512_permutex2var_epi64(a, even, b);
        hi[r] = _mm512_permutex2var_epi64(a, odd, b);
    }
    sliced::slice_regs<Zmm>(lo, k.mk);
    sliced::slice_regs<Zmm>(hi, k.mk + 8);
    k.delta = delta_operands();
}

// DrbgAccel::encrypt_blocks_keyed: steps of two groups of up to 64 blocks, each lane under its
// own key. The sliced keys are wiped at the end.
void encrypt_blocks_keyed(Cipher, const uint8_t *keys, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    LaneKeyPair k;
    for (size_t done = 0; done < nblocks; done += 2 * group_blocks) {
        const size_t n = nblocks - done < 2 * group_blocks ? nblocks - done : 2 * group_blocks;
        V x[2][8];
        for (int g = 0; g < 2; g++) {
            const size_t first = group_blocks * g, m = sliced::group_count<Zmm>(n, g);
            slice_lane_keys(keys + 16 * (done + first), m < group_blocks ? m : group_blocks, k.g[g]);
            sliced::load_slices<Zmm>(in + 8 * (done + first), m, x[g]);
        }
        sliced::encrypt_slices<ZmmBurstKeys>(k, x);
        for (int g = 0; g < 2; g++)
            sliced::store_slices<Zmm>(x[g], out + 8 * (done + group_blocks * g), sliced::group_count<Zmm>(n, g));
    }
    secure_wipe(&k, sizeof k);
}

// The key schedule straight into the kernel's layout: MK in every 128-bit lane, one VPSHUFB
// picks each round-key byte's source byte MK_src(n) four times (hight_key_step.hpp), one
// VPADDB adds δ_n. CTR_DRBG rekeys on every 1 KiB request; the scalar schedule and the
// spreading of each byte over a word cost about five times as much.
struct KeyIndex {
    uint8_t sk[8][64];    // SK_{16t+m}'s source byte, in all four bytes of word m of row t
    uint8_t delta[8][64]; // δ_{16t+m}, likewise
    uint8_t wk[32];       // WK_i's source byte, in all four bytes of word i
};

constexpr KeyIndex make_key_index()
{
    KeyIndex x{};
    for (int i = 0; i < 32; i++)
        x.wk[i] = (uint8_t)hight_key::whitening_source(i / 4);
    for (int t = 0; t < 8; t++)
        for (int i = 0; i < 64; i++) {
            x.sk[t][i] = (uint8_t)hight_key::subkey_source(16 * t + i / 4);
            x.delta[t][i] = hight_key::delta[16 * t + i / 4];
        }
    return x;
}

alignas(64) constexpr KeyIndex key_index = make_key_index();

void avx512_set_key(void *state, Cipher, const uint8_t *key)
{
    static_assert(sizeof(HightKeysAvx512) == 32 + 8 * 64, "wk then sk, no padding");
    uint8_t *k = static_cast<uint8_t *>(state);
    const __m128i mk = _mm_loadu_si128(reinterpret_cast<const __m128i *>(key));
    const __m256i wk = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(mk),
                                           _mm256_load_si256(reinterpret_cast<const __m256i *>(key_index.wk)));
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(k), wk);
    const V mk4 = _mm512_maskz_broadcast_i32x4(0xffff, mk); // the plain form: GCC 12's false warning
    for (int t = 0; t < 8; t++) {
        const V row = Zmm::add8(_mm512_shuffle_epi8(mk4, _mm512_load_si512(key_index.sk[t])),
                           _mm512_load_si512(key_index.delta[t]));
        _mm512_storeu_si512(k + 32 + 64 * t, row);
    }
}

#undef KC_HIGHT_INLINE

} // namespace

} // namespace kc

KC_TARGET_POP()

namespace kc {

namespace {

bool avx512_supports(Cipher c) { return c == Cipher::hight; }

} // namespace

// Descriptor: batch_blocks: two interleaved groups of 64; constant_time: byte-sliced ARX,
// GF2P8AFFINEQB, no secret index or branch (header); rank: AVX-512 with GFNI.
extern const Kernel hight_avx512_gfni_kernel = {
    "hight/avx512-gfni", "hight", 8, 128,
    true, feat_avx512f | feat_avx512bw | feat_avx512vl | feat_gfni, 45, sizeof(HightKeysAvx512),
    avx512_supports, avx512_set_key, hight_byte_sliced::encrypt_blocks<Zmm>, hight_byte_sliced::decrypt_blocks<Zmm>,
    hight_byte_sliced::ctr_xor_blocks<Zmm>};

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp): bursts (keystream_pair,
// encrypt_blocks_keyed).
extern const DrbgAccel hight_avx512_gfni_drbg = {&hight_avx512_gfni_kernel,
                                                 feat_avx512f | feat_avx512bw | feat_avx512vl | feat_gfni, nullptr,
                                                 nullptr, keystream_pair, 8 * group_blocks, encrypt_blocks_keyed};

} // namespace kc

#endif // __x86_64__
