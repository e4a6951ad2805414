# src/dispatch: its sources, by where they build (src/CMakeLists.txt defines kc_sources; a file in
# this folder that no list names stops the configure step).

kc_sources(ANY
  features.cpp
  registry.cpp
  xts_whiten_choice.cpp
)
