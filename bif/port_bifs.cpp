// bif/port_bifs.cpp — the port BIFs: open_port/2, port_command/2,3, port_close/1,
// port_connect/2, port_info/1,2, ports/0, port_to_list/1, list_to_port/1, port_control/3,
// port_call/3; their errors are OTP 25's.
#include <algorithm>
#include <cstring>

#include "bif/bifs.hpp"
#include "bif/term_format.hpp"
#include "vm/binary.hpp"
#include "vm/copy.hpp"
#include "vm/external_term.hpp"
#include "vm/port.hpp"
#include "vm/port_driver.hpp"
#include "vm/port_table.hpp"
#include "io/drivers/dynamic_driver.hpp"
#include "io/drivers/fd_driver.hpp"
#include "io/drivers/inet_driver.hpp"
#include "io/drivers/spawn_driver.hpp"
#include "io/drivers/trace_file_driver.hpp"
#include "io/drivers/trace_ip_driver.hpp"
#include "io/drivers/tty_driver.hpp"
#include "io/io_layer.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// A text argument as open_port takes them: characters in a list that may nest (UTF-8
// encoded), a binary, or an atom; no NUL bytes.
bool text_arg(Term t, std::string* out) {
    if (is_atom(t)) {
        *out = atom_text(t);
    } else if (is_binary(t)) {
        BitView v = bit_view(t);
        out->resize(v.size_bytes());
        copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(out->data()), 0, v.bit_size);
    } else {
        std::vector<Term> pending{t};
        while (!pending.empty()) {
            Term l = pending.back();
            pending.pop_back();
            if (is_nil(l)) continue;
            if (!is_list(l)) return false;
            Term c = car(l);
            pending.push_back(cdr(l));
            if (is_list(c) || is_nil(c)) {
                pending.push_back(c);
            } else if (is_small(c) && small_value(c) >= 0 && small_value(c) <= 0x10FFFF) {
                put_utf8(std::uint32_t(small_value(c)), *out);
            } else {
                return false;
            }
        }
    }
    return out->find('\0') == std::string::npos;
}

// A flat list of characters (an environment variable's name or value).
bool flat_string_arg(Term t, std::string* out) {
    for (; is_list(t); t = cdr(t)) {
        Term c = car(t);
        if (!is_small(c) || small_value(c) < 0 || small_value(c) > 0x10FFFF) return false;
        put_utf8(std::uint32_t(small_value(c)), *out);
    }
    return is_nil(t) && out->find('\0') == std::string::npos;
}

bool text_list_arg(Term t, std::vector<std::string>* out) {
    for (; is_list(t); t = cdr(t)) {
        std::string s;
        if (!text_arg(car(t), &s)) return false;
        out->push_back(std::move(s));
    }
    return is_nil(t);
}

// {env, [{Name, Value | false}]}: Name a string; Value a string, false or "" (unset).
bool env_arg(Term t, io::PortOptions* s) {
    s->env.clear();  // of two env options, the last one counts (OTP)
    for (; is_list(t); t = cdr(t)) {
        Term e = car(t);
        if (!is_tuple(e) || tuple_arity(e) != 2) return false;
        std::string name, value;
        if (!flat_string_arg(tuple_element(e, 0), &name) || name.empty() || name.find('=') != std::string::npos)
            return false;
        if (tuple_element(e, 1) == atoms::false_) {
            s->env.emplace_back(name, std::nullopt);
        } else {
            if (!flat_string_arg(tuple_element(e, 1), &value)) return false;
            if (value.empty()) s->env.emplace_back(name, std::nullopt);
            else s->env.emplace_back(name, value);
        }
    }
    return is_nil(t);
}

// {busy_limits_port | busy_limits_msgq, {Low, High} | disabled}.
bool busy_limits_arg(Term t) {
    if (t == atom("disabled")) return true;
    return is_tuple(t) && tuple_arity(t) == 2 && is_small(tuple_element(t, 0)) && is_small(tuple_element(t, 1)) &&
           small_value(tuple_element(t, 0)) >= 0 && small_value(tuple_element(t, 1)) >= 0;
}

