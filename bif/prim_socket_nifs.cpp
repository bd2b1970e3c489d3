// bif/prim_socket_nifs.cpp — the NIFs of OTP's preloaded prim_socket module (OTP 25's
// erts/emulator/nifs/common/prim_socket_nif.c, its select-based I/O back end), under OTP's own
// prim_socket.erl, socket.erl, socket_registry.erl and gen_tcp_socket.erl, unmodified.
//
// A socket is a magic reference to an ESock: a non-blocking descriptor, the process that
// controls it (which it monitors: the socket closes when that process exits, as OTP's
// esock_down does) and, for each direction, the processes waiting for it. A call that would
// block answers `select` and queues its caller with the select handle it gave; when the I/O
// thread sees the descriptor ready (IoPoller's Selectable, edge-triggered) the first waiter not
// yet told gets {'$socket', Socket, select, Handle} and calls again. Closing aborts every
// waiter with {'$socket', Socket, abort, {Handle, closed}}. Each system call and each change to
// the queues happens under the socket's mutex, as does the I/O thread's report: an edge that
// comes after a call found nothing finds that call's waiter.
//
// OTP runs finalize_close on a dirty scheduler (a lingering close blocks); beamlet closes the
// descriptor on the calling scheduler.
#include <netdb.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bif/bifs.hpp"
#include "bif/process_bifs.hpp"
#include "io/io_layer.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/copy.hpp"
#include "vm/magic.hpp"
#include "vm/map.hpp"
#include "vm/port.hpp"  // IoEvent
#include "vm/stack_trace.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// ---- the constants prim_socket.erl and socket.erl share with the NIF ----

// OTP-level options (prim_socket.erl's ESOCK_OPT_OTP_*).
enum OtpOption : int {
    OTP_DEBUG = 1001,
    OTP_IOW = 1002,
    OTP_CTRL_PROC = 1003,
    OTP_RCVBUF = 1004,
    OTP_RCVCTRLBUF = 1006,
    OTP_SNDCTRLBUF = 1007,
    OTP_FD = 1008,
    OTP_META = 1009,
    OTP_USE_REGISTRY = 1010,
    OTP_DOMAIN = 1999,
};

// What recv and recvfrom read when asked for "whatever is there" (OTP's
// ESOCK_RECV_BUFFER_SIZE_DEFAULT), and the control buffers' defaults.
constexpr std::size_t RECV_BUFFER_DEFAULT = 8192;
constexpr std::size_t CTRL_BUFFER_DEFAULT = 1024;

Term am(const char* name) { return atom(name); }

Term error_tuple(Process* p, Term reason) { return make_tuple_on(p, {atoms::error, reason}); }
Term posix_error(Process* p, int err) { return error_tuple(p, posix_atom(err)); }
Term invalid(Process* p, Term what) { return make_tuple_on(p, {am("invalid"), what}); }

const char* domain_name(int domain) {
    switch (domain) {
    case AF_INET: return "inet";
    case AF_INET6: return "inet6";
    case AF_UNIX: return "local";
    case AF_UNSPEC: return "unspec";
    default: return nullptr;
    }
}

const char* type_name(int type) {
    switch (type) {
    case SOCK_STREAM: return "stream";
    case SOCK_DGRAM: return "dgram";
    case SOCK_SEQPACKET: return "seqpacket";
    case SOCK_RAW: return "raw";
    case SOCK_RDM: return "rdm";
    default: return nullptr;
    }
}

Term domain_term(Process* p, int domain) {
    const char* name = domain_name(domain);
    return name ? am(name) : make_small(domain);
    (void)p;
}

Term type_term(int type) {
    const char* name = type_name(type);
    return name ? am(name) : make_small(type);
}

std::optional<int> domain_arg(Term t) {
    if (is_small(t)) return int(small_value(t));
    if (t == am("inet")) return AF_INET;
    if (t == am("inet6")) return AF_INET6;
    if (t == am("local")) return AF_UNIX;
    if (t == am("unspec")) return AF_UNSPEC;
    return std::nullopt;
}

std::optional<int> type_arg(Term t) {
    if (is_small(t)) return int(small_value(t));
    if (t == am("stream")) return SOCK_STREAM;
    if (t == am("dgram")) return SOCK_DGRAM;
    if (t == am("seqpacket")) return SOCK_SEQPACKET;
    if (t == am("raw")) return SOCK_RAW;
    if (t == am("rdm")) return SOCK_RDM;
    return std::nullopt;
}

bool is_boolean(Term t) { return t == atoms::true_ || t == atoms::false_; }

bool int_arg(Term t, int* out) {
    if (!is_small(t) || small_value(t) < INT_MIN || small_value(t) > INT_MAX) return false;
    *out = int(small_value(t));
    return true;
}

// ---- socket addresses: prim_socket's maps (socket_util.c's esock_encode/decode_sockaddr) ----

union SockAddr {
    sockaddr sa;
    sockaddr_in in4;
    sockaddr_in6 in6;
    sockaddr_un un;
    sockaddr_storage storage;
};

Term map_get(Term map, const char* key) {
    const Term* v = map_lookup(map, am(key));
    return v ? *v : THE_NON_VALUE;
}

bool ip4_arg(Term t, in_addr* out) {
    if (t == am("any")) {
        out->s_addr = htonl(INADDR_ANY);
        return true;
    }
    if (t == am("loopback")) {
        out->s_addr = htonl(INADDR_LOOPBACK);
        return true;
    }
    if (t == am("broadcast")) {
        out->s_addr = htonl(INADDR_BROADCAST);
        return true;
    }
    if (!is_tuple(t) || tuple_arity(t) != 4) return false;
    std::uint32_t a = 0;
    for (Word i = 0; i < 4; ++i) {
        Term b = tuple_element(t, i);
        if (!is_small(b) || small_value(b) < 0 || small_value(b) > 255) return false;
        a = (a << 8) | std::uint32_t(small_value(b));
    }
    out->s_addr = htonl(a);
    return true;
}

bool ip6_arg(Term t, in6_addr* out) {
    if (t == am("any")) {
        *out = in6addr_any;
        return true;
    }
    if (t == am("loopback")) {
        *out = in6addr_loopback;
        return true;
    }
    if (!is_tuple(t) || tuple_arity(t) != 8) return false;
    for (Word i = 0; i < 8; ++i) {
        Term w = tuple_element(t, i);
        if (!is_small(w) || small_value(w) < 0 || small_value(w) > 0xFFFF) return false;
        out->s6_addr[2 * i] = std::uint8_t(small_value(w) >> 8);
        out->s6_addr[2 * i + 1] = std::uint8_t(small_value(w));
    }
    return true;
}

// A port: a C int, cut to 16 bits as OTP's htons of it cuts it (70000 is 4464).
bool port_term(Term t, std::uint16_t* out) {
    int v;
    if (!int_arg(t, &v)) return false;
    *out = std::uint16_t(v);
    return true;
}

bool u32_term(Term t, std::uint32_t* out) {
    std::optional<std::int64_t> v = is_integer(t) ? integer_to_int64(t) : std::nullopt;
    if (!v || *v < 0 || *v > 0xFFFFFFFFll) return false;
    *out = std::uint32_t(*v);
    return true;
}

// A sockaddr map as prim_socket:enc_sockaddr/1 completed it; false if it is not one.
bool sockaddr_arg(Term t, SockAddr* out, socklen_t* len) {
    if (!is_map(t)) return false;
    std::memset(out, 0, sizeof *out);
    Term family = map_get(t, "family");
    if (family == am("inet")) {
        std::uint16_t port;
        if (!port_term(map_get(t, "port"), &port) || !ip4_arg(map_get(t, "addr"), &out->in4.sin_addr)) return false;
        out->in4.sin_family = AF_INET;
        out->in4.sin_port = htons(port);
        *len = sizeof out->in4;
        return true;
    }
    if (family == am("inet6")) {
        std::uint16_t port;
        std::uint32_t flowinfo, scope_id;
        if (!port_term(map_get(t, "port"), &port) || !ip6_arg(map_get(t, "addr"), &out->in6.sin6_addr) ||
            !u32_term(map_get(t, "flowinfo"), &flowinfo) || !u32_term(map_get(t, "scope_id"), &scope_id))
            return false;
        out->in6.sin6_family = AF_INET6;
        out->in6.sin6_port = htons(port);
        out->in6.sin6_flowinfo = htonl(flowinfo);
        out->in6.sin6_scope_id = scope_id;
        *len = sizeof out->in6;
        return true;
    }
    if (family == am("unspec") || is_small(family)) {
        // No address (a datagram socket's connect to it disconnects), or a family's raw bytes.
        Term addr = map_get(t, "addr");
        if (!is_binary(addr) || !bit_view(addr).is_aligned()) return false;
        BitView v = bit_view(addr);
        if (v.size_bytes() > sizeof out->storage - sizeof(sa_family_t)) return false;
        out->sa.sa_family = is_small(family) ? sa_family_t(small_value(family)) : AF_UNSPEC;
        std::memcpy(out->storage.__ss_padding, v.aligned_bytes(), v.size_bytes());
        *len = socklen_t(sizeof(sa_family_t) + v.size_bytes());
        return true;
    }
    if (family == am("local")) {
        Term path = map_get(t, "path");
        if (!is_binary(path)) return false;
        BitView v = bit_view(path);
        if (!v.is_aligned() || v.size_bytes() >= sizeof out->un.sun_path) return false;
        out->un.sun_family = AF_UNIX;
        std::memcpy(out->un.sun_path, v.aligned_bytes(), v.size_bytes());
        // An abstract address (a leading NUL) is exactly as long as given.
        *len = socklen_t(offsetof(sockaddr_un, sun_path) + v.size_bytes() + (v.size_bytes() && v.aligned_bytes()[0] ? 1 : 0));
        return true;
    }
    return false;
}

Term ip4_term(Process* p, const in_addr& a) {
    std::uint32_t v = ntohl(a.s_addr);
    return make_tuple_on(p, {make_small(v >> 24), make_small((v >> 16) & 0xFF), make_small((v >> 8) & 0xFF),
                             make_small(v & 0xFF)});
}

