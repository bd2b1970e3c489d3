// io/stdio.cpp — buffered standard output and the standard input reader thread.
#include "io/stdio.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <thread>

#include "vm/atom_table.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beamlet::io {

using namespace vm;

// What the reader thread and the VM share. [vm] is cleared when the VM goes away; the thread,
// blocked in read(2), is left to end with the OS process.
struct StandardIo::Reader {
    std::mutex mutex;
    Vm* vm = nullptr;
    std::string bytes;
    bool eof = false;
    Term waiting = 0;  // a process told Empty, to notify when bytes arrive
};

StandardIo::StandardIo(Vm& vm) : m_vm(vm), m_tty(::isatty(1) == 1) {}

StandardIo::~StandardIo() {
    flush();
    if (m_reader) {
        std::lock_guard lock(m_reader->mutex);
        m_reader->vm = nullptr;
    }
}

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

namespace {

// Tells [pid], waiting for input, that some arrived.
void notify(Vm& vm, Term pid) {
    static const Term am_beamlet_stdin = atom("beamlet_stdin");
    if (auto p = vm.lookup_process(pid)) vm.send_signal(p.get(), Message{am_beamlet_stdin, nullptr});
}

}  // namespace

StandardIo::Input StandardIo::take_input(Term reader, std::string* out) {
    if (!m_reader) {
        m_reader = std::make_shared<Reader>();
        m_reader->vm = &m_vm;
        std::thread([shared = m_reader] {
            char buf[65536];
            while (true) {
                ssize_t n = ::read(0, buf, sizeof buf);
                if (n < 0 && errno == EINTR) continue;
                if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && wait_until_ready(0, POLLIN)) continue;
                std::lock_guard lock(shared->mutex);
                if (n <= 0) shared->eof = true;
                else shared->bytes.append(buf, std::size_t(n));
                if (shared->waiting && shared->vm) {
                    notify(*shared->vm, shared->waiting);
                    shared->waiting = 0;
                }
                if (n <= 0 || !shared->vm) return;
            }
        }).detach();
    }
    std::lock_guard lock(m_reader->mutex);
    if (!m_reader->bytes.empty()) {
        out->swap(m_reader->bytes);
        m_reader->bytes.clear();
        return Input::Data;
    }
    if (m_reader->eof) return Input::Eof;
    m_reader->waiting = reader;
    return Input::Empty;
}

}  // namespace beamlet::io
