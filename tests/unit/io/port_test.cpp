// tests/unit/io/port_test.cpp — the port layer without Erlang code: run-queue tasks, the port
// table, the spawn driver's start-up errors, busy ports and their command modes, the
// poller's reaping of programs that outlive their ports.
#include <gtest/gtest.h>

#include <cerrno>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm/atom_table.hpp"
#include "vm/port.hpp"
#include "vm/port_driver.hpp"
#include "vm/port_table.hpp"
#include "io/drivers/spawn_driver.hpp"
#include "io/io_layer.hpp"
#include "vm/task.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {
namespace {

TEST(Task, TellsProcessesFromPorts) {
    Vm vm;
    Process p(vm, 1);
    Port port(vm, 7);
    Task a(&p), b(&port);
    EXPECT_FALSE(a.is_port());
    EXPECT_EQ(a.process(), &p);
    EXPECT_EQ(a.port(), nullptr);
    EXPECT_TRUE(b.is_port());
    EXPECT_EQ(b.port(), &port);
    EXPECT_EQ(b.process(), nullptr);
    EXPECT_FALSE(Task());
}

TEST(PortTable, NumbersPortsAndFindsThemOnlyOnceAdded) {
    Vm vm;
    std::shared_ptr<Port> a = vm.port_table->make(), b = vm.port_table->make();
    EXPECT_LT(port_number(a->id), port_number(b->id));
    EXPECT_EQ(vm.port_table->lookup(a->id), nullptr);
    vm.port_table->add(b);
    vm.port_table->add(a);
    EXPECT_EQ(vm.port_table->lookup(a->id), a);
    EXPECT_EQ(vm.port_table->lookup_number(port_number(b->id)), b);
    EXPECT_EQ(vm.port_table->ids(), (std::vector<Term>{a->id, b->id}));  // in opening order
    EXPECT_EQ(vm.port_table->lookup(make_small(1)), nullptr);             // not a port
    vm.port_table->remove(a.get());
    EXPECT_EQ(vm.port_table->lookup(a->id), nullptr);
    EXPECT_EQ(vm.port_table->count(), 1u);
    vm.port_table->remove(b.get());
}

TEST(SpawnDriver, ReportsWhyAProgramCannotStart) {
    io::PortOptions s;
    s.executable = true;
    int error = 0;
    s.command = "/nonexistent/beamlet-test";
    EXPECT_EQ(io::spawn_program(s, &error), nullptr);
    EXPECT_EQ(error, ENOENT);
    s.command = "/etc/passwd";  // exists, not executable
    EXPECT_EQ(io::spawn_program(s, &error), nullptr);
    EXPECT_EQ(error, EACCES);
    // A directory passes the check and fails in the child: the port opens (exit status 13).
    s.command = "/";
    std::unique_ptr<PortDriver> d = io::spawn_program(s, &error);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->os_pid(), -1);
}

// A driver that only records: a stand-in for a program, with the busy state in its hands.
class RecordingDriver : public PortDriver {
public:
    explicit RecordingDriver(std::string* out) : m_out(out) {}
    void start(Port&) override {}
    void output(Port&, Term, std::string_view bytes) override { m_out->append(bytes); }
    void ready(Port&, std::uint32_t) override {}
    bool stop(Port&, bool) override {
        stopped = true;
        return false;
    }
    std::size_t queue_size() const override { return 0; }
    bool stopped = false;

private:
    std::string* m_out;
};

