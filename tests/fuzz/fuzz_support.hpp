// tests/fuzz/fuzz_support.hpp — what the libFuzzer targets share: one VM per fuzzing process,
// booted at the first input and kept (libFuzzer ends the process; nothing tears it down), and a
// loud stop for a broken promise that is not a sanitizer report.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "tools/boot.hpp"

namespace beamlet::fuzz {

// The interpreter-only VM of this fuzzing process. With [library_path], modules load on demand
// from beamlet's library and OTP's (the pattern parser runs Erlang code).
inline tools::Runtime& runtime(bool library_path = false) {
    static tools::Runtime* the_runtime = [library_path] {
        tools::BootOptions options;
        options.schedulers = 1;
        if (library_path) {
            options.code_path.push_back(tools::library_dir());
            for (const std::string& dir : tools::otp_library_path()) options.code_path.push_back(dir);
        }
        return new tools::Runtime(options);
    }();
    return *the_runtime;
}

// A finding that no sanitizer would report (a wrong answer rather than a bad access).
[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "fuzz: %s\n", what);
    std::abort();
}

}  // namespace beamlet::fuzz