// open_port's option list into [s]; false for a bad one (badarg).
bool parse_options(Term opts, io::PortOptions* s) {
    BEAMLET_CACHED_ATOM(am_packet, "packet");
    BEAMLET_CACHED_ATOM(am_line, "line");
    BEAMLET_CACHED_ATOM(am_cd, "cd");
    BEAMLET_CACHED_ATOM(am_env, "env");
    BEAMLET_CACHED_ATOM(am_args, "args");
    BEAMLET_CACHED_ATOM(am_arg0, "arg0");
    BEAMLET_CACHED_ATOM(am_parallelism, "parallelism");
    BEAMLET_CACHED_ATOM(am_busy_limits_port, "busy_limits_port");
    BEAMLET_CACHED_ATOM(am_busy_limits_msgq, "busy_limits_msgq");
    BEAMLET_CACHED_ATOM(am_stream, "stream");
    BEAMLET_CACHED_ATOM(am_exit_status, "exit_status");
    BEAMLET_CACHED_ATOM(am_use_stdio, "use_stdio");
    BEAMLET_CACHED_ATOM(am_nouse_stdio, "nouse_stdio");
    BEAMLET_CACHED_ATOM(am_stderr_to_stdout, "stderr_to_stdout");
    BEAMLET_CACHED_ATOM(am_eof, "eof");
    BEAMLET_CACHED_ATOM(am_in, "in");
    BEAMLET_CACHED_ATOM(am_out, "out");
    BEAMLET_CACHED_ATOM(am_hide, "hide");
    BEAMLET_CACHED_ATOM(am_overlapped_io, "overlapped_io");
    bool in = false, out = false;
    int packet = 0;        // the last {packet, N} or stream (0) wins
    std::size_t line = 0;  // the last {line, N}; it wins over stream either way
    for (; is_list(opts); opts = cdr(opts)) {
        Term o = car(opts);
        if (is_tuple(o) && tuple_arity(o) == 2) {
            Term key = tuple_element(o, 0), value = tuple_element(o, 1);
            if (key == am_packet) {
                if (!is_small(value)) return false;
                SWord n = small_value(value);
                if (n != 1 && n != 2 && n != 4) return false;
                packet = int(n);
            } else if (key == am_line) {
                if (!is_small(value) || small_value(value) <= 0 || small_value(value) > (SWord(1) << 48)) return false;
                line = std::size_t(small_value(value));
            } else if (key == am_cd) {
                std::string dir;
                if (!text_arg(value, &dir)) return false;
                s->cd = dir;
            } else if (key == am_env) {
                if (!env_arg(value, s)) return false;
            } else if (key == am_args) {
                std::vector<std::string> args;
                if (!text_list_arg(value, &args)) return false;
                s->args = std::move(args);
            } else if (key == am_arg0) {
                std::string arg0;
                if (!text_arg(value, &arg0)) return false;
                s->arg0 = arg0;
            } else if (key == am_parallelism) {
                if (value != atoms::true_ && value != atoms::false_) return false;
                s->parallelism = value == atoms::true_;
            } else if (key == am_busy_limits_port || key == am_busy_limits_msgq) {
                // Checked and accepted; the spawn driver keeps OTP's default limits.
                if (!busy_limits_arg(value)) return false;
            } else {
                return false;
            }
        } else if (o == am_stream) {
            packet = 0;
        } else if (o == am_exit_status) {
            s->exit_status = true;
        } else if (o == am_use_stdio) {
            s->use_stdio = true;
        } else if (o == am_nouse_stdio) {
            s->use_stdio = false;
        } else if (o == am_stderr_to_stdout) {
            s->stderr_to_stdout = true;
        } else if (o == am_eof) {
            s->eof = true;
        } else if (o == atoms::binary) {
            s->binary = true;
        } else if (o == am_in) {
            in = true;
        } else if (o == am_out) {
            out = true;
        } else if (o == am_hide || o == am_overlapped_io) {
            // Windows only.
        } else {
            return false;
        }
    }
    if (!is_nil(opts)) return false;
    if (line && packet) return false;
    if (!s->use_stdio && s->stderr_to_stdout) return false;
    if (line) {
        s->framing = io::PortOptions::Framing::Line;
        s->line_length = line;
    } else if (packet) {
        s->framing = io::PortOptions::Framing::Packet;
        s->packet_bytes = packet;
    }
    // in alone: input only; out alone: output only; both or neither: both.
    if (in != out) {
        s->in = in;
        s->out = out;
    }
    return true;
}

// The open port [t] names (a port id, or a name registered to a port); null otherwise.
std::shared_ptr<Port> port_arg(Process* p, Term t) {
    if (is_atom(t)) t = p->vm.whereis_id(t);
    return p->vm.port_table->lookup(t);
}

// The atom naming a port's driver in the open trace event: the command (or executable) cut
// to an atom's 255 characters, as OTP does.
Term driver_atom(const std::string& command) {
    std::size_t end = 0, chars = 0;
    while (end < command.size() && chars < 255) {
        std::uint32_t c;
        int len = utf8_decode(reinterpret_cast<const std::uint8_t*>(command.data()) + end, command.size() - end, &c);
        end += len > 0 ? std::size_t(len) : 1;
        ++chars;
    }
    return atom(std::string_view(command).substr(0, end));
}

Term raise_port_error(Process* p, Term reason) {
    // As erlang:open_port/2: error(Reason) with the call's arguments and error_info.
    return p->error(reason);
}

}  // namespace