Term ip6_term(Process* p, const in6_addr& a) {
    Term* hp = p->alloc(9);
    hp[0] = make_arityval(8);
    for (int i = 0; i < 8; ++i) hp[1 + i] = make_small((a.s6_addr[2 * i] << 8) | a.s6_addr[2 * i + 1]);
    return make_boxed(hp);
}

// The map of an address the kernel gave (esock_encode_sockaddr).
Term sockaddr_term(Process* p, const SockAddr& a, socklen_t len) {
    switch (a.sa.sa_family) {
    case AF_INET:
        return map_from_pairs(p, {{am("family"), am("inet")},
                                  {am("port"), make_small(ntohs(a.in4.sin_port))},
                                  {am("addr"), ip4_term(p, a.in4.sin_addr)}});
    case AF_INET6:
        return map_from_pairs(p, {{am("family"), am("inet6")},
                                  {am("port"), make_small(ntohs(a.in6.sin6_port))},
                                  {am("addr"), ip6_term(p, a.in6.sin6_addr)},
                                  {am("flowinfo"), make_integer(p, ntohl(a.in6.sin6_flowinfo))},
                                  {am("scope_id"), make_integer(p, a.in6.sin6_scope_id)}});
    case AF_UNIX: {
        std::size_t n = len > offsetof(sockaddr_un, sun_path) ? len - offsetof(sockaddr_un, sun_path) : 0;
        n = std::min(n, sizeof a.un.sun_path);
        // A path name ends at its NUL; an abstract one (leading NUL) is all of it.
        if (n && a.un.sun_path[0]) n = strnlen(a.un.sun_path, n);
        return map_from_pairs(p, {{am("family"), am("local")},
                                  {am("path"), make_binary(p, std::string_view(a.un.sun_path, n))}});
    }
    case AF_UNSPEC:
        return map_from_pairs(p, {{am("family"), am("unspec")}, {am("addr"), make_binary(p, std::string_view())}});
    default: {
        std::size_t n = len > sizeof(sa_family_t) ? len - sizeof(sa_family_t) : 0;
        return map_from_pairs(p, {{am("family"), make_small(a.sa.sa_family)},
                                  {am("addr"), make_binary(p, std::string_view(a.sa.sa_data, n))}});
    }
    }
}

// ---- sockets ----

// The open sockets, by domain, protocol and type (socket:info/0's counters).
struct GlobalCounts {
    std::atomic<std::int64_t> sockets{0}, dinet{0}, dinet6{0}, dlocal{0};
    std::atomic<std::int64_t> pip{0}, psctp{0}, ptcp{0}, pudp{0};
    std::atomic<std::int64_t> tdgrams{0}, tseqpkgs{0}, tstreams{0};

    void count(int domain, int type, int protocol, int delta) {
        sockets += delta;
        if (domain == AF_INET) dinet += delta;
        if (domain == AF_INET6) dinet6 += delta;
        if (domain == AF_UNIX) dlocal += delta;
        if (protocol == IPPROTO_IP) pip += delta;
        if (protocol == IPPROTO_SCTP) psctp += delta;
        if (protocol == IPPROTO_TCP) ptcp += delta;
        if (protocol == IPPROTO_UDP) pudp += delta;
        if (type == SOCK_DGRAM) tdgrams += delta;
        if (type == SOCK_SEQPACKET) tseqpkgs += delta;
        if (type == SOCK_STREAM) tstreams += delta;
    }
};
GlobalCounts g_counts;

// A process waiting for a direction of a socket, with the select handle it gave (a copy in its
// own fragment: it names the select message and identifies the waiter).
struct Waiter {
    Term pid = 0;
    HeapFragment* handle_fragment = nullptr;  // both handles
    Term handle = 0;    // what its select message carries: the handle of its latest call
    Term identity = 0;  // what cancel and abort name it by: the handle it first waited with
    bool told = false;  // sent its select message, not called again yet
};

struct ESock final : io::Selectable, std::enable_shared_from_this<ESock> {
    explicit ESock(Vm& vm) : vm(vm) {}
    ~ESock() override;

    void io_ready(std::uint32_t events) override;

    Vm& vm;
    std::mutex mutex;
    int fd = -1;
    int domain = 0, type = 0, protocol = 0;
    Term owner = 0;
    Term closer = 0;         // who closed it (finalize_close is theirs)
    bool owns_fd = true;     // false: opened on a descriptor not dup'ed (not closed here)
    int from_fd = -1;        // opened on a descriptor: that one (dup'ed), or -2 (not dup'ed)
    bool open = true;        // until close
    bool finalized = false;  // the descriptor is closed
    bool listening = false, connecting = false;
    // What socket:info/1 reports in rstates and wstates besides: bound, connected by
    // connect, and ever waited for (selected) in each direction.
    bool bound = false, connect_done = false, read_selected = false, write_selected = false;
    bool read_shut = false, write_shut = false;
    bool use_registry = true, debug = false, iow = false;
    Word poll_key = 0;  // watched by the I/O thread from its first wait on (0: not yet)
    std::size_t rcvbuf = RECV_BUFFER_DEFAULT;
    // otp rcvbuf {N, Size}: a read that fills the buffer answers {more, Bin} N - 1 times in a row.
    std::size_t rcv_num = 0, full_reads = 0;
    std::size_t rcvctrlbuf = CTRL_BUFFER_DEFAULT, sndctrlbuf = CTRL_BUFFER_DEFAULT;
    // {'$socket', SockRef}, the socket as messages name it: a template that holds no
    // reference to the socket (a copy of it does), so that nothing the socket keeps keeps it.
    HeapFragment* socket_fragment = nullptr;
    Term socket_term = 0;
    // The otp-level meta value as set (0: never set).
    HeapFragment* meta_fragment = nullptr;
    Term meta = 0;
    std::deque<Waiter> readers;  // recv, recvfrom, recvmsg, accept
    std::deque<Waiter> writers;     // send, sendto, sendmsg
    std::deque<Waiter> connectors;  // the one connect under way
    // Counters (socket:info/1).
    std::uint64_t read_byte = 0, read_pkg = 0, read_tries = 0, read_waits = 0, read_fails = 0;
    std::uint64_t write_byte = 0, write_pkg = 0, write_tries = 0, write_waits = 0, write_fails = 0;
    std::uint64_t acc_success = 0, acc_tries = 0, acc_waits = 0, acc_fails = 0;
    std::uint64_t read_pkg_max = 0, write_pkg_max = 0;
};

// The ESock behind a magic ref's handle (a shared_ptr, so that the poller can hold a weak one).
std::shared_ptr<ESock>& esock_ptr(MagicHandle* h) { return *static_cast<std::shared_ptr<ESock>*>(h->data); }

void destroy_socket(MagicHandle* h) { delete static_cast<std::shared_ptr<ESock>*>(h->data); }

ESock* socket_of(Term t) {
    if (!is_magic_ref(t)) return nullptr;
    MagicHandle* h = magic_handle(t);
    return h->destructor == destroy_socket ? esock_ptr(h).get() : nullptr;
}

void free_waiters(std::deque<Waiter>& q) {
    for (Waiter& w : q) free_fragment(w.handle_fragment);
    q.clear();
}

ESock::~ESock() {
    // Every reference is gone, the controller's monitor too: only a socket never closed (its
    // controller still runs but dropped it) gets here with a descriptor.
    if (poll_key) io::layer(vm).poller().forget_selectable(fd, poll_key);
    if (fd >= 0) ::close(fd);
    free_waiters(readers);
    free_waiters(writers);
    free_waiters(connectors);
    free_fragment(socket_fragment);
    free_fragment(meta_fragment);
}

// Keeps a copy of [value] in *fragment (replacing what was there).
void keep_term(HeapFragment** fragment, Term* kept, Term value) {
    free_fragment(*fragment);
    *fragment = copy_to_fragment(value, kept);
}

// A copy of [t] on [p]'s heap.
Term copy_term_to(Process* p, Term t) {
    Word size = term_size_words(t);
    if (!size) return t;
    Term* hp = p->alloc(size);
    return copy_term(t, &hp, &p->off_heap_first);
}

// Sends [to] {'$socket', Socket, [tag], [info]}, as the runtime sends (from no process).
void send_socket_message(const ESock& s, Term to, Term tag, Term info) {
    Term words[5] = {make_arityval(4), am("$socket"), s.socket_term, tag, info};
    Message m;
    m.fragment = copy_to_fragment(make_boxed(words), &m.term);
    m.from = 0;
    if (std::shared_ptr<Process> p = s.vm.lookup_process(to)) s.vm.send_signal(p.get(), m);
    else free_fragment(m.fragment);
}

// The current requestor (the front of [q]) hears that the direction is ready, unless it has
// already: the others wait for their turn.
void tell_first(const ESock& s, std::deque<Waiter>& q) {
    if (q.empty() || q.front().told) return;
    q.front().told = true;
    send_socket_message(s, q.front().pid, am("select"), q.front().handle);
}

// The current requestor of [q] is done: the next one becomes current and hears of readiness
// that is there already (an edge the I/O thread reported may have been the last: OTP's
// select is armed for it, and fires at once if the descriptor is ready).
void tell_next(const ESock& s, std::deque<Waiter>& q, short ready) {
    if (q.empty() || q.front().told) return;
    pollfd pfd{s.fd, ready, 0};
    if (::poll(&pfd, 1, 0) > 0) tell_first(s, q);
}

void ESock::io_ready(std::uint32_t events) {
    std::lock_guard guard(mutex);
    if (!open) return;
    if (events & IO_READ) tell_first(*this, readers);
    if (events & IO_WRITE) {
        tell_first(*this, connectors);
        tell_first(*this, writers);
    }
}

Term invalid_state(Process* p) { return p->error(make_tuple_on(p, {am("invalid"), am("state")})); }

