// tests/unit/io/port_test.cpp — the port layer without Erlang code: run-queue tasks, the port
// table, the spawn driver's start-up errors, busy ports and their command modes, the
// poller's reaping of programs that outlive their ports.
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <spawn.h>
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

}  // namespace
}  // namespace beamlet::vm