namespace {

// The port [driver] serves, opened by [p] under [name] (port_info's name; the driver's atom in
// the open trace event).
Term open_port_with(Process* p, std::unique_ptr<PortDriver> driver, const std::string& name, bool parallelism) {
    std::shared_ptr<Port> port = open_port(p->vm, p, std::move(driver), name, driver_atom(name), parallelism);
    // The opener's half of the link, as link/1 reports it.
    if ((p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PROCS) && p->vm.services.trace)
        p->vm.services.trace->process_event(p, atoms::link, port->id);
    return port->id;
}

// Whether an input request waits among [p]'s messages (p is running: its queue is its own).
bool has_input_request(Process* p) {
    bool found = false;
    p->queue.for_each([&](const Message& m) { found = found || is_input_request(m.term); });
    std::lock_guard guard(p->lock);
    for (const Message& m : p->inbox)
        found = found || (m.kind == SignalKind::Message && is_input_request(m.term));
    return found;
}

// open_port({fd, In, Out}, Options), as OTP 25: machine integers, else badarg; outside a
// descriptor's range, einval; exit_status, args and arg0 are badarg (cd, env and
// nouse_stdio are accepted and mean nothing here). The port is named "In/Out".
Term open_fd_port(Process* p, Term name, Term options) {
    BEAMLET_CACHED_ATOM(am_einval, "einval");
    Term in = tuple_element(name, 1), out = tuple_element(name, 2);
    if (!is_small(in) || !is_small(out)) return p->badarg();
    auto descriptor = [](Term t) -> int {
        return small_value(t) >= 0 && small_value(t) <= INT32_MAX ? int(small_value(t)) : -1;
    };
    io::PortOptions s;
    if (!parse_options(options, &s) || s.exit_status || s.args || s.arg0) return p->badarg();
    int in_fd = descriptor(in), out_fd = descriptor(out);
    if (in_fd < 0 || out_fd < 0) return raise_port_error(p, am_einval);
    std::string port_name = std::to_string(in_fd) + "/" + std::to_string(out_fd);
    // Kernel's `user` io server reads standard input only once it is asked for input
    // (Vm::stdin_on_demand); until then a program's own port on fd 0 gets all of it.
    BEAMLET_CACHED_ATOM(am_user, "user");
    Vm::StdinOnDemand& demand = p->vm.stdin_on_demand;
    const Module* caller = p->vm.module_containing(p->ip);  // the call instruction (as load_nif)
    if (!caller && p->cp) caller = p->vm.module_containing(p->cp);
    s.input_on_demand = in_fd == 0 && s.in && caller && caller->name == am_user;
    if (s.input_on_demand) {
        std::lock_guard guard(demand.mutex);
        demand.port.reset();
        demand.server.store(p->id, std::memory_order_relaxed);
    }
    Term id = open_port_with(p, io::open_descriptors(s, in_fd, out_fd), port_name, s.parallelism);
    if (s.input_on_demand && is_port(id)) {
        std::shared_ptr<Port> port = p->vm.port_table->lookup(id);
        bool start_now = false;
        {
            std::lock_guard guard(demand.mutex);
            // A request that came meanwhile (the server is cleared), or one that came before
            // the server was known: reading starts at once.
            start_now = demand.server.load(std::memory_order_relaxed) != p->id ||
                        has_input_request(p);
            if (start_now) demand.server.store(0, std::memory_order_relaxed);
            else demand.port = port;
        }
        if (start_now && port) port->io_ready(IO_START_INPUT);
    }
    return id;
}

// open_port(FileName, Options), an atom or a string: OTP 25's (deprecated) vanilla driver,
// the file as the port. A file that cannot be opened is einval, as erts reports it.
Term open_file_port(Process* p, Term name, Term options) {
    BEAMLET_CACHED_ATOM(am_einval, "einval");
    std::string path;
    if (!text_arg(name, &path) || path.empty() || path.find('\0') != std::string::npos) return p->badarg();
    io::PortOptions s;
    if (!parse_options(options, &s) || s.exit_status || s.args || s.arg0) return p->badarg();
    int error = 0;
    std::unique_ptr<PortDriver> driver = io::open_file(s, path, &error);
    if (!driver) return raise_port_error(p, am_einval);
    return open_port_with(p, std::move(driver), path, s.parallelism);
}

// A port of a driver loaded with erl_ddll, named by the first word of [command]; nullopt when
// no loaded driver has that name. A driver whose start() fails leaves no port: badarg for
// ERL_DRV_ERROR_BADARG, else the errno's atom (einval for ERL_DRV_ERROR_GENERAL).
std::optional<Term> open_loaded_driver(Process* p, const std::string& command, const io::PortOptions& s) {
    std::unique_ptr<PortDriver> driver = io::layer(p->vm).drivers().open(command, s.binary, s.eof);
    if (!driver) return std::nullopt;
    const PortDriver& running = *driver;
    Term id = open_port_with(p, std::move(driver), command, s.parallelism);
    int error = io::DriverTable::start_error(running);
    if (!error) return id;
    if (std::shared_ptr<Port> port = p->vm.port_table->lookup(id)) {
        PortExecution execution(*port);
        port->terminate(atoms::normal, 0, false);
    }
    return error < 0 ? p->badarg() : raise_port_error(p, posix_atom(error));
}

}  // namespace

