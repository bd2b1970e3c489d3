// io/drivers/fd_driver.hpp — the fd driver: open_port({fd, In, Out}, Options).
#pragma once

#include <memory>

#include "io/drivers/stream_driver.hpp"

namespace beamlet::io {

// The fd driver: a port that reads descriptor [in] and writes [out] (standard input and
// output, most often), which stay open when it closes. Each side gets a descriptor of its own
// (a pipe or a terminal is reopened, so that it can be made non-blocking without changing the
// VM's, which a shell may share; a regular file is duplicated, keeping its offset shared). A
// side that is not open ends the input at once (the port exits normal) or fails the writes
// (ebadf). Writes to fd 1 or 2 come after what the VM has buffered for it (io/stdio.hpp).
std::unique_ptr<vm::PortDriver> open_descriptors(const PortOptions& options, int in, int out);

// OTP's vanilla driver: open_port(FileName, Options) with an atom or a string opens the file
// itself as the port, read-only with only `in`, else for writing, created and (with only
// `out`) truncated. Null with [error] set when the file cannot be opened.
std::unique_ptr<vm::PortDriver> open_file(const PortOptions& options, const std::string& path, int* error);

}  // namespace beamlet::io
