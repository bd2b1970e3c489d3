// tests/unit/io/stdio_test.cpp — the VM's standard output on a descriptor someone else made
// non-blocking (a parent may hand one over; an fd port on a socket shares one): a full pipe
// makes the writer wait for its reader, and no byte is lost.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "io/stdio.hpp"
#include "vm/vm.hpp"

namespace beamlet::io {
namespace {

// Points fd 1 at another descriptor for one test, and back.
class StdoutRedirect {
public:
    explicit StdoutRedirect(int fd) : m_saved(::dup(1)) { ::dup2(fd, 1); }
    ~StdoutRedirect() {
        ::dup2(m_saved, 1);
        ::close(m_saved);
    }
    StdoutRedirect(const StdoutRedirect&) = delete;
    StdoutRedirect& operator=(const StdoutRedirect&) = delete;

private:
    int m_saved;
};

TEST(StandardIo, WaitsForASlowReaderOfANonBlockingPipe) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    ::fcntl(fds[1], F_SETFL, ::fcntl(fds[1], F_GETFL) | O_NONBLOCK);
    const std::string line = std::string(999, 'x') + "\n";
    const std::size_t lines = 1000;  // 1 MB: many times a pipe's 64 KB
    std::string received;
    std::thread reader([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the pipe fills first
        char buf[4096];
        ssize_t n;
        while ((n = ::read(fds[0], buf, sizeof buf)) > 0) {
            received.append(buf, std::size_t(n));
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
    });
    {
        StdoutRedirect redirect(fds[1]);
        ::close(fds[1]);
        Vm vm;
        StandardIo out(vm);
        for (std::size_t i = 0; i < lines; ++i) out.write(1, line);
        out.flush();
    }  // fd 1 restored: the pipe's last writer is gone, the reader sees its end
    reader.join();
    ::close(fds[0]);
    EXPECT_EQ(received.size(), line.size() * lines);
    EXPECT_EQ(received.find_first_not_of(line.substr(0, 1) + "\n"), std::string::npos);
}

}  // namespace
}  // namespace beamlet::io
