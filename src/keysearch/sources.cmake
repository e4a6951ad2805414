# src/keysearch: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  checkpoint.cpp
  cpu_search.cpp
  driver.cpp
  keysearch_api.cpp
  ranges.cpp
  shard.cpp
  verify.cpp
)
kc_sources(CUDA
  search_gpu.cu
)
kc_sources(NO_CUDA
  search_gpu_none.cpp
)
