// lea/avx2: LEA on AVX2, word-sliced, 8 blocks per group of four ymm registers and two
// groups (16 blocks) per step.
//
// Technique. A 4x4 transpose of 32-bit words inside each 128-bit lane turns four registers
// of two blocks each into four registers X[0..3], where X[j] holds word j of 8 blocks. The
// round function (TTAK.KO-12.0223, encryption) then runs on whole registers: six XORs with
// round keys, three 32-bit additions and three rotations. AVX2 has no vector rotate, so each
// is two shifts and an OR (18 operations per round and group, against 12 on AVX-512). The
// round keys are stored pre-broadcast (each word eight times, derived from the one key
// schedule in set_key) so that every XOR takes its key straight from memory; with the
// rounds unrolled in full, the state stays in registers without moves. CTR builds its
// counter blocks in registers, word-sliced from the start, and skips the parts of rounds
// 0..3 that depend only on the counter's upper 96 bits (lea/lea_sliced.hpp). Inputs shorter
// than a step run as one step of fewer groups with masked loads and stores (vpmaskmovd),
// never one block at a time. The rounds, steps, tails and CTR segments are
// lea_x86_word_sliced.hpp and the CTR entry lea_x86_ctr_entry.hpp, shared with lea/avx512;
// this file holds the AVX2 operations and the key layout.
//
// Constant-time: LEA is ARX. The only operations on key or data are XOR, 32-bit addition
// and subtraction, fixed shifts, fixed word shuffles and loads/stores at addresses that
// depend on the (public) length alone; no table, no secret-dependent branch. Load/store
// masks depend on the block count only. Checked under valgrind (tests/ct/ct_check.cpp).
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
#include "lea/lea.hpp"
#include "lea/lea_sliced.hpp"
#include "lea/lea_x86_ctr_entry.hpp"

namespace kc {

namespace {

constexpr int lanes = 8; // 32-bit words per ymm register

using KeyRow = uint32_t[6][lanes]; // the broadcast words of one round

// This kernel's round-key layout: every word of the key schedule (enc) and of
// lea_sliced_decrypt_words (dec) repeated in eight lanes, plus the schedule itself for the
// scalar CTR precomputation.
struct Avx2Keys {
    alignas(32) KeyRow enc[lea_max_rounds];
    alignas(32) KeyRow dec[lea_max_rounds];
    LeaRoundKeys rk;
};

} // namespace

} // namespace kc

KC_TARGET_PUSH("avx2")
#include "kit/x86_word_slice.hpp"
#include "lea/lea_x86_word_sliced.hpp"

namespace kc {

namespace {

// The AVX2 operations of lea_x86_word_sliced.hpp. Byte swap, the in-lane 4x4 word transpose:
// kit/x86_word_slice.hpp.
struct Avx2Ops : x86_words::WordMoves {
    using vec = __m256i;
    using Keys = Avx2Keys;
    using KeyRow = kc::KeyRow;

    static constexpr int step_groups = 2; // groups of 8 blocks per full step

    static const KeyRow &enc_row(const Keys &k, int i) { return k.enc[i]; }
    static const KeyRow &dec_row(const Keys &k, int i) { return k.dec[i]; }
    static vec key(const KeyRow &row, int j) { return _mm256_load_si256(reinterpret_cast<const vec *>(row[j])); }

    static vec bc(uint32_t w) { return _mm256_set1_epi32((int)w); }
    static vec vxor(vec a, vec b) { return _mm256_xor_si256(a, b); }
    static vec vadd(vec a, vec b) { return _mm256_add_epi32(a, b); }
    static vec vsub(vec a, vec b) { return _mm256_sub_epi32(a, b); }
    template <int R> static vec rol(vec x)
    {
        return _mm256_or_si256(_mm256_slli_epi32(x, R), _mm256_srli_epi32(x, 32 - R));
    }
    template <int R> static vec ror(vec x) { return rol<32 - R>(x); }
    static vec ctr_lane_offsets() { return x86_words::ctr_lane_offsets_ymm(); }

