// vm/config.hpp — beamlet's settings from the environment, read once (at the first call of
// config(), in practice at start-up) into one struct: every layer asks config() instead of
// calling getenv, so everything a run can be configured with is listed here (and in the
// README). Values are as given; each member says what it means when unset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace beamlet::vm {

struct Config {
    // BEAMLET_LIB: beamlet's own library modules (default: the build's lib/).
    std::optional<std::string> lib_dir;
    // BEAMLET_OTP_LIB: OTP's lib/ directory (default: the installed erl's, found at configure).
    std::optional<std::string> otp_lib_dir;
    // BEAMLET_JIT_LIBRARIES=1: library modules are compiled by the JIT too (default: interpreted).
    bool jit_libraries = false;
    // BEAMLET_JIT_HOT: calls that make a module hot for the lazy JIT (0: compile at load).
    std::optional<std::uint64_t> jit_hot_calls;
    // BEAMLET_JIT_LIBRARY: libbeamlet_jit.so (default: next to the executable, or the build's).
    std::optional<std::string> jit_library;
    // BEAMLET_JIT_CACHE: the object cache's directory, or "off" (default: under cache_home).
    std::optional<std::string> jit_cache;
    // BEAMLET_JIT_OPT=0: LLVM's CodeGenOptLevel::None (default: Less).
    bool jit_optimise = true;
    // BEAMLET_JIT_BREAKPOINTS=flag: the flag-byte fallback instead of patched code.
    bool jit_flag_breakpoints = false;
    // BEAMLET_JIT_DEBUG=1: per-module compile statistics on stderr.
    bool jit_debug = false;
    // BEAMLET_JIT_DUMP=DIR: each module's LLVM IR written there.
    std::optional<std::string> jit_dump;
    // BEAMLET_JIT_CODE_SYNC=cache|remap (AArch64): how new code is made visible (default: probed).
    std::optional<std::string> jit_code_sync;
    // BEAMLET_TRACE_STATS=1: breakpoint hits and tracing time counted (beamlet compare).
    bool trace_stats = false;
    // BEAMLET_SELF: the command that runs this beamlet again (default: /proc/self/exe).
    std::optional<std::string> self;
    // XDG_CACHE_HOME as given (the compile cache of .erl files; unset: the temporary directory).
    std::optional<std::string> xdg_cache_home;
    // XDG_CACHE_HOME if not empty, else $HOME/.cache: the JIT's object cache (empty: neither).
    std::string cache_home;
};

// The settings of this run.
const Config& config();

}  // namespace beamlet::vm