Term bif_open_port(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_spawn_executable, "spawn_executable");
    BEAMLET_CACHED_ATOM(am_fd, "fd");
    BEAMLET_CACHED_ATOM(am_spawn_driver, "spawn_driver");
    Term name = a[0];
    if (is_tuple(name) && tuple_arity(name) == 3 && tuple_element(name, 0) == am_fd)
        return open_fd_port(p, name, a[1]);
    if (is_atom(name) || is_list(name)) return open_file_port(p, name, a[1]);
    if (!is_tuple(name) || tuple_arity(name) != 2) return p->badarg();
    io::PortOptions s;
    Term kind = tuple_element(name, 0), command = tuple_element(name, 1);
    if (kind == atoms::spawn) {
        s.executable = false;
    } else if (kind == am_spawn_executable) {
        s.executable = true;
    } else if (kind == am_spawn_driver) {
        // The linked-in drivers beamlet has: the inet drivers (prim_inet's sockets).
        std::string driver_name;
        if (!text_arg(command, &driver_name)) return p->badarg();
        if (!parse_options(a[1], &s)) return p->badarg(atom("badopt"));
        if (std::optional<Term> opened = open_loaded_driver(p, driver_name, s)) return *opened;
        std::unique_ptr<PortDriver> driver = io::inet_driver(driver_name);
        if (!driver) return p->badarg();
        return open_port_with(p, std::move(driver), driver_name, s.parallelism);
    } else {
        return p->badarg();
    }
    // "" is badarg, <<>> runs an empty command (OTP 25 checks lists only).
    if (!text_arg(command, &s.command) || (is_nil(command) || (s.executable && s.command.empty())))
        return p->badarg();
    if (!parse_options(a[1], &s)) return p->badarg(atom("badopt"));
    if (!s.executable && (s.args || s.arg0)) return p->badarg(atom("badopt"));
    // A command naming a loaded driver runs it (erts looks drivers up before programs).
    if (!s.executable)
        if (std::optional<Term> opened = open_loaded_driver(p, s.command, s)) return *opened;
    int error = 0;
    // A command naming a driver beamlet has runs that driver, as erts runs a loaded driver:
    // dbg's trace ports, the shell's terminal.
    for (auto [name, make] : {std::pair{"trace_file_drv", &io::trace_file_driver}, std::pair{"trace_ip_drv", &io::trace_ip_driver},
                              std::pair{"tty_sl", &io::tty_driver}}) {
        std::string_view word(name);
        if (s.executable || !(s.command == word || (s.command.starts_with(word) && s.command[word.size()] == ' '))) continue;
        std::unique_ptr<PortDriver> driver = make(s.command, &error);
        if (!driver) return error == EINVAL ? p->badarg() : raise_port_error(p, posix_atom(error));
        return open_port_with(p, std::move(driver), name, s.parallelism);
    }
    std::unique_ptr<PortDriver> driver = io::spawn_program(s, &error);
    if (!driver) return raise_port_error(p, posix_atom(error));
    return open_port_with(p, std::move(driver), s.command, s.parallelism);
}

Term bif_port_command2(Process* p, Term* a);
Term bif_port_command3(Process* p, Term* a);

namespace {

// port_command/2,3: [mode] from the options. Traps while a busy port makes the caller wait.
Term port_command(Process* p, Term* a, PortCommandMode mode) {
    std::shared_ptr<Port> port = port_arg(p, a[0]);
    std::string bytes;
    std::vector<std::size_t> pieces;
    bool data_ok = port && port->takes_vectors ? iolist_vector(a[1], &bytes, &pieces) : iolist_to_bytes(a[1], &bytes);
    if (!port) return p->badarg();
    if (!data_ok) {
        p->vm.report_bad_output(p, port.get());
        return p->badarg();
    }
    switch (port->command(p->id, bytes, mode, p->id, pieces)) {
    case PortOpResult::Done: return atoms::true_;
    case PortOpResult::Busy: return atoms::false_;
    case PortOpResult::Suspend:
        // The data went out; the caller waits until the port is not busy, then gets true.
        return wait_for_busy_port(p, atoms::true_);
    case PortOpResult::Dropped: break;
    }
    return p->badarg();
}

}  // namespace

