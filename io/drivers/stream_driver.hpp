// io/drivers/stream_driver.hpp — the byte stream behind the spawn and fd drivers: a port
// that reads one descriptor and writes another, framing what it reads (stream, {packet, N},
// {line, L}) into messages to its owner, queueing what it cannot write yet (the port is busy
// past PORT_QUEUE_HIGH_BYTES), and, for a spawned program, reporting its exit status (a
// pidfd on the I/O thread). io/drivers/spawn_driver.cpp and fd_driver.cpp open the
// descriptors; everything after that is here.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vm/port_driver.hpp"

namespace beamlet::io {

// open_port's options, parsed (bif/port_bifs.cpp).
struct PortOptions {
    bool executable = false;  // spawn_executable: [command] is the file; spawn: a /bin/sh command line
    std::string command;
    std::optional<std::vector<std::string>> args;
    std::optional<std::string> arg0;
    std::optional<std::string> cd;
    // {env, [{Name, Value | false}]}: set, or unset (nullopt).
    std::vector<std::pair<std::string, std::optional<std::string>>> env;
    enum class Framing : std::uint8_t { Stream, Packet, Line };
    Framing framing = Framing::Stream;
    int packet_bytes = 0;         // Packet: the header size, 1, 2 or 4
    std::size_t line_length = 0;  // Line: the longest line delivered whole
    bool binary = false;
    bool exit_status = false;
    bool use_stdio = true;
    bool stderr_to_stdout = false;
    bool eof = false;
    bool parallelism = false;  // {parallelism, true}: reported by port_info only
    bool in = true;   // the port reads the program's output
    bool out = true;  // the port writes the program's input
    // The input side reads nothing until the port gets IO_START_INPUT (Vm::stdin_on_demand).
    bool input_on_demand = false;
};

// Output queue limits: a port is busy from HIGH queued bytes until it is back under LOW (OTP's
// default busy_limits_port).
inline constexpr std::size_t PORT_QUEUE_HIGH_BYTES = 8192;
inline constexpr std::size_t PORT_QUEUE_LOW_BYTES = 4096;

// A stream for the program [pid], which reads [to_program] and writes [from_program] (either
// -1 when the port does not use that direction); [pidfd] (or -1) tells when it exits.
std::unique_ptr<vm::PortDriver> program_stream(const PortOptions& options, pid_t pid, int pidfd, int to_program,
                                               int from_program);
// A port whose program could not be executed (a directory, not an executable format): it
// opens and reports [error] as the exit status, as OTP's child does when its exec fails.
std::unique_ptr<vm::PortDriver> failed_program(const PortOptions& options, int error);
// A stream over descriptors the VM already has (the fd driver): [input_gone] when the input
// side is not open (the port exits normal at once); [after_stdio] when it writes fd 1 or 2
// (what the VM has buffered for it goes first).
std::unique_ptr<vm::PortDriver> descriptor_stream(const PortOptions& options, int to, int from, bool input_gone,
                                                  bool after_stdio);

// Closes [fd] if it is open and marks it closed.
void close_fd(int& fd);

}  // namespace beamlet::io
