# Cross build for 64-bit ARM Linux with Debian's cross compilers (gcc-aarch64-linux-gnu,
# g++-aarch64-linux-gnu) and the arm64 libraries of dpkg's multiarch (libssl-dev:arm64 and the
# rest, installed by scripts/test-aarch64):
#   cmake -S . -B build-aarch64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# Tests run under qemu-aarch64 (Debian's qemu-user): CMake puts the emulator in front of every
# test command and of GoogleTest's test discovery.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Headers are shared between architectures (/usr/include); libraries and their CMake package
# files must be the arm64 ones (/usr/lib/aarch64-linux-gnu), never the host's.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /usr)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/cmake
    /lib/x86_64-linux-gnu)
# pkg-config likewise (Crypto++ is found only where libcrypto++-dev:arm64 is installed).
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)

# The arm64 dynamic loader and C library must come from one glibc build. With multiarch
# libraries installed (libc6:arm64, the loader at /lib/ld-linux-aarch64.so.1), qemu uses those
# as the programs name them; the cross toolchain's older copy in /usr/aarch64-linux-gnu (-L)
# would pair its loader with the multiarch libc.so.6, which hangs in pthread_create.
if(EXISTS /lib/ld-linux-aarch64.so.1)
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
endif()