Term bif_port_command2(Process* p, Term* a) { return port_command(p, a, PortCommandMode::Normal); }

Term bif_port_command3(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_force, "force");
    BEAMLET_CACHED_ATOM(am_nosuspend, "nosuspend");
    PortCommandMode mode = PortCommandMode::Normal;
    bool force = false;
    Term l = a[2];
    for (; is_list(l); l = cdr(l)) {
        if (car(l) == am_force) force = true;
        else if (car(l) == am_nosuspend) mode = PortCommandMode::NoSuspend;
        else return p->badarg(atom("badopt"));
    }
    if (!is_nil(l)) return p->badarg(atom("badopt"));
    // force needs a driver with soft busy states; the spawn driver has none (OTP: notsup).
    if (force) return p->error(atom("notsup"));
    return port_command(p, a, mode);
}

Term bif_port_close(Process* p, Term* a) {
    std::shared_ptr<Port> port = port_arg(p, a[0]);
    if (!port || port->close(p->id, false) != PortOpResult::Done) return p->badarg();
    return atoms::true_;
}

Term bif_port_connect(Process* p, Term* a) {
    std::shared_ptr<Port> port = port_arg(p, a[0]);
    if (!port || !is_pid(a[1])) return p->badarg();
    if (port->connect(p->id, a[1], false) != PortOpResult::Done) return p->badarg();
    return atoms::true_;
}

namespace {

Term list_of(Process* p, const std::vector<Term>& items) {
    Term l = NIL;
    for (auto it = items.rbegin(); it != items.rend(); ++it) l = make_cons_on(p->alloc(2), *it, l);
    return l;
}

// What port_info reports about [port] for [item], or THE_NON_VALUE for an unknown item.
// Called with the port's execution lock held (Port::info).
Term port_info_item(Process* p, Port* port, Term item) {
    BEAMLET_CACHED_ATOM(am_id, "id");
    BEAMLET_CACHED_ATOM(am_connected, "connected");
    BEAMLET_CACHED_ATOM(am_links, "links");
    BEAMLET_CACHED_ATOM(am_input, "input");
    BEAMLET_CACHED_ATOM(am_output, "output");
    BEAMLET_CACHED_ATOM(am_os_pid, "os_pid");
    BEAMLET_CACHED_ATOM(am_registered_name, "registered_name");
    BEAMLET_CACHED_ATOM(am_memory, "memory");
    BEAMLET_CACHED_ATOM(am_monitors, "monitors");
    BEAMLET_CACHED_ATOM(am_monitored_by, "monitored_by");
    BEAMLET_CACHED_ATOM(am_parallelism, "parallelism");
    BEAMLET_CACHED_ATOM(am_queue_size, "queue_size");
    BEAMLET_CACHED_ATOM(am_locking, "locking");
    BEAMLET_CACHED_ATOM(am_port_level, "port_level");
    Term value;
    if (item == atoms::name) {
        value = bytes_to_list(p, port->name);
    } else if (item == am_id) {
        value = make_small(SWord(port->index));
    } else if (item == am_connected) {
        value = port->owner.load(std::memory_order_acquire);
    } else if (item == am_links) {
        std::vector<Term> links;
        {
            std::lock_guard guard(port->lock);
            links = port->links;
        }
        value = list_of(p, links);
    } else if (item == am_input) {
        value = make_small(SWord(port->input_bytes.load(std::memory_order_relaxed)));
    } else if (item == am_output) {
        value = make_small(SWord(port->output_bytes.load(std::memory_order_relaxed)));
    } else if (item == am_os_pid) {
        long pid = port->driver ? port->driver->os_pid() : -1;
        value = pid < 0 ? atoms::undefined : make_small(pid);
    } else if (item == am_registered_name) {
        Term name;
        {
            std::lock_guard guard(port->lock);
            name = port->registered_name;
        }
        if (!name) return NIL;  // as OTP: [] for a port without a name
        value = name;
    } else if (item == am_memory) {
        value = make_small(SWord(sizeof(Port) + port->name.size() + (port->driver ? port->driver->queue_size() : 0)));
    } else if (item == am_monitors) {
        value = NIL;
    } else if (item == am_monitored_by) {
        std::vector<Term> watchers;
        {
            std::lock_guard guard(port->lock);
            for (const MonitorEntry& m : port->monitored_by) watchers.push_back(m.other);
        }
        value = list_of(p, watchers);
    } else if (item == am_parallelism) {
        value = make_bool(port->parallelism);
    } else if (item == am_queue_size) {
        value = make_small(SWord(port->driver ? port->driver->queue_size() : 0));
    } else if (item == am_locking) {
        value = am_port_level;
    } else {
        return THE_NON_VALUE;
    }
    return make_tuple_on(p, {item, value});
}

}  // namespace

