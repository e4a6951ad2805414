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
// rounds 0..3 that depend only on the counter's upper 96 bits (lea/lea_sliced.hpp). Inputs
// shorter than a step run as one step of fewer groups with masked loads and stores, never
// one block at a time. XTS makes its tweaks word-sliced in registers (tweak_a16 below). The
// rounds, steps, tails and CTR segments are lea_x86_word_sliced.hpp and the CTR entry
// lea_x86_ctr_entry.hpp, shared with lea/avx2; this file holds the AVX-512 operations and the
// key layout.
//
// Constant-time: LEA is ARX. The only operations on key or data are XOR, 32-bit addition
// and subtraction, fixed rotations, fixed word shuffles and loads/stores at addresses that
// depend on the (public) length alone; no table, no secret-dependent branch. Load/store
// masks depend on the block count only.
#include <immintrin.h>

// Outside the target region, so that their inline functions (and the CTR entry points) are
// compiled for the baseline.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/kernel.hpp"
#include "core/target_region.hpp"
#include "core/wipe.hpp"
#include "core/write_prefetch.hpp"
#include "kit/drbg_accel.hpp"
#include "kit/xts/xts_accel.hpp"
#include "kit/xts/xts_whiten.hpp"
#include "lea/lea.hpp"
#include "lea/lea_sliced.hpp"
#include "lea/lea_x86_ctr_entry.hpp"

namespace kc {

namespace {

using KeyRow = uint32_t[6]; // the words of one round, broadcast from memory as they are used

// This kernel's round-key layout: the key schedule's words for encryption (rk), and the
// decryption words of lea_sliced_decrypt_words. The vector code broadcasts each word from
// memory as it uses it.
struct Avx512Keys {
    LeaRoundKeys rk;
    KeyRow dec[lea_max_rounds];
};

} // namespace

} // namespace kc

KC_TARGET_PUSH("avx512f,avx512bw")
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() (initialised from itself) as the
// unused merge source, and -Wuninitialized reports it once inlined here (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define KC_X86_WORD_SLICE_ZMM
#include "kit/x86_word_slice.hpp"
#include "lea/lea_x86_word_sliced.hpp"

namespace kc {

namespace {

// The AVX-512 operations of lea_x86_word_sliced.hpp. Byte swap, the in-lane 4x4 word
// transpose: kit/x86_word_slice.hpp.
struct Avx512Ops : x86_words::WordMoves {
    using vec = __m512i;
    using Keys = Avx512Keys;
    using KeyRow = kc::KeyRow;

    static constexpr int step_groups = 4; // groups of 16 blocks per full step

    static const KeyRow &enc_row(const Keys &k, int i) { return k.rk.rk[i]; }
    static const KeyRow &dec_row(const Keys &k, int i) { return k.dec[i]; }
    static vec key(const KeyRow &row, int j) { return bc(row[j]); }

    static vec bc(uint32_t w) { return _mm512_set1_epi32((int)w); }
    static vec vxor(vec a, vec b) { return _mm512_xor_si512(a, b); }
    static vec vadd(vec a, vec b) { return _mm512_add_epi32(a, b); }
    static vec vsub(vec a, vec b) { return _mm512_sub_epi32(a, b); }
    template <int R> static vec rol(vec x) { return _mm512_rol_epi32(x, R); }
    template <int R> static vec ror(vec x) { return _mm512_ror_epi32(x, R); }
    static vec ctr_lane_offsets() { return x86_words::ctr_lane_offsets_zmm(); }

    // XTS: a group's 16 tweaks, word-sliced (w[j] = word j of the 128-bit little-endian values),
    // times alpha^16: every value moves up 16 bits word by word, and the 16 bits h shifted out
    // of the top come back into the bottom as h * 0x87 carry-less (h ^ h<<1 ^ h<<2 ^ h<<7, 23
    // bits: no second reduction). Ten instructions for 16 tweaks.
    static void tweak_a16(vec w[4])
    {
        const vec h = _mm512_srli_epi32(w[3], 16);
        const vec red = _mm512_ternarylogic_epi32(h, _mm512_slli_epi32(h, 1), _mm512_slli_epi32(h, 2), 0x96);
        const vec w0 = _mm512_ternarylogic_epi32(_mm512_slli_epi32(w[0], 16), red, _mm512_slli_epi32(h, 7), 0x96);
        w[3] = up16(w[3], w[2]);
        w[2] = up16(w[2], w[1]);
        w[1] = up16(w[1], w[0]);
        w[0] = w0;
    }
    // (a << 16) | (b >> 16) in every 32-bit lane, one vpermt2w: word 2d of the result is b's
    // word 2d + 1, word 2d + 1 is a's word 2d.
    static vec up16(vec a, vec b)
    {
        const vec idx = _mm512_set_epi16(62, 31, 60, 29, 58, 27, 56, 25, 54, 23, 52, 21, 50, 19, 48, 17, 46, 15, 44, 13,
                                         42, 11, 40, 9, 38, 7, 36, 5, 34, 3, 32, 1);
        return _mm512_permutex2var_epi16(b, idx, a);
    }

