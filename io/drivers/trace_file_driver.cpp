// io/drivers/trace_file_driver.cpp — dbg's trace file port (trace_file_driver.hpp).
#include "io/drivers/trace_file_driver.hpp"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string_view>

#include <fcntl.h>
#include <unistd.h>

#include "vm/atom_table.hpp"
#include "vm/port.hpp"
#include "vm/posix_errors.hpp"

namespace beamlet::io {

using vm::Port;
using vm::PortDriver;
using vm::Term;

namespace {

constexpr std::size_t BUFFER_BYTES = 8192;

// Wrapping: files [prefix] ++ N ++ [tail] for N in 0..count (count + 1 names, OTP's counter),
// at most [count] of them kept.
struct Wrap {
    std::uint64_t size = 0;   // bytes per file (0: wrap by time only)
    unsigned count = 0;
    unsigned time_ms = 0;     // wrap after this long (0: by size)
    std::string prefix, tail;
    unsigned current = 0;     // the file being written
    unsigned oldest = 0;      // the oldest file kept
    unsigned before_removal;  // wraps left until files are removed
    std::uint64_t written = 0;
    std::chrono::steady_clock::time_point opened;

    std::string name(unsigned n) const { return prefix + std::to_string(n) + tail; }
    unsigned next(unsigned n) const { return n >= count ? 0 : n + 1; }
};

class TraceFileDriver final : public PortDriver {
public:
    TraceFileDriver(int fd, std::unique_ptr<Wrap> wrap) : m_fd(fd), m_wrap(std::move(wrap)) {
        m_buffer.reserve(BUFFER_BYTES);
    }
    ~TraceFileDriver() override { close_file(); }

    void start(Port&) override {}

    void output(Port& port, Term, std::string_view bytes) override {
        char header[5] = {0, char(bytes.size() >> 24), char(bytes.size() >> 16), char(bytes.size() >> 8), char(bytes.size())};
        if (!write(std::string_view(header, 5)) || !write(bytes)) return fail(port);
        if (!m_wrap) return;
        m_wrap->written += 5 + bytes.size();
        bool due = m_wrap->time_ms ? std::chrono::steady_clock::now() - m_wrap->opened >= std::chrono::milliseconds(m_wrap->time_ms)
                                   : m_wrap->written >= m_wrap->size;
        if (due && !wrap()) fail(port);
    }

    std::optional<std::string> control(Port& port, Term, unsigned operation, std::string_view) override {
        if (operation != 'f') return std::nullopt;
        if (!flush()) fail(port);
        return std::string(1, '\0');
    }

    void ready(Port&, std::uint32_t) override {}

    bool stop(Port&, bool) override {
        close_file();
        return false;
    }

    std::size_t queue_size() const override { return 0; }
    bool wants_write() const override { return false; }
    bool wants_read() const override { return false; }
    bool starts_with_io_turn() const override { return false; }

private:
    // Through the buffer; what does not fit goes to the file at once.
    bool write(std::string_view bytes) {
        if (m_buffer.size() + bytes.size() <= BUFFER_BYTES) {
            m_buffer.append(bytes);
            return true;
        }
        if (!flush()) return false;
        if (bytes.size() >= BUFFER_BYTES) return write_all(bytes);
        m_buffer.append(bytes);
        return true;
    }

    bool flush() {
        bool ok = write_all(m_buffer);
        m_buffer.clear();
        return ok;
    }

    bool write_all(std::string_view bytes) {
        while (!bytes.empty()) {
            ssize_t n = ::write(m_fd, bytes.data(), bytes.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            bytes.remove_prefix(std::size_t(n));
        }
        return true;
    }

    // The next file: the oldest goes once [count] files are there.
    bool wrap() {
        if (!flush()) return false;
        ::close(m_fd);
        m_fd = -1;
        Wrap& w = *m_wrap;
        w.written = 0;
        if (w.before_removal > 0) --w.before_removal;
        if (w.before_removal == 0) {
            ::unlink(w.name(w.oldest).c_str());
            w.oldest = w.next(w.oldest);
        }
        w.current = w.next(w.current);
        w.opened = std::chrono::steady_clock::now();
        m_fd = ::open(w.name(w.current).c_str(), O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0777);
        return m_fd >= 0;
    }

    void close_file() {
        if (m_fd < 0) return;
        flush();
        ::close(m_fd);
        m_fd = -1;
    }

    // A write that failed ends the port with the error, as OTP's driver_failure_posix.
    void fail(Port& port) {
        int error = errno ? errno : ENOSPC;
        close_file();
        port.terminate(vm::atom(vm::posix_error_name(error)));
    }

    int m_fd;
    std::unique_ptr<Wrap> m_wrap;
    std::string m_buffer;
};

}  // namespace

std::unique_ptr<PortDriver> trace_file_driver(const std::string& command, int* error) {
    *error = EINVAL;
    std::string_view rest(command);
    constexpr std::string_view name = "trace_file_drv ";
    if (!rest.starts_with(name)) return nullptr;
    rest.remove_prefix(name.size());
    while (rest.starts_with(" ")) rest.remove_prefix(1);
    std::unique_ptr<Wrap> wrap;
    unsigned counter_at = 0;  // where the file counter goes in the name (dbg: the name's length)
    if (rest.starts_with("w ")) {
        std::istringstream in{std::string(rest.substr(2))};
        wrap = std::make_unique<Wrap>();
        if (!(in >> wrap->size >> wrap->count >> wrap->time_ms >> counter_at)) return nullptr;
        std::size_t used = std::size_t(in.tellg());
        rest.remove_prefix(2 + used);
        while (rest.starts_with(" ")) rest.remove_prefix(1);
    }
    if (!rest.starts_with("n ")) return nullptr;
    std::string file(rest.substr(2));
    std::string path = file;
    if (wrap) {
        if (counter_at >= file.size() || wrap->count == 0) return nullptr;
        wrap->prefix = file.substr(0, counter_at);
        wrap->tail = file.substr(counter_at);
        wrap->before_removal = wrap->count;
        wrap->opened = std::chrono::steady_clock::now();
        path = wrap->name(0);
    }
    int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0777);
    if (fd < 0) {
        *error = errno;
        return nullptr;
    }
    return std::make_unique<TraceFileDriver>(fd, std::move(wrap));
}

}  // namespace beamlet::io
