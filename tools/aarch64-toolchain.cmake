# tools/aarch64-toolchain.cmake — cross build for aarch64-linux-gnu (tools/aarch64.sh sets it up).
#
# The compiler is Debian's g++-aarch64-linux-gnu; headers and libraries come from a sysroot of
# Debian's arm64 packages extracted with dpkg -x (BEAMLET_AARCH64_SYSROOT, default
# /opt/beamlet-aarch64-sysroot). Build-time programs (erlc, erl) are the host's. Tests run
# under qemu-user: CMAKE_CROSSCOMPILING_EMULATOR runs the target executables (gtest binaries,
# add_test(COMMAND target)), and tests/CMakeLists.txt hands the end-to-end scripts a wrapper
# script (build/beamlet-qemu) in place of the beamlet binary.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

if(NOT BEAMLET_AARCH64_SYSROOT)
  if(DEFINED ENV{BEAMLET_AARCH64_SYSROOT})
    set(BEAMLET_AARCH64_SYSROOT $ENV{BEAMLET_AARCH64_SYSROOT})
  else()
    set(BEAMLET_AARCH64_SYSROOT /opt/beamlet-aarch64-sysroot)
  endif()
endif()
set(BEAMLET_AARCH64_SYSROOT ${BEAMLET_AARCH64_SYSROOT} CACHE PATH "arm64 sysroot (Debian packages, dpkg -x)")
# try_compile projects see the toolchain file again: pass the sysroot on.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES BEAMLET_AARCH64_SYSROOT)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_SYSROOT ${BEAMLET_AARCH64_SYSROOT})

set(CMAKE_FIND_ROOT_PATH ${BEAMLET_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The sysroot's libraries depend on each other (libLLVM-19 on libffi, libedit, libz3, ...):
# the linker finds them there, and qemu's -L makes the dynamic loader find them at run time.
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-Wl,-rpath-link,${BEAMLET_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu -Wl,-rpath-link,${BEAMLET_AARCH64_SYSROOT}/lib/aarch64-linux-gnu")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${CMAKE_EXE_LINKER_FLAGS_INIT}")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "${CMAKE_EXE_LINKER_FLAGS_INIT}")

find_program(BEAMLET_QEMU_AARCH64 qemu-aarch64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${BEAMLET_QEMU_AARCH64} -L ${BEAMLET_AARCH64_SYSROOT})
