// io/drivers/inet_driver.cpp — tcp_inet and udp_inet: OTP's inet driver protocol over
// non-blocking sockets on the I/O thread.
#include "io/drivers/inet_driver.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <initializer_list>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include "io/drivers/stream_driver.hpp"
#include "io/io_layer.hpp"
#include "io/packet_parser.hpp"
#include "io/packet_terms.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/port.hpp"
#include "vm/posix_errors.hpp"
#include "vm/vm.hpp"

namespace beamlet::io {

using namespace vm;

namespace {

// ---- the protocol (OTP's inet_int.hrl) -----------------------------------------------------

// prim_inet adds this to every port_control operation.
constexpr unsigned CONTROL_MAGIC = 0x03f1a300;

enum Request : unsigned {
    REQ_OPEN = 1, REQ_CLOSE = 2, REQ_CONNECT = 3, REQ_PEER = 4, REQ_NAME = 5, REQ_BIND = 6,
    REQ_SETOPTS = 7, REQ_GETOPTS = 8, REQ_GETSTAT = 11, REQ_GETHOSTNAME = 12, REQ_FDOPEN = 13,
    REQ_GETFD = 14, REQ_GETTYPE = 15, REQ_GETSTATUS = 16, REQ_GETSERVBYNAME = 17,
    REQ_GETSERVBYPORT = 18, REQ_SETNAME = 19, REQ_SETPEER = 20, REQ_GETIFLIST = 21, REQ_IFGET = 22,
    REQ_SUBSCRIBE = 24, REQ_GETIFADDRS = 25, REQ_ACCEPT = 26, REQ_LISTEN = 27, REQ_IGNOREFD = 28,
    TCP_REQ_RECV = 42, TCP_REQ_UNRECV = 43, TCP_REQ_SHUTDOWN = 44, TCP_REQ_SENDFILE = 45, PACKET_REQ_RECV = 60,
};

constexpr char REP_ERROR = 0, REP_OK = 1;

enum Family : std::uint8_t { AF_TAG_INET = 1, AF_TAG_INET6 = 2, AF_TAG_ANY = 3, AF_TAG_LOOPBACK = 4, AF_TAG_LOCAL = 5 };
enum SockType : std::uint8_t { TYPE_STREAM = 1, TYPE_DGRAM = 2 };
enum Active : std::int32_t { PASSIVE = 0, ACTIVE = 1, ONCE = 2, MULTI = 3 };

enum Option : std::uint8_t {
    OPT_REUSEADDR = 0, OPT_KEEPALIVE = 1, OPT_DONTROUTE = 2, OPT_LINGER = 3, OPT_BROADCAST = 4,
    OPT_OOBINLINE = 5, OPT_SNDBUF = 6, OPT_RCVBUF = 7, OPT_PRIORITY = 8, OPT_TOS = 9,
    OPT_NODELAY = 10, OPT_MULTICAST_IF = 11, OPT_MULTICAST_TTL = 12, OPT_MULTICAST_LOOP = 13,
    OPT_ADD_MEMBERSHIP = 14, OPT_DROP_MEMBERSHIP = 15, OPT_IPV6_V6ONLY = 16,
    LOPT_BUFFER = 20, LOPT_HEADER = 21, LOPT_ACTIVE = 22, LOPT_PACKET = 23, LOPT_MODE = 24,
    LOPT_DELIVER = 25, LOPT_EXITONCLOSE = 26, LOPT_HIWTRMRK = 27, LOPT_LOWTRMRK = 28,
    LOPT_SEND_TIMEOUT = 30, LOPT_DELAY_SEND = 31, LOPT_PACKET_SIZE = 32, LOPT_READ_PACKETS = 33,
    OPT_RAW = 34, LOPT_SEND_TIMEOUT_CLOSE = 35, LOPT_MSGQ_HIWTRMRK = 36, LOPT_MSGQ_LOWTRMRK = 37,
    LOPT_NETNS = 38, LOPT_SHOW_ECONNRESET = 39, LOPT_LINE_DELIM = 40, OPT_TCLASS = 41,
    OPT_BIND_TO_DEVICE = 42, OPT_RECVTOS = 43, OPT_RECVTCLASS = 44, OPT_PKTOPTIONS = 45, OPT_TTL = 46,
    OPT_RECVTTL = 47, OPT_NOPUSH = 48, OPT_DEBUG = 99,
};

enum StatusFlag : std::uint32_t {
    F_OPEN = 0x01, F_BOUND = 0x02, F_ACTIVE = 0x04, F_LISTEN = 0x08, F_CON = 0x10, F_ACC = 0x20, F_BUSY = 0x80,
};

enum Stat : std::uint8_t {
    STAT_RECV_CNT = 1, STAT_RECV_MAX = 2, STAT_RECV_AVG = 3, STAT_RECV_DVI = 4, STAT_SEND_CNT = 5,
    STAT_SEND_MAX = 6, STAT_SEND_AVG = 7, STAT_SEND_PEND = 8, STAT_RECV_OCT = 9, STAT_SEND_OCT = 10,
};

// {packet, Type}'s codes (TCP_PB_*), in PacketType's terms.
constexpr PacketType PACKET_TYPES[] = {
    PacketType::Raw,  PacketType::One,  PacketType::Two,   PacketType::Four,   PacketType::Asn1,
    PacketType::SunRm, PacketType::Cdr, PacketType::Fcgi,  PacketType::Line,   PacketType::Tpkt,
    PacketType::Http, PacketType::HttpH, PacketType::SslTls, PacketType::HttpBin, PacketType::HttpHBin,
};

constexpr std::size_t TCP_MAX_PACKET_BYTES = 0x4000000;  // 64 MB: recv(S, N) longer is enomem
constexpr std::size_t READ_CHUNK_BYTES = 64 * 1024;
constexpr int READS_PER_TURN = 16;
// Buffer capacity a connection keeps once its input was delivered (its output written).
constexpr std::size_t IDLE_BUFFER_BYTES = 4096;

// ---- bytes in, bytes out --------------------------------------------------------------------

// Reads big-endian integers from a request.
class Reader {
public:
    explicit Reader(std::string_view bytes) : m_bytes(bytes) {}
    bool u8(std::uint32_t* v) { return take(1, v); }
    bool u16(std::uint32_t* v) { return take(2, v); }
    bool u32(std::uint32_t* v) { return take(4, v); }
    bool i32(std::int32_t* v) {
        std::uint32_t u;
        if (!take(4, &u)) return false;
        *v = std::int32_t(u);
        return true;
    }
    bool bytes(std::size_t n, std::string_view* out) {
        if (m_bytes.size() - m_at < n) return false;
        *out = m_bytes.substr(m_at, n);
        m_at += n;
        return true;
    }
    std::string_view rest() const { return m_bytes.substr(m_at); }
    bool done() const { return m_at == m_bytes.size(); }

private:
    bool take(std::size_t n, std::uint32_t* v) {
        if (m_bytes.size() - m_at < n) return false;
        std::uint32_t x = 0;
        for (std::size_t i = 0; i < n; ++i) x = (x << 8) | static_cast<std::uint8_t>(m_bytes[m_at + i]);
        m_at += n;
        *v = x;
        return true;
    }
    std::string_view m_bytes;
    std::size_t m_at = 0;
};

void put_u8(std::string& out, std::uint32_t v) { out.push_back(char(v & 0xFF)); }
void put_u16(std::string& out, std::uint32_t v) {
    put_u8(out, v >> 8);
    put_u8(out, v);
}
void put_u32(std::string& out, std::uint32_t v) {
    put_u16(out, v >> 16);
    put_u16(out, v);
}
void put_u64(std::string& out, std::uint64_t v) {
    put_u32(out, std::uint32_t(v >> 32));
    put_u32(out, std::uint32_t(v));
}

std::string ok_reply(std::string_view data = {}) {
    std::string r(1, REP_OK);
    r.append(data);
    return r;
}

std::string error_reply(std::string_view name) {
    std::string r(1, REP_ERROR);
    r.append(name);
    return r;
}

std::string errno_reply(int err) { return error_reply(posix_error_name(err)); }

// A socket address, as requests encode it and replies report it.
struct SockAddr {
    sockaddr_storage storage{};
    socklen_t length = 0;
    const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
    sockaddr* get() { return reinterpret_cast<sockaddr*>(&storage); }
};

// Decodes an address ([family][port][ip...]) for a socket of [family] (ANY and LOOPBACK take
// the socket's own family). False when malformed or of another family.
bool read_address(Reader& r, int family, SockAddr* out, bool* any_zero = nullptr) {
    std::uint32_t tag, port;
    if (!r.u8(&tag)) return false;
    if (tag == AF_TAG_LOCAL) {
        std::uint32_t n;
        std::string_view path;
        if (!r.u8(&n) || !r.bytes(n, &path) || family != AF_UNIX) return false;
        auto* un = reinterpret_cast<sockaddr_un*>(&out->storage);
        if (path.size() >= sizeof un->sun_path) return false;
        un->sun_family = AF_UNIX;
        std::memcpy(un->sun_path, path.data(), path.size());
        out->length = socklen_t(offsetof(sockaddr_un, sun_path) + path.size());
        return true;
    }
    if (!r.u16(&port)) return false;
    if (any_zero) *any_zero = tag == AF_TAG_ANY && port == 0;
    if (tag == AF_TAG_ANY || tag == AF_TAG_LOOPBACK) tag = family == AF_INET6 ? AF_TAG_INET6 : AF_TAG_INET;
    if (tag == AF_TAG_INET) {
        if (family != AF_INET) return false;
        auto* in = reinterpret_cast<sockaddr_in*>(&out->storage);
        in->sin_family = AF_INET;
        in->sin_port = htons(std::uint16_t(port));
        std::string_view ip;
        if (r.rest().size() >= 4 && !(any_zero && *any_zero)) {
            r.bytes(4, &ip);
            std::memcpy(&in->sin_addr, ip.data(), 4);
        }
        out->length = sizeof(sockaddr_in);
        return true;
    }
    if (tag == AF_TAG_INET6) {
        if (family != AF_INET6) return false;
        auto* in6 = reinterpret_cast<sockaddr_in6*>(&out->storage);
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(std::uint16_t(port));
        std::string_view ip;
        if (r.bytes(16, &ip)) {
            std::memcpy(&in6->sin6_addr, ip.data(), 16);
            std::uint32_t flow = 0, scope = 0;
            if (r.u32(&flow) && r.u32(&scope)) {
                in6->sin6_flowinfo = htonl(flow);
                in6->sin6_scope_id = scope;
            }
        }
        out->length = sizeof(sockaddr_in6);
        return true;
    }
    return false;
}

// ANY and LOOPBACK addresses of [family] with [port] (a request's address that named no IP).
void fill_special(Reader r, int family, SockAddr* out) {
    std::uint32_t tag = 0;
    r.u8(&tag);
    if (tag == AF_TAG_LOOPBACK) {
        if (family == AF_INET6) reinterpret_cast<sockaddr_in6*>(&out->storage)->sin6_addr = in6addr_loopback;
        else reinterpret_cast<sockaddr_in*>(&out->storage)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    }
}

// [family][port][ip], as prim_inet's get_addr reads it.
void put_address(std::string& out, const sockaddr_storage& a, socklen_t length) {
    if (a.ss_family == AF_INET) {
        const auto& in = reinterpret_cast<const sockaddr_in&>(a);
        put_u8(out, AF_TAG_INET);
        put_u16(out, ntohs(in.sin_port));
        out.append(reinterpret_cast<const char*>(&in.sin_addr), 4);
    } else if (a.ss_family == AF_INET6) {
        const auto& in6 = reinterpret_cast<const sockaddr_in6&>(a);
        put_u8(out, AF_TAG_INET6);
        put_u16(out, ntohs(in6.sin6_port));
        out.append(reinterpret_cast<const char*>(&in6.sin6_addr), 16);
    } else if (a.ss_family == AF_UNIX) {
        const auto& un = reinterpret_cast<const sockaddr_un&>(a);
        std::size_t n = length > offsetof(sockaddr_un, sun_path) ? length - offsetof(sockaddr_un, sun_path) : 0;
        n = strnlen(un.sun_path, n);
        put_u8(out, AF_TAG_LOCAL);
        put_u8(out, std::uint32_t(n));
        out.append(un.sun_path, n);
    } else {
        put_u8(out, 0);  // unspec
    }
}

std::int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

// ---- terms for messages ---------------------------------------------------------------------

// (Out of line: inlined into a fragment's alloc, GCC takes the fragment's one-word array for its size.)
[[gnu::noinline]] Term tuple_at(Term* hp, std::initializer_list<Term> elements) {
    hp[0] = make_arityval(elements.size());
    Word i = 1;
    for (Term e : elements) hp[i++] = e;
    return make_boxed(hp);
}

// Builds one message in its own fragment.
class Outgoing {
public:
    explicit Outgoing(Word words) : m_frag(HeapFragment::create(words + 16)) {}
    ~Outgoing() { free_fragment(m_frag); }
    Outgoing(const Outgoing&) = delete;
    Outgoing& operator=(const Outgoing&) = delete;

