// dist/distribution.cpp — connections to other nodes: control messages out and in, and the
// links, monitors and spawn requests that live on a connection (dist/distribution.hpp).
#include "dist/distribution.hpp"

#include <algorithm>
#include <span>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/copy.hpp"
#include "vm/external_term.hpp"
#include "vm/heap.hpp"
#include "vm/magic.hpp"
#include "vm/map.hpp"
#include "vm/node.hpp"
#include "vm/port.hpp"
#include "vm/port_driver.hpp"
#include "vm/port_table.hpp"
#include "vm/seq_trace.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beamlet::dist {

using namespace vm;

namespace {

// SPAWN_REPLY's flags: the link and the monitor were made.
constexpr SWord SPAWN_FLAG_LINK = 1, SPAWN_FLAG_MONITOR = 2;

// A tuple of a few elements in words of its own (the control messages are built on the stack).
template <std::size_t N>
struct Tuple {
    Term words[N + 1];
    template <typename... Ts>
    explicit Tuple(Ts... elements) : words{make_arityval(sizeof...(Ts)), Term(elements)...} {
        static_assert(sizeof...(Ts) == N);
    }
    Term term() { return make_boxed(words); }
};
template <typename... Ts>
Tuple(Ts...) -> Tuple<sizeof...(Ts)>;

bool is_token(Term t) { return t != 0 && t != NIL; }

// A tuple of [elements] written at [hp] (arity + 1 words).
Term tuple_on(Term* hp, std::initializer_list<Term> elements) {
    hp[0] = make_arityval(elements.size());
    std::copy(elements.begin(), elements.end(), hp + 1);
    return make_boxed(hp);
}

RefKey key_of(Term ref) {
    const Term* obj = boxed_ptr(ref);
    return {obj[1], obj[2], obj[3]};
}

Term ref_term_on(Term* hp, const Word id[3]) {
    hp[0] = make_header(REF_WORDS - 1, Subtag::Ref);
    hp[1] = id[0];
    hp[2] = id[1];
    hp[3] = id[2];
    return make_boxed(hp);
}

void fresh_ref_id(Vm& vm, Word id[3]) {
    Word n = vm.next_ref.fetch_add(1, std::memory_order_relaxed) + 1;
    id[0] = n & 0x3FFFF;
    id[1] = n >> 18;
    id[2] = 0;
}

// A handle's magic: the connection it names (a weak reference: a handle kept in a variable
// does not keep a connection alive).
struct HandleData {
    std::weak_ptr<Connection> connection;
    Word id;
};
void destroy_handle(MagicHandle* h) { delete static_cast<HandleData*>(h->data); }

// A handle's reference numbers: its connection id, with a bit no counter-made reference has
// for a long time, so that handles of one connection are equal and no other reference is.
void handle_ref_id(Word conn_id, Word id[3]) {
    id[0] = conn_id & 0x3FFFF;
    id[1] = (conn_id >> 18) | 0x80000000u;
    id[2] = 0;
}

const HandleData* handle_data(Term t) {
    if (!is_magic_ref(t)) return nullptr;
    MagicHandle* h = magic_handle(t);
    return h->destructor == destroy_handle ? static_cast<const HandleData*>(h->data) : nullptr;
}

// A map of a few [pairs] (keys sorted, as maps keep them) written at [hp] (map_words words).
Term small_map_on(Term* hp, const std::vector<std::pair<Term, Term>>& pairs) {
    Word n = pairs.size();
    hp[0] = make_header(MAP_HEADER_WORDS - 1 + n, Subtag::Map);
    hp[1] = n;
    if (n == 0) {
        hp[2] = NIL;
        return make_boxed(hp);
    }
    Term* keys = hp + MAP_HEADER_WORDS + n;
    keys[0] = make_arityval(n);
    hp[2] = make_boxed(keys);
    for (Word i = 0; i < n; ++i) {
        keys[1 + i] = pairs[i].first;
        hp[MAP_HEADER_WORDS + i] = pairs[i].second;
    }
    return make_boxed(hp);
}

// A message term and a token from different fragments, copied into one (a traced message).
HeapFragment* message_with_token(Term msg, Term token, Term* msg_out, Term* token_out) {
    Word words = term_size_words(msg) + term_size_words(token);
    HeapFragment* frag = HeapFragment::create(words);
    Term* hp = frag->data;
    *msg_out = copy_term(msg, &hp, &frag->off_heap_first);
    *token_out = copy_term(token, &hp, &frag->off_heap_first);
    frag->used_words = words;
    return frag;
}

}  // namespace

Distribution* of(Vm& vm) { return static_cast<Distribution*>(vm.services.dist.get()); }

Distribution::Distribution(Vm& vm) : m_vm(vm) {}
Distribution::~Distribution() {
    // A connection and its port hold each other: what is still up when the VM ends lets go.
    for (auto& [node, c] : m_connections) {
        std::lock_guard guard(c->lock);
        c->port.reset();
    }
}

bool Distribution::is_handle(Term t) { return handle_data(t) != nullptr; }

// ---- the connection table ----

std::shared_ptr<Connection> Distribution::find(Term node, bool connect) {
    std::shared_ptr<Connection> c;
    {
        std::lock_guard guard(m_lock);
        if (auto it = m_connections.find(node); it != m_connections.end()) return it->second;
        NodeId self = this_node();
        if (!connect || self.name == atoms::nonode_at_nohost || node == self.name) return nullptr;
        c = std::make_shared<Connection>(node, m_next_id.fetch_add(1, std::memory_order_relaxed), m_vm);
        m_connections.emplace(node, c);
    }
    // {auto_connect, Node, Handle} to net_kernel, which sets the connection up or aborts it.
    std::shared_ptr<Process> kernel = m_vm.whereis(atoms::net_kernel);
    if (!kernel) {
        abort_pending_connection(node, 0);
        return nullptr;
    }
    Message m;
    m.fragment = HeapFragment::create(MAGIC_REF_WORDS + 4);
    Term* hp = m.fragment->alloc(MAGIC_REF_WORDS + 4);
    Term handle = make_handle(hp, &m.fragment->off_heap_first, c);
    m.term = tuple_on(hp + MAGIC_REF_WORDS, {atom("auto_connect"), node, handle});
    m_vm.send_signal(kernel.get(), m);
    return c;
}

std::shared_ptr<Connection> Distribution::of_port(Port& port) {
    std::lock_guard guard(port.lock);
    return std::static_pointer_cast<Connection>(port.dist);
}

Term Distribution::make_handle(Term* hp, Term** off_heap, const std::shared_ptr<Connection>& c) {
    auto* h = new MagicHandle();
    h->destructor = destroy_handle;
    h->data = new HandleData{c, c->id};
    Word id[3];
    handle_ref_id(c->id, id);
    hp[0] = make_header(MAGIC_REF_WORDS - 1, Subtag::Ref);
    hp[1] = id[0];
    hp[2] = id[1];
    hp[3] = id[2];
    hp[4] = reinterpret_cast<Word>(*off_heap);
    hp[5] = reinterpret_cast<Word>(h);
    *off_heap = hp;
    return make_boxed(hp);
}