Term bif_port_info1(Process* p, Term* a) {
    if (!is_port(a[0]) && !is_atom(a[0])) return p->badarg();
    std::shared_ptr<Port> port = port_arg(p, a[0]);
    if (!port) return atoms::undefined;
    static const char* const items[] = {"name", "links", "id", "connected", "input", "output", "os_pid"};
    return port->info([&](bool open) -> Term {
        if (!open) return atoms::undefined;
        std::vector<Term> values;
        // A registered port lists its name first.
        if (Term named = port_info_item(p, port.get(), atom("registered_name")); is_tuple(named)) values.push_back(named);
        for (const char* item : items) {
            Term v = port_info_item(p, port.get(), atom(item));
            // os_pid is left out for a port without one, as OTP does.
            if (std::strcmp(item, "os_pid") == 0 && tuple_element(v, 1) == atoms::undefined) continue;
            values.push_back(v);
        }
        return list_of(p, values);
    });
}

Term bif_port_info2(Process* p, Term* a) {
    if ((!is_port(a[0]) && !is_atom(a[0])) || !is_atom(a[1])) return p->badarg();
    std::shared_ptr<Port> port = port_arg(p, a[0]);
    if (!port) return atoms::undefined;
    Term result = port->info([&](bool open) -> Term {
        if (!open) return atoms::undefined;
        return port_info_item(p, port.get(), a[1]);
    });
    if (result == THE_NON_VALUE) return p->badarg();
    return result;
}

Term bif_ports(Process* p, Term*) { return list_of(p, p->vm.port_table->ids()); }

Term bif_port_to_list(Process* p, Term* a) {
    if (!is_any_port(a[0])) return p->badarg();
    return bytes_to_list(p, identifier_text(a[0]));
}

Term bif_list_to_port(Process* p, Term* a) {
    std::string text;
    if (!list_to_bytes(a[0], &text)) return p->badarg();
    // "#Port<0.N>" (node 0: this node).
    static const std::string prefix = "#Port<0.";
    if (text.size() <= prefix.size() + 1 || text.compare(0, prefix.size(), prefix) != 0 || text.back() != '>')
        return p->badarg();
    std::string digits = text.substr(prefix.size(), text.size() - prefix.size() - 1);
    if (digits.empty() || digits.size() > 15 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) return p->badarg();
    return make_port(Word(std::stoull(digits)));
}

// A driver without control operations (spawn, fd) answers badarg, after the port has run
// the request (it is traced as received). The reply is a list of bytes (OTP's drivers that
// do not ask for binaries, as inet's).
Term bif_port_control(Process* p, Term* a) {
    std::shared_ptr<Port> port = port_arg(p, a[0]);
    std::string bytes;
    if (!port || !is_small(a[1]) || !iolist_to_bytes(a[2], &bytes)) return p->badarg();
    bool binary = false;
    std::optional<std::string> reply = port->control(p->id, a[1], bytes, &binary);
    if (!reply) return p->badarg();
    if (binary) return make_binary(p, reinterpret_cast<const std::uint8_t*>(reply->data()), reply->size());
    Term* cells = p->alloc(2 * reply->size());
    Term list = NIL;
    for (std::size_t i = reply->size(); i-- > 0;)
        list = make_cons_on(cells + 2 * i, make_small(static_cast<std::uint8_t>((*reply)[i])), list);
    return list;
}

// The argument goes to the driver in the external format; its reply, a term in the external
// format too, is decoded as binary_to_term/1 would (badarg if it is not one).
Term bif_port_call(Process* p, Term* a) {
    std::shared_ptr<Port> port = port_arg(p, a[0]);
    if (!port || !is_small(a[1]) || small_value(a[1]) < 0 || small_value(a[1]) > SWord(UINT32_MAX))
        return p->badarg();
    std::string data;
    encode_external(a[2], EncodeOptions{}, &data);
    std::optional<std::string> reply = port->call(p->id, a[1], data);
    if (!reply) return p->badarg();
    DecodeResult decoded =
        decode_external(p, std::span(reinterpret_cast<const std::uint8_t*>(reply->data()), reply->size()), false);
    if (decoded.status != DecodeStatus::Ok) return p->badarg();
    return decoded.term;
}

Term bif_port_set_data(Process* p, Term* a) {
    std::shared_ptr<Port> port = port_arg(p, a[0]);
    if (!port) return p->badarg();
    port->set_data(a[1]);
    return atoms::true_;
}

Term bif_port_get_data(Process* p, Term* a) {
    std::shared_ptr<Port> port = port_arg(p, a[0]);
    if (!port) return p->badarg();
    return port->get_data(p);
}

}  // namespace beamlet::bif

