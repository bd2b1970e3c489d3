// tools/compare.hpp — `beamlet compare`: one program under both engines, side by side.
#pragma once

#include <string>

#include "tools/boot.hpp"

namespace beamlet::tools {

// Runs MODULE:main() with `self run --engine interp` and `--engine jit` (same code path and
// schedulers, default 1), with tracing statistics on; prints whether their standard outputs
// (the trace messages a traced program prints) are identical, and each engine's run time,
// breakpoint hits and time spent in tracing. Returns 0 when the outputs are identical.
int compare_engines(const std::string& self, const BootOptions& options, const std::string& module);

}  // namespace beamlet::tools