    Term tuple(std::initializer_list<Term> elements) { return tuple_at(m_frag->alloc(elements.size() + 1), elements); }
    Term binary(std::string_view bytes) {
        return make_binary_in(m_frag->alloc(binary_words(bytes.size())), &m_frag->off_heap_first,
                              reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    // [bytes] as a list of integers ending in [tail].
    Term byte_list(std::string_view bytes, Term tail = NIL) {
        Term* cells = m_frag->alloc(2 * bytes.size());
        Term l = tail;
        for (std::size_t i = bytes.size(); i-- > 0;)
            l = make_cons_on(cells + 2 * i, make_small(static_cast<std::uint8_t>(bytes[i])), l);
        return l;
    }
    // Sends [msg], built here, to [to] (the fragment goes with it), traced as the port's send.
    void send(Port& port, Term to, Term msg) { port.send_to(to, msg, take()); }
    void send_to_owner(Port& port, Term msg) { port.send_to_owner(msg, take()); }

private:
    HeapFragment* take() {
        HeapFragment* f = m_frag;
        m_frag = nullptr;
        return f;
    }

    HeapFragment* m_frag;
};

// Words a data term of [n] bytes may need.
Word data_words(std::size_t n) { return 2 * n + binary_words(n) + 8; }

// ---- the driver -----------------------------------------------------------------------------

enum class Protocol { Tcp, Udp };

// A request that answers later: {inet_async, S, Ref, Result} to [caller].
struct AsyncOp {
    enum class Kind { Connect, Accept, Recv } kind;
    std::uint16_t ref;
    Term caller;
    std::size_t length;     // Recv: the bytes asked for (0: what is there, or a packet)
    std::int64_t deadline;  // steady milliseconds, or -1
};

class InetDriver final : public PortDriver {
public:
    explicit InetDriver(Protocol protocol) : m_protocol(protocol) {
        if (protocol == Protocol::Udp) m_buffer_bytes = 8192;
    }
    ~InetDriver() override {
        close_fd(m_fd);
        close_fd(m_timer_fd);
    }

    // An accepted connection: [fd] connected, options copied by prim_inet afterwards.
    static std::unique_ptr<InetDriver> accepted(const InetDriver& listener, int fd) {
        auto d = std::make_unique<InetDriver>(Protocol::Tcp);
        d->m_fd = fd;
        d->m_family = listener.m_family;
        d->m_connected = true;
        d->m_bound = true;
        d->m_mode_binary = listener.m_mode_binary;
        d->m_packet = listener.m_packet;
        d->m_header = listener.m_header;
        d->m_packet_size = listener.m_packet_size;
        d->m_exit_on_close = listener.m_exit_on_close;
        d->m_deliver_port = listener.m_deliver_port;
        d->m_high_watermark = listener.m_high_watermark;
        d->m_low_watermark = listener.m_low_watermark;
        d->m_buffer_bytes = listener.m_buffer_bytes;
        d->m_line_delimiter = listener.m_line_delimiter;
        d->m_show_econnreset = listener.m_show_econnreset;
        d->m_send_timeout = listener.m_send_timeout;
        return d;
    }

    void start(Port& port) override {
        m_port_id = port.id;
        m_vm = &port.vm;
        if (m_fd >= 0) watch(port);
    }

    void output(Port& port, Term caller, std::string_view bytes) override {
        if (m_protocol == Protocol::Udp) return send_datagram(port, caller, bytes);
        if (!m_connected) {
            if (m_delayed_close_send) {
                m_delayed_close_send = false;
                return inet_reply(port, caller, atom("closed"));
            }
            return inet_reply(port, caller, atom(posix_error_name(ENOTCONN)));
        }
        char header[4];
        std::size_t header_bytes = 0;
        if (m_packet == PacketType::One || m_packet == PacketType::Two || m_packet == PacketType::Four) {
            header_bytes = m_packet == PacketType::One ? 1 : m_packet == PacketType::Two ? 2 : 4;
            // As inet_drv in OTP 25: a length that does not fit the header is cut to it, not
            // refused (gen_tcp:send/2 answers ok).
            std::size_t n = bytes.size();
            for (std::size_t i = header_bytes; i-- > 0; n >>= 8) header[i] = char(n & 0xFF);
        }
        ++m_send_cnt;
        m_send_max = std::max<std::uint64_t>(m_send_max, bytes.size());
        m_send_oct += bytes.size() + header_bytes;
        // Nothing queued: the data goes to the socket from where it is, and only what the
        // socket does not take now is copied into the queue.
        std::size_t sent = 0;
        if (!m_queued && m_fd >= 0 && !send_direct(std::string_view(header, header_bytes), bytes, &sent)) {
            drop_output();
            inet_reply(port, caller, atom(m_show_econnreset && m_send_error == ECONNRESET ? "econnreset" : "closed"));
            return send_failed(port);
        }
        if (sent < header_bytes) enqueue(std::string_view(header + sent, header_bytes - sent));
        enqueue(bytes.substr(sent > header_bytes ? sent - header_bytes : 0));
        if (!flush(port)) {
            inet_reply(port, caller, atom(m_show_econnreset && m_send_error == ECONNRESET ? "econnreset" : "closed"));
            return send_failed(port);
        }
        // A command that reaches a port already busy (beamlet queues one at once, where erts
        // holds it back until the port is free; or one that raced the busy flag) is
        // acknowledged: the first busy sender stays the one whose reply waits.
        if (m_queued < m_high_watermark || !port.is_open() || m_busy_caller) return inet_reply(port, caller, 0);
        // Past the high watermark the port is busy, and this sender's reply waits until the
        // queue is under the low one (or send_timeout passes), as inet_drv's busy_caller:
        // gen_tcp:send/2 returns when the socket has taken most of the data.
        m_busy_caller = caller;
        port.set_busy(true);
        if (m_send_timeout >= 0) {
            m_send_deadline = now_ms() + m_send_timeout;
            arm_timer();
        }
    }

    void output_all(Port& port, const std::vector<RuntimePacket>& packets) override {
        std::size_t header_bytes = m_packet == PacketType::One ? 1 : m_packet == PacketType::Two ? 2
                                 : m_packet == PacketType::Four ? 4 : 0;
        if (m_protocol == Protocol::Udp || !m_connected) {
            PortDriver::output_all(port, packets);
            if (m_queued >= RUNTIME_BUSY_BYTES) m_runtime_busy = true;
            return;
        }
        // Lengths for all, then one sendmsg over the length, head and body of each (up to
        // IOV_MAX parts at a time); what the socket does not take is queued, in order.
        std::vector<std::array<char, 4>> headers(packets.size());
        std::vector<iovec> parts;
        parts.reserve(3 * packets.size());
        for (std::size_t i = 0; i < packets.size(); ++i) {
            std::size_t n = packets[i].size();
            for (std::size_t k = header_bytes; k-- > 0; n >>= 8) headers[i][k] = char(n & 0xFF);
            if (header_bytes) parts.push_back({headers[i].data(), header_bytes});
            const std::string& head = packets[i].head;
            if (!head.empty()) parts.push_back({const_cast<char*>(head.data()), head.size()});
            std::string_view body = packets[i].body_bytes();
            if (!body.empty()) parts.push_back({const_cast<char*>(body.data()), body.size()});
            ++m_send_cnt;
            m_send_max = std::max<std::uint64_t>(m_send_max, packets[i].size());
            m_send_oct += packets[i].size() + header_bytes;
        }
        std::size_t next = 0;  // the first part not (wholly) written
        if (!m_queued && m_fd >= 0) {
            while (next < parts.size()) {
                msghdr msg{};
                msg.msg_iov = parts.data() + next;
                msg.msg_iovlen = std::min<std::size_t>(parts.size() - next, IOV_MAX);
                std::size_t asked = 0;
                for (std::size_t i = 0; i < msg.msg_iovlen; ++i) asked += msg.msg_iov[i].iov_len;
                ssize_t n = ::sendmsg(m_fd, &msg, MSG_NOSIGNAL);
                if (n < 0) {
                    if (errno == EINTR) continue;
                    if (errno == EAGAIN || errno == EWOULDBLOCK) break;
                    m_send_error = errno;
                    drop_output();
                    return send_failed(port);
                }
                std::size_t left = std::size_t(n);
                while (next < parts.size() && left >= parts[next].iov_len) left -= parts[next++].iov_len;
                if (left) {
                    parts[next].iov_base = static_cast<char*>(parts[next].iov_base) + left;
                    parts[next].iov_len -= left;
                }
                if (std::size_t(n) < asked) break;  // the socket is full
            }
        }
        for (; next < parts.size(); ++next) enqueue(std::string_view(static_cast<char*>(parts[next].iov_base), parts[next].iov_len));
        if (!flush(port)) return send_failed(port);
        if (m_queued >= RUNTIME_BUSY_BYTES) m_runtime_busy = true;
    }

    std::optional<std::string> control(Port& port, Term caller, unsigned operation, std::string_view data) override {
        if (operation < CONTROL_MAGIC) return std::nullopt;
        m_port_id = port.id;
        m_vm = &port.vm;
        std::string reply = request(port, caller, operation - CONTROL_MAGIC, data);
        // The descriptor is watched once it can have events: listening, connecting or
        // connected, or a datagram socket.
        if (m_fd >= 0 && !m_watched && (m_listening || m_connecting || m_connected || m_protocol == Protocol::Udp))
            watch(port);
        return reply;
    }

    void ready(Port& port, std::uint32_t events) override {
        if (events & IO_TIMER) expire_timeouts(port);
        if ((events & IO_WRITE) && m_connecting) finish_connect(port);
        if ((events & IO_WRITE) && m_queued) {
            flush(port);
            if (m_send_error && port.is_open()) send_failed(port);
        }
        if ((events & IO_READ) && port.is_open()) readable(port);
    }

    bool stop(Port& port, bool) override {
        // Whoever waits on this socket is told it closed (OTP's async_error_am_all).
        fail_all(port, atom("closed"));
        notify_empty_queue(port);
        release(port);
        return false;
    }

    std::size_t queue_size() const override { return m_queued; }
    bool wants_write() const override { return m_queued != 0 || m_connecting; }
    bool takes_vectors() const override { return true; }
    bool starts_with_io_turn() const override { return false; }
    bool wants_read() const override {
        if (m_listening) return find_op_const(AsyncOp::Kind::Accept);
        return wants_input() || m_connecting;
    }

private:
    std::string request(Port& port, Term caller, unsigned operation, std::string_view data) {
        Reader r(data);
        switch (operation) {
        case REQ_OPEN: return open(r);
        case REQ_FDOPEN: return open_fd(r);
        case REQ_CLOSE:
            release(port);
            return ok_reply();
        case REQ_BIND: return bind(r);
        case REQ_LISTEN: return listen(r);
        case REQ_CONNECT: return connect(port, caller, r);
        case REQ_ACCEPT: return accept(port, caller, r);
        case TCP_REQ_RECV: return recv(port, caller, r);
        case PACKET_REQ_RECV: return recvfrom(port, caller, r);
        case TCP_REQ_UNRECV:
            if (m_protocol != Protocol::Tcp) return errno_reply(ENOTSUP);
            m_in.insert(0, data);
            return ok_reply();
        case TCP_REQ_SHUTDOWN: return shutdown(r);
        // No sendfile(2) here: file:sendfile/5 then reads and sends the file itself (its
        // fallback for an inet driver without it, as on erl built without sendfile).
        case TCP_REQ_SENDFILE: return errno_reply(ENOTSUP);
        case REQ_PEER: return name(true);
        case REQ_NAME: return name(false);
        case REQ_SETPEER:
        case REQ_SETNAME: return errno_reply(ENOTSUP);
        case REQ_SETOPTS: return setopts(port, data);
        case REQ_GETOPTS: return getopts(data);
        case REQ_GETSTAT: return getstat(data);
        case REQ_GETHOSTNAME: return hostname();
        case REQ_GETFD:
            if (m_fd < 0) return errno_reply(EBADF);
            {
                std::string out;
                put_u32(out, std::uint32_t(m_fd));
                return ok_reply(out);
            }
        case REQ_IGNOREFD: return ok_reply();
        case REQ_GETTYPE: {
            if (m_fd < 0) return errno_reply(EBADF);
            std::string out;
            put_u32(out, m_family == AF_INET6 ? AF_TAG_INET6 : m_family == AF_UNIX ? AF_TAG_LOCAL : AF_TAG_INET);
            put_u32(out, m_protocol == Protocol::Tcp ? TYPE_STREAM : TYPE_DGRAM);
            return ok_reply(out);
        }
        case REQ_GETSTATUS: {
            std::string out;
            put_u32(out, status_flags(port));
            return ok_reply(out);
        }
        case REQ_GETSERVBYNAME: return service_by_name(r);
        case REQ_GETSERVBYPORT: return service_by_port(r);
        case REQ_SUBSCRIBE: return subscribe(caller, r);
        case REQ_GETIFADDRS: return interface_addresses();
        case REQ_GETIFLIST:
        case REQ_IFGET: return errno_reply(ENOTSUP);  // prim_inet asks these only without getifaddrs
        default: return errno_reply(EINVAL);
        }
    }

    // ---- opening ----

    std::string open(Reader& r) {
        std::uint32_t af, type;
        if (!r.u8(&af) || !r.u8(&type)) return errno_reply(EINVAL);
        if (m_fd >= 0) return errno_reply(EALREADY);
        int family = af == AF_TAG_INET ? AF_INET : af == AF_TAG_INET6 ? AF_INET6 : af == AF_TAG_LOCAL ? AF_UNIX : -1;
        int want = m_protocol == Protocol::Tcp ? TYPE_STREAM : TYPE_DGRAM;
        if (family < 0 || int(type) != want) return errno_reply(EAFNOSUPPORT);
        int fd = ::socket(family, (want == TYPE_STREAM ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) return errno_reply(errno);
        m_fd = fd;
        m_family = family;
        if (family == AF_INET6) {
            // As erl: an IPv6 socket takes IPv4 connections unless told otherwise.
            int zero = 0;
            ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
        }
        return ok_reply();
    }

    std::string open_fd(Reader& r) {
        std::uint32_t af, type, fd, bound = 1;
        if (!r.u8(&af) || !r.u8(&type) || !r.u32(&fd)) return errno_reply(EINVAL);
        r.u32(&bound);
        if (m_fd >= 0) return errno_reply(EALREADY);
        int copy = ::fcntl(int(fd), F_DUPFD_CLOEXEC, 0);
        if (copy < 0) return errno_reply(errno);
        ::fcntl(copy, F_SETFL, ::fcntl(copy, F_GETFL) | O_NONBLOCK);
        m_fd = copy;
        m_family = af == AF_TAG_INET6 ? AF_INET6 : af == AF_TAG_LOCAL ? AF_UNIX : AF_INET;
        m_bound = bound != 0;
        sockaddr_storage peer{};
        socklen_t n = sizeof peer;
        if (::getpeername(copy, reinterpret_cast<sockaddr*>(&peer), &n) == 0) m_connected = true;
        return ok_reply();
    }

    std::string bind(Reader& r) {
        if (m_fd < 0) return errno_reply(EINVAL);
        Reader copy = r;
        SockAddr a;
        if (!read_address(r, m_family, &a)) return errno_reply(EINVAL);
        fill_special(copy, m_family, &a);
        if (::bind(m_fd, a.get(), a.length) != 0) return errno_reply(errno);
        m_bound = true;
        sockaddr_storage s{};
        socklen_t n = sizeof s;
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&s), &n);
        std::string out;
        std::uint32_t port = s.ss_family == AF_INET    ? ntohs(reinterpret_cast<sockaddr_in&>(s).sin_port)
                             : s.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6&>(s).sin6_port)
                                                       : 0;
        put_u16(out, port);
        return ok_reply(out);
    }

