// dist/distribution.hpp — Erlang distribution: this node's connections to other nodes (OTP's
// dist entries, erts/emulator/beam/dist.c).
//
// OTP's own net_kernel, erl_epmd, dist_util and inet_tcp_dist do everything up to the
// handshake, in Erlang. Then dist_util calls erlang:setnode/3 with the socket's port: from
// there the port's packets are this layer's. Each packet is one control message and, for a
// message or an exit reason, a payload term after it, with a distribution header (the atom
// cache, fragments) or after the pass-through byte, as the peer agreed (dist/packet.hpp). Incoming control messages become the
// signals local processes get (messages, links, exits, monitors, spawn requests, group
// leaders), seq_trace tokens included; signals local processes send to other nodes' processes
// come here (vm::DistServices) and leave as control messages, in order: one output queue per
// connection, written by whoever finds it not being written.
//
// A signal for a node with no connection makes a pending one and asks net_kernel to set it up
// ({auto_connect, Node, Handle}, OTP's auto-connect); what is sent meanwhile waits in the
// output queue. net_kernel gives up with abort_pending_connection: the queue is dropped and
// links and monitors that waited on it fire noconnection. A connection goes down when its port
// closes (the connection process exits, the peer hangs up, net_kernel disconnects): local
// processes linked to the node's get exit signals with noconnection, monitors fire 'DOWN'
// with noconnection, monitor_node/2 holders get {nodedown, Node}.
//
// A connection may also be controlled by a process rather than a port (erlang:dist_ctrl_*:
// OTP's alternative carriers written in Erlang): the controller takes the packets to write
// and hands over those it read; the connection goes when the controller exits.
//
// Locks: the table's, then a connection's, then processes'; never the other way. A port's
// execution lock is never taken with a connection's held (the port's turn takes the
// connection's lock when a packet arrives).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dist/packet.hpp"
#include "vm/process.hpp"
#include "vm/services.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {
struct MagicHandle;
struct Port;
struct Vm;
}  // namespace beamlet::vm

namespace beamlet::dist {

using vm::Process;
using vm::Term;
using vm::Word;

// The capability flags (OTP's DFLAG_*, kernel/include/dist.hrl) beamlet offers.
namespace dflag {
inline constexpr std::uint64_t PUBLISHED = 0x1;
inline constexpr std::uint64_t EXTENDED_REFERENCES = 0x4;
inline constexpr std::uint64_t DIST_MONITOR = 0x8;
inline constexpr std::uint64_t FUN_TAGS = 0x10;
inline constexpr std::uint64_t DIST_MONITOR_NAME = 0x20;
inline constexpr std::uint64_t NEW_FUN_TAGS = 0x80;
inline constexpr std::uint64_t EXTENDED_PIDS_PORTS = 0x100;
inline constexpr std::uint64_t EXPORT_PTR_TAG = 0x200;
inline constexpr std::uint64_t BIT_BINARIES = 0x400;
inline constexpr std::uint64_t NEW_FLOATS = 0x800;
inline constexpr std::uint64_t UNICODE_IO = 0x1000;
inline constexpr std::uint64_t DIST_HDR_ATOM_CACHE = 0x2000;
inline constexpr std::uint64_t SMALL_ATOM_TAGS = 0x4000;
inline constexpr std::uint64_t UTF8_ATOMS = 0x10000;
inline constexpr std::uint64_t MAP_TAG = 0x20000;
inline constexpr std::uint64_t BIG_CREATION = 0x40000;
inline constexpr std::uint64_t SEND_SENDER = 0x80000;
inline constexpr std::uint64_t BIG_SEQTRACE_LABELS = 0x100000;
inline constexpr std::uint64_t EXIT_PAYLOAD = 0x400000;
inline constexpr std::uint64_t FRAGMENTS = 0x800000;
inline constexpr std::uint64_t HANDSHAKE_23 = 0x1000000;
inline constexpr std::uint64_t UNLINK_ID = 0x2000000;
inline constexpr std::uint64_t MANDATORY_25_DIGEST = 0x4000000;
inline constexpr std::uint64_t SPAWN = std::uint64_t(1) << 32;
inline constexpr std::uint64_t ALIAS = std::uint64_t(8) << 32;

// What OTP 25 requires of every peer.
inline constexpr std::uint64_t MANDATORY = EXTENDED_REFERENCES | FUN_TAGS | EXTENDED_PIDS_PORTS | NEW_FUN_TAGS |
                                           EXPORT_PTR_TAG | BIT_BINARIES | NEW_FLOATS | UTF8_ATOMS | MAP_TAG |
                                           BIG_CREATION | HANDSHAKE_23;
// What beamlet offers: OTP 25's defaults.
inline constexpr std::uint64_t DEFAULT = MANDATORY | DIST_MONITOR | DIST_MONITOR_NAME | UNICODE_IO |
                                         DIST_HDR_ATOM_CACHE | SMALL_ATOM_TAGS | SEND_SENDER |
                                         BIG_SEQTRACE_LABELS | EXIT_PAYLOAD | FRAGMENTS | UNLINK_ID |
                                         MANDATORY_25_DIGEST | SPAWN | ALIAS;
// What a distribution module may turn off.
inline constexpr std::uint64_t REJECTABLE = DIST_HDR_ATOM_CACHE | FRAGMENTS;
// What needs a carrier that keeps packets in order (the atom cache).
inline constexpr std::uint64_t STRICT_ORDER = DIST_HDR_ATOM_CACHE;
}  // namespace dflag

using RefKey = std::array<Word, 3>;

// One connection to another node (OTP's DistEntry with its connection).
struct Connection : vm::DistChannel {
    enum class State : std::uint8_t { Pending, Up };

