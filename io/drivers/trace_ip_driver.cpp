// io/drivers/trace_ip_driver.cpp — dbg's IP trace port (trace_ip_driver.hpp). The listening
// socket and the client's are non-blocking and watched by the I/O thread for the port (both
// directions, edge-triggered): each turn accepts, reads (only to see the client go) and
// writes what it can.
#include "io/drivers/trace_ip_driver.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string_view>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "io/io_layer.hpp"
#include "io/io_poller.hpp"
#include "vm/port.hpp"

namespace beamlet::io {

using vm::IO_READ;
using vm::IO_SOCKET;
using vm::Port;
using vm::PortDriver;
using vm::Term;

namespace {

constexpr unsigned FLAG_DROP_OLDEST = 1;
constexpr unsigned FLAG_FILL_ALWAYS = 2;

class TraceIpDriver final : public PortDriver {
public:
    TraceIpDriver(int listen_fd, unsigned queue_size, unsigned flags)
        : m_listen(listen_fd), m_queue_size(queue_size), m_flags(flags) {}
    ~TraceIpDriver() override {
        if (m_client >= 0) ::close(m_client);
        if (m_listen >= 0) ::close(m_listen);
    }

    void start(Port& port) override {
        m_port_number = vm::port_number(port.id);
        layer(port.vm).poller().watch(m_listen, m_port_number, IO_READ);
    }

    void output(Port& port, Term, std::string_view bytes) override {
        if (m_client < 0 && !(m_flags & FLAG_FILL_ALWAYS)) return;  // nobody to tell
        if (m_frames.size() >= m_queue_size) {
            // Full: the newest is dropped (or, with FLAG_DROP_OLDEST, the oldest not being
            // written), and a drop record counts what is lost.
            if ((m_flags & FLAG_DROP_OLDEST) && m_frames.size() > (m_written ? 1u : 0u)) {
                m_frames.erase(m_frames.begin() + (m_written ? 1 : 0));
                count_drop();
                m_frames.push_back(frame(0, bytes));
            } else {
                count_drop();
            }
        } else {
            m_frames.push_back(frame(0, bytes));
        }
        write_out(port);
    }

    std::optional<std::string> control(Port&, Term, unsigned operation, std::string_view) override {
        if (operation != 'p') return std::nullopt;
        sockaddr_in addr{};
        socklen_t length = sizeof addr;
        if (::getsockname(m_listen, reinterpret_cast<sockaddr*>(&addr), &length) != 0) return std::nullopt;
        unsigned number = ntohs(addr.sin_port);
        return std::string{char(0), char(number >> 8), char(number & 0xFF)};
    }
    bool binary_control() const override { return true; }

    void ready(Port& port, std::uint32_t) override {
        accept_client(port);
        if (m_client >= 0) read_client(port);
        write_out(port);
    }

    bool stop(Port& port, bool) override {
        IoPoller& poller = layer(port.vm).poller();
        if (m_client >= 0) {
            poller.forget(m_client);
            ::close(m_client);
            m_client = -1;
        }
        if (m_listen >= 0) {
            poller.forget(m_listen);
            ::close(m_listen);
            m_listen = -1;
        }
        return false;
    }

    std::size_t queue_size() const override {
        std::size_t n = 0;
        for (const std::string& f : m_frames) n += f.size();
        return n - m_written;
    }
    bool wants_write() const override { return m_client >= 0 && !m_frames.empty(); }
    bool starts_with_io_turn() const override { return false; }

private:
    static std::string frame(char tag, std::string_view bytes) {
        std::size_t n = bytes.size();
        std::string f{tag, char(n >> 24), char(n >> 16), char(n >> 8), char(n)};
        f.append(bytes);
        return f;
    }

    // A message lost: the drop record after the last queued frame counts it.
    void count_drop() {
        if (!m_frames.empty() && m_frames.back()[0] == 1 && (m_frames.size() > 1 || !m_written)) {
            std::string& d = m_frames.back();
            std::uint32_t n = (std::uint32_t(std::uint8_t(d[1])) << 24 | std::uint32_t(std::uint8_t(d[2])) << 16 |
                               std::uint32_t(std::uint8_t(d[3])) << 8 | std::uint8_t(d[4])) + 1;
            d = std::string{char(1), char(n >> 24), char(n >> 16), char(n >> 8), char(n)};
            return;
        }
        m_frames.push_back(std::string{char(1), 0, 0, 0, 1});
    }

    // One client at a time: another is turned away.
    void accept_client(Port& port) {
        for (;;) {
            int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) return;
            if (m_client >= 0) {
                ::close(fd);
                continue;
            }
            m_client = fd;
            layer(port.vm).poller().watch(m_client, m_port_number, IO_SOCKET);
        }
    }

    // The client sends nothing: reading only learns that it went.
    void read_client(Port& port) {
        char sink[512];
        for (;;) {
            ssize_t n = ::recv(m_client, sink, sizeof sink, 0);
            if (n > 0) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
            if (n < 0 && errno == EINTR) continue;
            drop_client(port);
            return;
        }
    }

    void drop_client(Port& port) {
        layer(port.vm).poller().forget(m_client);
        ::close(m_client);
        m_client = -1;
        m_written = 0;
    }

    void write_out(Port& port) {
        while (m_client >= 0 && !m_frames.empty()) {
            const std::string& f = m_frames.front();
            ssize_t n = ::send(m_client, f.data() + m_written, f.size() - m_written, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) return;
                drop_client(port);
                return;
            }
            m_written += std::size_t(n);
            if (m_written == f.size()) {
                m_frames.pop_front();
                m_written = 0;
            }
        }
    }

    int m_listen;
    int m_client = -1;
    unsigned m_queue_size;
    unsigned m_flags;
    vm::Word m_port_number = 0;
    std::deque<std::string> m_frames;  // whole frames, the first maybe partly written
    std::size_t m_written = 0;         // bytes of the first frame written
};

}  // namespace

std::unique_ptr<PortDriver> trace_ip_driver(const std::string& command, int* error) {
    *error = EINVAL;
    int port_no = 0, queue_size = 0;
    unsigned flags = 0;
    char extra = 0;
    if (std::sscanf(command.c_str(), "trace_ip_drv %d %d %u %c", &port_no, &queue_size, &flags, &extra) != 3 ||
        port_no < 0 || port_no > 65535 || queue_size < 1)
        return nullptr;
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = errno;
        return nullptr;
    }
    int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    addr.sin_port = htons(std::uint16_t(port_no));
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 1) != 0) {
        *error = errno;
        ::close(fd);
        return nullptr;
    }
    return std::make_unique<TraceIpDriver>(fd, unsigned(queue_size), flags);
}

}  // namespace beamlet::io
