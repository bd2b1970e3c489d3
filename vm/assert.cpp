// vm/assert.cpp — reports a broken invariant and aborts.
#include "vm/assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace beamlet::vm {
void assertion_failed(const char* expr, const char* file, int line) {
    std::fprintf(stderr, "beamlet: internal error: %s at %s:%d\n", expr, file, line);
    std::fflush(stderr);
    std::abort();
}
}  // namespace beamlet::vm