// Queues the caller [p] at [where] (where it was, when it calls again) with select handle
// [handle] (`zero`: it does not wait).
// [p] waits in [q] with select handle [handle]: at the end of the queue, or, when it is the
// current requestor calling again ([where] 0), still first, with the new handle (an acceptor
// keeps the identity it first waited with, [keep_identity], as OTP's current acceptor does).
// The descriptor is watched from the first wait on.
void enqueue(Process* p, ESock& s, std::deque<Waiter>& q, Term handle, long where, bool keep_identity = false) {
    (&q == &s.readers ? s.read_selected : s.write_selected) = true;
    if (!s.poll_key) s.poll_key = io::layer(s.vm).poller().watch_selectable(s.fd, s.weak_from_this());
    const bool again = where == 0 && !q.empty() && q.front().pid == p->id;
    Term pair_words[3] = {make_arityval(2), handle, again && keep_identity ? q.front().identity : handle};
    Term pair;
    Waiter w;
    w.pid = p->id;
    w.handle_fragment = copy_to_fragment(make_boxed(pair_words), &pair);
    w.handle = tuple_element(pair, 0);
    w.identity = tuple_element(pair, 1);
    if (!again) {
        q.push_back(w);
        return;
    }
    free_fragment(q.front().handle_fragment);
    q.front() = w;
}

// The current requestor ([where] 0) is done waiting: it leaves the queue.
void leave(std::deque<Waiter>& q, long where) {
    if (where != 0 || q.empty()) return;
    free_fragment(q.front().handle_fragment);
    q.pop_front();
}

// OTP's requestors: the front of [q] is the current one. A process calling while another is
// current joins the queue without trying (select), unless it is queued already ({invalid,
// state} raised) or does not wait (`zero`: it tries). Returns that answer, or nothing: the
// caller tries (*where 0: as the current requestor, whose entry stays first until it is done,
// leave, or waits again, enqueue).
std::optional<Term> admit(Process* p, ESock& s, std::deque<Waiter>& q, Term handle, long* where) {
    *where = -1;
    if (!q.empty() && q.front().pid == p->id) {
        *where = 0;
        return std::nullopt;
    }
    if (std::any_of(q.begin(), q.end(), [&](const Waiter& w) { return w.pid == p->id; })) return invalid_state(p);
    if (!q.empty() && handle != am("zero")) {
        enqueue(p, s, q, handle, -1);
        return am("select");
    }
    return std::nullopt;
}

// admit for a read: refused ({error, {invalid, state}}) while the socket has acceptors.
std::optional<Term> admit_reader(Process* p, ESock& s, Term handle, long* where) {
    if (s.listening && !s.readers.empty()) return error_tuple(p, invalid(p, am("state")));
    return admit(p, s, s.readers, handle, where);
}

// A message to socket_registry (OTP's esock_send_reg_add_msg / del): {'$socket', add | del,
// Socket}.
void tell_registry(Vm& vm, const ESock& s, const char* what) {
    if (!s.use_registry || !s.socket_term) return;
    Term words[4] = {make_arityval(3), am("$socket"), am(what), s.socket_term};
    vm.send_message(nullptr, am("socket_registry"), make_boxed(words));
}

// Every waiter of [q] not told yet gets {'$socket', Socket, abort, {Handle, [reason]}} (one
// told already has its select message); the queue empties.
void abort_all(ESock& s, std::deque<Waiter>& q, Term reason) {
    for (Waiter& w : q) {
        if (w.told) continue;
        Term info_words[3] = {make_arityval(2), w.identity, reason};
        send_socket_message(s, w.pid, am("abort"), make_boxed(info_words));
    }
    free_waiters(q);
}

// Ends the socket (close, or its controller's exit): every waiter is aborted with reason
// closed and the poller stops watching. The descriptor closes in finalize_locked (the
// registry hears of it then). Under the socket's mutex.
void close_locked(ESock& s) {
    s.open = false;
    g_counts.count(s.domain, s.type, s.protocol, -1);
    for (std::deque<Waiter>* q : {&s.readers, &s.writers, &s.connectors}) abort_all(s, *q, am("closed"));
    if (s.poll_key) io::layer(s.vm).poller().forget_selectable(s.fd, s.poll_key);
    s.poll_key = 0;
}

// The descriptor closes (blocking, so that a linger applies); 0 or errno.
int finalize_locked(ESock& s) {
    if (s.finalized) return 0;
    s.finalized = true;
    int err = 0;
    if (s.fd >= 0) {
        int flags = ::fcntl(s.fd, F_GETFL);
        if (flags >= 0) ::fcntl(s.fd, F_SETFL, flags & ~O_NONBLOCK);
        if (s.owns_fd && ::close(s.fd) < 0 && errno != EINTR) err = errno;
    }
    s.fd = -1;
    tell_registry(s.vm, s, "del");
    return err;
}

// The controller exited (its monitor's down callback, on its thread): the socket closes.
void controller_down(MagicHandle* h, Term pid) {
    ESock& s = *esock_ptr(h);
    std::lock_guard guard(s.mutex);
    if (!s.open || s.owner != pid) return;
    s.owner = 0;
    close_locked(s);
    finalize_locked(s);
}

// Moves the controller's monitor from [from] to [to] (null: no new controller).
void monitor_controller(Process* p, MagicHandle* h, Term from, Process* to) {
    if (from) remove_resource_monitor(p, from, h);
    if (to) add_resource_monitor(to, h);
}

// {ok, SockRef} for a new socket on descriptor [fd] (non-blocking), controlled by [p].
Term new_socket(Process* p, int fd, int domain, int type, int protocol, bool use_registry, bool debug) {
    auto holder = new std::shared_ptr<ESock>(std::make_shared<ESock>(p->vm));
    ESock& s = **holder;
    s.fd = fd;
    s.domain = domain;
    s.type = type;
    s.protocol = protocol;
    s.owner = p->id;
    s.use_registry = use_registry;
    s.debug = debug;
    g_counts.count(domain, type, protocol, 1);
    auto* h = new MagicHandle();
    h->destructor = destroy_socket;
    h->down = controller_down;
    h->data = holder;
    Word id[3];
    new_ref_id(p, id);
    Term ref = make_magic_ref(p, id, h);
    monitor_controller(p, h, 0, p);
    std::lock_guard guard(s.mutex);
    s.socket_fragment = HeapFragment::create(3 + MAGIC_REF_WORDS);
    Term* words = s.socket_fragment->alloc(3 + MAGIC_REF_WORDS);
    std::memcpy(words + 3, boxed_ptr(ref), MAGIC_REF_WORDS * sizeof(Term));
    words[3 + 4] = 0;  // on no off-heap list: the template holds no reference
    words[0] = make_arityval(2);
    words[1] = am("$socket");
    words[2] = make_boxed(words + 3);
    s.socket_term = make_boxed(words);
    tell_registry(p->vm, s, "add");
    return make_tuple_on(p, {atoms::ok, ref});
}

// Runs [op] on the open socket [ref] under its mutex: badarg if [ref] is not a socket,
// {error, closed} once it is closed.
template <class Op>
Term with_socket(Process* p, Term ref, Op op) {
    ESock* s = socket_of(ref);
    if (!s) return p->badarg();
    std::lock_guard guard(s->mutex);
    if (!s->open) return error_tuple(p, am("closed"));
    return op(*s);
}

bool is_would_block(int err) { return err == EAGAIN || err == EWOULDBLOCK; }

}  // namespace

// ---- open, bind, connect, listen, accept ----

// prim_socket:nif_open(Domain, Type, Protocol, Opts).
Term bif_prim_socket_nif_open4(Process* p, Term* a) {
    std::optional<int> domain = domain_arg(a[0]);
    std::optional<int> type = type_arg(a[1]);
    int protocol;
    if (!is_map(a[3]) || !int_arg(a[2], &protocol)) return p->badarg();
    if (!domain) return invalid(p, am("domain"));
    if (!type) return invalid(p, am("type"));
    Term use_registry = map_get(a[3], "use_registry"), debug = map_get(a[3], "debug");
    if (map_get(a[3], "netns") != THE_NON_VALUE) return posix_error(p, ENOTSUP);
    int fd = ::socket(*domain, *type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol);
    if (fd < 0) return posix_error(p, errno);
    if (protocol == 0) {
        socklen_t len = sizeof protocol;
        if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &protocol, &len) < 0) protocol = 0;
    }
    return new_socket(p, fd, *domain, *type, protocol, use_registry != atoms::false_, debug == atoms::true_);
}

// prim_socket:nif_open(FD, Opts): a socket on an existing descriptor (dup'ed with dup => true,
// the default).
Term bif_prim_socket_nif_open2(Process* p, Term* a) {
    int fd;
    if (!int_arg(a[0], &fd) || !is_map(a[1])) return p->badarg();
    const int from_fd = fd;
    const bool dup = map_get(a[1], "dup") != atoms::false_;
    if (dup && (fd = ::fcntl(from_fd, F_DUPFD_CLOEXEC, 0)) < 0) return invalid(p, am("domain"));
    int domain = 0, type = 0, protocol = 0;
    socklen_t len = sizeof domain;
    if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0 ||
        getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &(len = sizeof type)) < 0) {
        if (dup) ::close(fd);
        return invalid(p, am("domain"));
    }
    getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &protocol, &(len = sizeof protocol));
    int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    Term result = new_socket(p, fd, domain, type, protocol, map_get(a[1], "use_registry") != atoms::false_,
                             map_get(a[1], "debug") == atoms::true_);
    ESock& s = *socket_of(tuple_element(result, 1));
    std::lock_guard guard(s.mutex);
    s.owns_fd = dup;
    s.from_fd = dup ? from_fd : -2;
    SockAddr peer;
    socklen_t plen = sizeof peer;
    if (::getpeername(fd, &peer.sa, &plen) == 0) s.connect_done = true;
    return result;
}

Term bif_prim_socket_nif_bind2(Process* p, Term* a) {
    SockAddr addr;
    socklen_t len;
    if (!sockaddr_arg(a[1], &addr, &len)) {
        if (!socket_of(a[0])) return p->badarg();
        return invalid(p, am("sockaddr"));
    }
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (::bind(s.fd, &addr.sa, len) < 0) return posix_error(p, errno);
        s.bound = true;
        return atoms::ok;
    });
}

Term bif_prim_socket_nif_bind3(Process* p, Term* a) {
    return with_socket(p, a[0], [&](ESock&) -> Term { return posix_error(p, ENOTSUP); });
}

