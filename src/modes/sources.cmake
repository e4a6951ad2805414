# src/modes: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  cbc.cpp
  ccm.cpp
  cfb.cpp
  cfb8.cpp
  cmac.cpp
  ctr.cpp
  ctr_stream.cpp
  ecb.cpp
  gcm.cpp
  gcm_parts.cpp
  ofb.cpp
  padding.cpp
  parallel.cpp
  xts.cpp
)
kc_sources(CUDA
  gpu_device.cu
  gpu_gcm.cu
  gpu_host.cu
  gpu_host_gcm.cu
  gpu_xts.cu
)
kc_sources(NO_CUDA
  gpu_none.cpp
)
