# src/api: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  aead.cpp
  ciphers.cpp
  crypt.cpp
  feedback.cpp
  gpu_aead.cpp
  gpu_api.cpp
  gpu_xts.cpp
  padded.cpp
  status.cpp
  xts.cpp
)
