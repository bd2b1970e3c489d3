// tools/compare.hpp — `beamlet compare`: one program under both engines, side by side.
#pragma once

#include <string>
#include <vector>

#include "tools/boot.hpp"

namespace beamlet::tools {

struct CompareOptions {
    std::vector<std::string> ignore;  // ECMAScript regexes: standard output lines they match are left out
};

// Runs MODULE:main() as `beamlet run --engine interp` and `--engine jit` (same code path and
// schedulers, default 1), each a child process whose output comes back through pipes (nothing
// is written to disk; a child dies with its parent), with tracing statistics on. Prints each
// engine's run time, exit status, breakpoint hits and time spent in tracing, and whether their
// standard outputs (the trace messages a traced program prints) are identical, lines matching
// an --ignore regex left out. Returns 0 only when both runs succeeded and their outputs are
// identical; 1 otherwise, 2 for a bad regex.
int compare_engines(const BootOptions& options, const std::string& module, const CompareOptions& compare);

}  // namespace beamlet::tools
