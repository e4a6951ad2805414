# src/drbg: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  accelerations.cpp
  block_cipher.cpp
  burst.cpp
  chain.cpp
  ctr_drbg.cpp
  ctr_drbg_state.cpp
  derivation.cpp
  drbg_api.cpp
  drbg_multi.cpp
  entropy.cpp
  fork_guard.cpp
  kernel_cipher.cpp
  segments.cpp
)
kc_sources(CUDA
  drbg_gpu.cu
)
kc_sources(NO_CUDA
  drbg_gpu_none.cpp
)
