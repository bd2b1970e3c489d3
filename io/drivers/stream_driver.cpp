// io/drivers/stream_driver.cpp — framing what a port reads, queueing what it writes, and a
// spawned program's exit status.
#include "io/drivers/stream_driver.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>

#include <fcntl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/io_layer.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/port.hpp"
#include "vm/vm.hpp"

namespace beamlet::io {

using namespace vm;

namespace {

constexpr std::size_t READ_BUFFER_BYTES = 64 * 1024;
// Reads per readiness event before the port lets other tasks run.
constexpr int READS_PER_TURN = 8;
// A read at least this long hands its buffer over as the binary instead of copying it.
constexpr std::size_t ADOPT_BUFFER_BYTES = 32 * 1024;

class StreamDriver final : public PortDriver {
public:
    StreamDriver(const PortOptions& s, pid_t pid, int pidfd, int to_child, int from_child)
        : m_settings(s), m_pid(pid), m_pidfd(pidfd), m_to_child(to_child), m_from_child(from_child) {}
    ~StreamDriver() override { release_descriptors(nullptr); }

    // A program that could not be executed (a directory, not an executable format): the port
    // opens and reports [error] as the exit status, as OTP's child does when its exec fails.
    static std::unique_ptr<StreamDriver> failed(const PortOptions& s, int error) {
        auto d = std::make_unique<StreamDriver>(s, -1, -1, -1, -1);
        d->m_exec_failed = true;
        d->m_status_known = true;
        d->m_status = error;
        return d;
    }

    // An fd port (open_descriptors): no program; [input_gone] when its input side is not open.
    static std::unique_ptr<StreamDriver> on_descriptors(const PortOptions& s, int to, int from, bool input_gone,
                                                       bool after_stdio) {
        auto d = std::make_unique<StreamDriver>(s, -1, -1, to, from);
        d->m_input_gone = input_gone;
        d->m_after_stdio = after_stdio;
        return d;
    }

    void start(Port& port) override {
        if (m_exec_failed) return finish(port);
        if (m_input_gone) return end_of_input(port);
        IoPoller& poller = layer(port.vm).poller();
        Word number = port_number(port.id);
        if (!m_settings.input_on_demand) start_input(port);
        // (A descriptor epoll refuses for writing never blocks a write.)
        if (m_to_child >= 0) poller.watch(m_to_child, number, IO_WRITE);
        if (m_pidfd >= 0) poller.watch(m_pidfd, number, IO_CHILD);
    }

    void output(Port& port, Term, std::string_view bytes) override {
        // An input-only port cannot write (OTP: the port exits with ebadf).
        if (m_to_child < 0) return write_failed(port, EBADF);
        if (m_after_stdio) layer(port.vm).stdio().flush();
        char header[4];
        std::size_t header_bytes = 0;
        if (m_settings.framing == PortOptions::Framing::Packet) {
            header_bytes = std::size_t(m_settings.packet_bytes);
            std::size_t n = bytes.size();
            // Too long for the header: the port exits with einval.
            if (header_bytes < sizeof n && n >> (8 * header_bytes)) return write_failed(port, EINVAL);
            for (std::size_t i = header_bytes; i-- > 0; n >>= 8) header[i] = char(n & 0xFF);
        }
        if (m_queued == 0) {
            // Straight to the pipe; only what it cannot take now is queued.
            iovec iov[2] = {{header, header_bytes}, {const_cast<char*>(bytes.data()), bytes.size()}};
            int first = header_bytes ? 0 : 1;
            ssize_t n = ::writev(m_to_child, iov + first, 2 - first);
            if (n < 0) {
                if (errno != EAGAIN && errno != EWOULDBLOCK) return write_failed(port, errno);
                n = 0;
            }
            std::size_t written = std::size_t(n);
            if (written < header_bytes) {
                enqueue(std::string_view(header + written, header_bytes - written));
                enqueue(bytes);
            } else if (written - header_bytes < bytes.size()) {
                enqueue(bytes.substr(written - header_bytes));
            }
        } else {
            enqueue(std::string_view(header, header_bytes));
            enqueue(bytes);
        }
        if (m_queued >= PORT_QUEUE_HIGH_BYTES) port.set_busy(true);
    }

