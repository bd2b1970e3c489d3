// vm/system_logger.hpp — erlang:system_flag(system_logger, Logger): where the runtime sends
// the log events it makes itself (a crashed process's error report, max_heap_size reports).
#pragma once

#include "vm/term.hpp"

namespace beamlet::vm {

// The atom logger (the process registered as logger: the default), undefined (events are
// dropped) or a local pid. An event for a pid that is no longer alive goes to logger, and the
// setting goes back to logger then, as OTP's.
Term system_logger();
// Sets it; returns the previous setting, or THE_NON_VALUE if [logger] is none of the three.
Term set_system_logger(Term logger);

}  // namespace beamlet::vm
