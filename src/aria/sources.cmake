# src/aria: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  aria_key.cpp
  aria_module.cpp
  aria_ref.cpp
  aria_sbox.cpp
  aria_table.cpp
  aria_table_keysearch.cpp
)
kc_sources(X86
  aria_x86_avx2_aesni.cpp
  aria_x86_avx2_gfni.cpp
  aria_x86_avx2_vaes.cpp
  aria_x86_avx512_gfni.cpp
  aria_x86_avx_aesni.cpp
  aria_x86_avx_gfni.cpp
  aria_x86_byteslice.cpp
  aria_x86_diffusion.cpp
  aria_x86_fused_gfni.cpp
  aria_x86_key_gfni.cpp
  aria_x86_keysearch_avx512_gfni.cpp
)
kc_sources(NEON
  aria_neon_16pt.cpp
  aria_neon_4pt.cpp
  aria_neon_aes.cpp
)
kc_sources(CUDA
  aria_cuda_bitslice.cu
  aria_cuda_global.cu
  aria_cuda_key.cu
  aria_cuda_keysearch.cu
  aria_cuda_shared.cu
  aria_cuda_x32.cu
)
kc_known_answers(aria_known_answers.txt)
