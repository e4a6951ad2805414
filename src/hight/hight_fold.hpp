// The compile-time plan of HIGHT-CTR's folded rounds, shared by the byte-sliced kernels
// (hight_x86_avx512_gfni.cpp, hight_x86_avx2.cpp) and hight_neon.cpp. No SIMD here: only
// constexpr functions, evaluated by the compiler in template arguments and constant
// expressions.
//
// The byte-sliced kernels keep the state in eight registers x[0..7] and let round r update the
// odd bytes of the state seen as a_j = x[(j - r) mod 8] in place (the round's byte rotation
// is renaming): a_7 ^= F0(a_6) + SK, a_1 += F1(a_0) ^ SK, a_3 ^= F0(a_2) + SK,
// a_5 += F1(a_4) ^ SK.
//
// Folding (the ARX paper's "nonce-only part of the first rounds", kept exact for the full
// 64-bit counter). The counters of one step of a CTR kernel share bytes 0..5 whenever they do
// not cross a multiple of 2^16 (a public fact of the counter), so at the start only X_6 and
// X_7 differ across lanes. Through rounds 0..6, every byte that does not yet depend on X_6 or
// X_7 is the same in all lanes: the kernels compute it once per message (and per 2^16
// blocks) on one broadcast block, and the lanes do only the updates that touch a varying
// byte. After round 6 every byte varies. Per group this drops 9 of the 28 updates of rounds
// 0..6 and turns 3 more into a single addition or XOR, besides three of the four whitening
// operations and most of the counter building.
#pragma once

namespace kc {
namespace hight_fold {

constexpr int folded_round_count = 7;
constexpr unsigned initial_varying = 0xc0; // bit j: x[j] differs across lanes; X_6 and X_7

// The four updates of a round, in the order the kernels do them: (odd a_j updated, even a_j
// its F-term comes from). Updates 0 and 2 XOR an F0-term in, 1 and 3 add an F1-term.
constexpr int update_pairs[4][2] = {{7, 6}, {1, 0}, {3, 2}, {5, 4}};

constexpr int updated_byte(int round, int u) { return (update_pairs[u][0] - round) & 7; }
constexpr int source_byte(int round, int u) { return (update_pairs[u][1] - round) & 7; }

// Round r makes an odd byte vary when the even byte its F-term comes from varies.
constexpr unsigned varying_after_round(int round, unsigned varying)
{
    for (int u = 0; u < 4; u++)
        if ((varying >> source_byte(round, u)) & 1)
            varying |= 1u << updated_byte(round, u);
    return varying;
}

// The lanes need one lane-independent vector where exactly one side of an update varies:
// the last value of a constant byte that a varying F-term now updates, or the constant F-term
// that updates a varying byte. fold_slot numbers them in order; fold_slot(folded_round_count,
// 0) is their count.
constexpr int fold_slot(int round, int byte)
{
    unsigned varying = initial_varying;
    int slot = 0;
    for (int r = 0; r < folded_round_count; r++) {
        for (int u = 0; u < 4; u++) {
            int o = updated_byte(r, u), e = source_byte(r, u);
            if (((varying >> e) & 1) != ((varying >> o) & 1)) {
                if (r == round && o == byte)
                    return slot;
                slot++;
            }
        }
        varying = varying_after_round(r, varying);
    }
    return slot;
}

// What the once-per-message pass (fold_counter_rounds, on the constant bytes) does with
// update u of round `round`: constant-on-constant updates are done, and where one side varies
// the vector the lanes need is recorded in its fold_slot (the target's last constant value, or
// the constant F-term); where both vary there is nothing to do. The kernels keep only the
// vector operations of each action.
enum class FoldAction { none, record_target, record_term, apply_term };

struct FoldStep {
    FoldAction action;
    int target, source, slot; // updated_byte, source_byte, fold_slot of the update
};

constexpr FoldStep fold_step(int round, unsigned varying, int u)
{
    const int o = updated_byte(round, u), e = source_byte(round, u);
    const bool source_varies = (varying >> e) & 1, target_varies = (varying >> o) & 1;
    FoldAction action = FoldAction::none;
    if (source_varies && !target_varies)
        action = FoldAction::record_target;
    else if (!source_varies)
        action = target_varies ? FoldAction::record_term : FoldAction::apply_term;
    return FoldStep{action, o, e, fold_slot(round, o)};
}

constexpr int fold_slot_count = fold_slot(folded_round_count, 0);
static_assert(fold_slot_count == 9, "six constant bytes met by a varying F-term, three F-terms");

constexpr unsigned varying_after(int rounds)
{
    unsigned v = initial_varying;
    for (int r = 0; r < rounds; r++)
        v = varying_after_round(r, v);
    return v;
}
static_assert(varying_after(folded_round_count) == 0xff, "every byte varies after round 6");
static_assert(varying_after(folded_round_count - 1) != 0xff, "round 6 still needs folding");

} // namespace hight_fold
} // namespace kc
