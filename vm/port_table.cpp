// vm/port_table.cpp — the live ports.
#include "vm/port_table.hpp"

#include <algorithm>

#include "vm/atom_table.hpp"
#include "vm/port.hpp"

namespace beamlet::vm {

PortTable::PortTable(Vm& vm) : m_vm(vm) {}

PortTable::~PortTable() = default;

std::shared_ptr<Port> PortTable::make() {
    Word number;
    {
        std::lock_guard guard(m_mutex);
        number = m_next++;
    }
    auto port = std::make_shared<Port>(m_vm, number);
    port->self = port;
    return port;
}

void PortTable::add(const std::shared_ptr<Port>& port) {
    std::lock_guard guard(m_mutex);
    m_ports[port_number(port->id)] = port;
}

std::shared_ptr<Port> PortTable::lookup(Term id) const {
    if (!is_port(id)) return nullptr;
    return lookup_number(port_number(id));
}

std::shared_ptr<Port> PortTable::lookup_number(Word number) const {
    std::lock_guard guard(m_mutex);
    auto it = m_ports.find(number);
    return it == m_ports.end() ? nullptr : it->second;
}

void PortTable::remove(Port* port) {
    std::shared_ptr<Port> last;  // freed outside the lock
    std::lock_guard guard(m_mutex);
    auto it = m_ports.find(port_number(port->id));
    if (it != m_ports.end() && it->second.get() == port) {
        last = std::move(it->second);
        m_ports.erase(it);
    }
}

std::vector<Term> PortTable::ids() const {
    std::vector<Word> numbers;
    {
        std::lock_guard guard(m_mutex);
        for (auto& [number, port] : m_ports) numbers.push_back(number);
    }
    std::sort(numbers.begin(), numbers.end());
    std::vector<Term> out;
    for (Word n : numbers) out.push_back(make_port(n));
    return out;
}

std::size_t PortTable::count() const {
    std::lock_guard guard(m_mutex);
    return m_ports.size();
}

void PortTable::close_all() {
    std::vector<std::shared_ptr<Port>> open;
    {
        std::lock_guard guard(m_mutex);
        for (auto& [number, port] : m_ports) open.push_back(port);
    }
    for (auto& port : open) port->exit_signal(0, atoms::normal, false);
}

void PortTable::shutdown() {
    close_all();
    if (m_vm.services.io) m_vm.services.io->stop();
}

}  // namespace beamlet::vm