Term Distribution::new_connection(Process* p, Term node) {
    std::shared_ptr<Connection> c;
    {
        std::lock_guard guard(m_lock);
        if (auto it = m_connections.find(node); it != m_connections.end()) {
            c = it->second;
        } else {
            c = std::make_shared<Connection>(node, m_next_id.fetch_add(1, std::memory_order_relaxed), m_vm);
            m_connections.emplace(node, c);
        }
    }
    Term* hp = p->alloc(MAGIC_REF_WORDS);
    return make_handle(hp, &p->off_heap_first, c);
}

bool Distribution::abort_pending_connection(Term node, Term handle) {
    std::shared_ptr<Connection> c;
    {
        std::lock_guard guard(m_lock);
        auto it = m_connections.find(node);

        if (it == m_connections.end()) return false;
        const HandleData* h = handle ? handle_data(handle) : nullptr;
        if (handle && (!h || h->id != it->second->id)) return false;
        std::lock_guard conn_guard(it->second->lock);
        if (it->second->state != Connection::State::Pending) return false;
        c = it->second;
        m_connections.erase(it);
    }
    connection_down(c, atom("connection_closed"));
    return true;
}

namespace {
// The watch a process-controlled connection keeps on its controller (a resource monitor).
struct ControllerWatch {
    Distribution* distribution;
    std::weak_ptr<Connection> connection;
};
}  // namespace

void controller_exited(MagicHandle* h, Term) {
    auto* w = static_cast<ControllerWatch*>(h->data);
    if (std::shared_ptr<Connection> c = w->connection.lock()) w->distribution->controller_down(c);
}

namespace {
void destroy_watch(MagicHandle* h) { delete static_cast<ControllerWatch*>(h->data); }
}  // namespace

Term Distribution::create_channel(Process* p, Term node, Term controller, std::uint64_t flags, std::uint32_t creation) {
    std::shared_ptr<Port> port = is_port(controller) ? m_vm.port_table->lookup(controller) : nullptr;
    std::shared_ptr<Process> process = is_pid(controller) ? m_vm.lookup_process(controller) : nullptr;
    if ((!port && !process) || !is_atom(node) || node == this_node().name) return atoms::badarg;
    std::shared_ptr<Connection> c;
    {
        std::lock_guard guard(m_lock);
        auto it = m_connections.find(node);
        if (it != m_connections.end()) {
            std::lock_guard conn_guard(it->second->lock);
            if (it->second->state == Connection::State::Up) return atoms::badarg;  // connected already
            c = it->second;
        } else {
            c = std::make_shared<Connection>(node, m_next_id.fetch_add(1, std::memory_order_relaxed), m_vm);
            m_connections.emplace(node, c);
        }
    }
    if (port) {
        std::lock_guard guard(port->lock);
        if (port->state != PortState::Open || port->dist) return atoms::badarg;
        port->dist = c;
        port->distribution.store(true, std::memory_order_release);
    } else {
        // The connection goes when its controller does.
        auto* h = new MagicHandle();
        h->data = new ControllerWatch{this, c};
        h->destructor = destroy_watch;
        h->down = controller_exited;
        bool watching = add_resource_monitor(process.get(), h);
        h->release();
        if (!watching) return atoms::badarg;  // the controller is exiting
    }
    c->reader.start(flags);  // (no packet reaches the reader before the controller is the connection's)
    {
        std::lock_guard guard(c->lock);
        c->flags = flags;
        c->creation = creation;
        c->port = port;
        c->controller = port ? 0 : controller;
        c->input_handler = c->controller;
        c->state = Connection::State::Up;
        std::size_t before = c->out.size();
        c->writer.start(flags, &c->out);  // what waited for the connection, with its headers now
        for (std::size_t i = before; i < c->out.size(); ++i) c->out_bytes += c->out[i].size();
    }
    write_out(c);
    tell_nodes_monitors(node, true, flags & dflag::PUBLISHED, std::int64_t(c->id), 0);
    Term* hp = p->alloc(MAGIC_REF_WORDS);
    return make_handle(hp, &p->off_heap_first, c);
}

Term Distribution::get_stat(Process* p, Term handle) {
    const HandleData* h = handle_data(handle);
    std::shared_ptr<Connection> c = h ? h->connection.lock() : nullptr;
    if (!c) return 0;
    std::uint64_t in, out;
    bool pending;
    {
        std::lock_guard guard(c->lock);
        in = c->packets_in;
        out = c->packets_out;
        pending = !c->out.empty() || c->writer.waiting();
    }
    Term* hp = p->alloc(5);
    return tuple_on(hp, {atoms::ok, make_small(SWord(in)), make_small(SWord(out)), make_bool(pending)});
}

std::vector<Term> Distribution::nodes(bool visible, bool hidden) {
    std::vector<std::pair<Word, Term>> up;
    std::lock_guard guard(m_lock);
    for (auto& [node, c] : m_connections) {
        std::lock_guard conn_guard(c->lock);
        if (c->state != Connection::State::Up) continue;
        bool published = c->flags & dflag::PUBLISHED;
        if (published ? visible : hidden) up.emplace_back(c->id, node);
    }
    // Newest first, as OTP lists them.
    std::sort(up.begin(), up.end(), [](auto& a, auto& b) { return a.first > b.first; });
    std::vector<Term> out;
    for (auto& [id, node] : up) out.push_back(node);
    return out;
}

std::vector<std::pair<Term, Term>> Distribution::controllers() {
    std::vector<std::pair<Term, Term>> out;
    std::lock_guard guard(m_lock);
    for (auto& [node, c] : m_connections) {
        std::lock_guard conn_guard(c->lock);
        if (c->state != Connection::State::Up) continue;
        if (c->controller) out.emplace_back(node, c->controller);
        else if (c->port) out.emplace_back(node, c->port->id);
    }
    return out;
}

bool Distribution::is_up(Term node) {
    std::shared_ptr<Connection> c = find(node, false);
    if (!c) return false;
    std::lock_guard guard(c->lock);
    return c->state == Connection::State::Up;
}

std::int64_t Distribution::connection_id(Term node) {
    std::lock_guard guard(m_lock);
    auto it = m_connections.find(node);
    return it == m_connections.end() ? -1 : std::int64_t(it->second->id);
}

bool Distribution::monitor_node(Process* p, Term node, bool on) {
    if (!is_atom(node)) return false;
    if (!on) {
        if (std::shared_ptr<Connection> c = find(node, false)) {
            std::lock_guard guard(c->lock);
            auto it = std::find(c->node_monitors.begin(), c->node_monitors.end(), p->id);
            if (it != c->node_monitors.end()) c->node_monitors.erase(it);
        }
        return true;
    }
    if (node == this_node().name) return true;
    std::shared_ptr<Connection> c = find(node, true);
    if (c) {
        std::lock_guard guard(c->lock);
        c->node_monitors.push_back(p->id);
        return true;
    }
    Term msg[3] = {make_arityval(2), atom("nodedown"), node};
    m_vm.send_message(nullptr, p->id, make_boxed(msg));
    return true;
}