    Connection(Term node, Word id, vm::Vm& vm) : node(node), id(id), reader(vm) {}

    const Term node;  // its name
    const Word id;    // the connection id its handles carry

    std::mutex lock;  // everything below
    State state = State::Pending;
    std::uint64_t flags = 0;
    std::uint32_t creation = 0;
    std::shared_ptr<vm::Port> port;
    // Turns control messages into packets (those sent while pending wait in it).
    PacketWriter writer;
    // Packets waiting to be written, oldest first; [scheduled]: the port's DistOutput
    // operation is queued and will write them.
    std::vector<vm::RuntimePacket> out;
    std::size_t out_bytes = 0;
    bool scheduled = false;
    // The port's driver still queues a megabyte or more: the connection is busy.
    bool port_busy = false;
    // Senders waiting for the connection to be not busy (OTP's busy_dist_port).
    std::vector<Term> waiters;
    std::uint64_t packets_in = 0, packets_out = 0;

    // Links between a local process and one of the node's (local pid, stable remote pid).
    std::vector<std::pair<Term, Term>> links;
    // Monitors local processes hold on the node's processes, by reference: the target (a
    // stable pid, a name, or 0 for a spawn request's until its reply) and the entry as the
    // 'DOWN' needs it (other: the watcher).
    struct Monitor {
        Term target;
        vm::MonitorEntry entry;
    };
    std::map<RefKey, Monitor> monitors;
    // Monitors the node's processes hold on local ones: the local target and the entry it
    // holds (other: the remote watcher; remote_ref: its reference).
    std::vector<std::pair<Term, vm::MonitorEntry>> watched;
    // Spawn requests sent to the node and not answered yet.
    struct SpawnRequest {
        Term parent;
        RefKey ref;
        Term reply_tag;
        std::shared_ptr<vm::HeapFragment> tag_heap;  // where a boxed reply tag lives
        bool reply_ok, reply_error, link, monitor;
    };
    std::vector<SpawnRequest> spawns;
    // monitor_node/2 holders, once per call.
    std::vector<Term> node_monitors;