namespace {
// The end of a connect that answered select, for its connector (connect/1, or connect/3
// again, as gen_tcp_socket does): ok or {error, Reason} from SO_ERROR.
Term finish_connect(Process* p, ESock& s) {
    free_waiters(s.connectors);
    s.connecting = false;
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
    if (err) return posix_error(p, err);
    s.connect_done = true;
    tell_next(s, s.writers, POLLOUT);
    return atoms::ok;
}
}  // namespace

// prim_socket:nif_connect(SockRef, ConnectRef, SockAddr): ok, select (the caller gets the
// select message when it is done, and calls connect again), or {error, Reason}.
Term bif_prim_socket_nif_connect3(Process* p, Term* a) {
    if (!is_ref(a[1])) return p->badarg();
    SockAddr addr;
    socklen_t len;
    bool valid = sockaddr_arg(a[2], &addr, &len);
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (!valid) return invalid(p, am("sockaddr"));
        if (s.connecting) {
            if (s.connectors.empty() || s.connectors.front().pid != p->id) return error_tuple(p, am("already"));
            return finish_connect(p, s);
        }
        if (!s.writers.empty()) return error_tuple(p, invalid(p, am("state")));
        int r;
        do r = ::connect(s.fd, &addr.sa, len);
        while (r < 0 && errno == EINTR);
        if (r == 0) {
            s.connect_done = true;
            return atoms::ok;
        }
        if (errno != EINPROGRESS) return posix_error(p, errno);
        s.connecting = true;
        enqueue(p, s, s.connectors, a[1], 0);
        return am("select");
    });
}

// prim_socket:nif_connect(SockRef): the end of a connect that answered select.
Term bif_prim_socket_nif_connect1(Process* p, Term* a) {
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (!s.connecting || s.connectors.empty() || s.connectors.front().pid != p->id) return invalid_state(p);
        return finish_connect(p, s);
    });
}

Term bif_prim_socket_nif_listen2(Process* p, Term* a) {
    int backlog;
    if (!int_arg(a[1], &backlog)) return p->badarg();
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (::listen(s.fd, backlog) < 0) return posix_error(p, errno);
        s.listening = true;
        return atoms::ok;
    });
}

// prim_socket:nif_accept(LSockRef, AccRef): {ok, SockRef} (controlled by the caller), select,
// or {error, Reason}.
Term bif_prim_socket_nif_accept2(Process* p, Term* a) {
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (!s.readers.empty() && !s.listening) return error_tuple(p, invalid(p, am("state")));
        long where;
        if (std::optional<Term> answer = admit(p, s, s.readers, a[1], &where)) return *answer;
        ++s.acc_tries;
        int fd;
        do fd = ::accept4(s.fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        while (fd < 0 && errno == EINTR);
        if (fd < 0) {
            int err = errno;
            if (!is_would_block(err)) {
                ++s.acc_fails;
                leave(s.readers, where);
                Term reason = posix_atom(err == EOPNOTSUPP ? ENOTSUP : err);
                abort_all(s, s.readers, reason);
                return error_tuple(p, reason);
            }
            ++s.acc_waits;
            enqueue(p, s, s.readers, a[1], where, true);
            return am("select");
        }
        ++s.acc_success;
        // OTP 25 marks the listening socket connected (socket:info/1 shows it there).
        s.connect_done = true;
        leave(s.readers, where);
        tell_next(s, s.readers, POLLIN);
        Term result = new_socket(p, fd, s.domain, s.type, s.protocol, s.use_registry, s.debug);
        ESock& n = *socket_of(tuple_element(result, 1));
        std::lock_guard guard(n.mutex);
        n.rcvbuf = s.rcvbuf;
        n.rcv_num = s.rcv_num;
        n.rcvctrlbuf = s.rcvctrlbuf;
        n.sndctrlbuf = s.sndctrlbuf;
        n.iow = s.iow;
        return result;
    });
}

// ---- send ----

namespace {

// What a write of [size] bytes that wrote [n] (errno [err]) came to, in prim_socket's terms:
// ok; for a stream, {select, Written} when part went (the rest waits for the select message);
// for datagrams {ok, Written}; select when nothing could go; {error, Reason}, when the queued
// writers are aborted with Reason (but for einval).
Term write_result(Process* p, ESock& s, ssize_t n, int err, std::size_t size, Term handle, long where) {
    ++s.write_tries;
    if (n < 0) {
        if (is_would_block(err)) {
            ++s.write_waits;
            enqueue(p, s, s.writers, handle, where);
            return am("select");
        }
        ++s.write_fails;
        leave(s.writers, where);
        Term reason = posix_atom(err == EOPNOTSUPP ? ENOTSUP : err);
        if (err != EINVAL) abort_all(s, s.writers, reason);
        return error_tuple(p, reason);
    }
    s.write_byte += std::uint64_t(n);
    if (std::size_t(n) == size || s.type != SOCK_STREAM) {
        leave(s.writers, where);
        ++s.write_pkg;
        s.write_pkg_max = std::max<std::uint64_t>(s.write_pkg_max, std::uint64_t(n));
        tell_next(s, s.writers, POLLOUT);
        return std::size_t(n) == size ? atoms::ok : make_tuple_on(p, {atoms::ok, make_small(n)});
    }
    ++s.write_waits;
    enqueue(p, s, s.writers, handle, where);
    return make_tuple_on(p, {am("select"), make_small(n)});
}

// Sends binary [data] with [flags] (to [to], when given).
// The bytes of [data], a binary or an iolist (kept in [copy] when they are not in place);
// false if it is neither.
bool data_arg(Term data, std::string* copy, std::string_view* out) {
    if (is_binary(data)) {
        BitView v = bit_view(data);
        if (v.is_aligned()) {
            *out = std::string_view(reinterpret_cast<const char*>(v.aligned_bytes()), v.size_bytes());
            return true;
        }
    }
    if (!iolist_bytes(data, copy)) return false;
    *out = *copy;
    return true;
}

Term send_bytes(Process* p, ESock& s, std::string_view data, int flags, Term handle, const SockAddr* to,
                socklen_t to_len) {
    if (s.connecting) return error_tuple(p, invalid(p, am("state")));
    long where;
    if (std::optional<Term> answer = admit(p, s, s.writers, handle, &where)) return *answer;
    const char* bytes = data.data();
    std::size_t size = data.size();
    ssize_t n;
    do n = to ? ::sendto(s.fd, bytes, size, flags | MSG_NOSIGNAL, &to->sa, to_len)
              : ::send(s.fd, bytes, size, flags | MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return write_result(p, s, n, errno, size, handle, where);
}

}  // namespace

// prim_socket:nif_send(SockRef, Bin, Flags, SendRef).
Term bif_prim_socket_nif_send4(Process* p, Term* a) {
    int flags;
    std::string copy;
    std::string_view data;
    if (!int_arg(a[2], &flags) || !data_arg(a[1], &copy, &data) || !is_ref(a[3])) return p->badarg();
    return with_socket(p, a[0], [&](ESock& s) -> Term { return send_bytes(p, s, data, flags, a[3], nullptr, 0); });
}

// prim_socket:nif_sendto(SockRef, Bin, Dest, Flags, SendRef).
Term bif_prim_socket_nif_sendto5(Process* p, Term* a) {
    int flags;
    std::string copy;
    std::string_view data;
    if (!int_arg(a[3], &flags) || !data_arg(a[1], &copy, &data) || !is_ref(a[4])) return p->badarg();
    SockAddr to;
    socklen_t to_len = 0;
    bool valid = sockaddr_arg(a[2], &to, &to_len);
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (!valid) return invalid(p, am("sockaddr"));
        return send_bytes(p, s, data, flags, a[4], &to, to_len);
    });
}

// prim_socket:nif_sendmsg(SockRef, Msg, Flags, SendRef, IOV): the iov's binaries, to the
// message's addr when it has one; control messages are not supported.
Term bif_prim_socket_nif_sendmsg5(Process* p, Term* a) {
    int flags;
    if (!int_arg(a[2], &flags) || !is_map(a[1]) || !is_ref(a[3])) return p->badarg();
    std::vector<iovec> iov;
    std::deque<std::string> copies;
    Term l = a[4];
    for (; is_list(l); l = cdr(l)) {
        Term b = car(l);
        if (!is_binary(b)) return invalid(p, am("iov"));
        BitView v = bit_view(b);
        std::string& c = copies.emplace_back(v.size_bytes(), '\0');
        copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(c.data()), 0, v.bit_size);
        iov.push_back(iovec{c.data(), c.size()});
    }
    if (!is_nil(l)) return invalid(p, am("iov"));
    if (Term ctrl = map_get(a[1], "ctrl"); ctrl != THE_NON_VALUE && ctrl != NIL) return invalid(p, am("ctrl"));
    SockAddr to;
    socklen_t to_len = 0;
    Term addr = map_get(a[1], "addr");
    bool has_addr = addr != THE_NON_VALUE;
    if (has_addr && !sockaddr_arg(addr, &to, &to_len)) return invalid(p, am("addr"));
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (s.connecting) return error_tuple(p, invalid(p, am("state")));
        long where;
        if (std::optional<Term> answer = admit(p, s, s.writers, a[3], &where)) return *answer;
        msghdr msg{};
        msg.msg_iov = iov.data();
        msg.msg_iovlen = iov.size();
        if (has_addr) {
            msg.msg_name = &to;
            msg.msg_namelen = to_len;
        }
        std::size_t size = 0;
        for (const iovec& v : iov) size += v.iov_len;
        ssize_t n;
        do n = ::sendmsg(s.fd, &msg, flags | MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        return write_result(p, s, n, errno, size, a[3], where);
    });
}

// sendfile is not there: the error the NIF's absence gives (notsup), on which file:sendfile
// and gen_tcp_socket read and send the file themselves.
Term bif_prim_socket_nif_sendfile5(Process* p, Term*) { return p->error(am("notsup")); }
Term bif_prim_socket_nif_sendfile4(Process* p, Term*) { return p->error(am("notsup")); }
Term bif_prim_socket_nif_sendfile1(Process* p, Term*) { return p->error(am("notsup")); }

// ---- recv ----