// ---- nodes monitors (net_kernel:monitor_nodes/1,2) ----

std::int64_t Distribution::monitor_nodes(Process* p, Term options, bool on) {
    NodesMonitor m;
    m.pid = p->id;
    if (options) {
        if (!is_map(options)) return -1;
        m.options = true;
        bool bad = false;
        map_for_each(options, [&](Term key, Term value) {
            bool flag = value == atoms::true_;
            if (key == atom("connection_id") && (flag || value == atoms::false_)) m.connection_id = flag;
            else if (key == atom("nodedown_reason") && (flag || value == atoms::false_)) m.nodedown_reason = flag;
            else if (key == atom("list") && (flag || value == atoms::false_)) m.list = flag;
            else if (key == atom("node_type") && value == atom("visible")) m.node_type = true, m.types = 1;
            else if (key == atom("node_type") && value == atom("hidden")) m.node_type = true, m.types = 2;
            else if (key == atom("node_type") && value == atom("all")) m.node_type = true, m.types = 3;
            else bad = true;
        });
        if (bad) return -1;
        // Without any option asked for, OTP still sends the three-element form.
    }
    std::lock_guard guard(m_monitors_lock);
    std::int64_t count = std::count(m_nodes_monitors.begin(), m_nodes_monitors.end(), m);
    if (on) {
        m_nodes_monitors.push_back(m);
    } else if (auto it = std::find(m_nodes_monitors.begin(), m_nodes_monitors.end(), m); it != m_nodes_monitors.end()) {
        m_nodes_monitors.erase(it);
    }
    return count;
}

void Distribution::this_node_changed(Term node, bool up) {
    tell_nodes_monitors(node, up, true, -1, atom("net_kernel_terminated"));
}

void Distribution::tell_nodes_monitors(Term node, bool up, bool visible, std::int64_t connection_id, Term reason) {
    std::vector<NodesMonitor> monitors;
    {
        std::lock_guard guard(m_monitors_lock);
        // Those of processes that are gone go first.
        std::erase_if(m_nodes_monitors, [&](const NodesMonitor& m) { return !m_vm.lookup_process(m.pid); });
        monitors = m_nodes_monitors;
    }
    Term tag = up ? atom("nodeup") : atom("nodedown");
    for (const NodesMonitor& m : monitors) {
        if (!(m.types & (visible ? 1 : 2))) continue;
        if (!m.options) {
            Tuple msg(tag, node);
            m_vm.send_message(nullptr, m.pid, msg.term());
            continue;
        }
        std::vector<std::pair<Term, Term>> info;
        // In OTP's order for the list form: nodedown_reason, node_type, connection_id.
        if (m.nodedown_reason && !up) info.emplace_back(atom("nodedown_reason"), reason);
        if (m.node_type) info.emplace_back(atom("node_type"), visible ? atom("visible") : atom("hidden"));
        if (m.connection_id) info.emplace_back(atom("connection_id"), connection_id < 0 ? atoms::undefined : make_small(connection_id));
        // Built on a small scratch heap: a map or a list of pairs, then the message.
        Term words[64];
        Term* hp = words;
        Term value;
        if (m.list) {
            value = NIL;
            for (std::size_t i = info.size(); i-- > 0;) {
                Term pair = tuple_on(hp, {info[i].first, info[i].second});
                hp += 3;
                value = make_cons_on(hp, pair, value);
                hp += 2;
            }
        } else {
            std::sort(info.begin(), info.end(), [](auto& a, auto& b) { return compare_terms(a.first, b.first) < 0; });
            value = small_map_on(hp, info);
            hp += map_words(info.size());
        }
        Term msg = tuple_on(hp, {tag, node, value});
        m_vm.send_message(nullptr, m.pid, msg);
    }
}

// ---- output ----

void Distribution::post_locked(Connection& c, Term control, Term payload) {
    std::size_t before = c.out.size();
    c.writer.write(control, payload, &c.out);
    for (std::size_t i = before; i < c.out.size(); ++i) c.out_bytes += c.out[i].size();
}

bool Distribution::post(const std::shared_ptr<Connection>& c, Term control, Term payload, Process* waiter) {
    bool wait = false;
    {
        std::lock_guard guard(c->lock);
        post_locked(*c, control, payload);
        // Busy: a megabyte waits (in this queue, or in the port's driver). A connection being
        // set up queues what is sent meanwhile without making anyone wait (OTP).
        if (waiter && c->state == Connection::State::Up && (c->port_busy || c->out_bytes >= RUNTIME_BUSY_BYTES)) {
            c->waiters.push_back(waiter->id);
            wait = true;
        }
    }
    write_out(c);
    return wait;
}

void Distribution::write_out(const std::shared_ptr<Connection>& c) {
    // As OTP's dist command task: the queue is written in the port's own turn, so that what
    // senders queue meanwhile goes out in one write. A controller process takes it itself,
    // told once that there is some.
    std::shared_ptr<Port> port;
    {
        std::lock_guard guard(c->lock);
        if (c->controller) {
            if (!c->notify || c->out.empty() || c->state != Connection::State::Up) return;
            c->notify = false;
            m_vm.send_message(nullptr, c->controller, atom("dist_data"));
            return;
        }
        if (c->scheduled || c->out.empty() || c->state != Connection::State::Up) return;
        c->scheduled = true;
        port = c->port;
    }
    port->post(PortSignal(PortOp::DistOutput));
}

void Distribution::output(Port& port) {
    std::shared_ptr<Connection> c = of_port(port);
    if (!c) return;
    std::vector<RuntimePacket> batch;
    {
        std::lock_guard guard(c->lock);
        c->scheduled = false;
        batch.swap(c->out);
        c->out_bytes = 0;
        c->packets_out += batch.size();
    }
    std::size_t queued = batch.empty() ? 0 : port.write_in_turn(batch);
    // Not busy any more: the senders that waited go on. (Still busy: the driver posts this
    // operation again once its queue is down; new packets schedule it anyway.)
    std::vector<Term> resume;
    {
        std::lock_guard guard(c->lock);
        c->port_busy = queued >= RUNTIME_BUSY_BYTES;
        if (!c->port_busy && c->out_bytes < RUNTIME_BUSY_BYTES) resume.swap(c->waiters);
    }
    for (Term pid : resume)
        if (std::shared_ptr<Process> p = m_vm.lookup_process(pid)) m_vm.resume_suspended(p.get());
}

