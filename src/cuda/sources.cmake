# src/cuda: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(CUDA
  device_util.cu
  devices.cu
)
kc_sources(NO_CUDA
  devices_none.cpp
)
