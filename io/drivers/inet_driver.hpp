// io/drivers/inet_driver.hpp — the inet drivers, "tcp_inet" and "udp_inet": the sockets under
// OTP's own prim_inet, gen_tcp, gen_udp and inet (OTP's inet_drv.c). prim_inet opens one with
// open_port({spawn_driver, "tcp_inet"}, [binary]) and drives it with port_control/3 requests
// (open, bind, listen, accept, connect, recv, options, names, statistics) and port_command/2
// for sending; answers that take time come back as {inet_async, S, Ref, Result}, sends are
// acknowledged with {inet_reply, S, Status}, and an active socket delivers {tcp, S, Data},
// {tcp_closed, S}, {udp, S, IP, Port, Data}... to its owner. The descriptor is non-blocking and
// watched by the I/O thread (IO_SOCKET); timeouts are a timerfd (IO_TIMER).
#pragma once

#include <memory>
#include <string_view>

#include "vm/port_driver.hpp"

namespace beamlet::io {

// The driver [name] names ("tcp_inet", "udp_inet"), or null for a driver beamlet does not have.
std::unique_ptr<vm::PortDriver> inet_driver(std::string_view name);

}  // namespace beamlet::io
