// vm/assert.hpp — BEAMLET_ASSERT / BEAMLET_UNREACHABLE: broken invariants abort with file:line.
#pragma once

namespace beamlet::vm {
[[noreturn]] void assertion_failed(const char* expr, const char* file, int line);
}

#define BEAMLET_ASSERT(expr) \
    ((expr) ? (void)0 : ::beamlet::vm::assertion_failed(#expr, __FILE__, __LINE__))
#define BEAMLET_UNREACHABLE() ::beamlet::vm::assertion_failed("unreachable", __FILE__, __LINE__)