    std::string listen(Reader& r) {
        std::uint32_t backlog;
        if (m_protocol != Protocol::Tcp || m_fd < 0 || !r.u16(&backlog)) return errno_reply(EINVAL);
        if (m_connected) return errno_reply(EISCONN);
        if (::listen(m_fd, int(std::int16_t(backlog))) != 0) return errno_reply(errno);
        m_listening = true;
        m_bound = true;
        return ok_reply();
    }

    // ---- asynchronous requests ----

    std::string async_reply(std::uint16_t ref) {
        std::string out;
        put_u16(out, ref);
        return ok_reply(out);
    }

    AsyncOp& enqueue_op(AsyncOp::Kind kind, Term caller, std::int32_t time, std::size_t length = 0) {
        AsyncOp op{kind, m_next_ref++, caller, length, time < 0 ? -1 : now_ms() + time};
        m_ops.push_back(op);
        if (op.deadline >= 0) arm_timer();
        return m_ops.back();
    }

    std::string connect(Port& port, Term caller, Reader& r) {
        std::int32_t time;
        if (m_fd < 0 || !r.i32(&time)) return errno_reply(EINVAL);
        Reader copy = r;
        SockAddr a;
        if (!read_address(r, m_family, &a)) return errno_reply(EINVAL);
        fill_special(copy, m_family, &a);
        if (m_protocol == Protocol::Udp) {
            if (::connect(m_fd, a.get(), a.length) != 0) return errno_reply(errno);
            m_connected = true;
            std::uint16_t ref = m_next_ref++;
            async_result(port, caller, ref, atoms::ok);
            return async_reply(ref);
        }
        if (m_connected) return errno_reply(EISCONN);
        if (m_listening || m_connecting) return errno_reply(EINVAL);
        if (::connect(m_fd, a.get(), a.length) == 0) {
            m_connected = true;
            m_bound = true;
            std::uint16_t ref = m_next_ref++;
            async_result(port, caller, ref, atoms::ok);
            return async_reply(ref);
        }
        if (errno != EINPROGRESS) return errno_reply(errno);
        m_connecting = true;
        std::uint16_t ref = enqueue_op(AsyncOp::Kind::Connect, caller, time).ref;
        watch(port);
        return async_reply(ref);
    }