    // The lanes of register j (32 bytes, blocks 2j, 2j+1 of a step) that hold a word of one of
    // the first n blocks: all ones there, zero elsewhere (vpmaskmovd reads the top bit).
    static vec word_mask(size_t n, size_t j)
    {
        size_t words = 4 * n, before = lanes * j;
        size_t w = words > before ? words - before : 0;
        return _mm256_cmpgt_epi32(bc((uint32_t)(w < lanes ? w : lanes)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    }

    template <bool Masked> static vec load(const uint8_t *p, size_t n, size_t j)
    {
        if constexpr (Masked)
            return _mm256_maskload_epi32(reinterpret_cast<const int *>(p + 32 * j), word_mask(n, j));
        else
            return _mm256_loadu_si256(reinterpret_cast<const vec *>(p + 32 * j));
    }

    template <bool Masked> static void store(uint8_t *p, size_t n, size_t j, vec v)
    {
        if constexpr (Masked)
            _mm256_maskstore_epi32(reinterpret_cast<int *>(p + 32 * j), word_mask(n, j), v);
        else
            _mm256_storeu_si256(reinterpret_cast<vec *>(p + 32 * j), v);
    }
};

} // namespace

} // namespace kc

KC_TARGET_POP()

namespace kc {

namespace {

void broadcast_row(const uint32_t words[6], KeyRow &row)
{
    for (int j = 0; j < 6; j++)
        for (int l = 0; l < lanes; l++)
            row[j][l] = words[j];
}

void set_key(void *state, Cipher c, const uint8_t *key)
{
    Avx2Keys &k = *static_cast<Avx2Keys *>(state);
    lea_key_schedule(c, key, &k.rk);
    for (int i = 0; i < k.rk.rounds; i++) {
        uint32_t dec[6];
        lea_sliced_decrypt_words(k.rk.rk[i], dec);
        broadcast_row(k.rk.rk[i], k.enc[i]);
        broadcast_row(dec, k.dec[i]);
        secure_wipe(dec, sizeof dec);
    }
}

// DrbgAccel::set_encrypt_key: the encryption rows only (CTR_DRBG rekeys on every request and
// never decrypts).
void set_encrypt_key(void *state, Cipher c, const uint8_t *key)
{
    Avx2Keys &k = *static_cast<Avx2Keys *>(state);
    lea_key_schedule(c, key, &k.rk);
    for (int i = 0; i < k.rk.rounds; i++)
        broadcast_row(k.rk.rk[i], k.enc[i]);
}

// The vector segment (AVX2, from the region above) under the baseline CTR entry points.
constexpr lea_x86::CtrSegment<Avx2Keys> ctr_segment = lea_x86::ctr_segment<Avx2Ops>;

} // namespace

// Descriptor: batch_blocks: two groups of 8 blocks (one word per ymm lane); constant_time: ARX only
// (see the file header); rank: AVX2. Constant-initialised (addresses only), so no AVX2 code runs
// before dispatch has checked the CPU.
extern const Kernel lea_avx2_kernel = {
    "lea/avx2", "lea", 16, 16, true, feat_avx2, 30, sizeof(Avx2Keys),
    lea_sliced_supports, set_key, lea_x86::encrypt_blocks<Avx2Ops>, lea_x86::decrypt_blocks<Avx2Ops>,
    lea_x86::ctr_xor_blocks<Avx2Keys, ctr_segment>};

// XTS's whitened ECB for the kernel above (kit/xts/xts_accel.hpp).
extern const XtsAccel lea_avx2_xts = {&lea_avx2_kernel, feat_avx2, lea_x86::xts_blocks<Avx2Ops>};

// CTR_DRBG's extras for the kernel above (kit/drbg_accel.hpp): its encryption-only key schedule
// and its keystream.
extern const DrbgAccel lea_avx2_drbg = {&lea_avx2_kernel, feat_avx2, set_encrypt_key,
                                        lea_x86::keystream_blocks<Avx2Keys, ctr_segment>};

} // namespace kc