    void ready(Port& port, std::uint32_t events) override {
        if ((events & IO_START_INPUT) && m_settings.input_on_demand && !m_input_started) start_input(port);
        if ((events & IO_WRITE) && m_queued) flush(port);
        if (events & IO_HUP) m_hung_up = true;
        if ((events & IO_READ) && m_from_child >= 0 && port.is_open()) read_available(port);
        if ((events & IO_CHILD) && m_pidfd >= 0) child_exited(port);
    }

    bool stop(Port& port, bool flush) override {
        IoPoller& poller = layer(port.vm).poller();
        if (!flush || !m_queued || m_to_child < 0) {
            release_descriptors(&poller);
            return false;
        }
        // Only the input pipe stays, until the queue drains (flush, write_failed).
        m_closing = true;
        if (m_from_child >= 0) poller.forget(m_from_child);
        close_fd(m_from_child);
        return true;
    }

    std::size_t queue_size() const override { return m_queued; }
    long os_pid() const override { return long(m_pid); }

private:
    // ---- input: the program's output, framed into messages ----

    void start_input(Port& port) {
        m_input_started = true;
        if (m_from_child < 0) return;
        if (!layer(port.vm).poller().watch(m_from_child, port_number(port.id), IO_READ)) {
            // Not pollable (a regular file, /dev/null): always ready, read to its end.
            m_hung_up = true;
            port.io_events.fetch_or(IO_READ, std::memory_order_release);  // run after this turn
        }
    }

    void read_available(Port& port) {
        for (int i = 0; i < READS_PER_TURN; ++i) {
            if (!m_buffer) m_buffer = BinaryBuf::create(READ_BUFFER_BYTES);
            ssize_t n = ::read(m_from_child, m_buffer->bytes, READ_BUFFER_BYTES);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) return;
                return end_of_input(port);  // as end of file: the pipe is unusable
            }
            if (n == 0) return end_of_input(port);
            // Packet headers are not input (OTP counts payloads).
            if (m_settings.framing != PortOptions::Framing::Packet)
                port.count_input(std::size_t(n));
            received(port, std::size_t(n));
            if (!port.is_open()) return;
            // A short read emptied the pipe: the next edge brings more, unless the writer has
            // hung up already (then end of file is all that is left, and no edge announces it).
            if (std::size_t(n) < READ_BUFFER_BYTES && !m_hung_up) return;
        }
        // A fast writer: let others run, then read on.
        port.io_events.fetch_or(IO_READ, std::memory_order_release);
        port.reschedule();
    }

    void received(Port& port, std::size_t n) {
        const char* bytes = reinterpret_cast<const char*>(m_buffer->bytes);
        switch (m_settings.framing) {
        case PortOptions::Framing::Stream:
            if (m_settings.binary && n >= ADOPT_BUFFER_BYTES) {
                // The read buffer becomes the binary: no copy of a large chunk (the unused
                // tail is given back; shrinking a block in place copies nothing).
                BinaryBuf* buf = m_buffer;
                m_buffer = nullptr;
                if (n < READ_BUFFER_BYTES)
                    if (void* smaller = std::realloc(buf, sizeof(BinaryBuf) + n)) buf = static_cast<BinaryBuf*>(smaller);
                buf->size_bytes = n;
                HeapFragment* frag = HeapFragment::create(REFC_BIN_WORDS + 6);
                Term bin = make_refc_binary_in(frag->alloc(REFC_BIN_WORDS), &frag->off_heap_first, buf, n);
                port.deliver(bin, frag);
            } else {
                deliver_bytes(port, std::string_view(bytes, n), 0);
            }
            break;
        case PortOptions::Framing::Packet:
            m_pending.append(bytes, n);
            deliver_packets(port);
            break;
        case PortOptions::Framing::Line:
            m_pending.append(bytes, n);
            deliver_lines(port, false);
            break;
        }
    }

