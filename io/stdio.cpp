// io/stdio.cpp — buffered standard output.
#include "io/stdio.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

#include "vm/vm.hpp"

namespace beamlet::io {

using namespace vm;

StandardIo::StandardIo(Vm&) : m_tty(::isatty(1) == 1) {}

StandardIo::~StandardIo() { flush(); }

namespace {

// Blocks until [fd] is ready for [events] (POLLIN, POLLOUT): for descriptors someone made
// non-blocking. False when it never will be.
bool wait_until_ready(int fd, short events) {
    pollfd p{fd, events, 0};
    int rc;
    do rc = ::poll(&p, 1, -1);
    while (rc < 0 && errno == EINTR);
    return rc > 0 && !(p.revents & POLLNVAL);
}

}  // namespace

void StandardIo::write_all(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            // A non-blocking descriptor (as a parent may hand one over) that is full: wait.
            if ((errno == EAGAIN || errno == EWOULDBLOCK) && wait_until_ready(fd, POLLOUT)) continue;
            return;  // a closed pipe: the output has nowhere to go
        }
        data += n;
        size -= std::size_t(n);
    }
}

void StandardIo::write(int fd, std::string_view bytes) {
    if (fd != 1) {
        flush();
        write_all(fd, bytes.data(), bytes.size());
        return;
    }
    std::lock_guard lock(m_out_mutex);
    m_out.append(bytes);
    if (m_out.size() > (1u << 16) || (m_tty && bytes.find('\n') != std::string_view::npos)) {
        write_all(1, m_out.data(), m_out.size());
        m_out.clear();
    }
    m_pending.store(!m_out.empty(), std::memory_order_release);
}

void StandardIo::flush() {
    std::lock_guard lock(m_out_mutex);
    if (!m_out.empty()) write_all(1, m_out.data(), m_out.size());
    m_out.clear();
    m_pending.store(false, std::memory_order_release);
}

}  // namespace beamlet::io
