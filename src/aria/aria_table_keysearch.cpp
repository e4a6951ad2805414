// aria/table key search: one candidate at a time with 32-bit T-tables and an encryption-only
// key schedule, for the CPU key search where the byte-sliced GFNI searcher cannot run
// (kit/search/cpu_searcher.hpp; portable C++, so every architecture has it). The per-key path
// through aria_key_schedule pays for the decryption keys and for its constant-time S-box
// scans (256 reads per byte); here the key schedule's three rounds (FO, FE, FO with CK1..CK3,
// aria.hpp's aria_key_constants and aria_first_constant) are T-table rounds like the block's,
// and each round key ek(k+1) = W(k mod 4) ^ (W((k+1) mod 4) >>> aria_ek_rotation(k / 4)) is a
// 128-bit rotation derived as its round needs it.
//
// The tables are aria/table's technique (aria_table.cpp: A = W.P.W.M, M folded into the
// S-box tables, 8 KiB), built here once from the RFC's S-boxes.
//
// NOT constant-time: the table indexes are key bytes, so which cache lines are read depends
// on the key. That is acceptable for a key search, which has no secret to protect (its inputs
// are a known plaintext, a known ciphertext and the candidates it enumerates).
#include <cstdint>
#include <vector>

#include "aria/aria.hpp"
#include "core/bytes.hpp"
#include "kit/search/cpu_searcher.hpp"
#include "kit/search/lane_groups.hpp"