    // {Port, {data, Data}}, or with [tag] (eol / noeol) {Port, {data, {Tag, Data}}}.
    void deliver_bytes(Port& port, std::string_view data, Term tag) {
        Word data_words = m_settings.binary ? binary_words(data.size()) : 2 * data.size();
        HeapFragment* frag = HeapFragment::create(data_words + 3 + 6);
        Term term;
        if (m_settings.binary) {
            term = make_binary_in(frag->alloc(data_words), &frag->off_heap_first,
                                  reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
        } else {
            Term* cells = frag->alloc(data_words);
            term = NIL;
            for (std::size_t i = data.size(); i-- > 0;)
                term = make_cons_on(cells + 2 * i, make_small(static_cast<std::uint8_t>(data[i])), term);
        }
        if (tag) {
            Term* hp = frag->alloc(3);
            hp[0] = make_arityval(2);
            hp[1] = tag;
            hp[2] = term;
            term = make_boxed(hp);
        }
        port.deliver(term, frag);
    }

    void deliver_packets(Port& port) {
        std::size_t header = std::size_t(m_settings.packet_bytes);
        std::size_t at = 0;
        while (port.is_open() && m_pending.size() - at >= header) {
            std::size_t length = 0;
            for (std::size_t i = 0; i < header; ++i) length = (length << 8) | static_cast<std::uint8_t>(m_pending[at + i]);
            if (m_pending.size() - at - header < length) break;
            port.count_input(length);
            deliver_bytes(port, std::string_view(m_pending).substr(at + header, length), 0);
            at += header + length;
        }
        m_pending.erase(0, at);
    }

    void deliver_lines(Port& port, bool at_eof) {
        static const Term am_eol = atom("eol"), am_noeol = atom("noeol");
        std::size_t at = 0, limit = m_settings.line_length;
        std::string_view pending(m_pending);
        while (port.is_open()) {
            std::size_t nl = pending.find('\n', at);
            if (nl != std::string_view::npos) {
                // "\r\n" ends a line as "\n" does; the "\r" does not count against the limit.
                std::size_t end = nl > at && pending[nl - 1] == '\r' ? nl - 1 : nl;
                if (end - at > limit) {
                    deliver_bytes(port, pending.substr(at, limit), am_noeol);
                    at += limit;
                } else {
                    deliver_bytes(port, pending.substr(at, end - at), am_eol);
                    at = nl + 1;
                }
                continue;
            }
            // No end of line yet: only a part known to be too long goes out now (a final
            // "\r" may still be the start of "\r\n").
            std::size_t available = pending.size() - at;
            if (available && pending.back() == '\r') --available;
            if (available <= limit) break;
            deliver_bytes(port, pending.substr(at, limit), am_noeol);
            at += limit;
        }
        if (at_eof && at < pending.size() && port.is_open()) {
            deliver_bytes(port, pending.substr(at), am_noeol);
            at = pending.size();
        }
        m_pending.erase(0, at);
    }

    void end_of_input(Port& port) {
        if (m_from_child >= 0) layer(port.vm).poller().forget(m_from_child);
        close_fd(m_from_child);
        // The end waits for the exit status, when the port reports it.
        if (!m_settings.exit_status || m_status_known) finish(port);
    }

    void child_exited(Port& port) {
        siginfo_t info{};
        if (waitid(P_PIDFD, id_t(m_pidfd), &info, WEXITED | WNOHANG) != 0 || info.si_pid == 0) return;
        layer(port.vm).poller().forget(m_pidfd);
        close_fd(m_pidfd);
        m_status_known = true;
        // As the shell reports it: the exit code, or 128 + the signal that ended the program.
        m_status = info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
        if (!m_settings.exit_status) return;
        // The status comes after all the output: at end of file, or now if it was reached.
        if (m_from_child < 0) finish(port);
    }

    // The end of the program's output, in OTP's order: the exit status (if asked for), the
    // unfinished last line (line mode), then {Port, eof} (eof: the port stays open) or the
    // port closes normally.
    void finish(Port& port) {
        if (m_finished) return;
        m_finished = true;
        if (m_settings.exit_status && m_status_known) send_pair(port, atom("exit_status"), make_small(m_status));
        if (m_settings.framing == PortOptions::Framing::Line) deliver_lines(port, true);
        if (!port.is_open()) return;
        if (m_settings.eof) send_pair(port, atom("eof"), 0);
        else port.terminate(atoms::normal);
    }

    // {Port, {[tag], [value]}}, or {Port, [tag]} when [value] is 0.
    void send_pair(Port& port, Term tag, Term value) {
        Term inner[3] = {make_arityval(2), tag, value};
        Term words[3] = {make_arityval(2), port.id, value ? make_boxed(inner) : tag};
        Term msg;
        HeapFragment* frag = copy_to_fragment(make_boxed(words), &msg);
        port.send_to_owner(msg, frag);
    }

    // ---- output: what the port is sent ----

    void enqueue(std::string_view bytes) {
        if (bytes.empty()) return;
        m_queue.emplace_back(bytes);
        m_queued += bytes.size();
    }

    void flush(Port& port) {
        while (m_queued) {
            iovec iov[16];
            int n_iov = 0;
            std::size_t offset = m_queue_offset;
            for (auto it = m_queue.begin(); it != m_queue.end() && n_iov < 16; ++it, ++n_iov) {
                iov[n_iov].iov_base = it->data() + offset;
                iov[n_iov].iov_len = it->size() - offset;
                offset = 0;
            }
            ssize_t n = ::writev(m_to_child, iov, n_iov);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) break;
                return write_failed(port, errno);
            }
            std::size_t written = std::size_t(n);
            m_queued -= written;
            while (written) {
                std::size_t rest = m_queue.front().size() - m_queue_offset;
                if (written < rest) {
                    m_queue_offset += written;
                    break;
                }
                written -= rest;
                m_queue.pop_front();
                m_queue_offset = 0;
            }
        }
        if (m_closing) {
            if (!m_queued) closed(port);
            return;
        }
        if (m_queued < PORT_QUEUE_LOW_BYTES) port.set_busy(false);
    }

    // A closing port's queue is done with: the port goes away.
    void closed(Port& port) {
        release_descriptors(&layer(port.vm).poller());
        port.finish_closing();
    }

    void write_failed(Port& port, int error) {
        // OTP's driver_failure_posix: the port exits with the error's name (epipe, ...).
        m_queue.clear();
        m_queued = 0;
        m_queue_offset = 0;
        if (m_closing) return closed(port);
        std::string name = error == EPIPE ? "epipe" : error == EBADF ? "ebadf" : error == EINVAL ? "einval" : "eio";
        port.terminate(atom(name));
    }

    void release_descriptors(IoPoller* poller) {
        for (int* fd : {&m_from_child, &m_to_child}) {
            if (*fd >= 0 && poller) poller->forget(*fd);
            close_fd(*fd);
        }
        if (m_pidfd >= 0) {
            if (poller) {
                poller->forget(m_pidfd);
                poller->reap(m_pidfd);  // it ends once it reads end of file; reaped then
                m_pidfd = -1;
            } else {
                close_fd(m_pidfd);
            }
        }
        if (m_buffer) {
            m_buffer->release();
            m_buffer = nullptr;
        }
    }

    PortOptions m_settings;
    pid_t m_pid;
    int m_pidfd;
    int m_to_child;
    int m_from_child;
    BinaryBuf* m_buffer = nullptr;   // the read buffer
    std::string m_pending;           // packet and line framing: bytes not delivered yet
    std::deque<std::string> m_queue; // output the pipe could not take yet
    std::size_t m_queue_offset = 0;  // bytes of m_queue.front() already written
    std::size_t m_queued = 0;
    bool m_status_known = false, m_finished = false;
    bool m_exec_failed = false;      // the program could not be executed (failed)
    bool m_input_gone = false;       // an fd port whose input descriptor is not open
    bool m_after_stdio = false;      // an fd port writing fd 1 or 2: the VM's buffer goes first
    bool m_hung_up = false;          // the program closed its output
    bool m_input_started = false;    // the input side is watched (start_input)
    bool m_closing = false;          // the port closed: the queue drains, then everything goes
    int m_status = 0;
};

}  // namespace

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

std::unique_ptr<PortDriver> program_stream(const PortOptions& options, pid_t pid, int pidfd, int to_program,
                                           int from_program) {
    return std::make_unique<StreamDriver>(options, pid, pidfd, to_program, from_program);
}

std::unique_ptr<PortDriver> failed_program(const PortOptions& options, int error) {
    return StreamDriver::failed(options, error);
}

std::unique_ptr<PortDriver> descriptor_stream(const PortOptions& options, int to, int from, bool input_gone,
                                              bool after_stdio) {
    return StreamDriver::on_descriptors(options, to, from, input_gone, after_stdio);
}

}  // namespace beamlet::io
