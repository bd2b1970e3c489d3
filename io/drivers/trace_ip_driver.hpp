// io/drivers/trace_ip_driver.hpp — "trace_ip_drv", the port that dbg:trace_port(ip, ...)
// opens as a tracer (OTP's runtime_tools driver of that name, written here, not loaded): it
// listens on a TCP port and sends each command (a trace message in the external format) to
// the one client connected, as <<0, Size:32, Bytes>>, which dbg:trace_client(ip, ...) reads.
// Until a client comes, up to QueueSize messages wait; past that, messages are dropped and
// a <<1, Dropped:32>> record takes their place. port_control(Port, $p, []) answers the
// listening port as <<0, Port:16>>.
#pragma once

#include <memory>
#include <string>

#include "vm/port_driver.hpp"

namespace beamlet::io {

// The driver for the open_port({spawn, [command]}) command line "trace_ip_drv PortNo
// QueueSize Flags" (Flags: 1 drop the oldest, not the newest; 2 queue even before a client
// comes), or null with an errno value in [*error] (EINVAL: a command line it does not take).
std::unique_ptr<vm::PortDriver> trace_ip_driver(const std::string& command, int* error);

}  // namespace beamlet::io