bool Distribution::send(Process* sender, Term to, Term node, Term msg, Term token, bool may_wait) {
    Term target_node = node ? node : external_node(to);
    std::shared_ptr<Connection> c = find(target_node, true);
    if (!c) return false;
    Term from = sender ? sender->id : make_pid(0);
    Process* waiter = may_wait ? sender : nullptr;
    bool traced = is_token(token);
    if (node) {  // {Name, Node}
        if (traced) {
            Tuple control(make_small(REG_SEND_TT), from, atom(""), to, token);
            return post(c, control.term(), msg, waiter);
        }
        Tuple control(make_small(REG_SEND), from, atom(""), to);
        return post(c, control.term(), msg, waiter);
    }
    if (is_external_ref(to)) {  // an alias
        if (traced) {
            Tuple control(make_small(ALIAS_SEND_TT), from, to, token);
            return post(c, control.term(), msg, waiter);
        }
        Tuple control(make_small(ALIAS_SEND), from, to);
        return post(c, control.term(), msg, waiter);
    }
    if (traced) {
        Tuple control(make_small(SEND_SENDER_TT), from, to, token);
        return post(c, control.term(), msg, waiter);
    }
    Tuple control(make_small(SEND_SENDER), from, to);
    return post(c, control.term(), msg, waiter);
}

void Distribution::exit_signal(Term from, Term to, Term reason, bool linked, Term token) {
    std::shared_ptr<Connection> c = find(external_node(to), !linked);
    if (!c) return;
    {
        std::lock_guard guard(c->lock);
        if (linked) {
            // A link's signal: only for a link the connection still has.
            auto it = std::find(c->links.begin(), c->links.end(), std::pair{from, stable_external(to)});
            if (it == c->links.end()) return;
            c->links.erase(it);
        }
        bool traced = is_token(token);
        SWord op = linked ? (traced ? PAYLOAD_EXIT_TT : PAYLOAD_EXIT) : (traced ? PAYLOAD_EXIT2_TT : PAYLOAD_EXIT2);
        if (traced) {
            Tuple control(make_small(op), from, to, token);
            post_locked(*c, control.term(), reason);
        } else {
            Tuple control(make_small(op), from, to);
            post_locked(*c, control.term(), reason);
        }
    }
    write_out(c);
}

bool Distribution::link(Process* p, Term to) {
    std::shared_ptr<Connection> c = find(external_node(to), true);
    if (!c) return false;
    {
        std::lock_guard guard(c->lock);
        std::pair link{p->id, to};
        if (std::find(c->links.begin(), c->links.end(), link) == c->links.end()) c->links.push_back(link);
        Tuple control(make_small(LINK), p->id, to);
        post_locked(*c, control.term(), THE_NON_VALUE);
    }
    write_out(c);
    return true;
}

void Distribution::unlink(Process* p, Term to) {
    std::shared_ptr<Connection> c = find(external_node(to), false);
    if (!c) return;
    {
        std::lock_guard guard(c->lock);
        auto it = std::find(c->links.begin(), c->links.end(), std::pair{p->id, stable_external(to)});
        if (it == c->links.end()) return;
        c->links.erase(it);
        Word id[3];
        fresh_ref_id(m_vm, id);
        Tuple control(make_small(UNLINK_ID), make_small(SWord(id[0] | id[1] << 18)), p->id, to);
        post_locked(*c, control.term(), THE_NON_VALUE);
    }
    write_out(c);
}

bool Distribution::monitor(Process* p, const MonitorEntry& m) {
    std::shared_ptr<Connection> c = find(m.node, true);
    if (!c) return false;
    {
        std::lock_guard guard(c->lock);
        MonitorEntry held = m;
        held.other = p->id;
        c->monitors[{m.ref_id[0], m.ref_id[1], m.ref_id[2]}] = Connection::Monitor{m.name ? m.name : m.other, held};
        Term ref_words[REF_WORDS];
        Tuple control(make_small(MONITOR_P), p->id, m.name ? m.name : m.other, ref_term_on(ref_words, m.ref_id));
        post_locked(*c, control.term(), THE_NON_VALUE);
    }
    write_out(c);
    return true;
}

void Distribution::demonitor(Term watcher, const MonitorEntry& m) {
    std::shared_ptr<Connection> c = find(m.node, false);
    if (!c) return;
    {
        std::lock_guard guard(c->lock);
        if (!c->monitors.erase({m.ref_id[0], m.ref_id[1], m.ref_id[2]})) return;
        if (!m.name && !m.other) return;  // a spawn request's monitor, before its reply
        Term ref_words[REF_WORDS];
        Tuple control(make_small(DEMONITOR_P), watcher, m.name ? m.name : m.other, ref_term_on(ref_words, m.ref_id));
        post_locked(*c, control.term(), THE_NON_VALUE);
    }
    write_out(c);
}

void Distribution::monitor_exit(const MonitorEntry& m, Term who, Term reason) {
    std::shared_ptr<Connection> c = find(external_node(m.other), false);
    if (!c) return;
    {
        std::lock_guard guard(c->lock);
        auto it = std::find_if(c->watched.begin(), c->watched.end(),
                               [&](auto& w) { return w.second.remote_ref == m.remote_ref; });
        if (it == c->watched.end()) return;
        c->watched.erase(it);
        Tuple control(make_small(PAYLOAD_MONITOR_P_EXIT), m.name ? m.name : who, m.other, m.remote_ref);
        post_locked(*c, control.term(), reason);
    }
    write_out(c);
}

void Distribution::group_leader(Term from, Term leader, Term pid) {
    std::shared_ptr<Connection> c = find(external_node(pid), true);
    if (!c) return;
    (void)from;
    Tuple control(make_small(GROUP_LEADER), leader, pid);
    post(c, control.term(), THE_NON_VALUE);
}

// ---- input ----

void Distribution::input(Port& port, std::string_view packet) {
    std::shared_ptr<Connection> c = of_port(port);
    if (!c) return;
    {
        std::lock_guard guard(c->lock);
        ++c->packets_in;
    }
    // Garbage on an established connection: the connection goes, nothing else (OTP closes
    // the port).
    if (!receive(c, packet)) port.terminate(atom("invalid_distribution_data"));
}

bool Distribution::receive(const std::shared_ptr<Connection>& c, std::string_view packet) {
    if (packet.empty()) return true;  // a tick
    PacketReader::Message m;
    std::string why;
    switch (c->reader.read(std::span(reinterpret_cast<const std::uint8_t*>(packet.data()), packet.size()), &m, &why)) {
    case PacketReader::Result::Partial: return true;
    case PacketReader::Result::Bad: return false;
    case PacketReader::Result::Message: break;
    }
    dispatch(c, m.control, m.payload, m.payload_heap, {});
    free_fragment(m.control_heap);
    return true;
}

// ---- connections controlled by processes (erlang:dist_ctrl_*) ----

std::shared_ptr<Connection> Distribution::controlled(Process* p, Term handle, bool input) {
    const HandleData* h = handle_data(handle);
    std::shared_ptr<Connection> c = h ? h->connection.lock() : nullptr;
    if (!c || c->id != h->id) return nullptr;
    std::lock_guard guard(c->lock);
    if (!c->controller || c->state != Connection::State::Up) return nullptr;
    return (input ? c->input_handler : c->controller) == p->id ? c : nullptr;
}