namespace {

// What a read into [buffer] of [n] bytes (errno [err]) came to, in prim_socket's terms
// (recv_check_result). [length] 0 reads what is there, up to the socket's rcvbuf: {ok, Bin}
// (with rcvbuf {N, Size}, {more, Bin} for the first N - 1 reads that fill it). On a stream,
// N reads up to N: {select, Bin} when less came (the rest waits for the select message),
// {ok, Bin} with the `zero` handle. Nothing there: select, or ok with `zero`. The end of a
// stream is {error, closed}; an error aborts the queued readers. [wrap] makes the result's
// data (recvfrom: {Source, Bin}).
template <class Wrap>
Term read_result(Process* p, ESock& s, ssize_t n, int err, BinaryBuf* buffer, std::size_t length, Term handle,
                 long where, Wrap wrap) {
    ++s.read_tries;
    const std::size_t size = buffer->size_bytes;
    if (n < 0 || (n == 0 && s.type == SOCK_STREAM)) buffer->release();  // no data
    const bool stream = s.type == SOCK_STREAM;
    if (n < 0 && is_would_block(err)) {
        if (handle == am("zero")) return atoms::ok;
        ++s.read_waits;
        enqueue(p, s, s.readers, handle, where);
        return am("select");
    }
    if (n < 0 || (n == 0 && stream)) {
        if (n < 0) ++s.read_fails;
        leave(s.readers, where);
        Term reason = n < 0 ? posix_atom(err) : am("closed");
        abort_all(s, s.readers, reason);
        return error_tuple(p, reason);
    }
    s.read_byte += std::uint64_t(n);
    ++s.read_pkg;
    s.read_pkg_max = std::max<std::uint64_t>(s.read_pkg_max, std::uint64_t(n));
    Term data = wrap(binary_from_buffer(p, buffer, std::size_t(n)));
    if (stream && length > 0 && std::size_t(n) < length && handle != am("zero")) {
        ++s.read_waits;
        enqueue(p, s, s.readers, handle, where);
        return make_tuple_on(p, {am("select"), data});
    }
    leave(s.readers, where);
    tell_next(s, s.readers, POLLIN);
    if (stream && length == 0 && s.rcv_num > 0 && std::size_t(n) == size && ++s.full_reads < s.rcv_num)
        return make_tuple_on(p, {am("more"), data});
    s.full_reads = 0;
    return make_tuple_on(p, {atoms::ok, data});
}

// A negative length: what the NIF answers ({invalid, {integer_range, N}}), else nothing.
std::optional<Term> length_range(Process* p, Term t) {
    if (is_integer(t) && compare_terms(t, make_small(0)) < 0) return invalid(p, make_tuple_on(p, {am("integer_range"), t}));
    return std::nullopt;
}

// A read's select handle: a reference, or `zero` (it does not wait).
bool recv_handle(Term t) { return is_ref(t) || t == am("zero"); }

bool length_arg(Term t, std::size_t* out) {
    std::optional<std::int64_t> v = is_integer(t) ? integer_to_int64(t) : std::nullopt;
    if (!v || *v < 0) return false;
    *out = std::size_t(*v);
    return true;
}

}  // namespace

namespace {
// recv and recvfrom (SockRef, Length, Flags, Handle): the arguments checked, the caller
// admitted as a reader, a buffer for what it asks; [read](s, buffer, length, flags, where)
// makes the system call and answers.
template <class Read>
Term reading(Process* p, Term* a, Read read) {
    std::size_t length;
    int flags;
    if (std::optional<Term> out_of_range = length_range(p, a[1])) return *out_of_range;
    if (!length_arg(a[1], &length) || !int_arg(a[2], &flags) || !recv_handle(a[3])) return p->badarg();
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        long where;
        if (std::optional<Term> answer = admit_reader(p, s, a[3], &where)) return *answer;
        return read(s, BinaryBuf::create(length ? length : s.rcvbuf), length, flags, where);
    });
}
}  // namespace

// prim_socket:nif_recv(SockRef, Length, Flags, RecvRef).
Term bif_prim_socket_nif_recv4(Process* p, Term* a) {
    return reading(p, a, [&](ESock& s, BinaryBuf* buffer, std::size_t length, int flags, long where) {
        ssize_t n;
        do n = ::recv(s.fd, buffer->bytes, buffer->size_bytes, flags);
        while (n < 0 && errno == EINTR);
        return read_result(p, s, n, errno, buffer, length, a[3], where, [](Term d) { return d; });
    });
}

// prim_socket:nif_recvfrom(SockRef, Length, Flags, RecvRef): {ok, {Source, Bin}}.
Term bif_prim_socket_nif_recvfrom4(Process* p, Term* a) {
    return reading(p, a, [&](ESock& s, BinaryBuf* buffer, std::size_t length, int flags, long where) {
        SockAddr from;
        socklen_t from_len = sizeof from;
        std::memset(&from, 0, sizeof from);
        ssize_t n;
        do n = ::recvfrom(s.fd, buffer->bytes, buffer->size_bytes, flags, &from.sa, &from_len);
        while (n < 0 && errno == EINTR);
        int err = errno;
        return read_result(p, s, n, err, buffer, length, a[3], where, [&](Term d) {
            // No address (an unbound local sender): #{family => unspec, addr => <<>>}.
            if (from_len <= sizeof(sa_family_t)) from.sa.sa_family = AF_UNSPEC;
            return make_tuple_on(p, {sockaddr_term(p, from, from_len), d});
        });
    });
}

// prim_socket:nif_recvmsg(SockRef, BufSz, CtrlSz, Flags, RecvRef): {ok, #{addr, iov, ctrl,
// flags}}, without control messages.
Term bif_prim_socket_nif_recvmsg5(Process* p, Term* a) {
    std::size_t length, ctrl_size;
    int flags;
    if (!length_arg(a[1], &length) || !length_arg(a[2], &ctrl_size) || !int_arg(a[3], &flags) ||
        !recv_handle(a[4]))
        return p->badarg();
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        long where;
        if (std::optional<Term> answer = admit_reader(p, s, a[4], &where)) return *answer;
        BinaryBuf* buffer = BinaryBuf::create(length ? length : s.rcvbuf);
        SockAddr from;
        std::memset(&from, 0, sizeof from);
        iovec v{buffer->bytes, buffer->size_bytes};
        msghdr msg{};
        msg.msg_name = &from;
        msg.msg_namelen = sizeof from;
        msg.msg_iov = &v;
        msg.msg_iovlen = 1;
        ssize_t n;
        do n = ::recvmsg(s.fd, &msg, flags);
        while (n < 0 && errno == EINTR);
        int err = errno;
        return read_result(p, s, n, err, buffer, 0, a[4], where, [&](Term d) {
            std::vector<Term> msg_flags;
            if (msg.msg_flags & MSG_EOR) msg_flags.push_back(am("eor"));
            if (msg.msg_flags & MSG_TRUNC) msg_flags.push_back(am("trunc"));
            if (msg.msg_flags & MSG_CTRUNC) msg_flags.push_back(am("ctrunc"));
            if (msg.msg_flags & MSG_ERRQUEUE) msg_flags.push_back(am("errqueue"));
            std::vector<std::pair<Term, Term>> pairs = {
                {am("iov"), list_from(p, &d, 1)},
                {am("ctrl"), NIL},
                {am("flags"), list_from(p, msg_flags.data(), msg_flags.size())},
            };
            if (msg.msg_namelen) pairs.emplace_back(am("addr"), sockaddr_term(p, from, msg.msg_namelen));
            return map_from_pairs(p, std::move(pairs));
        });
    });
}

// ---- close, shutdown, names, cancel ----

// prim_socket:nif_close(SockRef): ok (then finalize_close, by the same process), or {error,
// closed}. Any process may close a socket.
Term bif_prim_socket_nif_close1(Process* p, Term* a) {
    ESock* s = socket_of(a[0]);
    if (!s) return p->badarg();
    std::unique_lock guard(s->mutex);
    if (!s->open) return error_tuple(p, am("closed"));
    Term owner = s->owner;
    s->owner = 0;
    s->closer = p->id;
    close_locked(*s);
    guard.unlock();
    monitor_controller(p, magic_handle(a[0]), owner, nullptr);
    return atoms::ok;
}

// prim_socket:nif_finalize_close(SockRef): the descriptor closes.
Term bif_prim_socket_nif_finalize_close1(Process* p, Term* a) {
    ESock* s = socket_of(a[0]);
    if (!s) return p->badarg();
    std::lock_guard guard(s->mutex);
    if (s->finalized) return error_tuple(p, am("closed"));
    if (s->open || s->closer != p->id) return invalid_state(p);
    int err = finalize_locked(*s);
    return err ? posix_error(p, err) : atoms::ok;
}

Term bif_prim_socket_nif_shutdown2(Process* p, Term* a) {
    int how;
    if (a[1] == am("read")) how = SHUT_RD;
    else if (a[1] == am("write")) how = SHUT_WR;
    else if (a[1] == am("read_write")) how = SHUT_RDWR;
    else return p->error(make_tuple_on(p, {am("invalid"), make_tuple_on(p, {am("how"), a[1]})}));
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (::shutdown(s.fd, how) < 0) return posix_error(p, errno);
        if (how != SHUT_WR) s.read_shut = true;
        if (how != SHUT_RD) s.write_shut = true;
        return atoms::ok;
    });
}

namespace {
template <class Call>
Term name_of(Process* p, Term ref, Call call) {
    return with_socket(p, ref, [&](ESock& s) -> Term {
        SockAddr addr;
        std::memset(&addr, 0, sizeof addr);
        socklen_t len = sizeof addr;
        if (call(s.fd, &addr.sa, &len) < 0) return posix_error(p, errno);
        return make_tuple_on(p, {atoms::ok, sockaddr_term(p, addr, len)});
    });
}
}  // namespace

Term bif_prim_socket_nif_sockname1(Process* p, Term* a) { return name_of(p, a[0], ::getsockname); }
Term bif_prim_socket_nif_peername1(Process* p, Term* a) { return name_of(p, a[0], ::getpeername); }

