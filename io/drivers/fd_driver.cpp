// io/drivers/fd_driver.cpp — the fd driver: open_port({fd, In, Out}, Options) on descriptors
// the VM already has (standard input and output, most often), with the stream driver's
// framing and output queue.
#include "io/drivers/fd_driver.hpp"

#include <cerrno>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace beamlet::io {

using vm::PortDriver;

namespace {

// An fd port's own descriptor for the VM's [fd], opened for [mode] (O_RDONLY, O_WRONLY), or
// -1 when [fd] is not open (open_descriptors).
int port_descriptor(int fd, int mode) {
    struct stat st;
    if (::fstat(fd, &st) != 0) return -1;
    if (!S_ISREG(st.st_mode)) {
        // A new open file description of the same pipe or terminal: non-blocking, and only
        // here. (Opening a pipe's write end fails while it has no reader; a socket cannot be
        // reopened at all: then the shared description is made non-blocking.)
        std::string path = "/proc/self/fd/" + std::to_string(fd);
        int own = ::open(path.c_str(), mode | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (own >= 0) return own;
    }
    int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (copy >= 0 && !S_ISREG(st.st_mode)) ::fcntl(copy, F_SETFL, ::fcntl(copy, F_GETFL) | O_NONBLOCK);
    return copy;
}

}  // namespace

std::unique_ptr<PortDriver> open_descriptors(const PortOptions& s, int in, int out) {
    int from = s.in ? port_descriptor(in, O_RDONLY) : -1;
    int to = s.out ? port_descriptor(out, O_WRONLY) : -1;
    bool input_gone = s.in && from < 0;
    return descriptor_stream(s, to, from, input_gone, s.out && (out == 1 || out == 2));
}

std::unique_ptr<PortDriver> open_file(const PortOptions& s, const std::string& path, int* error) {
    int flags = s.in && !s.out ? O_RDONLY : s.out && !s.in ? O_WRONLY | O_CREAT | O_TRUNC : O_RDWR | O_CREAT;
    int fd = ::open(path.c_str(), flags | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0) {
        *error = errno;
        return nullptr;
    }
    int from = -1, to = -1;
    if (s.in) from = fd;
    if (s.out) to = s.in ? ::fcntl(fd, F_DUPFD_CLOEXEC, 3) : fd;  // each side owns its descriptor
    return descriptor_stream(s, to, from, false, false);
}

}  // namespace beamlet::io
