# src/kit: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  ghash/ghash_portable.cpp
  known_answer.cpp
  search/candidate.cpp
  search/lane_groups.cpp
  xts/xts_whiten_portable.cpp
)
kc_sources(X86
  ghash/ghash_x86_pclmul.cpp
  ghash/ghash_x86_vpclmul_avx2.cpp
  ghash/ghash_x86_vpclmul_avx512.cpp
  xts/xts_whiten_x86_avx2.cpp
  xts/xts_whiten_x86_avx512.cpp
)
kc_sources(NEON
  ghash/ghash_neon_pmull.cpp
)
