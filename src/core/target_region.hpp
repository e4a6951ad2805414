// A region of a source file compiled for extra instruction-set features (AVX2, AVX-512, GFNI,
// ...), for GCC and clang alike.
//
// GCC honours `KC_TARGET_PUSH`, which clang ignores; clang honours `#pragma clang
// attribute push(__attribute__((target(...))), apply_to = function)`, which GCC lacks. These
// two macros write whichever the compiler understands, with the feature string unchanged, so
// that GCC's code stays what it was:
//
//     KC_TARGET_PUSH("avx512f,avx512bw")
//     ... functions, lambdas, templates, and headers included here ...
//     KC_TARGET_POP()
//
// Why a region rather than a per-file -mavx512f: a whole file compiled for AVX-512 emits its
// out-of-line copies of inline functions from shared headers (std::, kit/) with AVX-512
// instructions, and the linker may keep that copy for every other file too (one definition
// per inline function), which faults on a CPU without the feature. Inside a region only the
// functions declared there get the features.
//
// The one difference to keep in mind: clang gives the features to functions *declared* in
// the region. A template declared before the region and instantiated inside it (with a
// vector type or an always-inline intrinsic in its body) is compiled for the baseline and
// fails to build ("requires target feature" / "changes the ABI"). GCC behaves the same way
// for most such cases, which is why the SIMD headers are included inside the region; a
// header meant for both sides of a region is included twice (see aria_x86_byteslice.hpp).
#pragma once

#define KC_TARGET_PRAGMA_(text) _Pragma(#text)

#if defined(__clang__)
#define KC_TARGET_PUSH(features)                                                               \
    KC_TARGET_PRAGMA_(clang attribute push(__attribute__((target(features))), apply_to = function))
#define KC_TARGET_POP() KC_TARGET_PRAGMA_(clang attribute pop)
#elif defined(__GNUC__)
#define KC_TARGET_PUSH(features)                                                               \
    _Pragma("GCC push_options") KC_TARGET_PRAGMA_(GCC target(features))
#define KC_TARGET_POP() _Pragma("GCC pop_options")
#else
#error "kcipher's SIMD kernels need GCC or clang (target regions)"
#endif