    // A process that controls the connection instead of a port (erlang:dist_ctrl_*, OTP's
    // alternative carriers): it takes what is to go out (dist_ctrl_get_data), told by a
    // dist_data message when it asked for one ([notify]); the input handler (the controller
    // unless it named another) gives what came in (dist_ctrl_put_data).
    Term controller = 0;
    Term input_handler = 0;
    std::size_t out_first = 0;  // [out]'s first packet not taken yet (the rest is not moved)
    bool notify = false;
    bool get_size = false;  // dist_ctrl_get_data answers {Size, Data}

    // Reads what arrives (in the port's turn, or the input handler's: one at a time, not
    // under [lock]).
    PacketReader reader;
};

class Distribution final : public vm::DistServices {
public:
    explicit Distribution(vm::Vm& vm);
    ~Distribution() override;

    // ---- vm::DistServices ----
    bool send(Process* sender, Term to, Term node, Term msg, Term token, bool may_wait) override;
    void exit_signal(Term from, Term to, Term reason, bool linked, Term token) override;
    bool link(Process* p, Term to) override;
    void unlink(Process* p, Term to) override;
    bool monitor(Process* p, const vm::MonitorEntry& m) override;
    void demonitor(Term watcher, const vm::MonitorEntry& m) override;
    void monitor_exit(const vm::MonitorEntry& m, Term who, Term reason) override;
    void group_leader(Term from, Term leader, Term pid) override;
    void output(vm::Port& port) override;
    void input(vm::Port& port, std::string_view packet) override;
    void channel_closed(const std::shared_ptr<vm::DistChannel>& channel, Term reason) override;

    // ---- for the BIFs ----
    // erts_internal:new_connection/1: the handle of [node]'s connection, a new pending one if
    // there is none.
    Term new_connection(Process* p, Term node);
    // erts_internal:abort_pending_connection/2: drops the pending connection [handle] names;
    // false if it is not pending (up, or gone).
    bool abort_pending_connection(Term node, Term handle);
    // erlang:setnode/3 (erts_internal:create_dist_channel/3): [controller], a port or a
    // local process, becomes the connection to [node]; its handle, or an error atom (badarg,
    // system_limit).
    Term create_channel(Process* p, Term node, Term controller, std::uint64_t flags, std::uint32_t creation);
    // erlang:dist_get_stat/1: {ok, Read, Written, Pending} or badarg (0).
    Term get_stat(Process* p, Term handle);
    // erlang:dist_ctrl_get_data/1 by the controller [p]: the next packet (a binary, or
    // {Size, Binary} with the get_size option), none, or 0: badarg.
    Term ctrl_get_data(Process* p, Term handle);
    // erlang:dist_ctrl_get_data_notification/1: dist_data to the controller [p] when there is
    // data (at once if there is); false: badarg.
    bool ctrl_get_data_notification(Process* p, Term handle);
    // erlang:dist_ctrl_put_data/2 by the input handler [p]: [packet] came from the node;
    // false: badarg.
    bool ctrl_put_data(Process* p, Term handle, std::string_view packet);
    // erlang:dist_ctrl_input_handler/2 by the controller [p]; false: badarg.
    bool ctrl_input_handler(Process* p, Term handle, Term pid);
    // erlang:dist_ctrl_get_opt/2 ([value] 0) and dist_ctrl_set_opt/3: the option's value
    // (before the change), or 0: badarg.
    Term ctrl_opt(Process* p, Term handle, Term option, Term value);
    // The names of the connected nodes: visible and/or hidden ones.
    std::vector<Term> nodes(bool visible, bool hidden);
    // erlang:system_info(dist_ctrl): {node, its controller (a port or a pid)} for each
    // connected node.
    std::vector<std::pair<Term, Term>> controllers();
    // Whether [node] is connected.
    bool is_up(Term node);
    // The connection id of [node]'s connection, or -1.
    std::int64_t connection_id(Term node);
    // monitor_node/2: [on] adds a node monitor for [p] (an immediate {nodedown, Node} when
    // the node cannot be reached); off removes one. False: badarg.
    bool monitor_node(Process* p, Term node, bool on);
    // spawn_request/5 and spawn_opt/5 on another node (erts_internal:dist_spawn_request/4):
    // the request id (with [spawn_opt]: {ReqId, Monitored}), or the atom badarg.
    Term spawn_request(Process* p, Term node, Term module, Term function, Term args, Term opts, bool spawn_opt);
    // Whether [t] is a connection handle.
    static bool is_handle(Term t);
    // process_flag(monitor_nodes, [on]) ([options] 0) and process_flag({monitor_nodes,
    // Options}, [on]) (a map; net_kernel:monitor_nodes/2 adds list => true for its list
    // form): [p]'s subscriptions with those options, before the change; -1 for bad options.
    std::int64_t monitor_nodes(Process* p, Term options, bool on);
    // This node became [node] (erlang:setnode/2: up) or stopped being it (down): the
    // subscribers hear of it as of any node.
    void this_node_changed(Term node, bool up);

private:
    // A nodes monitor: process_flag(monitor_nodes, true) and its options.
    struct NodesMonitor {
        Term pid;
        bool options = false;    // {nodeup, Node, Info} rather than {nodeup, Node}
        bool list = false;       // Info as a list of pairs rather than a map
        bool connection_id = false, node_type = false, nodedown_reason = false;
        int types = 1;           // bit 0: visible nodes, bit 1: hidden ones
        bool operator==(const NodesMonitor&) const = default;
    };
    // {nodeup | nodedown, [node], ...} to the subscribers that want it.
    void tell_nodes_monitors(Term node, bool up, bool visible, std::int64_t connection_id, Term reason);

