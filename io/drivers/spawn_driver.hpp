// io/drivers/spawn_driver.hpp — the spawn driver: open_port({spawn, Command} |
// {spawn_executable, Path}, Options) runs an external program on pipes (OTP's spawn driver,
// without OTP's erl_child_setup helper: posix_spawn from the VM, a pidfd to learn when it exits).
#pragma once

#include <memory>

#include "io/drivers/stream_driver.hpp"

namespace beamlet::io {

// Starts the program [options] describes. On failure returns null with an errno value
// (ENOENT, EACCES, ...) in [*error].
std::unique_ptr<vm::PortDriver> spawn_program(const PortOptions& options, int* error);

}  // namespace beamlet::io