Term Distribution::ctrl_get_data(Process* p, Term handle) {
    std::shared_ptr<Connection> c = controlled(p, handle);
    if (!c) return 0;
    RuntimePacket packet;
    bool get_size;
    std::vector<Term> resume;
    {
        std::lock_guard guard(c->lock);
        if (c->out.empty()) return atom("none");
        // Taken from the front without moving the rest: the queue empties as a whole.
        packet = std::move(c->out[c->out_first++]);
        if (c->out_first == c->out.size()) {
            c->out.clear();
            c->out_first = 0;
        }
        c->out_bytes -= packet.size();
        ++c->packets_out;
        get_size = c->get_size;
        // Taken below the busy mark: the senders that waited go on.
        if (c->out_bytes < RUNTIME_BUSY_BYTES) resume.swap(c->waiters);
    }
    for (Term pid : resume)
        if (std::shared_ptr<Process> waiter = m_vm.lookup_process(pid)) m_vm.resume_suspended(waiter.get());
    std::string bytes = packet.head;
    bytes.append(packet.body_bytes());
    Term data = make_binary(p, bytes);
    if (!get_size) return data;
    Term size = make_small(SWord(bytes.size()));
    Term* hp = p->alloc(3);
    return tuple_on(hp, {size, data});
}

bool Distribution::ctrl_get_data_notification(Process* p, Term handle) {
    std::shared_ptr<Connection> c = controlled(p, handle);
    if (!c) return false;
    {
        std::lock_guard guard(c->lock);
        c->notify = true;
    }
    write_out(c);
    return true;
}

bool Distribution::ctrl_put_data(Process* p, Term handle, std::string_view packet) {
    std::shared_ptr<Connection> c = controlled(p, handle, true);
    if (!c) return false;
    {
        std::lock_guard guard(c->lock);
        ++c->packets_in;
    }
    if (!receive(c, packet)) {
        // Garbage: the connection goes with its controller, as OTP kills it.
        Term controller;
        {
            std::lock_guard guard(c->lock);
            controller = c->controller;
        }
        m_vm.send_exit(controller, controller, atoms::kill, false);
    }
    return true;
}

bool Distribution::ctrl_input_handler(Process* p, Term handle, Term pid) {
    std::shared_ptr<Connection> c = controlled(p, handle);
    if (!c || !is_pid(pid)) return false;
    std::lock_guard guard(c->lock);
    c->input_handler = pid;
    return true;
}

Term Distribution::ctrl_opt(Process* p, Term handle, Term option, Term value) {
    std::shared_ptr<Connection> c = controlled(p, handle);
    if (!c || option != atom("get_size") || (value && value != atoms::true_ && value != atoms::false_)) return 0;
    std::lock_guard guard(c->lock);
    Term old = make_bool(c->get_size);
    if (value) c->get_size = value == atoms::true_;
    return old;
}

void Distribution::controller_down(const std::shared_ptr<Connection>& c) {
    {
        std::lock_guard guard(m_lock);
        auto it = m_connections.find(c->node);
        if (it == m_connections.end() || it->second != c) return;
        m_connections.erase(it);
    }
    connection_down(c, atom("connection_closed"));
}

namespace {

// Delivers [msg] (in [frag], handed over) to [dest] here, with [token] (in another fragment).
// A message from another node to [dest]; [from]: the sending process when the control message
// names it (its receive trace shows it), else 0.
void deliver(Vm& vm, Term dest, Term msg, HeapFragment* frag, Term token, Term from = 0) {
    Message m;
    m.from = is_external_pid(from) ? stable_external(from) : 0;
    if (is_token(token)) {
        m.fragment = message_with_token(msg, token, &m.term, &m.seq_token);
        m.seq_epoch = vm.seq_epoch.load(std::memory_order_relaxed);
        free_fragment(frag);
    } else {
        m.term = msg;
        m.fragment = frag;
        m.seq_token = NIL;  // a message from a process without a token: the receiver's goes
    }
    vm.deliver_from_node(dest, m);
}

Term stable(Term t) { return is_external(t) ? stable_external(t) : t; }

}  // namespace