    // [node]'s connection; with [connect], a pending one is made and net_kernel asked to set
    // it up. Null when there is none (and this node is not alive or [node] is this one).
    std::shared_ptr<Connection> find(Term node, bool connect);
    std::shared_ptr<Connection> of_port(vm::Port& port);
    void write_out(const std::shared_ptr<Connection>& c);
    // Sends the control tuple [control] with [payload] (THE_NON_VALUE: none) to [c]; with a
    // [waiter] (a sender that may wait), true when it is to wait: the connection is busy.
    bool post(const std::shared_ptr<Connection>& c, Term control, Term payload, Process* waiter = nullptr);
    void post_locked(Connection& c, Term control, Term payload);
    // The connection is gone ([reason]: the nodedown reason nodes monitors get): everything
    // waiting on it fires.
    void connection_down(const std::shared_ptr<Connection>& c, Term reason);
    void dispatch(const std::shared_ptr<Connection>& c, Term control, Term payload, vm::HeapFragment* payload_frag,
                  std::string_view rest);
    void spawn_for(const std::shared_ptr<Connection>& c, Term control, Term args, Term token);
    // A packet from the node: to the reader, then dispatched; false when it is bad (the
    // connection is to go).
    bool receive(const std::shared_ptr<Connection>& c, std::string_view packet);
    // The process-controlled connection [handle] names, if [p] is its [controller] (or its
    // input handler, with [input]).
    std::shared_ptr<Connection> controlled(Process* p, Term handle, bool input = false);
    // The controller of [c] exited: the connection goes.
    void controller_down(const std::shared_ptr<Connection>& c);
    friend void controller_exited(vm::MagicHandle*, Term);
    void spawn_reply(const std::shared_ptr<Connection>& c, Term control);
    Term make_handle(Term* hp, Term** off_heap, const std::shared_ptr<Connection>& c);

    vm::Vm& m_vm;
    std::mutex m_lock;
    std::unordered_map<Term, std::shared_ptr<Connection>> m_connections;
    std::atomic<Word> m_next_id{1};
    std::mutex m_monitors_lock;
    std::vector<NodesMonitor> m_nodes_monitors;
};

// The Vm's distribution (its services' dist member), or null.
Distribution* of(vm::Vm& vm);

}  // namespace beamlet::dist