    void finish_connect(Port& port) {
        int err = 0;
        socklen_t n = sizeof err;
        if (::getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &err, &n) != 0) err = errno;
        if (err == EINPROGRESS || err == EALREADY) return;
        m_connecting = false;
        auto it = find_op(AsyncOp::Kind::Connect);
        if (err == 0) {
            m_connected = true;
            m_bound = true;
        } else {
            // As erl: the socket is not usable after a failed connect.
            release(port);
        }
        if (it == m_ops.end()) return;
        AsyncOp op = *it;
        m_ops.erase(it);
        async_result(port, op.caller, op.ref, err == 0 ? atoms::ok : 0, err ? atom(posix_error_name(err)) : 0);
        if (err == 0) readable(port);
    }

    std::string accept(Port& port, Term caller, Reader& r) {
        std::int32_t time;
        if (!r.i32(&time)) return errno_reply(EINVAL);
        if (!m_listening) return errno_reply(EINVAL);
        std::uint16_t ref = enqueue_op(AsyncOp::Kind::Accept, caller, time).ref;
        accept_pending(port);
        if (time == 0) expire(port, [&](const AsyncOp& op) { return op.ref == ref; });
        return async_reply(ref);
    }

    void accept_pending(Port& port) {
        while (port.is_open()) {
            auto it = find_op(AsyncOp::Kind::Accept);
            if (it == m_ops.end()) return;
            int fd = ::accept4(m_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK) return;
                if (errno == EINTR || errno == ECONNABORTED) continue;
                AsyncOp op = *it;
                m_ops.erase(it);
                async_result(port, op.caller, op.ref, 0, atom(posix_error_name(errno)));
                continue;
            }
            AsyncOp op = *it;
            m_ops.erase(it);
            std::shared_ptr<Process> owner = port.vm.lookup_process(op.caller);
            if (!owner) {
                ::close(fd);
                continue;
            }
            // The new socket belongs to (and is linked to) the process that accepted it.
            std::shared_ptr<Port> socket = open_port(port.vm, owner.get(), accepted(*this, fd), "tcp_inet", atom("tcp_inet"), false, true);
            async_result(port, op.caller, op.ref, 0, 0, socket->id);
        }
    }

    std::string recv(Port& port, Term caller, Reader& r) {
        std::int32_t time;
        std::uint32_t length;
        if (m_protocol != Protocol::Tcp || !r.i32(&time) || !r.u32(&length)) return errno_reply(EINVAL);
        if (!m_connected) {
            if (m_delayed_close_recv) {
                m_delayed_close_recv = false;
                m_delayed_close_send = false;
                return error_reply("closed");
            }
            return errno_reply(ENOTCONN);
        }
        if (m_active != PASSIVE) return errno_reply(EINVAL);
        if (m_read_closed) return error_reply("closed");
        if (length > 0 && m_packet != PacketType::Raw) return errno_reply(EINVAL);
        if (length > TCP_MAX_PACKET_BYTES) return errno_reply(ENOMEM);
        std::uint16_t ref = enqueue_op(AsyncOp::Kind::Recv, caller, time, length).ref;
        deliver_input(port);
        if (find_ref(ref) != m_ops.end()) read_socket(port);
        if (time == 0) expire(port, [&](const AsyncOp& op) { return op.ref == ref; });
        return async_reply(ref);
    }

    std::string recvfrom(Port& port, Term caller, Reader& r) {
        std::int32_t time;
        std::uint32_t length;
        if (m_protocol != Protocol::Udp || !r.i32(&time) || !r.u32(&length)) return errno_reply(EINVAL);
        if (m_fd < 0) return errno_reply(ENOTCONN);
        if (m_active != PASSIVE) return errno_reply(EINVAL);
        std::uint16_t ref = enqueue_op(AsyncOp::Kind::Recv, caller, time, length).ref;
        read_datagrams(port);
        if (time == 0) expire(port, [&](const AsyncOp& op) { return op.ref == ref; });
        return async_reply(ref);
    }

    std::vector<AsyncOp>::iterator find_op(AsyncOp::Kind kind) {
        return std::find_if(m_ops.begin(), m_ops.end(), [&](const AsyncOp& op) { return op.kind == kind; });
    }
    std::vector<AsyncOp>::iterator find_ref(std::uint16_t ref) {
        return std::find_if(m_ops.begin(), m_ops.end(), [&](const AsyncOp& op) { return op.ref == ref; });
    }

    // {inet_async, S, Ref, Result}: ok ([ok]), {error, [error]}, {ok, [value]} or {ok, [data]}
    // (a data term built by [build], when given).
    template <typename Build>
    void async_message(Port& port, const AsyncOp& op, Word words, Build build) {
        static const Term am_inet_async = atom("inet_async");
        Outgoing m(words + 12);
        Term value = build(m);
        Term result = m.tuple({atoms::ok, value});
        m.send(port, op.caller, m.tuple({am_inet_async, port.id, make_small(op.ref), result}));
    }
    void async_result(Port& port, Term caller, std::uint16_t ref, Term plain, Term error = 0, Term ok_value = 0) {
        static const Term am_inet_async = atom("inet_async");
        Outgoing m(12);
        Term result = plain ? plain : error ? m.tuple({atoms::error, error}) : m.tuple({atoms::ok, ok_value});
        m.send(port, caller, m.tuple({am_inet_async, port.id, make_small(ref), result}));
    }

    // Fails every waiting request with {error, [reason]}.
    void fail_all(Port& port, Term reason) {
        std::vector<AsyncOp> ops;
        ops.swap(m_ops);
        for (const AsyncOp& op : ops) async_result(port, op.caller, op.ref, 0, reason);
        m_connecting = false;
    }

    // ---- timeouts ----

    void arm_timer() {
        std::int64_t earliest = m_send_deadline;
        for (const AsyncOp& op : m_ops)
            if (op.deadline >= 0 && (earliest < 0 || op.deadline < earliest)) earliest = op.deadline;
        if (earliest < 0) {
            if (m_timer_fd >= 0) {
                itimerspec off{};
                ::timerfd_settime(m_timer_fd, 0, &off, nullptr);
            }
            return;
        }
        if (m_timer_fd < 0) {
            m_timer_fd = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
            if (m_timer_fd < 0) return;
            layer_of().poller().watch(m_timer_fd, port_number(m_port_id), IO_TIMER);
        }
        std::int64_t delay = std::max<std::int64_t>(earliest - now_ms(), 1);
        itimerspec when{};
        when.it_value.tv_sec = delay / 1000;
        when.it_value.tv_nsec = (delay % 1000) * 1000000;
        ::timerfd_settime(m_timer_fd, 0, &when, nullptr);
    }

    void expire_timeouts(Port& port) {
        std::uint64_t count;
        while (m_timer_fd >= 0 && ::read(m_timer_fd, &count, sizeof count) > 0) {}
        std::int64_t now = now_ms();
        expire(port, [&](const AsyncOp& op) { return op.deadline >= 0 && op.deadline <= now; });
        if (m_send_deadline >= 0 && m_send_deadline <= now && m_busy_caller && port.is_open()) send_timed_out(port);
        arm_timer();
    }

    // Ends the requests [due] picks with {error, timeout}.
    template <typename Due>
    void expire(Port& port, Due due) {
        for (auto it = m_ops.begin(); it != m_ops.end();) {
            if (!due(*it)) {
                ++it;
                continue;
            }
            AsyncOp op = *it;
            it = m_ops.erase(it);
            if (op.kind == AsyncOp::Kind::Connect) {
                m_connecting = false;
                release(port);
            }
            async_result(port, op.caller, op.ref, 0, atom("timeout"));
        }
    }

    // ---- input ----

    void readable(Port& port) {
        if (m_listening) return accept_pending(port);
        if (m_protocol == Protocol::Udp) return read_datagrams(port);
        read_socket(port);
    }

    // Whether input is wanted now: an active socket, or a recv waiting.
    bool wants_input() const { return m_active != PASSIVE || find_recv() != m_ops.end(); }
    std::vector<AsyncOp>::const_iterator find_recv() const {
        return std::find_if(m_ops.begin(), m_ops.end(), [](const AsyncOp& op) { return op.kind == AsyncOp::Kind::Recv; });
    }