// prim_socket:nif_cancel(SockRef, Op, Handle): ok (the waiter is gone), select_sent (its
// select message went already), not_found, or {error, closed}.
Term bif_prim_socket_nif_cancel3(Process* p, Term* a) {
    Term op = a[1];
    bool reading = op == am("recv") || op == am("recvfrom") || op == am("recvmsg") || op == am("accept");
    bool writing = op == am("send") || op == am("sendto") || op == am("sendmsg") || op == am("connect") ||
                   op == am("sendfile");
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if ((!reading && !writing) || !is_ref(a[2])) return p->badarg();
        std::deque<Waiter>& q = op == am("connect") ? s.connectors : reading ? s.readers : s.writers;
        for (std::size_t i = 0; i < q.size(); ++i) {
            if (q[i].pid != p->id || !terms_exact_equal(q[i].identity, a[2])) continue;
            bool told = q[i].told;
            free_fragment(q[i].handle_fragment);
            q.erase(q.begin() + long(i));
            if (op == am("connect")) s.connecting = false;
            // The readiness it was told of goes to the next one.
            if (told) tell_next(s, q, reading ? POLLIN : POLLOUT);
            return told ? am("select_sent") : atoms::ok;
        }
        return am("not_found");
    });
}


// ---- options ----

namespace {

enum class OptKind : std::uint8_t {
    Bool,
    Int,
    Linger,    // #{onoff => boolean(), linger => integer()}
    Tos,       // lowdelay | throughput | reliability | mincost | integer()
    Type,      // read-only: the socket's type
    Protocol,  // read-only: its protocol's number (prim_socket names it)
    Domain,    // read-only: its domain
    ReadBool,  // read-only boolean (acceptconn)
};

struct SockOpt {
    int level;  // SOL_SOCKET, IPPROTO_IP, IPPROTO_TCP, ...
    const char* name;
    int opt;
    OptKind kind;
};

// The options beamlet's sockets take (setopt/getopt with their value, and supports(options)).
constexpr SockOpt SOCKET_OPTIONS[] = {
    {SOL_SOCKET, "acceptconn", SO_ACCEPTCONN, OptKind::ReadBool},
    {SOL_SOCKET, "broadcast", SO_BROADCAST, OptKind::Bool},
    {SOL_SOCKET, "debug", SO_DEBUG, OptKind::Int},
    {SOL_SOCKET, "domain", SO_DOMAIN, OptKind::Domain},
    {SOL_SOCKET, "dontroute", SO_DONTROUTE, OptKind::Bool},
    {SOL_SOCKET, "keepalive", SO_KEEPALIVE, OptKind::Bool},
    {SOL_SOCKET, "linger", SO_LINGER, OptKind::Linger},
    {SOL_SOCKET, "oobinline", SO_OOBINLINE, OptKind::Bool},
    {SOL_SOCKET, "passcred", SO_PASSCRED, OptKind::Bool},
    {SOL_SOCKET, "peek_off", SO_PEEK_OFF, OptKind::Int},
    {SOL_SOCKET, "priority", SO_PRIORITY, OptKind::Int},
    {SOL_SOCKET, "protocol", SO_PROTOCOL, OptKind::Protocol},
    {SOL_SOCKET, "rcvbuf", SO_RCVBUF, OptKind::Int},
    {SOL_SOCKET, "rcvlowat", SO_RCVLOWAT, OptKind::Int},
    {SOL_SOCKET, "reuseaddr", SO_REUSEADDR, OptKind::Bool},
    {SOL_SOCKET, "reuseport", SO_REUSEPORT, OptKind::Bool},
    {SOL_SOCKET, "sndbuf", SO_SNDBUF, OptKind::Int},
    {SOL_SOCKET, "sndlowat", SO_SNDLOWAT, OptKind::Int},
    {SOL_SOCKET, "timestamp", SO_TIMESTAMP, OptKind::Bool},
    {SOL_SOCKET, "type", SO_TYPE, OptKind::Type},
    {IPPROTO_IP, "freebind", IP_FREEBIND, OptKind::Bool},
    {IPPROTO_IP, "hdrincl", IP_HDRINCL, OptKind::Bool},
    {IPPROTO_IP, "minttl", IP_MINTTL, OptKind::Int},
    {IPPROTO_IP, "multicast_all", IP_MULTICAST_ALL, OptKind::Bool},
    {IPPROTO_IP, "multicast_loop", IP_MULTICAST_LOOP, OptKind::Bool},
    {IPPROTO_IP, "multicast_ttl", IP_MULTICAST_TTL, OptKind::Int},
    {IPPROTO_IP, "nodefrag", IP_NODEFRAG, OptKind::Bool},
    {IPPROTO_IP, "pktinfo", IP_PKTINFO, OptKind::Bool},
    {IPPROTO_IP, "recverr", IP_RECVERR, OptKind::Bool},
    {IPPROTO_IP, "recvopts", IP_RECVOPTS, OptKind::Bool},
    {IPPROTO_IP, "recvorigdstaddr", IP_RECVORIGDSTADDR, OptKind::Bool},
    {IPPROTO_IP, "recvtos", IP_RECVTOS, OptKind::Bool},
    {IPPROTO_IP, "recvttl", IP_RECVTTL, OptKind::Bool},
    {IPPROTO_IP, "retopts", IP_RETOPTS, OptKind::Bool},
    {IPPROTO_IP, "tos", IP_TOS, OptKind::Tos},
    {IPPROTO_IP, "transparent", IP_TRANSPARENT, OptKind::Bool},
    {IPPROTO_IP, "ttl", IP_TTL, OptKind::Int},
    {IPPROTO_IPV6, "multicast_hops", IPV6_MULTICAST_HOPS, OptKind::Int},
    {IPPROTO_IPV6, "multicast_if", IPV6_MULTICAST_IF, OptKind::Int},
    {IPPROTO_IPV6, "multicast_loop", IPV6_MULTICAST_LOOP, OptKind::Bool},
    {IPPROTO_IPV6, "recverr", IPV6_RECVERR, OptKind::Bool},
    {IPPROTO_IPV6, "recvpktinfo", IPV6_RECVPKTINFO, OptKind::Bool},
    {IPPROTO_IPV6, "recvtclass", IPV6_RECVTCLASS, OptKind::Bool},
    {IPPROTO_IPV6, "tclass", IPV6_TCLASS, OptKind::Int},
    {IPPROTO_IPV6, "unicast_hops", IPV6_UNICAST_HOPS, OptKind::Int},
    {IPPROTO_IPV6, "v6only", IPV6_V6ONLY, OptKind::Bool},
    {IPPROTO_TCP, "cork", TCP_CORK, OptKind::Bool},
    {IPPROTO_TCP, "maxseg", TCP_MAXSEG, OptKind::Int},
    {IPPROTO_TCP, "nodelay", TCP_NODELAY, OptKind::Bool},
    {IPPROTO_UDP, "cork", UDP_CORK, OptKind::Bool},
};

const SockOpt* find_option(int level, int opt) {
    for (const SockOpt& o : SOCKET_OPTIONS)
        if (o.level == level && o.opt == opt) return &o;
    return nullptr;
}

// prim_socket's level: the atom socket, or a protocol's number.
std::optional<int> level_arg(Term t) {
    if (t == am("socket")) return SOL_SOCKET;
    if (is_small(t) && small_value(t) >= 0 && small_value(t) <= INT_MAX) return int(small_value(t));
    return std::nullopt;
}

struct TosName {
    const char* name;
    int value;
};
constexpr TosName TOS_NAMES[] = {{"lowdelay", IPTOS_LOWDELAY},
                                 {"throughput", IPTOS_THROUGHPUT},
                                 {"reliability", IPTOS_RELIABILITY},
                                 {"mincost", IPTOS_MINCOST}};

Term otp_option_error(Process* p, int opt) {
    return p->error(make_tuple_on(p, {am("invalid"), make_tuple_on(p, {am("otp_socket_option"), make_small(opt)})}));
}

// The otp level's options (socket state rather than the kernel's).
Term not_owner(Process* p) { return error_tuple(p, invalid(p, am("not_owner"))); }

Term set_otp_option(Process* p, ESock& s, Term ref, int opt, Term value) {
    auto buffer_size = [](Term v, std::size_t* out) {
        if (v == am("default")) return true;
        if (!is_small(v) || small_value(v) <= 0) return false;
        *out = std::size_t(small_value(v));
        return true;
    };
    switch (opt) {
    case OTP_DEBUG:
    case OTP_IOW:
        if (!is_boolean(value)) return invalid(p, am("value"));
        (opt == OTP_DEBUG ? s.debug : s.iow) = value == atoms::true_;
        return atoms::ok;
    case OTP_USE_REGISTRY:
        // It can be turned on, not off.
        if (value != atoms::true_) return invalid(p, am("value"));
        if (!s.use_registry) {
            s.use_registry = true;
            tell_registry(s.vm, s, "add");
        }
        return atoms::ok;
    case OTP_CTRL_PROC: {
        if (s.owner != p->id) return not_owner(p);
        if (!is_pid(value)) return invalid(p, am("value"));
        Term from = s.owner;
        std::shared_ptr<Process> to = p->vm.lookup_process(value);
        s.owner = to ? value : 0;
        monitor_controller(p, magic_handle(ref), from, to.get());
        if (!to) {
            // A controller that is gone already: the socket closes, as at its exit.
            close_locked(s);
            finalize_locked(s);
        }
        return atoms::ok;
    }
    case OTP_RCVBUF: {
        // default | Size | {N, Size} (OTP keeps N, reads Size at a time).
        std::size_t size = RECV_BUFFER_DEFAULT, num = 0;
        Term v = value;
        if (is_tuple(v) && tuple_arity(v) == 2) {
            Term n = tuple_element(v, 0);
            if (!is_small(n) || small_value(n) <= 0) return invalid(p, am("value"));
            num = std::size_t(small_value(n));
            v = tuple_element(v, 1);
        }
        if (!buffer_size(v, &size)) return invalid(p, am("value"));
        s.rcvbuf = size;
        s.rcv_num = num;
        s.full_reads = 0;
        return atoms::ok;
    }
    case OTP_RCVCTRLBUF:
    case OTP_SNDCTRLBUF: {
        std::size_t size = CTRL_BUFFER_DEFAULT;
        if (!buffer_size(value, &size)) return invalid(p, am("value"));
        (opt == OTP_RCVCTRLBUF ? s.rcvctrlbuf : s.sndctrlbuf) = size;
        return atoms::ok;
    }
    case OTP_META:
        if (s.owner != p->id) return not_owner(p);
        keep_term(&s.meta_fragment, &s.meta, value);
        return atoms::ok;
    default: return otp_option_error(p, opt);
    }
}

Term get_otp_option(Process* p, ESock& s, int opt) {
    Term v;
    switch (opt) {
    case OTP_DEBUG: v = make_bool(s.debug); break;
    case OTP_IOW: v = make_bool(s.iow); break;
    case OTP_USE_REGISTRY: v = make_bool(s.use_registry); break;
    case OTP_CTRL_PROC: v = s.owner; break;
    case OTP_RCVBUF:
        v = make_small(SWord(s.rcvbuf));
        if (s.rcv_num) v = make_tuple_on(p, {make_small(SWord(s.rcv_num)), v});
        break;
    case OTP_RCVCTRLBUF: v = make_small(SWord(s.rcvctrlbuf)); break;
    case OTP_SNDCTRLBUF: v = make_small(SWord(s.sndctrlbuf)); break;
    case OTP_FD: v = make_small(s.fd); break;
    case OTP_META: v = s.meta ? copy_term_to(p, s.meta) : am("undefined"); break;
    case OTP_DOMAIN: v = domain_term(p, s.domain); break;
    default: return otp_option_error(p, opt);
    }
    return make_tuple_on(p, {atoms::ok, v});
}

}  // namespace

