# src/hight: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  hight_key.cpp
  hight_module.cpp
  hight_ref.cpp
)
kc_sources(X86
  hight_x86_avx2.cpp
  hight_x86_avx512_gfni.cpp
  hight_x86_fused_gfni.cpp
  hight_x86_keysearch_avx2.cpp
  hight_x86_keysearch_avx512_gfni.cpp
)
kc_sources(NEON
  hight_neon.cpp
)
kc_sources(CUDA
  hight_cuda_bitslice.cu
  hight_cuda_key.cu
  hight_cuda_keysearch.cu
)
kc_known_answers(hight_known_answers.txt)
