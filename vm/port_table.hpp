// vm/port_table.hpp — PortTable: the live ports by number (erlang:ports/0) and their
// numbering. (The I/O thread that watches their descriptors is the I/O layer's, io/.)
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "vm/term.hpp"

namespace beamlet::vm {

struct Vm;
struct Port;

class PortTable {
public:
    explicit PortTable(Vm& vm);
    ~PortTable();
    PortTable(const PortTable&) = delete;
    PortTable& operator=(const PortTable&) = delete;

    // A new port with the next number (not in the table yet: add() publishes it).
    std::shared_ptr<Port> make();
    // Makes [port] visible to lookups, erlang:ports/0 and the poller.
    void add(const std::shared_ptr<Port>& port);
    // The open port [id] names (a port term), or null.
    std::shared_ptr<Port> lookup(Term id) const;
    // The same by number (the poller's events).
    std::shared_ptr<Port> lookup_number(Word number) const;
    // Takes [port] out of the table (it closed).
    void remove(Port* port);
    // The ids of the open ports, in opening order.
    std::vector<Term> ids() const;
    std::size_t count() const;
    // Closes every open port (VM exit).
    void close_all();
    // close_all, then the I/O layer stops reporting readiness: called while the schedulers
    // still exist, so that no I/O event reaches them as they go (VM exit).
    void shutdown();

private:
    Vm& m_vm;
    mutable std::mutex m_mutex;
    std::unordered_map<Word, std::shared_ptr<Port>> m_ports;
    Word m_next = 0;
};

}  // namespace beamlet::vm