// prim_socket:nif_setopt(SockRef, Level, Opt, Value, Native).
Term bif_prim_socket_nif_setopt5(Process* p, Term* a) {
    int opt;
    if (!int_arg(a[2], &opt)) return p->badarg();
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (a[1] == am("otp")) return set_otp_option(p, s, a[0], opt, a[3]);
        std::optional<int> level = level_arg(a[1]);
        if (!level) return invalid(p, am("socket_option"));
        if (a[4] != make_small(0)) {
            // A native value: an integer, a boolean, or the option's bytes as a binary.
            int iv;
            if (is_boolean(a[3]) || int_arg(a[3], &iv)) {
                iv = is_boolean(a[3]) ? a[3] == atoms::true_ : iv;
                if (setsockopt(s.fd, *level, opt, &iv, sizeof iv) < 0) return posix_error(p, errno);
                return atoms::ok;
            }
            if (!is_binary(a[3]) || !bit_view(a[3]).is_aligned()) return error_tuple(p, invalid(p, am("value")));
            BitView v = bit_view(a[3]);
            if (setsockopt(s.fd, *level, opt, v.aligned_bytes(), socklen_t(v.size_bytes())) < 0)
                return posix_error(p, errno);
            return atoms::ok;
        }
        const SockOpt* o = find_option(*level, opt);
        if (!o) return invalid(p, am("socket_option"));
        int iv = 0;
        linger lv{};
        const void* value = &iv;
        socklen_t len = sizeof iv;
        switch (o->kind) {
        case OptKind::Bool:
        case OptKind::ReadBool:  // the kernel refuses it (enoprotoopt), as on erl
            if (!is_boolean(a[3])) return invalid(p, am("value"));
            iv = a[3] == atoms::true_;
            break;
        case OptKind::Int:
            if (!int_arg(a[3], &iv)) return invalid(p, am("value"));
            break;
        case OptKind::Tos: {
            bool named = false;
            for (const TosName& t : TOS_NAMES)
                if (a[3] == am(t.name)) {
                    iv = t.value;
                    named = true;
                }
            if (!named && !int_arg(a[3], &iv)) return invalid(p, am("value"));
            break;
        }
        case OptKind::Linger: {
            // #{onoff, linger}, or abort: on, for no time (a reset at close).
            bool abort = a[3] == am("abort");
            Term onoff = abort ? atoms::true_ : is_map(a[3]) ? map_get(a[3], "onoff") : THE_NON_VALUE;
            Term secs = abort ? make_small(0) : is_map(a[3]) ? map_get(a[3], "linger") : THE_NON_VALUE;
            int n;
            if (!is_boolean(onoff) || !int_arg(secs, &n)) return invalid(p, am("value"));
            lv.l_onoff = onoff == atoms::true_;
            lv.l_linger = n;
            value = &lv;
            len = sizeof lv;
            break;
        }
        default: return invalid(p, am("socket_option"));  // read-only
        }
        // Linux resets a socket's priority when its TOS changes: OTP puts it back.
        int priority = 0;
        socklen_t priority_len = sizeof priority;
        bool keep_priority = o->kind == OptKind::Tos &&
                             getsockopt(s.fd, SOL_SOCKET, SO_PRIORITY, &priority, &priority_len) == 0;
        if (setsockopt(s.fd, o->level, o->opt, value, len) < 0) return posix_error(p, errno);
        if (keep_priority) setsockopt(s.fd, SOL_SOCKET, SO_PRIORITY, &priority, sizeof priority);
        return atoms::ok;
    });
}

// prim_socket:nif_getopt(SockRef, Level, Opt).
Term bif_prim_socket_nif_getopt3(Process* p, Term* a) {
    int opt;
    if (!int_arg(a[2], &opt)) return p->badarg();
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (a[1] == am("otp")) return get_otp_option(p, s, opt);
        std::optional<int> level = level_arg(a[1]);
        const SockOpt* o = level ? find_option(*level, opt) : nullptr;
        if (!o) return invalid(p, am("socket_option"));
        switch (o->kind) {
        case OptKind::Type: return make_tuple_on(p, {atoms::ok, type_term(s.type)});
        case OptKind::Protocol:
            // 0 is no protocol of the domain's own (a local socket): default.
            return make_tuple_on(p, {atoms::ok, s.protocol ? make_small(s.protocol) : am("default")});
        case OptKind::Domain: return make_tuple_on(p, {atoms::ok, domain_term(p, s.domain)});
        default: break;
        }
        if (o->kind == OptKind::Linger) {
            linger lv{};
            socklen_t len = sizeof lv;
            if (getsockopt(s.fd, o->level, o->opt, &lv, &len) < 0) return posix_error(p, errno);
            Term m = map_from_pairs(p, {{am("onoff"), make_bool(lv.l_onoff != 0)}, {am("linger"), make_small(lv.l_linger)}});
            return make_tuple_on(p, {atoms::ok, m});
        }
        int iv = 0;
        socklen_t len = sizeof iv;
        if (getsockopt(s.fd, o->level, o->opt, &iv, &len) < 0) return posix_error(p, errno);
        Term v = make_small(iv);
        if (o->kind == OptKind::Bool || o->kind == OptKind::ReadBool) v = make_bool(iv != 0);
        if (o->kind == OptKind::Tos)
            for (const TosName& t : TOS_NAMES)
                if (iv == t.value) v = am(t.name);
        return make_tuple_on(p, {atoms::ok, v});
    });
}

// prim_socket:nif_getopt(SockRef, Level, Opt, ValueSpec): a native option read as ValueSpec
// says (integer, boolean, binary, or a size in bytes for a binary).
Term bif_prim_socket_nif_getopt4(Process* p, Term* a) {
    int opt;
    if (!int_arg(a[2], &opt)) return p->badarg();
    return with_socket(p, a[0], [&](ESock& s) -> Term {
        if (a[1] == am("otp")) return get_otp_option(p, s, opt);
        std::optional<int> level = level_arg(a[1]);
        if (!level) return invalid(p, am("socket_option"));
        Term spec = a[3];
        if (spec == am("integer") || spec == am("boolean")) {
            int iv = 0;
            socklen_t len = sizeof iv;
            if (getsockopt(s.fd, *level, opt, &iv, &len) < 0) return posix_error(p, errno);
            return make_tuple_on(p, {atoms::ok, spec == am("boolean") ? make_bool(iv != 0) : make_small(iv)});
        }
        std::size_t size;
        if (spec == am("binary")) size = 256;
        else if (!length_arg(spec, &size)) return invalid(p, am("value"));
        std::string buffer(size, '\0');
        socklen_t len = socklen_t(size);
        if (getsockopt(s.fd, *level, opt, buffer.data(), &len) < 0) return posix_error(p, errno);
        return make_tuple_on(p, {atoms::ok, make_binary(p, std::string_view(buffer.data(), len))});
    });
}


// ---- information ----

namespace {
Term counter(Process* p, std::int64_t v) { return make_integer(p, v); }
}  // namespace

// prim_socket:nif_info(): the NIF's global state.
Term bif_prim_socket_nif_info0(Process* p, Term*) {
    const GlobalCounts& c = g_counts;
    Term counters = map_from_pairs(p, {{am("num_cnt_bits"), make_small(64)},
                                       {am("num_dinet"), counter(p, c.dinet)},
                                       {am("num_dinet6"), counter(p, c.dinet6)},
                                       {am("num_dlocal"), counter(p, c.dlocal)},
                                       {am("num_pip"), counter(p, c.pip)},
                                       {am("num_psctp"), counter(p, c.psctp)},
                                       {am("num_ptcp"), counter(p, c.ptcp)},
                                       {am("num_pudp"), counter(p, c.pudp)},
                                       {am("num_sockets"), counter(p, c.sockets)},
                                       {am("num_tdgrams"), counter(p, c.tdgrams)},
                                       {am("num_tseqpkgs"), counter(p, c.tseqpkgs)},
                                       {am("num_tstreams"), counter(p, c.tstreams)}});
    return map_from_pairs(p, {{am("counters"), counters},
                              {am("debug"), atoms::false_},
                              {am("iov_max"), make_small(IOV_MAX)},
                              {am("iow"), atoms::false_},
                              {am("socket_debug"), atoms::false_},
                              {am("use_registry"), atoms::true_}});
}