void Distribution::dispatch(const std::shared_ptr<Connection>& c, Term control, Term payload,
                            HeapFragment* payload_frag, std::string_view) {
    SWord op = small_value(tuple_element(control, 0));
    Word arity = tuple_arity(control);
    auto at = [&](Word i) { return i < arity ? tuple_element(control, i) : THE_NON_VALUE; };
    bool handed_over = false;
    switch (op) {
    case SEND:
    case SEND_SENDER:
        if (arity == 3 && payload != THE_NON_VALUE)
            deliver(m_vm, at(2), payload, payload_frag, 0, op == SEND_SENDER ? at(1) : 0), handed_over = true;
        break;
    case SEND_TT:
    case SEND_SENDER_TT:
        if (arity == 4 && payload != THE_NON_VALUE)
            deliver(m_vm, at(2), payload, payload_frag, at(3), op == SEND_SENDER_TT ? at(1) : 0), handed_over = true;
        break;
    case REG_SEND:
        if (arity == 4 && payload != THE_NON_VALUE && is_atom(at(3)))
            deliver(m_vm, at(3), payload, payload_frag, 0, at(1)), handed_over = true;
        break;
    case REG_SEND_TT:
        if (arity == 5 && payload != THE_NON_VALUE && is_atom(at(3)))
            deliver(m_vm, at(3), payload, payload_frag, at(4), at(1)), handed_over = true;
        break;
    case ALIAS_SEND:
        if (arity == 3 && payload != THE_NON_VALUE && is_ref(at(2)))
            deliver(m_vm, at(2), payload, payload_frag, 0, at(1)), handed_over = true;
        break;
    case ALIAS_SEND_TT:
        if (arity == 4 && payload != THE_NON_VALUE && is_ref(at(2)))
            deliver(m_vm, at(2), payload, payload_frag, at(3), at(1)), handed_over = true;
        break;
    case LINK: {
        Term from = at(1), to = at(2);
        if (arity != 3 || !is_external_pid(from) || !is_pid(to)) break;
        from = stable_external(from);
        bool linked = false, fresh = false;
        std::shared_ptr<Process> target = m_vm.lookup_process(to);
        if (target) {
            std::lock_guard guard(target->lock);
            if (!target->exiting) {
                fresh = std::find(target->links.begin(), target->links.end(), from) == target->links.end();
                if (fresh) target->links.push_back(from);
                linked = true;
            }
        }
        // The target's getting_linked event, as it handles the link signal.
        if (fresh) m_vm.send_link_event(from, target.get(), true);
        std::lock_guard guard(c->lock);
        if (linked) {
            if (std::find(c->links.begin(), c->links.end(), std::pair{to, from}) == c->links.end())
                c->links.emplace_back(to, from);
        } else {
            Tuple reply(make_small(PAYLOAD_EXIT), to, from);
            post_locked(*c, reply.term(), atoms::noproc);
        }
        break;
    }
    case UNLINK:
    case UNLINK_ID: {
        Term from = op == UNLINK ? at(1) : at(2), to = op == UNLINK ? at(2) : at(3);
        if (!is_external_pid(from) || !is_pid(to)) break;
        from = stable_external(from);
        if (std::shared_ptr<Process> target = m_vm.lookup_process(to)) {
            bool had;
            {
                std::lock_guard guard(target->lock);
                had = std::erase(target->links, from) != 0;
            }
            if (had) m_vm.send_link_event(from, target.get(), false);  // its getting_unlinked event
        }
        std::lock_guard guard(c->lock);
        std::erase(c->links, std::pair{to, from});
        if (op == UNLINK_ID) {
            Tuple ack(make_small(UNLINK_ID_ACK), at(1), to, from);
            post_locked(*c, ack.term(), THE_NON_VALUE);
        }
        break;
    }
    case UNLINK_ID_ACK:
        break;
    case EXIT:
    case EXIT_TT:
    case PAYLOAD_EXIT:
    case PAYLOAD_EXIT_TT:
    case EXIT2:
    case EXIT2_TT:
    case PAYLOAD_EXIT2:
    case PAYLOAD_EXIT2_TT: {
        bool linked = op == EXIT || op == EXIT_TT || op == PAYLOAD_EXIT || op == PAYLOAD_EXIT_TT;
        bool traced = op == EXIT_TT || op == PAYLOAD_EXIT_TT || op == EXIT2_TT || op == PAYLOAD_EXIT2_TT;
        bool in_payload = op == PAYLOAD_EXIT || op == PAYLOAD_EXIT_TT || op == PAYLOAD_EXIT2 || op == PAYLOAD_EXIT2_TT;
        Term from = at(1), to = at(2), token = traced ? at(3) : 0;
        Term reason = in_payload ? payload : at(traced ? 4 : 3);
        if (!is_external_pid(from) || !is_pid(to) || reason == THE_NON_VALUE) break;
        from = stable_external(from);
        if (linked) {
            std::lock_guard guard(c->lock);
            auto it = std::find(c->links.begin(), c->links.end(), std::pair{to, from});
            if (it == c->links.end()) break;  // no such link (any more): the signal is void
            c->links.erase(it);
        }
        m_vm.send_exit(from, to, reason, linked, token, m_vm.seq_epoch.load(std::memory_order_relaxed));
        break;
    }
    case GROUP_LEADER: {
        Term leader = at(1), to = at(2);
        if (arity != 3 || !is_any_pid(leader) || !is_pid(to)) break;
        if (std::shared_ptr<Process> target = m_vm.lookup_process(to))
            target->group_leader.store(stable(leader), std::memory_order_relaxed);
        break;
    }
    case MONITOR_P: {
        Term from = at(1), target_id = at(2), ref = at(3);
        if (arity != 4 || !is_external_pid(from) || !is_external_ref(ref)) break;
        std::shared_ptr<Process> target = is_pid(target_id)    ? m_vm.lookup_process(target_id)
                                          : is_atom(target_id) ? m_vm.whereis(target_id)
                                                               : nullptr;
        MonitorEntry e{};
        fresh_ref_id(m_vm, e.ref_id);
        e.other = stable_external(from);
        e.name = is_atom(target_id) ? target_id : 0;
        e.remote_ref = stable_external(ref);
        bool added = false;
        std::lock_guard guard(c->lock);
        if (target) {
            std::lock_guard target_guard(target->lock);
            if (!target->exiting) {
                e.after_kill = target->kill_pending;
                target->monitored_by.push_back(e);
                added = true;
            }
        }
        if (added) {
            c->watched.emplace_back(target->id, e);
        } else {
            Tuple reply(make_small(PAYLOAD_MONITOR_P_EXIT), target_id, from, ref);
            post_locked(*c, reply.term(), atoms::noproc);
        }
        break;
    }
    case DEMONITOR_P: {
        Term ref = at(3);
        if (arity != 4 || !is_external_ref(ref)) break;
        ref = stable_external(ref);
        Term target = 0;
        Word id[3] = {};
        {
            std::lock_guard guard(c->lock);
            auto it = std::find_if(c->watched.begin(), c->watched.end(),
                                   [&](auto& w) { return w.second.remote_ref == ref; });
            if (it == c->watched.end()) break;
            target = it->first;
            std::copy(it->second.ref_id, it->second.ref_id + 3, id);
            c->watched.erase(it);
        }
        if (std::shared_ptr<Process> p = m_vm.lookup_process(target)) {
            std::lock_guard guard(p->lock);
            std::erase_if(p->monitored_by, [&](const MonitorEntry& m) { return std::equal(m.ref_id, m.ref_id + 3, id); });
        }
        break;
    }
    case MONITOR_P_EXIT:
    case PAYLOAD_MONITOR_P_EXIT: {
        Term who = at(1), ref = at(3);
        Term reason = op == MONITOR_P_EXIT ? at(4) : payload;
        if (!is_ref(ref) || reason == THE_NON_VALUE) break;
        MonitorEntry entry;
        {
            std::lock_guard guard(c->lock);
            auto it = c->monitors.find(key_of(ref));
            if (it == c->monitors.end()) break;
            entry = it->second.entry;
            c->monitors.erase(it);
        }
        m_vm.send_down(entry, atoms::process, who, reason);
        break;
    }
    case SPAWN_REQUEST:
    case SPAWN_REQUEST_TT:
        if (payload != THE_NON_VALUE) spawn_for(c, control, payload, op == SPAWN_REQUEST_TT ? at(6) : 0);
        break;
    case SPAWN_REPLY:
    case SPAWN_REPLY_TT:
        spawn_reply(c, control);
        break;
    default:
        break;
    }
    if (!handed_over) free_fragment(payload_frag);
    write_out(c);
}

// ---- spawn requests ----

