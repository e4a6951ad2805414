# src/seed: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  seed_module.cpp
  seed_ref.cpp
)
kc_sources(X86
  seed_x86_avx2_vaes.cpp
  seed_x86_avx512_gfni.cpp
)
kc_sources(CUDA
  seed_cuda.cu
  seed_cuda_keysearch.cu
)
kc_known_answers(seed_known_answers.txt)