TEST(Port, ABusyPortRefusesNosuspendCommandsAndTakesForcedOnes) {
    Vm vm;
    std::string written;
    std::shared_ptr<Port> port = vm.port_table->make();
    auto* driver = new RecordingDriver(&written);
    port->driver.reset(driver);
    vm.port_table->add(port);
    Term caller = make_pid(1);
    EXPECT_EQ(port->command(caller, "a", PortCommandMode::Normal), PortOpResult::Done);
    port->set_busy(true);
    EXPECT_EQ(port->command(caller, "b", PortCommandMode::NoSuspend), PortOpResult::Busy);
    EXPECT_EQ(port->command(caller, "c", PortCommandMode::Force), PortOpResult::Done);
    // Normal mode: the data goes out, and a waiter would be suspended until the port is free.
    EXPECT_EQ(port->command(caller, "d", PortCommandMode::Normal, caller), PortOpResult::Suspend);
    EXPECT_EQ(port->busy_waiters, (std::vector<Term>{caller}));
    port->set_busy(false);
    EXPECT_TRUE(port->busy_waiters.empty());
    EXPECT_EQ(written, "acd");
    EXPECT_EQ(port->output_bytes.load(), 3u);
    port->exit_signal(0, atoms::normal, false);
    EXPECT_TRUE(driver->stopped);
    EXPECT_FALSE(port->is_open());
    EXPECT_EQ(port->command(caller, "e", PortCommandMode::Force), PortOpResult::Dropped);
    EXPECT_EQ(vm.port_table->count(), 0u);
}

TEST(IoPoller, ReapsAProgramThatOutlivesItsPort) {
    Vm vm;
    pid_t pid;
    char arg0[] = "sleep", arg1[] = "0.05";
    char* argv[] = {arg0, arg1, nullptr};
    ASSERT_EQ(posix_spawnp(&pid, "sleep", nullptr, nullptr, argv, environ), 0);
    int pidfd = int(syscall(SYS_pidfd_open, pid, 0));
    ASSERT_GE(pidfd, 0);
    io::install(vm);
    io::IoPoller& poller = io::layer(vm).poller();
    poller.reap(pidfd);
    EXPECT_EQ(poller.orphans(), 1u);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (poller.orphans() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(poller.orphans(), 0u);
    // Reaped: the pid is no child of ours any more.
    EXPECT_EQ(waitpid(pid, nullptr, WNOHANG), -1);
    EXPECT_EQ(errno, ECHILD);
}

// A Selectable that counts what it is told.
struct Counting final : io::Selectable {
    std::atomic<int> reads{0}, writes{0};
    void io_ready(std::uint32_t events) override {
        if (events & IO_READ) ++reads;
        if (events & IO_WRITE) ++writes;
    }
};

bool eventually(const std::function<bool()>& done) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return done();
}

TEST(IoPoller, TellsASelectableOfEachEdgeUntilForgotten) {
    Vm vm;
    io::install(vm);
    io::IoPoller& poller = io::layer(vm).poller();
    int fds[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
    auto owner = std::make_shared<Counting>();
    Word key = poller.watch_selectable(fds[0], owner);
    ASSERT_NE(key, 0u);
    EXPECT_TRUE(eventually([&] { return owner->writes.load() == 1; }));  // writable from the start
    EXPECT_EQ(owner->reads.load(), 0);
    ASSERT_EQ(::write(fds[1], "x", 1), 1);
    EXPECT_TRUE(eventually([&] { return owner->reads.load() == 1; }));
    ASSERT_EQ(::write(fds[1], "y", 1), 1);  // a new edge, though the first byte is unread
    EXPECT_TRUE(eventually([&] { return owner->reads.load() == 2; }));
    poller.forget_selectable(fds[0], key);
    ASSERT_EQ(::write(fds[1], "z", 1), 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(owner->reads.load(), 2);
    // An owner that is gone is not told (the poller holds it weakly).
    auto gone = std::make_shared<Counting>();
    Word gone_key = poller.watch_selectable(fds[1], gone);
    std::weak_ptr<Counting> watch = gone;
    gone.reset();
    EXPECT_TRUE(watch.expired());
    ASSERT_EQ(::write(fds[0], "w", 1), 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    poller.forget_selectable(fds[1], gone_key);
    EXPECT_EQ(poller.watch_selectable(-1, owner), 0u);  // epoll refuses it
    ::close(fds[0]);
    ::close(fds[1]);
}

}  // namespace
}  // namespace beamlet::vm
