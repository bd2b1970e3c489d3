// io/io_layer.hpp — IoLayer: the I/O layer's state for one VM, installed as its
// VmServices::io (DESIGN.md §1: io/ → vm). It owns the VM's standard input and output
// (io/stdio.hpp) and the I/O thread that watches every port's descriptors (io/io_poller.hpp);
// the drivers (io/drivers/) reach both through io::layer(vm).
//
// vm/ keeps the port itself — a scheduler task with its links, monitors, registered name,
// trace flags and signal protocol (vm/port.hpp), as a process is — and calls a driver only
// through vm::PortDriver. A driver is one file here implementing that interface.
#pragma once

#include <string_view>

#include "io/drivers/dynamic_driver.hpp"
#include "io/io_poller.hpp"
#include "io/stdio.hpp"
#include "vm/services.hpp"

namespace beamlet::vm {
struct Vm;
}

namespace beamlet::io {

class IoLayer final : public vm::IoServices {
public:
    explicit IoLayer(vm::Vm& vm) : m_stdio(vm), m_poller(vm), m_drivers(vm) {}

    void write(int fd, std::string_view bytes) override { m_stdio.write(fd, bytes); }
    void flush() override { m_stdio.flush(); }
    void flush_if_pending() override { m_stdio.flush_if_pending(); }
    void stop() override { m_poller.stop(); }
    bool poll_now() override { return m_poller.poll_now(); }

    StandardIo& stdio() { return m_stdio; }
    IoPoller& poller() { return m_poller; }
    // erl_ddll's loaded drivers (io/drivers/dynamic_driver.hpp).
    DriverTable& drivers() { return m_drivers; }

private:
    StandardIo m_stdio;
    IoPoller m_poller;
    DriverTable m_drivers;
};

// Makes the I/O layer [vm]'s VmServices::io (tools/boot.cpp, before anything is written).
void install(vm::Vm& vm);
// [vm]'s I/O layer (installed).
IoLayer& layer(vm::Vm& vm);

}  // namespace beamlet::io
