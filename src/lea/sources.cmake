# src/lea: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  lea_fused.cpp
  lea_key.cpp
  lea_module.cpp
  lea_ref.cpp
)
kc_sources(X86
  lea_x86_avx2.cpp
  lea_x86_avx512.cpp
  lea_x86_keysearch_avx2.cpp
  lea_x86_keysearch_avx512.cpp
)
kc_sources(NEON
  lea_neon.cpp
)
kc_sources(CUDA
  lea_cuda.cu
  lea_cuda_key.cu
  lea_cuda_keysearch.cu
)
kc_known_answers(lea_known_answers.txt)