void Distribution::spawn_for(const std::shared_ptr<Connection>& c, Term control, Term args, Term token) {
    Term req = tuple_element(control, 1), parent = tuple_element(control, 2), leader = tuple_element(control, 3);
    Term mfa = tuple_element(control, 4), opts = tuple_element(control, 5);
    if (!is_external_ref(req) || !is_external_pid(parent)) return;
    bool link = false, monitor = false, valid = is_tuple(mfa) && tuple_arity(mfa) == 3 &&
                                                is_atom(tuple_element(mfa, 0)) && is_atom(tuple_element(mfa, 1)) &&
                                                is_small(tuple_element(mfa, 2));
    Word n = 0;
    for (Term l = args; is_list(l); l = cdr(l)) ++n;
    // The options erts' spawn takes; any other makes the spawn fail with badopt.
    static const Term with_value[] = {atom("monitor"), atom("priority"), atom("message_queue_data"),
                                      atom("min_heap_size"), atom("max_heap_size"), atom("min_bin_vheap_size"),
                                      atom("fullsweep_after"), atom("async_dist")};
    bool bad_option = false;
    Term l = opts;
    for (; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (o == atom("link")) link = true;
        else if (o == atom("monitor") || (is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == atom("monitor")))
            monitor = true;
        else if (!is_tuple(o) || tuple_arity(o) != 2 || std::ranges::find(with_value, tuple_element(o, 0)) == std::end(with_value))
            bad_option = true;
    }
    valid = valid && is_nil(l) && SWord(n) == small_value(tuple_element(mfa, 2));
    parent = stable_external(parent);
    leader = stable(leader);
    std::lock_guard guard(c->lock);
    if (!valid || bad_option) {
        Term reason = valid ? atom("badopt") : atoms::badarg;
        if (is_token(token)) {
            Tuple request(atom("spawn_request"), req, parent, leader, mfa, opts);
            Tuple answer(atoms::spawn_reply, req, atoms::error, reason);
            Term reply_token;
            HeapFragment* frag = seq_trace_refused_spawn(m_vm, token, parent, request.term(), answer.term(), &reply_token);
            Tuple reply(make_small(SPAWN_REPLY_TT), req, parent, make_small(0), reason, reply_token);
            post_locked(*c, reply.term(), THE_NON_VALUE);
            free_fragment(frag);
            return;
        }
        Tuple reply(make_small(SPAWN_REPLY), req, parent, make_small(0), reason);
        post_locked(*c, reply.term(), THE_NON_VALUE);
        return;
    }
    Vm::SpawnOptions o;
    o.prepare = [&](Process* child) {
        // The reply goes first: nothing the child sends can overtake it (the connection's lock
        // is held until the child is runnable and the reply queued).
        child->group_leader.store(leader, std::memory_order_relaxed);
        SWord flags = 0;
        if (link) {
            child->links.push_back(parent);
            c->links.emplace_back(child->id, parent);
            flags |= SPAWN_FLAG_LINK;
        }
        if (monitor) {
            MonitorEntry e{};
            fresh_ref_id(m_vm, e.ref_id);
            e.other = parent;
            e.remote_ref = stable_external(req);
            child->monitored_by.push_back(e);
            c->watched.emplace_back(child->id, e);
            flags |= SPAWN_FLAG_MONITOR;
        }
        if (is_token(token)) {
            // The child starts with the request's token; its reply is a traced send
            // (SPAWN_REPLY_TT), as OTP's.
            Tuple request(atom("spawn_request"), req, parent, leader, mfa, opts);
            seq_trace_adopt_spawn(child, token, parent, request.term());
            Tuple answer(atoms::spawn_reply, req, atoms::ok, child->id);
            Term reply_token = seq_trace_send(child, parent, answer.term());
            Tuple reply(make_small(SPAWN_REPLY_TT), req, parent, make_small(flags), child->id, reply_token);
            post_locked(*c, reply.term(), THE_NON_VALUE);
            seq_trace_adopt_arguments(child, token, parent, args);
            return;
        }
        Tuple reply(make_small(SPAWN_REPLY), req, parent, make_small(flags), child->id);
        post_locked(*c, reply.term(), THE_NON_VALUE);
    };
    const Export* entry = m_vm.exports.get(tuple_element(mfa, 0), tuple_element(mfa, 1), n);
    m_vm.spawn(nullptr, entry, NIL, args, o);
}

void Distribution::spawn_reply(const std::shared_ptr<Connection>& c, Term control) {
    if (tuple_arity(control) < 5 || !is_ref(tuple_element(control, 1))) return;
    Term ref = tuple_element(control, 1), result = tuple_element(control, 4);
    SWord flags = is_small(tuple_element(control, 3)) ? small_value(tuple_element(control, 3)) : 0;
    RefKey key = key_of(ref);
    Connection::SpawnRequest req;
    {
        std::lock_guard guard(c->lock);
        auto it = std::find_if(c->spawns.begin(), c->spawns.end(), [&](auto& s) { return s.ref == key; });
        if (it == c->spawns.end()) return;
        req = *it;
        c->spawns.erase(it);
    }
    std::shared_ptr<Process> parent = m_vm.lookup_process(req.parent);
    bool ok = is_external_pid(result);
    Term child = ok ? stable_external(result) : result;
    {
        std::lock_guard guard(c->lock);
        if (ok && (flags & SPAWN_FLAG_LINK)) {
            bool linked = false;
            if (parent) {
                std::lock_guard parent_guard(parent->lock);
                if (!parent->exiting) {
                    parent->links.push_back(child);
                    linked = true;
                }
            }
            if (linked) {
                c->links.emplace_back(req.parent, child);
                // The parent's link event, as it takes the reply (OTP traces it then).
                if ((parent->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PROCS) && m_vm.services.trace)
                    m_vm.services.trace->process_event(parent.get(), atoms::link, child);
            } else {  // the parent is gone: so is the link
                Tuple exit(make_small(PAYLOAD_EXIT), req.parent, child);
                post_locked(*c, exit.term(), atoms::noproc);
            }
        }
        if (req.monitor) {
            auto it = c->monitors.find(req.ref);
            if (ok && it != c->monitors.end()) {
                it->second.target = child;
                if (parent) {
                    std::lock_guard parent_guard(parent->lock);
                    MonitorEntry held;
                    if (parent->monitors.take(req.ref.data(), &held)) {
                        held.other = child;
                        parent->monitors.add(held);
                    }
                }
            } else {
                if (it != c->monitors.end()) c->monitors.erase(it);
                if (parent) {
                    std::lock_guard parent_guard(parent->lock);
                    parent->monitors.take(req.ref.data());
                }
            }
        }
    }
    if (!parent) return;
    if (ok ? !req.reply_ok : !req.reply_error) return;
    Term ref_words[REF_WORDS];
    Tuple msg(req.reply_tag, ref_term_on(ref_words, req.ref.data()), ok ? atoms::ok : atoms::error, result);
    // SPAWN_REPLY_TT: the reply becomes a message with the sender's token (its receive is
    // traced as the parent takes it), as erts converts the signal.
    Term token = tuple_arity(control) == 6 ? tuple_element(control, 5) : NIL;
    if (is_token(token)) deliver(m_vm, req.parent, msg.term(), nullptr, token, ok ? result : 0);
    else m_vm.send_message(nullptr, req.parent, msg.term());
}