    void read_socket(Port& port) {
        // What was read before (more than one packet, or before the socket went passive)
        // goes first.
        deliver_input(port);
        for (int i = 0; i < READS_PER_TURN; ++i) {
            if (m_fd < 0 || !m_connected || m_read_closed || !port.is_open() || !wants_input()) return;
            ssize_t n;
            if (std::size_t missing = packet_missing(); missing > READ_CHUNK_BYTES) {
                // Most of a large packet still to come, its length known: read straight into
                // the input buffer, grown once to the packet's size.
                std::size_t had = m_in.size();
                m_in.resize(had + missing);
                n = ::recv(m_fd, m_in.data() + had, missing, 0);
                m_in.resize(had + std::size_t(std::max<ssize_t>(n, 0)));
            } else {
                // Read into this thread's buffer: an idle connection keeps no 64 KB of its own.
                static thread_local std::unique_ptr<char[]> chunk(new char[READ_CHUNK_BYTES]);
                n = ::recv(m_fd, chunk.get(), READ_CHUNK_BYTES, 0);
                if (n > 0) m_in.append(chunk.get(), std::size_t(n));
            }
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) return;
                return input_failed(port, errno);
            }
            if (n == 0) return input_closed(port);
            m_recv_oct += std::size_t(n);
            deliver_input(port);
            if (m_in.empty() && m_in.capacity() > IDLE_BUFFER_BYTES) std::string().swap(m_in);
        }
        // A fast sender: others run, then this socket reads on.
        port.io_events.fetch_or(IO_READ, std::memory_order_release);
        port.reschedule();
    }

    // The bytes still missing from the packet m_in starts with, when a length header says
    // how long it is ({packet, 1 | 2 | 4}); 0 otherwise.
    std::size_t packet_missing() const {
        std::size_t header = m_packet == PacketType::One ? 1 : m_packet == PacketType::Two ? 2 : m_packet == PacketType::Four ? 4 : 0;
        if (!header || m_in.size() < header) return 0;
        std::size_t length = 0;
        for (std::size_t i = 0; i < header; ++i) length = length << 8 | std::uint8_t(m_in[i]);
        if (m_packet_size && length > std::size_t(m_packet_size)) return 0;  // refused by deliver_input
        return header + length > m_in.size() ? header + length - m_in.size() : 0;
    }

    // Hands out what m_in holds, packet by packet, while someone wants it. What went out is
    // erased once at the end: erasing each packet from the front moved the rest of a 64 KB
    // read for every small packet (quadratic in a burst of distribution messages).
    void deliver_input(Port& port) {
        std::size_t used = 0;
        deliver_packets(port, used);
        m_in.erase(0, std::min(used, m_in.size()));  // input_failed may have emptied it
    }

    void deliver_packets(Port& port, std::size_t& used) {
        while (port.is_open() && used < m_in.size() && wants_input()) {
            std::string_view in = std::string_view(m_in).substr(used);
            auto recv = find_recv();
            if (m_packet == PacketType::Raw) {
                std::size_t want = m_active == PASSIVE ? recv->length : 0;
                std::size_t take = 0;
                if (want == 0) take = in.size();
                else if (in.size() >= want) take = want;
                else return;
                used += take;
                deliver_packet(port, in.substr(0, take));
                continue;
            }
            PacketLimits limits;
            limits.max_packet_bytes = std::uint32_t(m_packet_size);
            limits.max_line_bytes = std::uint32_t(m_buffer_bytes);
            limits.line_delimiter = m_line_delimiter;
            bool in_headers = m_http_in_headers || m_packet == PacketType::HttpH || m_packet == PacketType::HttpHBin;
            PacketLength l = packet_length(m_packet, in, limits, in_headers);
            if (l.status == PacketLength::Status::Invalid) return input_failed(port, EMSGSIZE);
            if (l.status == PacketLength::Status::NeedMore) return;
            std::string_view packet = in.substr(0, l.size_bytes);
            used += l.size_bytes;
            if (is_http(m_packet)) deliver_http(port, packet, in_headers);
            else if (m_packet == PacketType::SslTls) deliver_tls(port, packet);
            else deliver_packet(port, packet_body(m_packet, packet));
        }
    }

    // The waiting recv gets {ok, Data} with the Data [build] makes (in [words] words); its
    // timeout goes with it.
    template <class Build>
    void answer_recv(Port& port, Word words, Build build) {
        auto it = find_op(AsyncOp::Kind::Recv);
        AsyncOp op = *it;
        m_ops.erase(it);
        if (op.deadline >= 0) arm_timer();
        async_message(port, op, words, build);
    }

    // One HTTP line: {http, S, HttpPacket} when active, {ok, HttpPacket} for a recv; a start
    // line takes the connection into its headers, http_eoh out of them.
    void deliver_http(Port& port, std::string_view line, bool in_headers) {
        struct Heap {
            Outgoing& m;
            bool binaries;
            Term tuple(std::initializer_list<Term> elements) { return m.tuple(elements); }
            Term string(std::string_view s) { return binaries ? m.binary(s) : m.byte_list(s); }
        };
        ++m_recv_cnt;
        m_recv_max = std::max<std::uint64_t>(m_recv_max, line.size());
        Word words = 3 * data_words(line.size()) + 64;
        HttpMessage::Kind kind;
        auto build = [&](Outgoing& m) {
            Heap heap{m, is_http_bin(m_packet)};
            return http_term(heap, line, in_headers, &kind);
        };
        if (m_active == PASSIVE) {
            answer_recv(port, words, build);
        } else {
            Outgoing m(words + 8);
            Term packet = build(m);
            m.send_to_owner(port, m.tuple({atom("http"), port.id, packet}));
        }
        if (kind == HttpMessage::Kind::Request || kind == HttpMessage::Kind::Response) m_http_in_headers = true;
        else if (kind == HttpMessage::Kind::EndOfHeaders) m_http_in_headers = false;
        if (m_active != PASSIVE) after_active_delivery(port, atom("tcp_passive"));
    }

    // One TLS record: {ssl_tls, S, ContentType, {Major, Minor}, Body} (a binary in list mode
    // too), and {ok, that} for a recv (inet_drv's ssl_tls packet callback).
    void deliver_tls(Port& port, std::string_view record) {
        static const Term am_ssl_tls = atom("ssl_tls");
        ++m_recv_cnt;
        m_recv_max = std::max<std::uint64_t>(m_recv_max, record.size());
        TlsRecord r = parse_tls_record(record);
        std::string body = r.body();
        Word words = data_words(body.size()) + 12;
        auto build = [&](Outgoing& m) {
            return m.tuple({am_ssl_tls, port.id, make_small(r.content_type),
                            m.tuple({make_small(r.major), make_small(r.minor)}), m.binary(body)});
        };
        if (m_active == PASSIVE) return answer_recv(port, words, build);
        Outgoing m(words);
        m.send_to_owner(port, build(m));
        after_active_delivery(port, atom("tcp_passive"));
    }

    // Data term: a binary (the first [header] bytes as a list before it) or a list.
    Term data_term(Outgoing& m, std::string_view bytes) {
        if (!m_mode_binary) return m.byte_list(bytes);
        std::size_t h = std::min<std::size_t>(m_header, bytes.size());
        Term tail = m.binary(bytes.substr(h));
        return m.byte_list(bytes.substr(0, h), tail);
    }

    void deliver_packet(Port& port, std::string_view bytes) {
        ++m_recv_cnt;
        m_recv_max = std::max<std::uint64_t>(m_recv_max, bytes.size());
        // A distribution port's packets are the distribution's (OTP's erts_net_message).
        if (port.distribution.load(std::memory_order_acquire) && port.vm.services.dist)
            return port.vm.services.dist->input(port, bytes);
        if (m_active == PASSIVE)
            return answer_recv(port, data_words(bytes.size()), [&](Outgoing& m) { return data_term(m, bytes); });
        static const Term am_tcp = atom("tcp");
        Outgoing m(data_words(bytes.size()) + 8);
        Term data = data_term(m, bytes);
        Term msg = m_deliver_port ? m.tuple({port.id, m.tuple({atom("data"), data})}) : m.tuple({am_tcp, port.id, data});
        m.send_to_owner(port, msg);
        after_active_delivery(port, atom("tcp_passive"));
    }

    // active once turns passive after one message; active N after N, with {tcp_passive, S}.
    void after_active_delivery(Port& port, Term passive_tag) {
        if (m_active == ONCE) {
            m_active = PASSIVE;
        } else if (m_active == MULTI && --m_active_count <= 0) {
            m_active = PASSIVE;
            m_active_count = 0;
            Outgoing m(4);
            m.send_to_owner(port, m.tuple({passive_tag, port.id}));
        }
    }

    // The peer closed its side (read gave 0 bytes).
    void input_closed(Port& port) {
        static const Term am_tcp_closed = atom("tcp_closed"), am_closed = atom("closed");
        m_in.clear();
        if (m_active == PASSIVE) {
            // The waiting recv gets closed; with exit_on_close the socket goes (the next recv
            // is enotconn, the next send closed), else only its reading side.
            fail_all(port, am_closed);
            if (m_exit_on_close) {
                close_socket(port);
                m_delayed_close_recv = false;
            } else {
                m_read_closed = true;
            }
            return;
        }
        Outgoing m(4);
        m.send_to_owner(port, m.tuple({am_tcp_closed, port.id}));
        // exit_on_close: the port goes, its links with it, without exit signals (as erl).
        if (m_exit_on_close) port.terminate(atoms::normal, 0, false);
        else m_read_closed = true;
    }

    // Reading failed with [err].
    void input_failed(Port& port, int err) {
        static const Term am_tcp_error = atom("tcp_error"), am_tcp_closed = atom("tcp_closed");
        bool shown = err != ECONNRESET || m_show_econnreset;
        Term reason = shown ? atom(posix_error_name(err)) : atom("closed");
        m_in.clear();
        if (m_active == PASSIVE) {
            fail_all(port, reason);
            close_socket(port);
            m_delayed_close_recv = false;
            return;
        }
        if (shown) {
            Outgoing m(4);
            m.send_to_owner(port, m.tuple({am_tcp_error, port.id, reason}));
        }
        Outgoing m(4);
        m.send_to_owner(port, m.tuple({am_tcp_closed, port.id}));
        if (m_exit_on_close) port.terminate(atoms::normal, 0, false);
        else close_socket(port);
    }

    // The descriptor closes; the port stays (a passive socket, or exit_on_close false), its
    // next recv answering closed once, then enotconn.
    void close_socket(Port& port) {
        m_delayed_close_recv = true;
        m_delayed_close_send = true;
        release(port);
    }

    // ---- datagrams ----

    void read_datagrams(Port& port) {
        for (int i = 0; i < std::max(1, m_read_packets) && port.is_open() && m_fd >= 0 && wants_input(); ++i) {
            std::string buffer(std::max<std::size_t>(m_buffer_bytes, 1), '\0');
            sockaddr_storage from{};
            socklen_t from_length = sizeof from;
            ssize_t n = ::recvfrom(m_fd, buffer.data(), buffer.size(), 0, reinterpret_cast<sockaddr*>(&from), &from_length);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) return;
                // An ICMP error (econnrefused on a connected socket): the waiting recv gets it.
                if (m_active == PASSIVE) {
                    auto it = find_op(AsyncOp::Kind::Recv);
                    AsyncOp op = *it;
                    m_ops.erase(it);
                    async_result(port, op.caller, op.ref, 0, atom(posix_error_name(errno)));
                } else {
                    Outgoing m(6);
                    m.send_to_owner(port, m.tuple({atom("udp_error"), port.id, atom(posix_error_name(errno))}));
                }
                continue;
            }
            buffer.resize(std::size_t(n));
            ++m_recv_cnt;
            m_recv_max = std::max<std::uint64_t>(m_recv_max, buffer.size());
            m_recv_oct += buffer.size();
            deliver_datagram(port, from, from_length, buffer);
        }
        if (port.is_open() && wants_input()) {
            port.io_events.fetch_or(IO_READ, std::memory_order_release);
            port.reschedule();
        }
    }

    void deliver_datagram(Port& port, const sockaddr_storage& from, socklen_t from_length, std::string_view bytes) {
        std::string address;
        put_address(address, from, from_length);
        Word words = data_words(bytes.size()) + 2 * address.size() + 16;
        if (m_active == PASSIVE) {
            auto it = find_op(AsyncOp::Kind::Recv);
            AsyncOp op = *it;
            m_ops.erase(it);
            if (op.deadline >= 0) arm_timer();
            // {ok, [F, P1, P0 | IP ++ Data]}: the address bytes before the data.
            async_message(port, op, words, [&](Outgoing& m) {
                Term data = m_mode_binary ? m.binary(bytes) : m.byte_list(bytes);
                return m.byte_list(address, data);
            });
            return;
        }
        Outgoing m(words);
        Term ip, port_number_term;
        ip_and_port(m, from, &ip, &port_number_term);
        Term data = data_term(m, bytes);
        Term msg = m_deliver_port ? m.tuple({port.id, m.tuple({atom("data"), data})})
                                  : m.tuple({atom("udp"), port.id, ip, port_number_term, data});
        m.send_to_owner(port, msg);
        after_active_delivery(port, atom("udp_passive"));
    }

    static void ip_and_port(Outgoing& m, const sockaddr_storage& a, Term* ip, Term* port) {
        if (a.ss_family == AF_INET) {
            const auto& in = reinterpret_cast<const sockaddr_in&>(a);
            const auto* b = reinterpret_cast<const std::uint8_t*>(&in.sin_addr);
            *ip = m.tuple({make_small(b[0]), make_small(b[1]), make_small(b[2]), make_small(b[3])});
            *port = make_small(ntohs(in.sin_port));
        } else if (a.ss_family == AF_INET6) {
            const auto& in6 = reinterpret_cast<const sockaddr_in6&>(a);
            const auto* b = reinterpret_cast<const std::uint8_t*>(&in6.sin6_addr);
            Term parts[8];
            for (int i = 0; i < 8; ++i) parts[i] = make_small((b[2 * i] << 8) | b[2 * i + 1]);
            *ip = m.tuple({parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6], parts[7]});
            *port = make_small(ntohs(in6.sin6_port));
        } else {
            *ip = m.tuple({atom("local"), m.binary({})});
            *port = make_small(0);
        }
    }

    void send_datagram(Port& port, Term caller, std::string_view bytes) {
        Reader r(bytes);
        Reader copy = r;
        SockAddr a;
        bool any_zero = false;
        std::uint32_t anc_bytes;
        std::string_view anc;
        if (m_fd < 0) return inet_reply(port, caller, atom(posix_error_name(EBADF)));
        if (!read_address(r, m_family, &a, &any_zero) || !r.u32(&anc_bytes) || !r.bytes(anc_bytes, &anc))
            return inet_reply(port, caller, atom(posix_error_name(EINVAL)));
        fill_special(copy, m_family, &a);
        std::string_view payload = r.rest();
        ssize_t n = any_zero ? ::send(m_fd, payload.data(), payload.size(), MSG_NOSIGNAL)
                             : ::sendto(m_fd, payload.data(), payload.size(), MSG_NOSIGNAL, a.get(), a.length);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return inet_reply(port, caller, atom(posix_error_name(errno)));
        ++m_send_cnt;
        m_send_max = std::max<std::uint64_t>(m_send_max, payload.size());
        m_send_oct += payload.size();
        inet_reply(port, caller, 0);
    }

    // ---- output ----

    // {inet_reply, S, ok} or {inet_reply, S, {error, [error]}} to [caller].
    void inet_reply(Port& port, Term caller, Term error) {
        static const Term am_inet_reply = atom("inet_reply");
        if (!caller) return;
        Outgoing m(8);
        Term status = error ? m.tuple({atoms::error, error}) : atoms::ok;
        m.send(port, caller, m.tuple({am_inet_reply, port.id, status}));
    }

    // Writes [header] and [body] with one sendmsg, as much as the socket takes ([*sent]);
    // false on an error (m_send_error says which).
    bool send_direct(std::string_view header, std::string_view body, std::size_t* sent) {
        iovec parts[2] = {{const_cast<char*>(header.data()), header.size()},
                          {const_cast<char*>(body.data()), body.size()}};
        msghdr msg{};
        msg.msg_iov = header.empty() ? parts + 1 : parts;
        msg.msg_iovlen = header.empty() ? 1 : 2;
        for (;;) {
            ssize_t n = ::sendmsg(m_fd, &msg, MSG_NOSIGNAL);
            if (n >= 0) {
                *sent = std::size_t(n);
                return true;
            }
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
            m_send_error = errno;
            return false;
        }
    }

    void enqueue(std::string_view bytes) {
        if (bytes.empty()) return;
        m_out.append(bytes);
        m_queued += bytes.size();
    }

    // Forgets what is queued, and the buffer's memory.
    void drop_output() {
        std::string().swap(m_out);
        m_out_offset = 0;
        m_queued = 0;
    }

    // Writes what is queued; false if the socket failed (m_send_error).
    bool flush(Port& port) {
        while (m_queued && m_fd >= 0) {
            ssize_t n = ::send(m_fd, m_out.data() + m_out_offset, m_queued, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) break;
                m_send_error = errno;
                drop_output();
                return false;
            }
            m_out_offset += std::size_t(n);
            m_queued -= std::size_t(n);
        }
        if (!m_queued) {
            // All out: an idle connection keeps no big buffer.
            if (m_out.capacity() > IDLE_BUFFER_BYTES) std::string().swap(m_out);
            else m_out.clear();
            m_out_offset = 0;
        } else if (m_out_offset > READ_CHUNK_BYTES && m_out_offset > m_queued) {
            m_out.erase(0, m_out_offset);
            m_out_offset = 0;
        }
        if (m_queued < m_low_watermark && m_busy_caller && port.is_open()) end_busy(port, 0);
        if (m_runtime_busy && m_queued < RUNTIME_BUSY_BYTES / 2) {
            // The runtime's batch is mostly out: its waiting senders go on (PortDriver::output_all).
            m_runtime_busy = false;
            port.post(PortSignal(PortOp::DistOutput));
        }
        if (!m_queued) notify_empty_queue(port);
        return true;
    }

    // Writing failed after the send was acknowledged: the socket closes as a read error would.
    void send_failed(Port& port) {
        int err = m_send_error;
        m_send_error = 0;
        if (m_connected) input_failed(port, err == EPIPE ? ECONNRESET : err);
    }

    // The port is not busy any more: its busy sender gets its reply (ok, or {error, [error]}).
    void end_busy(Port& port, Term error) {
        Term caller = m_busy_caller;
        m_busy_caller = 0;
        m_send_deadline = -1;
        port.set_busy(false);
        inet_reply(port, caller, error);
    }

    // send_timeout passed with the port still busy: the busy sender gets {error, timeout},
    // and with send_timeout_close the descriptor closes; the port stays (enotconn after).
    void send_timed_out(Port& port) {
        end_busy(port, atom("timeout"));
        if (m_send_timeout_close) release(port);
    }

    void notify_empty_queue(Port& port) {
        static const Term am_empty_out_q = atom("empty_out_q");
        std::vector<Term> subscribers;
        subscribers.swap(m_empty_queue_subscribers);
        for (Term pid : subscribers) {
            Outgoing m(4);
            m.send(port, pid, m.tuple({am_empty_out_q, port.id}));
        }
    }

    std::string subscribe(Term caller, Reader& r) {
        std::string out;
        std::uint32_t what;
        while (r.u8(&what)) {
            if (what != 1) return errno_reply(EINVAL);
            put_u8(out, 1);
            put_u32(out, std::uint32_t(m_queued));
            if (m_queued) m_empty_queue_subscribers.push_back(caller);
        }
        return ok_reply(out);
    }

    std::string shutdown(Reader& r) {
        std::uint32_t how;
        if (m_protocol != Protocol::Tcp || !r.u8(&how) || how > 2) return errno_reply(EINVAL);
        if (!m_connected) return errno_reply(ENOTCONN);
        if (::shutdown(m_fd, how == 0 ? SHUT_RD : how == 1 ? SHUT_WR : SHUT_RDWR) != 0) return errno_reply(errno);
        return ok_reply();
    }

    // ---- names and information ----

    std::string name(bool peer) {
        if (m_fd < 0) return errno_reply(EINVAL);
        if (peer && !m_connected) return errno_reply(ENOTCONN);
        sockaddr_storage a{};
        socklen_t n = sizeof a;
        int rc = peer ? ::getpeername(m_fd, reinterpret_cast<sockaddr*>(&a), &n)
                      : ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&a), &n);
        if (rc != 0) return errno_reply(errno);
        std::string out;
        put_address(out, a, n);
        return ok_reply(out);
    }

    std::uint32_t status_flags(Port& port) const {
        std::uint32_t f = 0;
        if (m_fd >= 0) f |= F_OPEN;
        // (inet_drv's states: a listening or connected socket is not reported bound.)
        if (m_bound && !m_listening && !m_connected) f |= F_BOUND;
        if (m_connected) f |= F_ACTIVE;
        if (m_listening) f |= F_LISTEN;
        if (m_connecting) f |= F_CON;
        if (m_listening && find_op_const(AsyncOp::Kind::Accept)) f |= F_ACC;
        std::lock_guard guard(port.lock);
        if (port.busy) f |= F_BUSY;
        return f;
    }
    bool find_op_const(AsyncOp::Kind kind) const {
        return std::any_of(m_ops.begin(), m_ops.end(), [&](const AsyncOp& op) { return op.kind == kind; });
    }

    // inet:getifaddrs/0: one entry per getifaddrs(3) address, as inet_drv encodes it: the
    // name, 0, options (flags first; addr, netmask, broadaddr or dstaddr; hwaddr), 0.
    std::string interface_addresses() {
        enum IfOpt : std::uint8_t { IFOPT_ADDR = 1, IFOPT_BROADADDR = 2, IFOPT_DSTADDR = 3, IFOPT_NETMASK = 5,
                                    IFOPT_FLAGS = 6, IFOPT_HWADDR = 7 };
        ifaddrs* list = nullptr;
        if (::getifaddrs(&list) != 0) return errno_reply(errno);
        auto put_sockaddr = [](std::string& out, std::uint8_t opt, const sockaddr* a) {
            if (!a) return;
            if (a->sa_family == AF_INET) {
                put_u8(out, opt);
                put_u8(out, AF_TAG_INET);
                out.append(reinterpret_cast<const char*>(&reinterpret_cast<const sockaddr_in*>(a)->sin_addr), 4);
            } else if (a->sa_family == AF_INET6) {
                put_u8(out, opt);
                put_u8(out, AF_TAG_INET6);
                out.append(reinterpret_cast<const char*>(&reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr), 16);
            }
        };
        std::string out;
        for (ifaddrs* i = list; i; i = i->ifa_next) {
            out.append(i->ifa_name);
            put_u8(out, 0);
            unsigned f = i->ifa_flags;
            std::uint32_t flags = (f & IFF_UP ? 0x01 : 0) | (f & IFF_BROADCAST ? 0x02 : 0) | (f & IFF_LOOPBACK ? 0x04 : 0) |
                                  (f & IFF_POINTOPOINT ? 0x08 : 0) | (f & IFF_RUNNING ? 0x10 : 0) |
                                  (f & IFF_MULTICAST ? 0x20 : 0);
            put_u8(out, IFOPT_FLAGS);
            put_u32(out, flags);
            const sockaddr* a = i->ifa_addr;
            if (a && (a->sa_family == AF_INET || a->sa_family == AF_INET6)) {
                put_sockaddr(out, IFOPT_ADDR, a);
                put_sockaddr(out, IFOPT_NETMASK, i->ifa_netmask);
                if (f & IFF_POINTOPOINT) put_sockaddr(out, IFOPT_DSTADDR, i->ifa_dstaddr);
                else if (f & IFF_BROADCAST) put_sockaddr(out, IFOPT_BROADADDR, i->ifa_broadaddr);
            } else if (a && a->sa_family == AF_PACKET) {
                const auto* ll = reinterpret_cast<const sockaddr_ll*>(a);
                put_u8(out, IFOPT_HWADDR);
                put_u16(out, ll->sll_halen);
                out.append(reinterpret_cast<const char*>(ll->sll_addr), ll->sll_halen);
            }
            put_u8(out, 0);
        }
        ::freeifaddrs(list);
        return ok_reply(out);
    }

    std::string hostname() {
        char name[256] = {};
        if (::gethostname(name, sizeof name - 1) != 0) return errno_reply(errno);
        return ok_reply(name);
    }

    std::string service_by_name(Reader& r) {
        std::uint32_t n1, n2;
        std::string_view name, proto;
        if (!r.u8(&n1) || !r.bytes(n1, &name) || !r.u8(&n2) || !r.bytes(n2, &proto)) return errno_reply(EINVAL);
        servent entry{};
        servent* found = nullptr;
        char buffer[1024];
        ::getservbyname_r(std::string(name).c_str(), std::string(proto).c_str(), &entry, buffer, sizeof buffer, &found);
        if (!found) return errno_reply(EINVAL);
        std::string out;
        put_u16(out, ntohs(std::uint16_t(found->s_port)));
        return ok_reply(out);
    }

    std::string service_by_port(Reader& r) {
        std::uint32_t number, n;
        std::string_view proto;
        if (!r.u16(&number) || !r.u8(&n) || !r.bytes(n, &proto)) return errno_reply(EINVAL);
        servent entry{};
        servent* found = nullptr;
        char buffer[1024];
        ::getservbyport_r(htons(std::uint16_t(number)), std::string(proto).c_str(), &entry, buffer, sizeof buffer, &found);
        if (!found) return errno_reply(EINVAL);
        return ok_reply(found->s_name);
    }

    std::string getstat(std::string_view request) {
        std::string out;
        for (char c : request) {
            auto code = static_cast<std::uint8_t>(c);
            put_u8(out, code);
            switch (code) {
            case STAT_RECV_OCT: put_u64(out, m_recv_oct); break;
            case STAT_SEND_OCT: put_u64(out, m_send_oct); break;
            case STAT_RECV_CNT: put_u32(out, std::uint32_t(m_recv_cnt)); break;
            case STAT_RECV_MAX: put_u32(out, std::uint32_t(m_recv_max)); break;
            case STAT_RECV_AVG: put_u32(out, std::uint32_t(m_recv_cnt ? m_recv_oct / m_recv_cnt : 0)); break;
            case STAT_RECV_DVI: put_u32(out, 0); break;
            case STAT_SEND_CNT: put_u32(out, std::uint32_t(m_send_cnt)); break;
            case STAT_SEND_MAX: put_u32(out, std::uint32_t(m_send_max)); break;
            case STAT_SEND_AVG: put_u32(out, std::uint32_t(m_send_cnt ? m_send_oct / m_send_cnt : 0)); break;
            case STAT_SEND_PEND: put_u32(out, std::uint32_t(m_queued)); break;
            default: return errno_reply(EINVAL);
            }
        }
        return ok_reply(out);
    }

    // ---- options ----

    // A socket option's level and name, for the options the kernel keeps.
    bool kernel_option(std::uint32_t opt, int* level, int* name) const {
        bool v6 = m_family == AF_INET6;
        switch (opt) {
        case OPT_REUSEADDR: *level = SOL_SOCKET, *name = SO_REUSEADDR; return true;
        case OPT_KEEPALIVE: *level = SOL_SOCKET, *name = SO_KEEPALIVE; return true;
        case OPT_DONTROUTE: *level = SOL_SOCKET, *name = SO_DONTROUTE; return true;
        case OPT_BROADCAST: *level = SOL_SOCKET, *name = SO_BROADCAST; return true;
        case OPT_OOBINLINE: *level = SOL_SOCKET, *name = SO_OOBINLINE; return true;
        case OPT_SNDBUF: *level = SOL_SOCKET, *name = SO_SNDBUF; return true;
        case OPT_RCVBUF: *level = SOL_SOCKET, *name = SO_RCVBUF; return true;
        case OPT_PRIORITY: *level = SOL_SOCKET, *name = SO_PRIORITY; return true;
        case OPT_TOS: *level = IPPROTO_IP, *name = IP_TOS; return true;
        case OPT_TCLASS: *level = IPPROTO_IPV6, *name = IPV6_TCLASS; return v6;
        case OPT_TTL: *level = IPPROTO_IP, *name = IP_TTL; return true;
        case OPT_RECVTOS: *level = IPPROTO_IP, *name = IP_RECVTOS; return true;
        case OPT_RECVTTL: *level = IPPROTO_IP, *name = IP_RECVTTL; return true;
        case OPT_RECVTCLASS: *level = IPPROTO_IPV6, *name = IPV6_RECVTCLASS; return v6;
        case OPT_NODELAY: *level = IPPROTO_TCP, *name = TCP_NODELAY; return m_protocol == Protocol::Tcp;
        case OPT_NOPUSH: *level = IPPROTO_TCP, *name = TCP_CORK; return m_protocol == Protocol::Tcp;
        case OPT_IPV6_V6ONLY: *level = IPPROTO_IPV6, *name = IPV6_V6ONLY; return v6;
        case OPT_MULTICAST_TTL:
            *level = v6 ? IPPROTO_IPV6 : IPPROTO_IP, *name = v6 ? IPV6_MULTICAST_HOPS : IP_MULTICAST_TTL;
            return m_protocol == Protocol::Udp;
        case OPT_MULTICAST_LOOP:
            *level = v6 ? IPPROTO_IPV6 : IPPROTO_IP, *name = v6 ? IPV6_MULTICAST_LOOP : IP_MULTICAST_LOOP;
            return m_protocol == Protocol::Udp;
        default: return false;
        }
    }

    // The options whose value is more than one 32-bit integer (setopts reads them itself).
    static bool has_compound_value(std::uint32_t opt) {
        switch (opt) {
        case OPT_LINGER:
        case OPT_RAW:
        case OPT_BIND_TO_DEVICE:
        case LOPT_NETNS:
        case OPT_MULTICAST_IF:
        case OPT_ADD_MEMBERSHIP:
        case OPT_DROP_MEMBERSHIP: return true;
        default: return false;
        }
    }

    std::string setopts(Port& port, std::string_view data) {
        Reader r(data);
        bool start_reading = false;
        std::uint32_t opt;
        while (r.u8(&opt)) {
            // Every option but these few is one 32-bit value: read here, once.
            std::int32_t v = 0;
            if (!has_compound_value(opt) && !r.i32(&v)) return errno_reply(EINVAL);
            int level, name;
            switch (opt) {
            case LOPT_ACTIVE: {
                if (v == MULTI) {
                    std::uint32_t n;
                    if (!r.u16(&n)) return errno_reply(EINVAL);
                    std::int32_t count = m_active_count + std::int16_t(n);
                    if (count > 32767) return errno_reply(EINVAL);
                    m_active_count = count;
                    if (count <= 0) {
                        // {active, 0} or a count that falls to 0: passive at once.
                        m_active = PASSIVE;
                        m_active_count = 0;
                        Outgoing m(4);
                        m.send_to_owner(port, m.tuple({atom(m_protocol == Protocol::Tcp ? "tcp_passive" : "udp_passive"), port.id}));
                        break;
                    }
                } else {
                    if (v < PASSIVE || v > ONCE) return errno_reply(EINVAL);
                    m_active_count = 0;
                }
                m_active = v;
                if (m_active != PASSIVE) start_reading = true;
                break;
            }
            case LOPT_MODE:
                m_mode_binary = v == 1;
                break;
            case LOPT_DELIVER:
                m_deliver_port = v == 0;
                break;
            case LOPT_HEADER:
                m_header = std::max(v, 0);
                break;
            case LOPT_PACKET:
                if (v < 0 || std::size_t(v) >= std::size(PACKET_TYPES)) return errno_reply(EINVAL);
                if (PACKET_TYPES[v] != m_packet) m_http_in_headers = false;
                m_packet = PACKET_TYPES[v];
                break;
            case LOPT_PACKET_SIZE:
                m_packet_size = std::uint32_t(v);
                break;
            case LOPT_BUFFER:
                if (v < 0) return errno_reply(EINVAL);
                m_buffer_bytes = std::max<std::size_t>(std::size_t(v), 1);
                break;
            case LOPT_EXITONCLOSE:
                m_exit_on_close = v != 0;
                break;
            case LOPT_HIWTRMRK:
                if (v < 0) return errno_reply(EINVAL);
                m_high_watermark = std::size_t(v);
                m_low_watermark = std::min(m_low_watermark, m_high_watermark);
                break;
            case LOPT_LOWTRMRK:
                if (v < 0) return errno_reply(EINVAL);
                m_low_watermark = std::size_t(v);
                m_high_watermark = std::max(m_low_watermark, m_high_watermark);
                break;
            case LOPT_MSGQ_HIWTRMRK:
                m_msgq_high = v;
                break;
            case LOPT_MSGQ_LOWTRMRK:
                m_msgq_low = v;
                break;
            case LOPT_SEND_TIMEOUT:
                m_send_timeout = v;
                break;
            case LOPT_SEND_TIMEOUT_CLOSE:
                m_send_timeout_close = v != 0;
                break;
            case LOPT_DELAY_SEND:
                m_delay_send = v != 0;
                break;
            case LOPT_READ_PACKETS:
                if (v <= 0) return errno_reply(EINVAL);
                m_read_packets = v;
                break;
            case LOPT_SHOW_ECONNRESET:
                m_show_econnreset = v != 0;
                break;
            case LOPT_LINE_DELIM:
                m_line_delimiter = std::uint8_t(v);
                break;
            case OPT_DEBUG:
                break;
            case OPT_LINGER: {
                std::int32_t on, seconds;
                if (!r.i32(&on) || !r.i32(&seconds)) return errno_reply(EINVAL);
                linger l{on != 0, seconds};
                if (m_fd >= 0 && ::setsockopt(m_fd, SOL_SOCKET, SO_LINGER, &l, sizeof l) != 0) return errno_reply(errno);
                m_linger = l;
                break;
            }
            case OPT_RAW: {
                std::int32_t raw_level, raw_name;
                std::uint32_t n;
                std::string_view value;
                if (!r.i32(&raw_level) || !r.i32(&raw_name) || !r.u32(&n) || !r.bytes(n, &value)) return errno_reply(EINVAL);
                if (m_fd >= 0 && ::setsockopt(m_fd, raw_level, raw_name, value.data(), socklen_t(value.size())) != 0)
                    return errno_reply(errno);
                break;
            }
            case OPT_BIND_TO_DEVICE: {
                std::uint32_t n;
                std::string_view device;
                if (!r.u32(&n) || !r.bytes(n, &device)) return errno_reply(EINVAL);
                if (m_fd >= 0 &&
                    ::setsockopt(m_fd, SOL_SOCKET, SO_BINDTODEVICE, device.data(), socklen_t(device.size())) != 0)
                    return errno_reply(errno);
                break;
            }
            case LOPT_NETNS: return errno_reply(ENOTSUP);
            case OPT_MULTICAST_IF: {
                std::string_view ip;
                if (!r.bytes(4, &ip)) return errno_reply(EINVAL);
                if (m_fd >= 0 && m_family == AF_INET &&
                    ::setsockopt(m_fd, IPPROTO_IP, IP_MULTICAST_IF, ip.data(), 4) != 0)
                    return errno_reply(errno);
                break;
            }
            case OPT_ADD_MEMBERSHIP:
            case OPT_DROP_MEMBERSHIP: {
                std::uint32_t family, index;
                if (!r.u32(&family) || !r.u32(&index)) return errno_reply(EINVAL);
                if (family == AF_TAG_INET) {
                    std::string_view group, iface;
                    if (!r.bytes(4, &group) || !r.bytes(4, &iface)) return errno_reply(EINVAL);
                    ip_mreqn req{};
                    std::memcpy(&req.imr_multiaddr, group.data(), 4);
                    std::memcpy(&req.imr_address, iface.data(), 4);
                    req.imr_ifindex = int(index);
                    int which = opt == OPT_ADD_MEMBERSHIP ? IP_ADD_MEMBERSHIP : IP_DROP_MEMBERSHIP;
                    if (m_fd >= 0 && ::setsockopt(m_fd, IPPROTO_IP, which, &req, sizeof req) != 0) return errno_reply(errno);
                } else {
                    std::string_view group;
                    if (!r.bytes(16, &group)) return errno_reply(EINVAL);
                    ipv6_mreq req{};
                    std::memcpy(&req.ipv6mr_multiaddr, group.data(), 16);
                    req.ipv6mr_interface = index;
                    int which = opt == OPT_ADD_MEMBERSHIP ? IPV6_ADD_MEMBERSHIP : IPV6_DROP_MEMBERSHIP;
                    if (m_fd >= 0 && ::setsockopt(m_fd, IPPROTO_IPV6, which, &req, sizeof req) != 0) return errno_reply(errno);
                }
                break;
            }
            default:
                if (!kernel_option(opt, &level, &name)) {
                    // Options of another protocol are skipped, their values with them.
                    break;
                }
                if (m_fd >= 0 && ::setsockopt(m_fd, level, name, &v, sizeof v) != 0) return errno_reply(errno);
                if (opt == OPT_RCVBUF || opt == OPT_SNDBUF) {
                    // As erl: the driver's buffer grows with the kernel's.
                    m_buffer_bytes = std::max<std::size_t>(m_buffer_bytes, std::size_t(v));
                }
                break;
            }
        }
        if (!r.done()) return errno_reply(EINVAL);
        if (start_reading && port.is_open()) {
            // Data that waited for an active socket is delivered in this port's next turn.
            port.io_events.fetch_or(IO_READ, std::memory_order_release);
            port.reschedule();
        }
        return ok_reply();
    }

    std::string getopts(std::string_view data) {
        Reader r(data);
        std::string out;
        std::uint32_t opt;
        while (r.u8(&opt)) {
            int level, name;
            auto put_int = [&](std::int64_t v) {
                put_u8(out, opt);
                put_u32(out, std::uint32_t(v));
            };
            switch (opt) {
            case LOPT_ACTIVE:
                put_int(m_active);
                if (m_active == MULTI) put_u16(out, std::uint32_t(m_active_count));
                break;
            case LOPT_MODE: put_int(m_mode_binary ? 1 : 0); break;
            case LOPT_DELIVER: put_int(m_deliver_port ? 0 : 1); break;
            case LOPT_HEADER: put_int(m_header); break;
            case LOPT_PACKET: {
                auto it = std::find(std::begin(PACKET_TYPES), std::end(PACKET_TYPES), m_packet);
                put_int(it - std::begin(PACKET_TYPES));
                break;
            }
            case LOPT_PACKET_SIZE: put_int(m_packet_size); break;
            case LOPT_BUFFER: put_int(std::int64_t(m_buffer_bytes)); break;
            case LOPT_EXITONCLOSE: put_int(m_exit_on_close); break;
            case LOPT_HIWTRMRK: put_int(std::int64_t(m_high_watermark)); break;
            case LOPT_LOWTRMRK: put_int(std::int64_t(m_low_watermark)); break;
            case LOPT_MSGQ_HIWTRMRK: put_int(m_msgq_high); break;
            case LOPT_MSGQ_LOWTRMRK: put_int(m_msgq_low); break;
            case LOPT_SEND_TIMEOUT: put_int(m_send_timeout); break;
            case LOPT_SEND_TIMEOUT_CLOSE: put_int(m_send_timeout_close); break;
            case LOPT_DELAY_SEND: put_int(m_delay_send); break;
            case LOPT_SHOW_ECONNRESET: put_int(m_show_econnreset); break;
            case LOPT_READ_PACKETS:
                if (m_protocol == Protocol::Udp) put_int(m_read_packets);
                break;
            case OPT_LINGER: {
                if (m_fd < 0) break;  // a closed socket has no kernel options: left out, as erl
                linger l = m_linger;
                socklen_t n = sizeof l;
                ::getsockopt(m_fd, SOL_SOCKET, SO_LINGER, &l, &n);
                put_int(l.l_onoff ? 1 : 0);
                put_u32(out, std::uint32_t(l.l_linger));
                break;
            }
            case LOPT_LINE_DELIM:
            case LOPT_NETNS:
            case OPT_RAW:
            case OPT_BIND_TO_DEVICE:
            case OPT_PKTOPTIONS:
            case OPT_MULTICAST_IF: return errno_reply(EINVAL);
            default: {
                // Not this protocol's, or a closed socket's: left out.
                if (!kernel_option(opt, &level, &name) || m_fd < 0) break;
                int v = 0;
                socklen_t n = sizeof v;
                if (::getsockopt(m_fd, level, name, &v, &n) != 0) break;
                put_int(v);
                break;
            }
            }
        }
        return ok_reply(out);
    }

    // ---- descriptors ----

    IoLayer& layer_of() { return layer(*m_vm); }

    void watch(Port& port) {
        m_vm = &port.vm;
        if (m_watched || m_fd < 0) return;
        m_watched = layer(port.vm).poller().watch(m_fd, port_number(port.id), IO_SOCKET);
    }

    void release(Port& port) {
        // A sender still waiting for its data to go learns that it will not.
        if (m_busy_caller) end_busy(port, atom("closed"));
        IoPoller& poller = layer(port.vm).poller();
        if (m_fd >= 0 && m_watched) poller.forget(m_fd);
        if (m_timer_fd >= 0) poller.forget(m_timer_fd);
        m_watched = false;
        close_fd(m_fd);
        close_fd(m_timer_fd);
        m_connected = m_connecting = m_listening = false;
        drop_output();
    }

    Protocol m_protocol;
    Vm* m_vm = nullptr;
    Term m_port_id = 0;
    int m_fd = -1;
    int m_timer_fd = -1;
    int m_family = AF_INET;
    bool m_watched = false;
    bool m_bound = false, m_listening = false, m_connecting = false, m_connected = false;
    bool m_read_closed = false;
    // A peer's close seen while passive: the next recv (send) answers closed once.
    bool m_delayed_close_recv = false, m_delayed_close_send = false;

    // Options, with inet_drv's defaults.
    std::int32_t m_active = PASSIVE;
    std::int32_t m_active_count = 0;
    bool m_mode_binary = false;
    bool m_deliver_port = false;
    std::int32_t m_header = 0;
    PacketType m_packet = PacketType::Raw;
    std::uint32_t m_packet_size = 0;
    std::size_t m_buffer_bytes = 1460;
    bool m_exit_on_close = true;
    bool m_runtime_busy = false;  // output_all queued RUNTIME_BUSY_BYTES or more
    std::size_t m_high_watermark = 8192, m_low_watermark = 4096;
    std::int32_t m_msgq_high = 8192, m_msgq_low = 4096;
    std::int32_t m_send_timeout = -1;
    bool m_send_timeout_close = false;
    bool m_delay_send = false;
    bool m_show_econnreset = false;
    std::int32_t m_read_packets = 5;
    std::uint8_t m_line_delimiter = '\n';
    linger m_linger{0, 0};

    std::vector<AsyncOp> m_ops;
    std::uint16_t m_next_ref = 0;
    std::string m_in;  // received, not delivered yet
    bool m_http_in_headers = false;  // {packet, http | http_bin}: after a start line
    std::string m_out;             // queued output, from m_out_offset on
    std::size_t m_out_offset = 0;
    std::size_t m_queued = 0;
    int m_send_error = 0;
    Term m_busy_caller = 0;           // the sender whose data made the port busy: its reply waits
    std::int64_t m_send_deadline = -1;  // send_timeout for it, in steady milliseconds
    std::vector<Term> m_empty_queue_subscribers;

    std::uint64_t m_recv_cnt = 0, m_recv_max = 0, m_recv_oct = 0;
    std::uint64_t m_send_cnt = 0, m_send_max = 0, m_send_oct = 0;
};

}  // namespace

std::unique_ptr<PortDriver> inet_driver(std::string_view name) {
    if (name == "tcp_inet") return std::make_unique<InetDriver>(Protocol::Tcp);
    if (name == "udp_inet") return std::make_unique<InetDriver>(Protocol::Udp);
    return nullptr;
}

}  // namespace beamlet::io
