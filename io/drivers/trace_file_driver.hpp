// io/drivers/trace_file_driver.hpp — "trace_file_drv", the port that dbg:trace_port(file, ...)
// opens as a tracer (OTP's runtime_tools driver of that name, written here, not loaded): each
// command (a trace message in the external format) is written to a file as <<0, Size:32,
// Bytes>>, through an 8 KB buffer that port_control(Port, $f, []) flushes (answering [0]);
// with wrapping, files Name ++ N ++ Tail of a limited size, the oldest removed past a count.
// dbg:trace_client/2,3 reads what it writes.
#pragma once

#include <memory>
#include <string>

#include "vm/port_driver.hpp"

namespace beamlet::io {

// The driver for the open_port({spawn, [command]}) command line "trace_file_drv [w Size Count
// Time TailLength ]n FileName", or null (with an errno value in [*error], EINVAL for a command
// line it does not take).
std::unique_ptr<vm::PortDriver> trace_file_driver(const std::string& command, int* error);

}  // namespace beamlet::io