// prim_socket:nif_info(SockRef): one socket's state (closed ones too).
Term bif_prim_socket_nif_info1(Process* p, Term* a) {
    ESock* sp = socket_of(a[0]);
    if (!sp) return p->badarg();
    ESock& s = *sp;
    std::lock_guard guard(s.mutex);
    auto u = [&](std::uint64_t v) { return make_integer_u64(p, v); };
    Term counters = map_from_pairs(p, {{am("acc_fails"), u(s.acc_fails)},
                                       {am("acc_success"), u(s.acc_success)},
                                       {am("acc_tries"), u(s.acc_tries)},
                                       {am("acc_waits"), u(s.acc_waits)},
                                       {am("read_byte"), u(s.read_byte)},
                                       {am("read_fails"), u(s.read_fails)},
                                       {am("read_pkg"), u(s.read_pkg)},
                                       {am("read_pkg_max"), u(s.read_pkg_max)},
                                       {am("read_tries"), u(s.read_tries)},
                                       {am("read_waits"), u(s.read_waits)},
                                       {am("write_byte"), u(s.write_byte)},
                                       {am("write_fails"), u(s.write_fails)},
                                       {am("write_pkg"), u(s.write_pkg)},
                                       {am("write_pkg_max"), u(s.write_pkg_max)},
                                       {am("write_tries"), u(s.write_tries)},
                                       {am("write_waits"), u(s.write_waits)}});
    std::size_t acceptors = s.listening ? s.readers.size() : 0;
    std::vector<Term> rstates, wstates;
    if (s.bound) rstates.push_back(am("bound"));
    if (s.listening) rstates.push_back(am("listening"));
    if (acceptors) rstates.push_back(am("accepting"));
    if (s.read_selected) rstates.push_back(am("selected"));
    if (s.connecting) wstates.push_back(am("connecting"));
    if (s.connect_done) wstates.push_back(am("connected"));
    if (s.write_selected) wstates.push_back(am("selected"));
    if (!s.open) {
        for (std::vector<Term>* states : {&rstates, &wstates}) {
            states->push_back(am("closing"));
            states->push_back(am("closed"));
        }
    }
    return map_from_pairs(p, {{am("counters"), counters},
                              {am("ctype"), s.from_fd == -1   ? am("normal")
                                            : s.from_fd == -2 ? am("fromfd")
                                                              : make_tuple_on(p, {am("fromfd"), make_small(s.from_fd)})},
                              {am("domain"), domain_term(p, s.domain)},
                              {am("num_acceptors"), make_small(SWord(acceptors))},
                              {am("num_readers"), make_small(SWord(s.listening ? 0 : s.readers.size()))},
                              {am("num_writers"), make_small(SWord(s.writers.size()))},
                              {am("owner"), s.owner ? s.owner : am("undefined")},
                              {am("protocol"), make_small(s.protocol)},
                              {am("rstates"), list_from(p, rstates.data(), rstates.size())},
                              {am("type"), type_term(s.type)},
                              {am("wstates"), list_from(p, wstates.data(), wstates.size())}});
}

// prim_socket:nif_command(#{command => debug | socket_debug | use_registry, data => Bool}).
Term bif_prim_socket_nif_command1(Process* p, Term* a) {
    if (!is_map(a[0])) return p->badarg();
    Term command = map_get(a[0], "command"), data = map_get(a[0], "data");
    if (command == am("debug") || command == am("socket_debug") || command == am("use_registry")) {
        if (!is_boolean(data)) return p->error(invalid(p, make_tuple_on(p, {am("data"), data})));
        return atoms::ok;
    }
    return p->error(invalid(p, make_tuple_on(p, {am("command"), command})));
}

// prim_socket:nif_ioctl/2,3,4: not supported on beamlet's sockets (supports(ioctl_requests)
// lists none).
Term bif_prim_socket_nif_ioctl2(Process* p, Term* a) {
    return with_socket(p, a[0], [&](ESock&) -> Term { return posix_error(p, ENOTSUP); });
}
Term bif_prim_socket_nif_ioctl3(Process* p, Term* a) { return bif_prim_socket_nif_ioctl2(p, a); }
Term bif_prim_socket_nif_ioctl4(Process* p, Term* a) { return bif_prim_socket_nif_ioctl2(p, a); }


// ---- what is supported ----

namespace {

// The options of each level OTP 25 knows by name that beamlet's sockets do not take (listed
// by supports(options) as unsupported, as erl lists those its platform lacks).
struct LevelNames {
    int level;
    std::initializer_list<const char*> names;
};
const LevelNames UNSUPPORTED_OPTIONS[] = {
    {IPPROTO_SCTP,
     {"maxseg", "events", "disable_fragments", "autoclose", "nodelay", "initmsg", "associnfo", "use_ext_recvinfo",
      "status", "set_peer_primary_addr", "rtoinfo", "reset_streams", "primary_addr", "peer_auth_chunks",
      "peer_addr_params", "partial_delivery_point", "maxburst", "local_auth_chunks", "i_want_mapped_v4_addr",
      "get_peer_addr_info", "fragment_interleave", "explicit_eor", "hmac_ident", "delayed_ack_time",
      "default_send_params", "context", "auth_key", "auth_delete_key", "auth_chunk", "auth_active_key",
      "adaption_layer"}},
    {IPPROTO_IPV6,
     {"dstopts", "rthdr", "hopopts", "hoplimit", "recvhoplimit", "mtu", "mtu_discover", "router_alert",
      "drop_membership", "add_membership", "flowinfo", "authhdr", "addrform", "use_min_mtu", "pktoptions",
      "portrange", "leave_group", "join_group", "ipcomp_level", "faith", "esp_trans_level", "esp_network_level",
      "checksum", "auth_level"}},
    {IPPROTO_UDP, {}},
    {IPPROTO_TCP, {"congestion", "user_timeout", "syncnt", "nopush", "noopt", "md5sig", "keepintvl", "keepidle",
                   "keepcnt", "info"}},
    {SOL_SOCKET, {"bindtodevice", "sndtimeo", "sndbufforce", "setfib", "rxq_ovfl", "rcvtimeo", "rcvbufforce",
                  "peercred", "mark", "error", "busy_poll", "acceptfilter"}},
    {IPPROTO_IP, {"msfilter", "drop_source_membership", "add_source_membership", "block_source", "unblock_source",
                  "drop_membership", "add_membership", "multicast_if", "mtu", "mtu_discover", "pktoptions",
                  "router_alert", "sendsrcaddr", "recvif", "recvdstaddr", "options", "dontfrag"}},
};

// [{Level, [{Opt, Num} | Opt]}]: prim_socket:init/0's options table.
Term options_list(Process* p) {
    std::vector<Term> levels;
    for (const LevelNames& l : UNSUPPORTED_OPTIONS) {
        std::vector<const SockOpt*> supported;
        for (const SockOpt& o : SOCKET_OPTIONS)
            if (o.level == l.level) supported.push_back(&o);
        std::sort(supported.begin(), supported.end(), [](const SockOpt* x, const SockOpt* y) { return x->opt > y->opt; });
        std::vector<Term> opts;
        for (const SockOpt* o : supported) opts.push_back(make_tuple_on(p, {am(o->name), make_small(o->opt)}));
        for (const char* name : l.names) opts.push_back(am(name));
        Term level = l.level == SOL_SOCKET ? am("socket") : make_small(l.level);
        levels.push_back(make_tuple_on(p, {level, list_from(p, opts.data(), opts.size())}));
    }
    return list_from(p, levels.data(), levels.size());
}

// [{[Name | Aliases], Num}]: the five protocols sockets name, then the system's protocols
// database (getprotoent), last entry first, as OTP's NIF builds it.
Term protocols_list(Process* p) {
    std::vector<Term> entries;
    auto entry = [&](std::initializer_list<const char*> names, int num) {
        std::vector<Term> atoms_;
        for (const char* n : names) atoms_.push_back(am(n));
        entries.push_back(make_tuple_on(p, {list_from(p, atoms_.data(), atoms_.size()), make_small(num)}));
    };
    entry({"sctp"}, IPPROTO_SCTP);
    entry({"udp"}, IPPROTO_UDP);
    entry({"tcp"}, IPPROTO_TCP);
    entry({"ipv6"}, IPPROTO_IPV6);
    entry({"ip"}, IPPROTO_IP);
    std::vector<Term> database;
    static std::mutex protoent_mutex;  // getprotoent's state is the process's
    {
        std::lock_guard guard(protoent_mutex);
        setprotoent(1);
        while (protoent* e = getprotoent()) {
            std::vector<Term> names{am(e->p_name)};
            for (char** alias = e->p_aliases; alias && *alias; ++alias) names.push_back(am(*alias));
            database.push_back(make_tuple_on(p, {list_from(p, names.data(), names.size()), make_small(e->p_proto)}));
        }
        endprotoent();
    }
    entries.insert(entries.end(), database.rbegin(), database.rend());
    return list_from(p, entries.data(), entries.size());
}

Term msg_flags_list(Process* p) {
    const std::pair<const char*, int> flags[] = {
        {"trunc", MSG_TRUNC}, {"peek", MSG_PEEK},         {"oob", MSG_OOB},         {"nosignal", MSG_NOSIGNAL},
        {"more", MSG_MORE},   {"errqueue", MSG_ERRQUEUE}, {"eor", MSG_EOR},         {"dontroute", MSG_DONTROUTE},
        {"ctrunc", MSG_CTRUNC}, {"confirm", MSG_CONFIRM}, {"cmsg_cloexec", MSG_CMSG_CLOEXEC},
    };
    std::vector<Term> items;
    for (const auto& [name, value] : flags) items.push_back(make_tuple_on(p, {am(name), make_small(value)}));
    return list_from(p, items.data(), items.size());
}

}  // namespace

// prim_socket:nif_supports(): the features, as erl reports them where beamlet has them.
Term bif_prim_socket_nif_supports0(Process* p, Term*) {
    Term items[] = {make_tuple_on(p, {am("sctp"), atoms::false_}), make_tuple_on(p, {am("ipv6"), atoms::true_}),
                    make_tuple_on(p, {am("local"), atoms::true_}), make_tuple_on(p, {am("netns"), atoms::false_}),
                    make_tuple_on(p, {am("sendfile"), atoms::false_})};
    return list_from(p, items, 5);
}

// prim_socket:nif_supports(Key): the tables prim_socket:init/0 turns into persistent terms.
Term bif_prim_socket_nif_supports1(Process* p, Term* a) {
    if (a[0] == am("options")) return options_list(p);
    if (a[0] == am("protocols")) return protocols_list(p);
    if (a[0] == am("msg_flags")) return msg_flags_list(p);
    if (a[0] == am("ioctl_requests") || a[0] == am("ioctl_flags")) return NIL;
    return NIL;
}

}  // namespace beamlet::bif
