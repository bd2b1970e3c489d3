// vm/port_signals.cpp — messages from processes to ports: Port ! {Pid, {command, Data}},
// {Pid, close}, {Pid, {connect, NewOwner}}; anything else is a bad signal (OTP's
// erts_port_command and send_badsig).
#include <string>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {

void send_badsig(Vm& vm, Port* port) {
    vm.send_exit(port->id, port->owner.load(std::memory_order_acquire), atom("badsig"), false);
}

}  // namespace

Vm::SendResult Vm::send_to_port(Process* sender, Term port_id, Term msg, PortCommandMode mode) {
    std::shared_ptr<Port> port = port_table->lookup(port_id);
    if (!port) return SendResult::Sent;  // a closed port drops it, as a dead process would
    static const Term am_command = atom("command"), am_close = atom("close"), am_connect = atom("connect");
    if (!is_tuple(msg) || tuple_arity(msg) != 2 || !is_pid(tuple_element(msg, 0))) {
        send_badsig(*this, port.get());
        return SendResult::Sent;
    }
    Term from = tuple_element(msg, 0), op = tuple_element(msg, 1);
    if (op == am_close) {
        port->close(from, true);
        return SendResult::Sent;
    }
    if (!is_tuple(op) || tuple_arity(op) != 2) {
        send_badsig(*this, port.get());
        return SendResult::Sent;
    }
    if (tuple_element(op, 0) == am_connect) {
        port->connect(from, tuple_element(op, 1), true);
        return SendResult::Sent;
    }
    if (tuple_element(op, 0) != am_command || from != port->owner.load(std::memory_order_acquire)) {
        send_badsig(*this, port.get());
        return SendResult::Sent;
    }
    std::string bytes;
    std::vector<std::size_t> pieces;
    Term data = tuple_element(op, 1);
    if (!(port->takes_vectors ? iolist_vector(data, &bytes, &pieces) : iolist_bytes(data, &bytes))) {
        if (sender) report_bad_output(sender, port.get());
        send_badsig(*this, port.get());
        return SendResult::Sent;
    }
    if (!sender && mode == PortCommandMode::Normal) mode = PortCommandMode::Force;
    switch (port->command(from, bytes, mode, sender ? sender->id : 0, pieces)) {
    case PortOpResult::Busy: return SendResult::NoSuspend;
    case PortOpResult::Suspend: return SendResult::Suspend;
    default: return SendResult::Sent;
    }
}

void Vm::report_bad_output(Process* p, Port* port) {
    // "Bad value on output port 'Name'\n" as the argument of "~s~n", as the emulator logs it.
    std::string text = "Bad value on output port '" + port->name + "'\n";
    Term chars = NIL;
    for (std::size_t i = text.size(); i-- > 0;)
        chars = make_cons_on(p->alloc(2), make_small(static_cast<unsigned char>(text[i])), chars);
    log_error(p, "~s~n", make_cons_on(p->alloc(2), chars, NIL));
}


}  // namespace beamlet::vm