    // The words of register j (64 bytes, blocks 4j..4j+3 of a step) that hold one of the
    // first n blocks.
    static __mmask16 word_mask(size_t n, size_t j)
    {
        size_t words = 4 * n, before = 16 * j;
        size_t w = words > before ? words - before : 0;
        return (__mmask16)((1u << (w < 16 ? w : 16)) - 1);
    }

    template <bool Masked> static vec load(const uint8_t *p, size_t n, size_t j)
    {
        if constexpr (Masked)
            return _mm512_maskz_loadu_epi32(word_mask(n, j), p + 64 * j);
        else
            return _mm512_loadu_si512(p + 64 * j);
    }

    template <bool Masked> static void store(uint8_t *p, size_t n, size_t j, vec v)
    {
        if constexpr (Masked)
            _mm512_mask_storeu_epi32(p + 64 * j, word_mask(n, j), v);
        else
            _mm512_storeu_si512(p + 64 * j, v);
    }
};

} // namespace

} // namespace kc

#pragma GCC diagnostic pop
KC_TARGET_POP()

namespace kc {

namespace {

void set_key(void *state, Cipher c, const uint8_t *key)
{
    Avx512Keys &k = *static_cast<Avx512Keys *>(state);
    lea_key_schedule(c, key, &k.rk);
    for (int i = 0; i < k.rk.rounds; i++)
        lea_sliced_decrypt_words(k.rk.rk[i], k.dec[i]);
}

// DrbgAccel::set_encrypt_key: no decryption words (CTR_DRBG rekeys on every request and never
// decrypts; they were 15% of its chain's time per request).
void set_encrypt_key(void *state, Cipher c, const uint8_t *key)
{
    lea_key_schedule(c, key, &static_cast<Avx512Keys *>(state)->rk);
}

// The vector segment (AVX-512, from the region above) under the baseline CTR entry points.
constexpr lea_x86::CtrSegment<Avx512Keys> ctr_segment = lea_x86::ctr_segment<Avx512Ops>;

} // namespace

// Descriptor: batch_blocks: four groups of 16 blocks (one word per zmm lane); constant_time: ARX
// only (see the file header); requires: bw: vpshufb zmm, the counter's byte swap; rank: AVX-512.
// Constant-initialised (addresses only), so no AVX-512 code runs before dispatch has checked
// the CPU.
extern const Kernel lea_avx512_kernel = {
    "lea/avx512", "lea", 16, 64, true, feat_avx512f | feat_avx512bw, 40, sizeof(Avx512Keys),
    lea_sliced_supports, set_key, lea_x86::encrypt_blocks<Avx512Ops>, lea_x86::decrypt_blocks<Avx512Ops>,
    lea_x86::ctr_xor_blocks<Avx512Keys, ctr_segment>};

namespace {

// XtsAccel::tweaked_blocks (baseline code around the AVX-512 driver): the first 16 tweaks in
// block order, then the kernel makes the rest in registers.
void xts_tweaked_blocks(const void *state, bool decrypt, uint8_t t[16], const uint8_t *in, uint8_t *out, size_t n)
{
    alignas(64) uint8_t scratch[lea_x86::xts_scratch_bytes<Avx512Ops>];
    xts_first_tweaks(t, scratch, 16);
    if (decrypt)
        lea_x86::xts_tweaked<Avx512Ops, true>(state, t, scratch, in, out, n);
    else
        lea_x86::xts_tweaked<Avx512Ops, false>(state, t, scratch, in, out, n);
    secure_wipe(scratch, sizeof scratch);
}

} // namespace

// XTS's whitened ECB for the kernel above (kit/xts/xts_accel.hpp), and its tweaks in registers.
extern const XtsAccel lea_avx512_xts = {&lea_avx512_kernel, feat_avx512f | feat_avx512bw, lea_x86::xts_blocks<Avx512Ops>,
                                        xts_tweaked_blocks};

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp): its encryption-only key schedule
// and its keystream.
extern const DrbgAccel lea_avx512_drbg = {&lea_avx512_kernel, feat_avx512f | feat_avx512bw, set_encrypt_key,
                                          lea_x86::keystream_blocks<Avx512Keys, ctr_segment>};

} // namespace kc