namespace beamlet::bif {

Term wait_for_busy_port(Process* p, Term result) {
    // The result waits outside the heap (a collection may run before the process resumes).
    std::shared_ptr<HeapFragment> kept;
    Term copy = result;
    if (!is_immediate(result)) {
        HeapFragment* frag = copy_to_fragment(result, &copy);
        kept = std::shared_ptr<HeapFragment>(frag, [](HeapFragment* f) { free_fragment(f); });
    }
    p->continuation = [kept, copy](Process* q, Term*) {
        if (!kept) return copy;
        Term* hp = q->alloc(term_size_words(copy));
        return copy_term(copy, &hp, &q->off_heap_first);
    };
    p->suspend_for = SuspendFor::BusyPort;
    p->exception = PendingException{};
    return THE_NON_VALUE;
}

}  // namespace beamlet::bif

// ---- erl_ddll: drivers loaded at run time (io/drivers/dynamic_driver.hpp) ----------------------

namespace beamlet::bif {

namespace {

// A driver's name or directory as erl_ddll takes them: an atom or characters.
bool ddll_text_arg(Term t, std::string* out) { return !is_binary(t) && text_arg(t, out) && !out->empty(); }

Term ddll_status(Process* p, io::DriverTable::Outcome outcome, Term monitor_ref = 0) {
    using Status = io::DriverTable::Status;
    auto ok = [&](const char* what) { return make_tuple_on(p, {atom("ok"), atom(what)}); };
    auto error = [&](const char* what) { return make_tuple_on(p, {atom("error"), atom(what)}); };
    switch (outcome.status) {
    case Status::Loaded: return ok("loaded");
    case Status::AlreadyLoaded: return ok("already_loaded");
    case Status::Unloaded: return ok("unloaded");
    case Status::PendingProcess: return ok("pending_process");
    case Status::PendingDriver:
        return monitor_ref ? make_tuple_on(p, {atom("ok"), atom("pending_driver"), monitor_ref}) : ok("pending_driver");
    case Status::NotLoaded: return error("not_loaded");
    case Status::LinkedIn: return error("linked_in_driver");
    case Status::Inconsistent: return error("inconsistent");
    case Status::NotLoadedByThisProcess: return error("not_loaded_by_this_process");
    case Status::OpenError: {
        Term code = make_tuple_on(p, {atom("open_error"), make_small(outcome.open_error)});
        return make_tuple_on(p, {atom("error"), code});
    }
    }
    return atoms::undefined;
}

bool is_monitor_option(Term t) {
    return is_tuple(t) && tuple_arity(t) == 2 && tuple_element(t, 0) == atom("monitor") &&
           (tuple_element(t, 1) == atom("pending_driver") || tuple_element(t, 1) == atom("pending"));
}

}  // namespace

// erl_ddll:try_load(Path, Name, OptionList)
Term bif_erl_ddll_try_load(Process* p, Term* a) {
    std::string dir, name;
    if (!ddll_text_arg(a[0], &dir) || !ddll_text_arg(a[1], &name)) return p->badarg();
    bool kill_ports = false;
    Term l = a[2];
    for (; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (is_monitor_option(o)) continue;
        if (is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == atom("reload") &&
            (tuple_element(o, 1) == atom("pending_driver") || tuple_element(o, 1) == atom("pending")))
            continue;
        if (!is_tuple(o) || tuple_arity(o) != 2 || tuple_element(o, 0) != atom("driver_options")) return p->badarg();
        Term d = tuple_element(o, 1);
        for (; is_list(d); d = cdr(d)) {
            if (car(d) != atom("kill_ports")) return p->badarg();
            kill_ports = true;
        }
        if (!is_nil(d)) return p->badarg();
    }
    if (!is_nil(l)) return p->badarg();
    return ddll_status(p, io::layer(p->vm).drivers().load(p->id, dir, name, kill_ports));
}

// erl_ddll:try_unload(Name, OptionList)
Term bif_erl_ddll_try_unload(Process* p, Term* a) {
    std::string name;
    if (!ddll_text_arg(a[0], &name)) return p->badarg();
    bool kill_ports = false, monitor = false;
    Term l = a[1];
    for (; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (o == atom("kill_ports")) kill_ports = true;
        else if (is_monitor_option(o)) monitor = true;
        else return p->badarg();
    }
    if (!is_nil(l)) return p->badarg();
    Term ref = monitor ? new_ref(p) : 0;
    const Word* ref_id = monitor ? boxed_ptr(ref) + 1 : nullptr;
    io::DriverTable::Outcome outcome = io::layer(p->vm).drivers().unload(p->id, name, kill_ports, ref_id);
    return ddll_status(p, outcome, ref);
}

// erl_ddll:loaded_drivers(): beamlet's linked-in drivers, then the loaded ones.
Term bif_erl_ddll_loaded_drivers(Process* p, Term*) {
    std::vector<std::string> names = io::DriverTable::linked_in_names();
    for (std::string& name : io::layer(p->vm).drivers().loaded()) names.push_back(std::move(name));
    Term list = NIL;
    for (auto it = names.rbegin(); it != names.rend(); ++it) list = make_cons_on(p->alloc(2), bytes_to_list(p, *it), list);
    return make_tuple_on(p, {atom("ok"), list});
}

// erl_ddll:info(Name, Tag)
Term bif_erl_ddll_info(Process* p, Term* a) {
    static const char* const tags[] = {"processes", "driver_options", "port_count", "linked_in_driver",
                                       "permanent", "awaiting_load", "awaiting_unload"};
    std::string name;
    if (!ddll_text_arg(a[0], &name) || !is_atom(a[1])) return p->badarg();
    const std::string& tag = atom_text(a[1]);
    if (std::none_of(std::begin(tags), std::end(tags), [&](const char* t) { return tag == t; })) return p->badarg();
    if (tag == "permanent") {
        if (!io::DriverTable::linked_in(name) && !io::layer(p->vm).drivers().info(name)) return p->badarg();
        return atoms::false_;
    }
    if (io::DriverTable::linked_in(name)) return tag == "linked_in_driver" ? atoms::true_ : atom("linked_in_driver");
    std::optional<io::DriverTable::Info> info = io::layer(p->vm).drivers().info(name);
    if (!info) return p->badarg();
    auto counts = [&](const std::vector<std::pair<Term, int>>& pairs) {
        Term list = NIL;
        for (auto it = pairs.rbegin(); it != pairs.rend(); ++it)
            list = make_cons_on(p->alloc(2), make_tuple_on(p, {it->first, make_small(it->second)}), list);
        return list;
    };
    if (tag == "processes") return counts(info->processes);
    if (tag == "driver_options") return info->kill_ports ? make_cons_on(p->alloc(2), atom("kill_ports"), NIL) : NIL;
    if (tag == "port_count") return make_small(SWord(info->port_count));
    if (tag == "linked_in_driver") return atoms::false_;
    if (tag == "awaiting_load") return NIL;
    return counts(info->awaiting_unload);
}

// erl_ddll:format_error_int(ErrSpec): the texts of erl_ddll's errors.
Term bif_erl_ddll_format_error_int(Process* p, Term* a) {
    static const std::pair<const char*, const char*> texts[] = {
        {"inconsistent", "Driver name and/or driver options are inconsistent with currently loaded driver"},
        {"linked_in_driver", "Driver is statically linked and cannot be loaded/unloaded"},
        {"permanent", "DDLL driver is permanent an cannot be unloaded/loaded"},
        {"not_loaded", "DDLL driver is not loaded"},
        {"not_loaded_by_this_process", "DDLL driver was not loaded by this process"},
        {"not_pending", "DDLL load not pending for this driver name"},
        {"already_loaded", "DDLL driver is already loaded successfully"},
        {"pending_process", "Driver is loaded by others when attempting option {reload, pending_driver}"},
        {"pending_reload", "Driver reloading is already pending"},
    };
    Term e = a[0];
    if (is_atom(e)) {
        for (auto [name, text] : texts)
            if (atom_text(e) == name) return bytes_to_list(p, text);
        return p->badarg();
    }
    if (is_tuple(e) && tuple_arity(e) == 2 && tuple_element(e, 0) == atom("open_error") && is_small(tuple_element(e, 1)))
        return bytes_to_list(p, io::layer(p->vm).drivers().error_text(int(small_value(tuple_element(e, 1)))));
    return p->badarg();
}

// erl_ddll:monitor(driver, {Name, When})
Term bif_erl_ddll_monitor(Process* p, Term* a) {
    std::string name;
    Term item = a[1];
    if (a[0] != atom("driver") || !is_tuple(item) || tuple_arity(item) != 2 || !ddll_text_arg(tuple_element(item, 0), &name))
        return p->badarg();
    Term when = tuple_element(item, 1);
    if (when != atom("loaded") && when != atom("unloaded") && when != atom("unloaded_only")) return p->badarg();
    Term ref = new_ref(p);
    io::layer(p->vm).drivers().monitor(p->id, name, when == atom("loaded"), boxed_ptr(ref) + 1);
    return ref;
}

// erl_ddll:demonitor(MonitorRef)
Term bif_erl_ddll_demonitor(Process* p, Term* a) {
    if (!is_ref(a[0])) return p->badarg();
    io::layer(p->vm).drivers().demonitor(boxed_ptr(a[0]) + 1);
    return atoms::true_;
}

}  // namespace beamlet::bif