Term Distribution::spawn_request(Process* p, Term node, Term module, Term function, Term args, Term opts,
                                 bool spawn_opt) {
    if (!is_atom(node) || !is_atom(module) || !is_atom(function)) return atoms::badarg;
    Word n = 0;
    Term l = args;
    for (; is_list(l); l = cdr(l)) ++n;
    if (!is_nil(l)) return atoms::badarg;
    bool link = false, monitor = false, reply_ok = true, reply_error = true;
    Term tag = atoms::spawn_reply, monitor_tag = 0;
    // The options the other node acts on; the reply options are this node's.
    std::vector<Term> remote_opts;
    for (l = opts; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (o == atom("link")) {
            link = true;
            remote_opts.push_back(o);
        } else if (o == atom("monitor") || (is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == atom("monitor"))) {
            monitor = true;
            remote_opts.push_back(atom("monitor"));
            // {monitor, [{tag, Tag}]}: the 'DOWN' message's first element.
            if (is_tuple(o))
                for (Term m = tuple_element(o, 1); is_list(m); m = cdr(m))
                    if (is_tuple(car(m)) && tuple_arity(car(m)) == 2 && tuple_element(car(m), 0) == atom("tag"))
                        monitor_tag = tuple_element(car(m), 1);
        } else if (!spawn_opt && is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == atom("reply")) {
            Term r = tuple_element(o, 1);
            if (r == atom("yes")) reply_ok = reply_error = true;
            else if (r == atom("no")) reply_ok = reply_error = false;
            else if (r == atom("error_only")) reply_ok = false, reply_error = true;
            else if (r == atom("success_only")) reply_ok = true, reply_error = false;
            else return atoms::badarg;
        } else if (!spawn_opt && is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == atom("reply_tag")) {
            tag = tuple_element(o, 1);
        } else {
            remote_opts.push_back(o);
        }
    }
    if (!is_nil(l)) return atoms::badarg;
    Word id[3];
    fresh_ref_id(m_vm, id);
    Term req = ref_term_on(p->alloc(REF_WORDS), id);
    std::shared_ptr<Connection> c = find(node, true);
    if (!c) {
        if (reply_error) {
            Term ref_words[REF_WORDS];
            Tuple msg(tag, ref_term_on(ref_words, id), atoms::error, atoms::noconnection);
            m_vm.send_message(nullptr, p->id, msg.term());
        }
    } else {
        // The reply tag is kept for the reply: copied if it is not an immediate.
        Term kept_tag = tag;
        std::shared_ptr<HeapFragment> tag_heap;
        if (!is_immediate(tag)) kept_tag = keep_monitor_tag(tag, &tag_heap);
        {
            std::lock_guard guard(c->lock);
            RefKey key{id[0], id[1], id[2]};
            c->spawns.push_back({p->id, key, kept_tag, tag_heap, reply_ok, reply_error, link, monitor});
            if (monitor) {
                MonitorEntry held{};
                std::copy(id, id + 3, held.ref_id);
                held.other = 0;
                held.node = node;
                if (monitor_tag) held.tag = keep_monitor_tag(monitor_tag, &held.tag_heap);
                {
                    std::lock_guard p_guard(p->lock);
                    p->monitors.add(held);
                }
                held.other = p->id;
                c->monitors[key] = Connection::Monitor{0, held};
            }
            Term list = NIL;
            Term* cells = p->alloc(2 * remote_opts.size());
            for (std::size_t i = remote_opts.size(); i-- > 0;) list = make_cons_on(cells + 2 * i, remote_opts[i], list);
            Tuple mfa(module, function, make_small(SWord(n)));
            Term leader = p->group_leader.load(std::memory_order_relaxed);
            // A parent with a seq_trace token sends it with the request (SPAWN_REQUEST_TT),
            // traced as erts presents it: two sends, {spawn_request, ReqId, Parent,
            // GroupLeader, MFA, Opts}, then the argument list (the child's first message);
            // the request carries the second's token.
            Term token = p->seq_token != NIL ? current_seq_token(p) : NIL;
            if (token != NIL) {
                Tuple request(atom("spawn_request"), req, p->id, leader, mfa.term(), list);
                seq_trace_send(p, node, request.term());
                token = seq_trace_send(p, node, args);
            }
            if (token != NIL) {
                Tuple control(make_small(SPAWN_REQUEST_TT), req, p->id, leader, mfa.term(), list, token);
                post_locked(*c, control.term(), args);
            } else {
                Tuple control(make_small(SPAWN_REQUEST), req, p->id, leader, mfa.term(), list);
                post_locked(*c, control.term(), args);
            }
        }
        write_out(c);
    }
    if (!spawn_opt) return req;
    return tuple_on(p->alloc(3), {req, make_bool(monitor)});
}

// ---- connections going down ----

void Distribution::channel_closed(const std::shared_ptr<DistChannel>& channel, Term reason) {
    auto c = std::static_pointer_cast<Connection>(channel);
    {
        std::lock_guard guard(m_lock);
        auto it = m_connections.find(c->node);
        if (it != m_connections.end() && it->second == c) m_connections.erase(it);
    }
    // The port's exit reason (net_kernel's disconnect is exit(Port, disconnect)); a socket
    // the peer closed ends normally: connection_closed.
    connection_down(c, reason == atoms::normal ? atom("connection_closed") : reason);
}

void Distribution::connection_down(const std::shared_ptr<Connection>& c, Term reason) {
    std::vector<std::pair<Term, Term>> links;
    std::map<RefKey, Connection::Monitor> monitors;
    std::vector<std::pair<Term, MonitorEntry>> watched;
    std::vector<Connection::SpawnRequest> spawns;
    std::vector<Term> node_monitors, waiters;
    bool was_up, visible;
    {
        std::lock_guard guard(c->lock);
        was_up = c->state == Connection::State::Up;
        visible = c->flags & dflag::PUBLISHED;
        links.swap(c->links);
        monitors.swap(c->monitors);
        watched.swap(c->watched);
        spawns.swap(c->spawns);
        node_monitors.swap(c->node_monitors);
        c->out.clear();
        c->out_first = 0;
        c->out_bytes = 0;
        c->port_busy = false;
        waiters.swap(c->waiters);
        c->port.reset();
        c->state = Connection::State::Pending;
    }
    for (Term pid : waiters)
        if (std::shared_ptr<Process> p = m_vm.lookup_process(pid)) m_vm.resume_suspended(p.get());
    for (auto& [local, remote] : links) m_vm.send_exit(remote, local, atoms::noconnection, true);
    for (auto& [key, m] : monitors)
        if (m.target) m_vm.send_down(m.entry, atoms::process, m.target, atoms::noconnection);
    for (auto& [target, e] : watched) {
        if (std::shared_ptr<Process> p = m_vm.lookup_process(target)) {
            std::lock_guard guard(p->lock);
            std::erase_if(p->monitored_by,
                          [&](const MonitorEntry& m) { return std::equal(m.ref_id, m.ref_id + 3, e.ref_id); });
        }
    }
    for (const Connection::SpawnRequest& req : spawns) {
        std::shared_ptr<Process> parent = m_vm.lookup_process(req.parent);
        if (!parent) continue;
        if (req.monitor) {
            std::lock_guard guard(parent->lock);
            parent->monitors.take(req.ref.data());
        }
        if (!req.reply_error) continue;
        Term ref_words[REF_WORDS];
        Tuple msg(req.reply_tag, ref_term_on(ref_words, req.ref.data()), atoms::error, atoms::noconnection);
        m_vm.send_message(nullptr, req.parent, msg.term());
    }
    Tuple nodedown(atom("nodedown"), c->node);
    for (Term pid : node_monitors) m_vm.send_message(nullptr, pid, nodedown.term());
    if (was_up) tell_nodes_monitors(c->node, false, visible, std::int64_t(c->id), reason);
}

}  // namespace beamlet::dist
