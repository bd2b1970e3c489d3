// vm/task.hpp — Task: what a run queue holds, a process or a port (DESIGN.md §6, "Ports").
//
// One word: the object's address with its lowest bit telling which it is (both are aligned),
// so a run queue entry costs what it did when run queues held only processes.
#pragma once

#include <cstdint>

namespace beamlet::vm {

struct Process;
struct Port;

class Task {
public:
    Task(Process* p) : m_bits(reinterpret_cast<std::uintptr_t>(p)) {}  // NOLINT: implicit by design
    Task(Port* port) : m_bits(reinterpret_cast<std::uintptr_t>(port) | PORT_BIT) {}  // NOLINT
    Task() = default;

    bool is_port() const { return (m_bits & PORT_BIT) != 0; }
    // The process (null for a port task).
    Process* process() const { return is_port() ? nullptr : reinterpret_cast<Process*>(m_bits); }
    // The port (null for a process task).
    Port* port() const { return is_port() ? reinterpret_cast<Port*>(m_bits & ~PORT_BIT) : nullptr; }
    explicit operator bool() const { return m_bits != 0; }
    bool operator==(const Task&) const = default;

private:
    static constexpr std::uintptr_t PORT_BIT = 1;
    std::uintptr_t m_bits = 0;
};

}  // namespace beamlet::vm
