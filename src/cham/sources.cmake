# src/cham: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  cham_fused.cpp
  cham_key.cpp
  cham_module.cpp
  cham_ref.cpp
)
kc_sources(X86
  cham_x86_avx2.cpp
  cham_x86_avx512.cpp
  cham_x86_avx512_vbmi2.cpp
  cham_x86_fused_avx512.cpp
  cham_x86_keysearch_avx2.cpp
  cham_x86_keysearch_avx512.cpp
)
kc_sources(NEON
  cham_neon.cpp
)
kc_sources(CUDA
  cham_cuda.cu
  cham_cuda_key.cu
  cham_cuda_keysearch.cu
)
kc_known_answers(cham_known_answers.txt)
