// vm/spawn_driver.hpp — the spawn driver: open_port({spawn, Command} | {spawn_executable,
// Path}, Options) runs an external program on pipes (OTP's spawn driver, without OTP's
// erl_child_setup helper: posix_spawn from the VM, a pidfd to learn when it exits); and the
// fd driver, open_port({fd, In, Out}, Options), the same framing and output queue on
// descriptors the VM already has open.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vm/port_driver.hpp"

namespace beamlet::vm {

// open_port's options, parsed (bif/port_bifs.cpp).
struct SpawnSettings {
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
};

// Starts the program [settings] describes. On failure returns null with an errno value
// (ENOENT, EACCES, ...) in [*error].
std::unique_ptr<PortDriver> spawn_program(const SpawnSettings& settings, int* error);

// The fd driver: a port that reads descriptor [in] and writes [out] (standard input and
// output, most often), which stay open when it closes. Each side gets a descriptor of its own
// (a pipe or a terminal is reopened, so that it can be made non-blocking without changing the
// VM's, which a shell may share; a regular file is duplicated, keeping its offset shared). A
// side that is not open ends the input at once (the port exits normal) or fails the writes
// (ebadf). Writes to fd 1 or 2 come after what the VM has buffered for it (vm/stdio.hpp).
std::unique_ptr<PortDriver> open_descriptors(const SpawnSettings& settings, int in, int out);

// Output queue limits: a port is busy from HIGH queued bytes until it is back under LOW (OTP's
// default busy_limits_port).
inline constexpr std::size_t PORT_QUEUE_HIGH_BYTES = 8192;
inline constexpr std::size_t PORT_QUEUE_LOW_BYTES = 4096;

}  // namespace beamlet::vm