namespace kc::keysearch {
namespace {

struct TTables {
    uint32_t sl1[4][256]; // M(S(x) in byte p), S = SB1, SB2, SB3, SB4 by p (type 1 layer)
    uint32_t sl2[4][256]; // the same for the type 2 layer: SB3, SB4, SB1, SB2
};

TTables make_tables()
{
    const uint8_t *const layer1[4] = {aria_sb1, aria_sb2, aria_sb3, aria_sb4};
    const uint8_t *const layer2[4] = {aria_sb3, aria_sb4, aria_sb1, aria_sb2};
    TTables t;
    for (int p = 0; p < 4; p++)
        for (int x = 0; x < 256; x++) {
            // s in every byte of the word but byte p (byte 0 the most significant): M's output.
            const uint32_t except = 0x01010101u ^ (0x01000000u >> (8 * p));
            t.sl1[p][x] = except * layer1[p][x];
            t.sl2[p][x] = except * layer2[p][x];
        }
    return t;
}

const TTables &tables()
{
    static const TTables t = make_tables();
    return t;
}

using u128 = unsigned __int128;

inline uint64_t load_be64(const uint8_t *p) { return (uint64_t)load_be32(p) << 32 | load_be32(p + 4); }
inline u128 load_be128(const uint8_t *p) { return (u128)load_be64(p) << 64 | load_be64(p + 8); }

inline uint32_t word(u128 x, int k) { return uint32_t(x >> (96 - 32 * k)); }
inline u128 from_words(uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3)
{
    return (u128)((uint64_t)w0 << 32 | w1) << 64 | ((uint64_t)w2 << 32 | w3);
}

template <unsigned R> inline u128 rotr128(u128 x)
{
    if constexpr (R % 128 == 0)
        return x;
    else
        return x >> (R % 128) | x << (128 - R % 128);
}

inline uint32_t substitute_mix(const uint32_t (*t)[256], uint32_t w)
{
    return t[0][w >> 24] ^ t[1][(w >> 16) & 0xff] ^ t[2][(w >> 8) & 0xff] ^ t[3][w & 0xff];
}

// A(SL(x)) with SL through the tables t (sl1: FO's layer, sl2: FE's); section 2.3.
inline u128 sub_diffuse(u128 x, const uint32_t (*t)[256])
{
    uint32_t w0 = substitute_mix(t, word(x, 0)), w1 = substitute_mix(t, word(x, 1)),
             w2 = substitute_mix(t, word(x, 2)), w3 = substitute_mix(t, word(x, 3));
    auto mix = [&] { // W
        w1 ^= w2;
        w2 ^= w3;
        w0 ^= w1;
        w3 ^= w1;
        w2 ^= w0;
        w1 ^= w2;
    };
    mix();
    w1 = ((w1 & 0x00ff00ffu) << 8) | ((w1 >> 8) & 0x00ff00ffu); // P
    w2 = w2 << 16 | w2 >> 16;
    w3 = __builtin_bswap32(w3);
    mix();
    return from_words(w0, w1, w2, w3);
}

inline uint32_t substitute2(uint32_t w)
{
    return (uint32_t)aria_sb3[w >> 24] << 24 | (uint32_t)aria_sb4[(w >> 16) & 0xff] << 16 |
           (uint32_t)aria_sb1[(w >> 8) & 0xff] << 8 | aria_sb2[w & 0xff];
}

// ek(K+1), K from 0.
template <int K> inline u128 round_key(const u128 *w)
{
    return w[K % 4] ^ rotr128<aria_ek_rotation(K / 4)>(w[(K + 1) % 4]);
}

// Rounds R .. N-1 (FO for odd R, FE for even), each followed by ek(R+1).
template <int R, int N> inline u128 rounds(u128 x, const u128 *w, const TTables &t)
{
    if constexpr (R == N) {
        return x;
    } else {
        x = sub_diffuse(x, R % 2 == 1 ? t.sl1 : t.sl2) ^ round_key<R>(w);
        return rounds<R + 1, N>(x, w, t);
    }
}

template <int N, int KB> void search(const Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits)
{
    const TTables &t = tables();
    const int ck = aria_first_constant(p.cipher);
    const u128 ck1 = load_be128(aria_key_constants[ck]), ck2 = load_be128(aria_key_constants[(ck + 1) % 3]),
               ck3 = load_be128(aria_key_constants[(ck + 2) % 3]);
    const u128 pt = load_be128(p.pairs[0].pt), ct = load_be128(p.pairs[0].ct);
    LaneGroups lg(p, 0); // one key per group: the walker steps it
    search_lane_groups(lg, first, count, hits, [&](const uint8_t *key) -> uint64_t {
        // Section 2.2.1: KL || KR = MK || 0, W0 = KL, W1 = FO(W0, CK1) ^ KR,
        // W2 = FE(W1, CK2) ^ W0, W3 = FO(W2, CK3) ^ W1.
        u128 kr = 0;
        if constexpr (KB == 24)
            kr = (u128)load_be64(key + 16) << 64;
        else if constexpr (KB == 32)
            kr = load_be128(key + 16);
        u128 w[4];
        w[0] = load_be128(key);
        w[1] = sub_diffuse(w[0] ^ ck1, t.sl1) ^ kr;
        w[2] = sub_diffuse(w[1] ^ ck2, t.sl2) ^ w[0];
        w[3] = sub_diffuse(w[2] ^ ck3, t.sl1) ^ w[1];
        // Section 2.2.2.1: P ^ ek1, rounds 1 .. N-1, C = SL2(. ^ ekN) ^ ek(N+1) (ekN is
        // added by round N-1).
        const u128 x = rounds<1, N>(pt ^ round_key<0>(w), w, t);
        const u128 c = from_words(substitute2(word(x, 0)), substitute2(word(x, 1)), substitute2(word(x, 2)),
                                  substitute2(word(x, 3))) ^
                       round_key<N>(w);
        return c == ct ? 1 : 0;
    });
}

void search_aria(const Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits)
{
    switch (p.cipher) {
    case Cipher::aria128: return search<12, 16>(p, first, count, hits);
    case Cipher::aria192: return search<14, 24>(p, first, count, hits);
    default: return search<16, 32>(p, first, count, hits);
    }
}

} // namespace

extern const CpuSearcher aria_table_keysearch = {
    "aria/table-keysearch", "aria/table", "aria", 0, search_aria,
};

} // namespace kc::keysearch
