// io/drivers/dynamic_driver.cpp — erl_ddll's driver table, the port driver that runs a loaded
// ErlDrvEntry, and the C functions of include/erl_driver.h (dynamic_driver.hpp).
//
// A driver's callbacks run where the port runs (the holder of Port::exec), one at a time per
// port; the functions they call find their port through the ErlDrvPort handle, or, for those
// that take a port term (erl_drv_output_term), through the driver running on this thread.
// A library is dlclose'd only after the outermost callback into it has returned.
#include "io/drivers/dynamic_driver.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <poll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <initializer_list>
#include <map>

#include "include/erl_driver.h"
#include "io/io_layer.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/heap.hpp"
#include "vm/magic.hpp"
#include "vm/process.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/posix_errors.hpp"
#include "vm/scheduler.hpp"
#include "vm/vm.hpp"

namespace beamlet::io {
class DynamicDriver;
}

// The ErlDrvPort a driver is given: its port's driver.
struct _erl_drv_port {
    beamlet::io::DynamicDriver* driver;
};

namespace beamlet::io {

using vm::HeapFragment;
using vm::Port;
using vm::PortDriver;
using vm::Term;
using vm::Word;

namespace {

// erl_ddll's fixed {open_error, Code} codes (OTP's ERL_DE_*) and the one for the dynamic
// linker's own errors, whose text is kept.
constexpr int DE_NO_INIT = -1;
constexpr int DE_FAILED_INIT = -2;
constexpr int DE_BAD_NAME = -3;
constexpr int DE_INCORRECT_VERSION = -5;
constexpr int DE_DYNAMIC_ERROR = -10;

// What port_control's reply buffer holds before a driver allocates a bigger one (OTP's
// ERL_ONHEAP_BIN_LIMIT).
constexpr ErlDrvSizeT CONTROL_BUFFER_BYTES = 64;
// port_call's (erts' port_sig_call).
constexpr ErlDrvSizeT CALL_BUFFER_BYTES = 256;
// The first byte of a term in the external format (OTP's VERSION_MAGIC).
constexpr unsigned char EXTERNAL_VERSION_BYTE = 131;

// Drivers beamlet has built in for what OTP ships as loadable libraries (runtime_tools'
// trace ports): loading one counts its users, as OTP's load would, and opens nothing.
bool built_in_library(const std::string& name) { return name == "trace_file_drv" || name == "trace_ip_drv"; }

std::string without_trailing_slashes(std::string dir) {
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    return dir;
}

Term tuple_on(Term* hp, std::initializer_list<Term> elements) {
    hp[0] = vm::make_arityval(elements.size());
    std::copy(elements.begin(), elements.end(), hp + 1);
    return vm::make_boxed(hp);
}

// A flatmap of [pairs] (keys sorted and unique) at [hp] (map_words words).
Term flatmap_on(Term* hp, const std::vector<std::pair<Term, Term>>& pairs) {
    Word n = pairs.size();
    hp[0] = vm::make_header(vm::MAP_HEADER_WORDS - 1 + n, vm::Subtag::Map);
    hp[1] = n;
    hp[2] = vm::NIL;
    if (n == 0) return vm::make_boxed(hp);
    Term* keys = hp + vm::MAP_HEADER_WORDS + n;
    keys[0] = vm::make_arityval(n);
    hp[2] = vm::make_boxed(keys);
    for (Word i = 0; i < n; ++i) {
        keys[1 + i] = pairs[i].first;
        hp[vm::MAP_HEADER_WORDS + i] = pairs[i].second;
    }
    return vm::make_boxed(hp);
}

Term ref_term_on(Term* hp, const Word id[3]) {
    hp[0] = vm::make_header(vm::REF_WORDS - 1, vm::Subtag::Ref);
    std::copy(id, id + 3, hp + 1);
    return vm::make_boxed(hp);
}

// Driver binaries carry their reference count in front of the public struct.
struct BinaryBlock {
    std::atomic<ErlDrvSInt> refc;
    ErlDrvBinary bin;
};

BinaryBlock* block_of(ErlDrvBinary* bin) {
    return reinterpret_cast<BinaryBlock*>(reinterpret_cast<char*>(bin) - offsetof(BinaryBlock, bin));
}

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

struct DriverLibrary {
    std::string name;
    std::string dir;
    void* handle = nullptr;  // null for a built-in driver standing for a library
    ErlDrvEntry* entry = nullptr;
    bool kill_ports = false;
    std::vector<std::pair<Term, int>> users;  // pid, loads not yet unloaded
    std::vector<Term> ports;                  // open ports running the driver
    bool ports_killed = false;                // kill_ports: its ports were told to exit
};

// ---- the port driver ------------------------------------------------------------------------

class DynamicDriver final : public PortDriver {
public:
    DynamicDriver(DriverTable& table, std::shared_ptr<DriverLibrary> lib, std::string command, bool binary, bool eof)
        : m_table(table), m_lib(std::move(lib)), m_entry(m_lib->entry), m_command(std::move(command)),
          m_binary(binary), m_eof(eof) {}

    // A port always stops before it goes, but at the VM's exit (the table may be gone then).
    ~DynamicDriver() override {
        if (m_timer_fd >= 0) ::close(m_timer_fd);
        release_peeked_binaries();
    }

    void start(Port& port) override {
        m_port = &port;
        m_table.port_started(m_lib, port.id);
        Callback in(*this);
        errno = 0;
        ErlDrvData data = m_entry->start(&m_handle, m_command.data());
        if (data == ERL_DRV_ERROR_GENERAL) {
            m_start_error = EINVAL;
        } else if (data == ERL_DRV_ERROR_BADARG) {
            m_start_error = -1;
        } else if (data == ERL_DRV_ERROR_ERRNO) {
            m_start_error = errno ? errno : EINVAL;
        } else {
            m_data = data;
            m_started = true;
        }
    }

    void output(Port& port, Term caller, std::string_view bytes) override { output_vector(port, caller, bytes, {}); }

    // As erts: a driver with an outputv callback gets every command as a vector.
    bool takes_vectors() const override { return m_entry->outputv != nullptr; }

    void output_vector(Port&, Term caller, std::string_view bytes, std::span<const std::size_t> ends) override {
        if (!m_started) return;
        Callback in(*this, caller);
        if (!m_entry->outputv) {
            std::string copy(bytes);
            if (m_entry->output) m_entry->output(m_data, copy.data(), copy.size());
            return;
        }
        // As erts hands a command over: the vector's first slot is left for a header; each
        // piece is a slice of one binary holding all the bytes.
        std::size_t one[1] = {bytes.size()};
        if (ends.empty() && !bytes.empty()) ends = one;
        ErlDrvBinary* bin = driver_alloc_binary(bytes.size());
        std::memcpy(bin->orig_bytes, bytes.data(), bytes.size());
        std::vector<SysIOVec> iov(1 + ends.size(), SysIOVec{nullptr, 0});
        std::vector<ErlDrvBinary*> binv(1 + ends.size(), bin);
        binv[0] = nullptr;
        for (std::size_t i = 0, from = 0; i < ends.size(); from = ends[i++])
            iov[1 + i] = SysIOVec{bin->orig_bytes + from, ends[i] - from};
        ErlIOVec ev{int(iov.size()), bytes.size(), iov.data(), binv.data()};
        m_entry->outputv(m_data, &ev);
        driver_free_binary(bin);
    }

    bool takes_calls() const override { return m_entry->call != nullptr; }
    std::optional<std::string> call(Port&, Term caller, unsigned operation, std::string_view data) override {
        if (!m_started || !m_entry->call) return std::nullopt;
        Callback in(*this, caller);
        std::string copy(data);
        char buffer[CALL_BUFFER_BYTES];
        char* reply = buffer;
        unsigned flags = 0;
        ErlDrvSSizeT n = m_entry->call(m_data, operation, copy.data(), copy.size(), &reply, sizeof buffer, &flags);
        std::string result;
        if (n > 0 && reply) result.assign(reply, std::size_t(n));
        if (reply && reply != buffer) driver_free(reply);
        // The reply must be a term in the external format (erts checks its version byte).
        if (result.empty() || static_cast<unsigned char>(result[0]) != EXTERNAL_VERSION_BYTE) return std::nullopt;
        return result;
    }

    std::optional<std::string> control(Port&, Term caller, unsigned operation, std::string_view data) override {
        if (!m_started || !m_entry->control) return std::nullopt;
        Callback in(*this, caller);
        std::string copy(data);
        char buffer[CONTROL_BUFFER_BYTES];
        char* reply = buffer;
        ErlDrvSSizeT n = m_entry->control(m_data, operation, copy.data(), copy.size(), &reply, sizeof buffer);
        if (n < 0) return std::nullopt;
        std::string result;
        if (reply == buffer || !reply) {
            if (reply) result.assign(reply, std::size_t(n));
        } else if (m_control_flags & PORT_CONTROL_FLAG_BINARY) {
            auto* bin = reinterpret_cast<ErlDrvBinary*>(reply);
            result.assign(bin->orig_bytes, std::size_t(n));
            driver_free_binary(bin);
        } else {
            result.assign(reply, std::size_t(n));
            driver_free(reply);
        }
        return result;
    }
    bool binary_control() const override { return m_control_flags & PORT_CONTROL_FLAG_BINARY; }

    void ready(Port& port, std::uint32_t events) override {
        if (!m_started || m_closed) return;
        Callback in(*this);
        if (events & vm::IO_TIMER) {
            std::uint64_t count;
            while (m_timer_fd >= 0 && ::read(m_timer_fd, &count, sizeof count) > 0) {}
            if (m_deadline >= 0 && m_deadline <= now_ms() + 1) {
                m_deadline = -1;
                port.trace_received(vm::atom("timeout"));
                if (m_entry->timeout) m_entry->timeout(m_data);
            }
        }
        if (events & (vm::IO_READ | vm::IO_WRITE)) dispatch_selected(port);
    }

    bool stop(Port&, bool) override {
        if (m_closed) return false;
        m_closed = true;
        IoPoller& poller = layer(m_port->vm).poller();
        for (auto [fd, mode] : m_selected) {
            poller.forget(fd);
            if ((mode & ERL_DRV_USE) && m_entry->stop_select) m_entry->stop_select(event_of(fd), nullptr);
        }
        m_selected.clear();
        if (m_timer_fd >= 0) {
            poller.forget(m_timer_fd);
            ::close(m_timer_fd);
            m_timer_fd = -1;
        }
        if (m_started) {
            Callback in(*this);
            m_started = false;
            m_entry->stop(m_data);
        }
        // The library may go now: not while a callback into it is still running.
        if (m_depth == 0) m_table.port_closed(m_lib, m_port->id);
        else m_close_pending = true;
        return false;
    }

    std::size_t queue_size() const override { return m_queued; }
    bool wants_write() const override {
        return std::any_of(m_selected.begin(), m_selected.end(), [](auto& s) { return s.second & ERL_DRV_WRITE; });
    }
    bool wants_read() const override {
        return std::any_of(m_selected.begin(), m_selected.end(), [](auto& s) { return s.second & ERL_DRV_READ; });
    }
    bool starts_with_io_turn() const override { return false; }

    int start_error() const { return m_start_error; }

    // ---- what the C functions do ----

    Port& port() { return *m_port; }
    Term caller() const { return m_caller ? m_caller : m_port->owner.load(std::memory_order_acquire); }

    // {Port, {data, Data}}: [head] then [body]; in binary mode the head's bytes are list
    // elements in front of a binary of the body (OTP's deliver_read_message).
    void deliver(std::string_view head, std::string_view body) {
        if (m_closed) return;
        std::size_t n = head.size() + body.size();
        Word words = m_binary ? 2 * head.size() + vm::binary_words(body.size()) : 2 * n;
        HeapFragment* frag = HeapFragment::create(words + 6);
        Term tail;
        if (m_binary) {
            tail = vm::make_binary_in(frag->alloc(vm::binary_words(body.size())), &frag->off_heap_first,
                                      reinterpret_cast<const std::uint8_t*>(body.data()), body.size());
            if (head.empty()) {
                m_port->deliver(tail, frag);
                return;
            }
        } else {
            tail = vm::NIL;
            Term* cells = frag->alloc(2 * body.size());
            for (std::size_t i = body.size(); i-- > 0;)
                tail = vm::make_cons_on(cells + 2 * i, vm::make_small(std::uint8_t(body[i])), tail);
        }
        Term* cells = frag->alloc(2 * head.size());
        for (std::size_t i = head.size(); i-- > 0;)
            tail = vm::make_cons_on(cells + 2 * i, vm::make_small(std::uint8_t(head[i])), tail);
        m_port->deliver(tail, frag);
    }

    // driver_outputv: in binary mode each piece of the vector is a binary of its own, chained
    // as erts does: [Header bytes..., Piece1, ... | LastPiece]; in list mode one flat list.
    void deliver_pieces(std::string_view head, const std::vector<std::string_view>& pieces) {
        if (!m_binary || pieces.size() < 2) {
            std::string flat;
            for (std::string_view piece : pieces) flat.append(piece);
            deliver(head, flat);
            return;
        }
        if (m_closed) return;
        Word words = 2 * head.size() + 2 * pieces.size();
        for (std::string_view piece : pieces) words += vm::binary_words(piece.size());
        HeapFragment* frag = HeapFragment::create(words + 6);
        auto binary = [&](std::string_view piece) {
            return vm::make_binary_in(frag->alloc(vm::binary_words(piece.size())), &frag->off_heap_first,
                                      reinterpret_cast<const std::uint8_t*>(piece.data()), piece.size());
        };
        Term tail = binary(pieces.back());
        for (std::size_t i = pieces.size() - 1; i-- > 0;) tail = vm::make_cons_on(frag->alloc(2), binary(pieces[i]), tail);
        for (std::size_t i = head.size(); i-- > 0;)
            tail = vm::make_cons_on(frag->alloc(2), vm::make_small(std::uint8_t(head[i])), tail);
        m_port->deliver(tail, frag);
    }

    void fail(Term reason) {
        if (!m_closed) m_port->terminate(reason);
    }
    void end_of_file() {
        if (m_closed) return;
        if (!m_eof) {
            m_port->terminate(vm::atoms::normal);
            return;
        }
        HeapFragment* frag = HeapFragment::create(3);
        m_port->send_to_owner(tuple_on(frag->alloc(3), {m_port->id, vm::atom("eof")}), frag);
    }

    void set_control_flags(int flags) { m_control_flags = flags; }

    int set_timer(unsigned long ms) {
        if (m_closed) return -1;
        if (m_timer_fd < 0) {
            m_timer_fd = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
            if (m_timer_fd < 0) return -1;
            layer(m_port->vm).poller().watch(m_timer_fd, vm::port_number(m_port->id), vm::IO_TIMER);
        }
        m_deadline = now_ms() + std::int64_t(ms);
        itimerspec when{};
        when.it_value.tv_sec = time_t(ms / 1000);
        when.it_value.tv_nsec = long(ms % 1000) * 1000000;
        if (ms == 0) when.it_value.tv_nsec = 1;  // zero would disarm it: at once
        return ::timerfd_settime(m_timer_fd, 0, &when, nullptr) == 0 ? 0 : -1;
    }
    int cancel_timer() {
        m_deadline = -1;
        if (m_timer_fd >= 0) {
            itimerspec off{};
            ::timerfd_settime(m_timer_fd, 0, &off, nullptr);
        }
        return 0;
    }
    int read_timer(unsigned long* left) {
        *left = m_deadline < 0 ? 0 : (unsigned long)std::max<std::int64_t>(0, m_deadline - now_ms());
        return 0;
    }

    int select(int fd, int mode, int on) {
        if (m_closed || fd < 0) return -1;
        int before = m_selected.count(fd) ? m_selected[fd] : 0;
        int after = on ? before | mode : before & ~mode;
        IoPoller& poller = layer(m_port->vm).poller();
        int directions = ERL_DRV_READ | ERL_DRV_WRITE;
        if ((before & directions) != (after & directions)) {
            if (before & directions) poller.forget(fd);
            std::uint32_t events = ((after & ERL_DRV_READ) ? std::uint32_t(vm::IO_READ) : 0u) |
                                   ((after & ERL_DRV_WRITE) ? std::uint32_t(vm::IO_WRITE) : 0u);
            if (events == (vm::IO_READ | vm::IO_WRITE)) events = vm::IO_SOCKET;
            if (events && !poller.watch(fd, vm::port_number(m_port->id), events)) return -1;
        }
        if (after) {
            m_selected[fd] = after;
        } else {
            m_selected.erase(fd);
        }
        // Deselected for good: the driver may close the descriptor now.
        if (!on && (mode & ERL_DRV_USE) && (before & ERL_DRV_USE) && m_entry->stop_select)
            m_entry->stop_select(event_of(fd), nullptr);
        return 0;
    }

    // The port's queue (driver_enq & co): bytes the driver has yet to write.
    void enqueue(std::string bytes, bool front) {
        m_queued += bytes.size();
        if (front) m_queue.push_front(std::move(bytes));
        else m_queue.push_back(std::move(bytes));
    }
    std::size_t dequeue(std::size_t n) {
        while (n && !m_queue.empty()) {
            std::string& first = m_queue.front();
            std::size_t take = std::min(n, first.size());
            first.erase(0, take);
            m_queued -= take;
            n -= take;
            if (first.empty()) m_queue.pop_front();
        }
        return m_queued;
    }
    SysIOVec* peek(int* count) {
        m_peek.clear();
        for (std::string& chunk : m_queue) m_peek.push_back({chunk.data(), chunk.size()});
        *count = int(m_peek.size());
        return m_peek.empty() ? nullptr : m_peek.data();
    }
    // driver_peekqv: the queue as an I/O vector whose every piece is a binary of its own (a
    // driver may keep one with driver_binary_inc_refc); valid until the next peek.
    ErlDrvSizeT peek_vector(ErlIOVec* ev) {
        release_peeked_binaries();
        m_peek.clear();
        for (std::string& chunk : m_queue) {
            ErlDrvBinary* bin = driver_alloc_binary(chunk.size());
            std::memcpy(bin->orig_bytes, chunk.data(), chunk.size());
            m_peek_binaries.push_back(bin);
            m_peek.push_back({bin->orig_bytes, chunk.size()});
        }
        ev->vsize = int(m_peek.size());
        ev->size = m_queued;
        ev->iov = m_peek.empty() ? nullptr : m_peek.data();
        ev->binv = m_peek_binaries.empty() ? nullptr : m_peek_binaries.data();
        return m_queued;
    }
    void release_peeked_binaries() {
        for (ErlDrvBinary* bin : m_peek_binaries) driver_free_binary(bin);
        m_peek_binaries.clear();
    }

    // The driver running a callback on this thread (the innermost), if any.
    static DynamicDriver* current() { return t_current; }

private:
    // Marks a callback into the driver: who runs on this thread, and how deep.
    class Callback {
    public:
        explicit Callback(DynamicDriver& d, Term caller = 0) : m_d(d), m_outer(t_current), m_outer_caller(d.m_caller) {
            t_current = &d;
            ++d.m_depth;
            if (caller) d.m_caller = caller;
        }
        ~Callback() {
            t_current = m_outer;
            m_d.m_caller = m_outer_caller;
            if (--m_d.m_depth == 0 && m_d.m_close_pending) {
                m_d.m_close_pending = false;
                m_d.m_table.port_closed(m_d.m_lib, m_d.m_port->id);
            }
        }
        Callback(const Callback&) = delete;
        Callback& operator=(const Callback&) = delete;

    private:
        DynamicDriver& m_d;
        DynamicDriver* m_outer;
        Term m_outer_caller;
    };

    static ErlDrvEvent event_of(int fd) { return reinterpret_cast<ErlDrvEvent>(static_cast<std::intptr_t>(fd)); }

    // driver_select is level-triggered, the poller edge-triggered: each selected descriptor is
    // asked whether it is ready, and one still ready after its callback runs again next turn.
    void dispatch_selected(Port& port) {
        bool again = false;
        std::vector<std::pair<int, int>> selected(m_selected.begin(), m_selected.end());
        for (auto [fd, mode] : selected) {
            short asked = short(((mode & ERL_DRV_READ) ? POLLIN : 0) | ((mode & ERL_DRV_WRITE) ? POLLOUT : 0));
            pollfd pfd{fd, asked, 0};
            if (!asked || ::poll(&pfd, 1, 0) <= 0) continue;
            bool readable = pfd.revents & (POLLIN | POLLHUP | POLLERR);
            bool writable = pfd.revents & (POLLOUT | POLLERR);
            if (readable && (mode & ERL_DRV_READ) && m_entry->ready_input) m_entry->ready_input(m_data, event_of(fd));
            if (m_closed) return;
            if (writable && (mode & ERL_DRV_WRITE) && m_selected.count(fd) && (m_selected[fd] & ERL_DRV_WRITE) &&
                m_entry->ready_output)
                m_entry->ready_output(m_data, event_of(fd));
            if (m_closed) return;
            auto it = m_selected.find(fd);
            if (it == m_selected.end()) continue;
            pfd = pollfd{fd, short(((it->second & ERL_DRV_READ) ? POLLIN : 0) | ((it->second & ERL_DRV_WRITE) ? POLLOUT : 0)), 0};
            if (pfd.events && ::poll(&pfd, 1, 0) > 0 && pfd.revents) again = true;
        }
        if (again) {
            port.io_events.fetch_or(vm::IO_READ | vm::IO_WRITE, std::memory_order_release);
            port.reschedule();
        }
    }

    static thread_local DynamicDriver* t_current;

    DriverTable& m_table;
    std::shared_ptr<DriverLibrary> m_lib;
    ErlDrvEntry* m_entry;
    _erl_drv_port m_handle{this};
    std::string m_command;
    bool m_binary;
    bool m_eof;
    Port* m_port = nullptr;
    ErlDrvData m_data = nullptr;
    bool m_started = false;
    bool m_closed = false;
    bool m_close_pending = false;
    int m_start_error = 0;
    int m_depth = 0;
    Term m_caller = 0;
    int m_control_flags = 0;
    int m_timer_fd = -1;
    std::int64_t m_deadline = -1;
    std::map<int, int> m_selected;  // descriptor -> ERL_DRV_READ | ERL_DRV_WRITE | ERL_DRV_USE
    std::deque<std::string> m_queue;
    std::size_t m_queued = 0;
    std::vector<SysIOVec> m_peek;
    std::vector<ErlDrvBinary*> m_peek_binaries;  // driver_peekqv's pieces, ours to free
};

thread_local DynamicDriver* DynamicDriver::t_current = nullptr;

// ---- the table --------------------------------------------------------------------------------

namespace {
std::atomic<vm::Vm*> g_loading_vm{nullptr};
}  // namespace

vm::Vm* DriverTable::loading_vm() { return g_loading_vm.load(std::memory_order_acquire); }

DriverTable::DriverTable(vm::Vm& vm) : m_vm(vm) {
    g_loading_vm.store(&vm, std::memory_order_release);
    m_user_watch = new vm::MagicHandle();
    m_user_watch->data = this;
    m_user_watch->down = on_user_exit;
}

DriverTable::~DriverTable() {
    vm::Vm* self = &m_vm;
    g_loading_vm.compare_exchange_strong(self, nullptr, std::memory_order_acq_rel);
    // The VM is going: the libraries stay mapped (a port may still be torn down after this).
    // A process still holding the watch must not reach this table.
    {
        std::lock_guard guard(m_lock);
        m_user_watch->data = nullptr;
    }
    m_user_watch->release();
}

void DriverTable::on_user_exit(vm::MagicHandle* handle, vm::Term pid) {
    // (data is cleared under the table's lock only when the VM is going.)
    if (auto* table = static_cast<DriverTable*>(handle->data)) table->user_exited(pid);
}

void DriverTable::watch_user(vm::Term pid) {
    {
        std::lock_guard guard(m_lock);
        if (std::find(m_watched_users.begin(), m_watched_users.end(), pid) != m_watched_users.end()) return;
        m_watched_users.push_back(pid);
    }
    std::shared_ptr<vm::Process> p = m_vm.lookup_process(pid);
    if (!p || !vm::add_resource_monitor(p.get(), m_user_watch)) user_exited(pid);  // gone already
}

void DriverTable::user_exited(vm::Term pid) {
    std::vector<Watch> fired;
    {
        std::lock_guard guard(m_lock);
        std::erase(m_watched_users, pid);
        for (auto& lib : m_libraries) std::erase_if(lib->users, [&](auto& u) { return u.first == pid; });
        sweep(&fired);
    }
    deliver(fired);
}

bool DriverTable::linked_in(const std::string& name) {
    auto names = linked_in_names();
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> DriverTable::linked_in_names() { return {"tcp_inet", "udp_inet", "tty_sl"}; }

DriverTable::Outcome DriverTable::load(Term pid, const std::string& dir, const std::string& name, bool kill_ports) {
    std::vector<Watch> fired;
    Outcome outcome{Status::Loaded};
    {
        std::lock_guard guard(m_lock);
        sweep(&fired);
        std::string where = without_trailing_slashes(dir);
        auto it = std::find_if(m_libraries.begin(), m_libraries.end(), [&](auto& l) { return l->name == name; });
        if (linked_in(name)) {
            outcome = {Status::LinkedIn};
        } else if (it != m_libraries.end()) {
            DriverLibrary& lib = **it;
            if (lib.dir != where || lib.kill_ports != kill_ports) {
                outcome = {Status::Inconsistent};
            } else {
                auto user = std::find_if(lib.users.begin(), lib.users.end(), [&](auto& u) { return u.first == pid; });
                if (user != lib.users.end()) ++user->second;
                else lib.users.emplace_back(pid, 1);
                outcome = {Status::AlreadyLoaded};
            }
        } else {
            auto lib = std::make_shared<DriverLibrary>();
            lib->name = name;
            lib->dir = where;
            lib->kill_ports = kill_ports;
            int error = 0;
            if (!built_in_library(name)) {
                std::string path = where + "/" + name + ".so";
                lib->handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
                if (!lib->handle) {
                    // As erts keeps it: the linker's text without the file's name in front.
                    std::string text = ::dlerror();
                    if (text.starts_with(path + ": ")) text.erase(0, path.size() + 2);
                    m_last_dl_error = text;
                    error = DE_DYNAMIC_ERROR;
                } else {
                    auto init = reinterpret_cast<ErlDrvEntry* (*)()>(::dlsym(lib->handle, "driver_init"));
                    lib->entry = init ? init() : nullptr;
                    if (!init) error = DE_NO_INIT;
                    else if (!lib->entry) error = DE_FAILED_INIT;
                    else if (lib->entry->extended_marker != int(ERL_DRV_EXTENDED_MARKER) ||
                             lib->entry->major_version < ERL_DRV_MIN_REQUIRED_MAJOR_VERSION_ON_LOAD ||
                             lib->entry->major_version > ERL_DRV_EXTENDED_MAJOR_VERSION)
                        error = DE_INCORRECT_VERSION;
                    else if (!lib->entry->driver_name || name != lib->entry->driver_name || !lib->entry->start ||
                             !lib->entry->stop)
                        error = DE_BAD_NAME;
                    else if (lib->entry->init && lib->entry->init() != 0)
                        error = DE_FAILED_INIT;
                    if (error) ::dlclose(lib->handle);
                }
            }
            if (error) {
                outcome = {Status::OpenError, error};
            } else {
                lib->users.emplace_back(pid, 1);
                m_libraries.push_back(lib);
                for (auto w = m_watches.begin(); w != m_watches.end();) {
                    if (w->up && w->name == name) {
                        fired.push_back(*w);
                        w = m_watches.erase(w);
                    } else {
                        ++w;
                    }
                }
            }
        }
    }
    deliver(fired);
    if (outcome.status == Status::Loaded || outcome.status == Status::AlreadyLoaded) watch_user(pid);
    return outcome;
}

DriverTable::Outcome DriverTable::unload(Term pid, const std::string& name, bool kill_ports, const Word* monitor) {
    std::vector<Watch> fired;
    std::vector<Term> doomed;
    Outcome outcome{Status::Unloaded};
    {
        std::lock_guard guard(m_lock);
        sweep(&fired);
        auto it = std::find_if(m_libraries.begin(), m_libraries.end(), [&](auto& l) { return l->name == name; });
        if (linked_in(name)) {
            outcome = {Status::LinkedIn};
        } else if (it == m_libraries.end()) {
            outcome = {Status::NotLoaded};
        } else {
            std::shared_ptr<DriverLibrary> lib = *it;
            auto user = std::find_if(lib->users.begin(), lib->users.end(), [&](auto& u) { return u.first == pid; });
            if (user == lib->users.end() && lib->users.empty()) {
                // Its unload is pending already (for whoever asks): kill_ports closes the ports.
                if (kill_ports || lib->kill_ports) doomed = lib->ports;
                if (monitor) m_watches.push_back(Watch{pid, {monitor[0], monitor[1], monitor[2]}, name, false});
                outcome = {Status::PendingDriver};
            } else if (user == lib->users.end()) {
                outcome = {Status::NotLoadedByThisProcess};
            } else {
                if (--user->second == 0) lib->users.erase(user);
                if (!lib->users.empty()) {
                    outcome = {Status::PendingProcess};
                } else if (lib->ports.empty()) {
                    unload_now(lib, &fired);
                    outcome = {Status::Unloaded};
                } else {
                    // Unloaded when its last port closes; kill_ports closes them now.
                    if (kill_ports || lib->kill_ports) doomed = lib->ports;
                    if (monitor) m_watches.push_back(Watch{pid, {monitor[0], monitor[1], monitor[2]}, name, false});
                    outcome = {Status::PendingDriver};
                }
            }
        }
    }
    deliver(fired);
    for (Term id : doomed)
        if (std::shared_ptr<Port> port = m_vm.port_table->lookup(id)) port->exit_signal(0, vm::atom("driver_unloaded"), false);
    return outcome;
}

void DriverTable::monitor(Term pid, const std::string& name, bool up, const Word ref[3]) {
    std::vector<Watch> fired;
    {
        std::lock_guard guard(m_lock);
        sweep(&fired);
        bool loaded = std::any_of(m_libraries.begin(), m_libraries.end(), [&](auto& l) { return l->name == name; });
        // A driver not loaded is down at once, whatever was asked; a loaded one is up at once.
        Watch w{pid, {ref[0], ref[1], ref[2]}, name, loaded && up};
        if (!loaded || up) fired.push_back(w);
        else m_watches.push_back(w);
    }
    deliver(fired);
}

void DriverTable::demonitor(const Word ref[3]) {
    std::lock_guard guard(m_lock);
    std::erase_if(m_watches, [&](const Watch& w) { return std::equal(ref, ref + 3, w.ref); });
}

std::vector<std::string> DriverTable::loaded() {
    std::vector<Watch> fired;
    std::vector<std::string> names;
    {
        std::lock_guard guard(m_lock);
        sweep(&fired);
        for (auto& lib : m_libraries) names.push_back(lib->name);
    }
    deliver(fired);
    return names;
}

std::optional<DriverTable::Info> DriverTable::info(const std::string& name) {
    std::vector<Watch> fired;
    std::optional<Info> result;
    {
        std::lock_guard guard(m_lock);
        sweep(&fired);
        auto it = std::find_if(m_libraries.begin(), m_libraries.end(), [&](auto& l) { return l->name == name; });
        if (it != m_libraries.end()) {
            result = Info{(*it)->users, (*it)->kill_ports, (*it)->ports.size(), {}};
            for (const Watch& w : m_watches)
                if (!w.up && w.name == name) result->awaiting_unload.emplace_back(w.pid, 1);
        }
    }
    deliver(fired);
    return result;
}

std::string DriverTable::error_text(int code) {
    switch (code) {
    case 0: return "No error";
    case DE_NO_INIT: return "No driver init in dynamic library";
    case DE_FAILED_INIT: return "Driver init failed";
    case DE_BAD_NAME: return "Bad driver name";
    case -4: return "Driver name to long";
    case DE_INCORRECT_VERSION: return "Driver compiled with incorrect version of erl_driver.h";
    case -6: return "DDLL functionality not available on this platform";
    case -7: return "Unspecified dynamic library error";
    case -8: return "Symbol not found in dynamic library";
    case -9: return "Unspecified error";
    case DE_DYNAMIC_ERROR: {
        std::lock_guard guard(m_lock);
        if (!m_last_dl_error.empty()) return m_last_dl_error;
        return "Unknown dlload error";
    }
    default: return code < DE_DYNAMIC_ERROR ? "Unknown dlload error" : "Unspecified error";
    }
}

std::unique_ptr<PortDriver> DriverTable::open(const std::string& command, bool binary, bool eof) {
    std::string name = command.substr(0, command.find(' '));
    std::lock_guard guard(m_lock);
    auto it = std::find_if(m_libraries.begin(), m_libraries.end(),
                           [&](auto& l) { return l->name == name && l->handle; });
    if (it == m_libraries.end()) return nullptr;
    // Counted from now: a port whose start fails closes, and port_closed takes it back.
    auto driver = std::make_unique<DynamicDriver>(*this, *it, command, binary, eof);
    (*it)->ports.push_back(0);  // the port's id, once it has one (started)
    return driver;
}

void DriverTable::port_started(const std::shared_ptr<DriverLibrary>& lib, Term port) {
    std::lock_guard guard(m_lock);
    auto slot = std::find(lib->ports.begin(), lib->ports.end(), Term(0));
    if (slot != lib->ports.end()) *slot = port;
}

int DriverTable::start_error(const PortDriver& driver) {
    auto* d = dynamic_cast<const DynamicDriver*>(&driver);
    return d ? d->start_error() : 0;
}

void DriverTable::port_closed(const std::shared_ptr<DriverLibrary>& lib, Term port) {
    std::vector<Watch> fired;
    {
        std::lock_guard guard(m_lock);
        auto slot = std::find(lib->ports.begin(), lib->ports.end(), port);
        if (slot != lib->ports.end()) lib->ports.erase(slot);
        sweep(&fired);
    }
    deliver(fired);
}

void DriverTable::sweep(std::vector<Watch>* fired) {
    for (auto& lib : m_libraries)
        std::erase_if(lib->users, [&](auto& u) { return !m_vm.lookup_process(u.first); });
    std::vector<std::shared_ptr<DriverLibrary>> idle;
    for (auto& lib : m_libraries) {
        if (!lib->users.empty()) continue;
        if (lib->ports.empty()) idle.push_back(lib);
        else if (lib->kill_ports && !lib->ports_killed) {
            lib->ports_killed = true;
            for (Term port : lib->ports)
                if (port) m_doomed_ports.push_back(port);
        }
    }
    for (auto& lib : idle) unload_now(lib, fired);
}

void DriverTable::unload_now(const std::shared_ptr<DriverLibrary>& lib, std::vector<Watch>* fired) {
    std::erase(m_libraries, lib);
    if (lib->handle) {
        if (lib->entry->finish) lib->entry->finish();
        ::dlclose(lib->handle);
        lib->handle = nullptr;
    }
    for (auto w = m_watches.begin(); w != m_watches.end();) {
        if (!w->up && w->name == lib->name) {
            fired->push_back(*w);
            w = m_watches.erase(w);
        } else {
            ++w;
        }
    }
}

void DriverTable::deliver(const std::vector<Watch>& fired) {
    std::vector<Term> doomed;
    {
        std::lock_guard guard(m_lock);
        doomed.swap(m_doomed_ports);
    }
    for (Term id : doomed)
        if (std::shared_ptr<Port> port = m_vm.port_table->lookup(id)) port->exit_signal(0, vm::atom("driver_unloaded"), false);
    for (const Watch& w : fired) {
        Term words[vm::REF_WORDS + 6];
        Term ref = ref_term_on(words, w.ref);
        Term msg = tuple_on(words + vm::REF_WORDS, {vm::atom(w.up ? "UP" : "DOWN"), ref, vm::atom("driver"),
                                                         vm::atom(w.name), vm::atom(w.up ? "loaded" : "unloaded")});
        m_vm.send_message(nullptr, w.pid, msg);
    }
}

}  // namespace beamlet::io

// ---- the C functions of include/erl_driver.h ----------------------------------------------

using beamlet::io::DynamicDriver;
namespace vm = beamlet::vm;

namespace {

DynamicDriver* driver_of(ErlDrvPort port) { return port ? port->driver : nullptr; }

// The driver of a port term: the one running on this thread, if it is that port's.
DynamicDriver* driver_of_term(ErlDrvTermData port) {
    DynamicDriver* d = DynamicDriver::current();
    return d && d->port().id == vm::Term(port) ? d : nullptr;
}

// A term from a driver's term specification (erl_drv_output_term's format), built in a heap
// fragment; null if the specification is malformed.
vm::HeapFragment* build_term(const ErlDrvTermData* spec, int length, vm::Term* out) {
    using vm::Term;
    using vm::Word;
    // First the words it needs (an upper bound), then the term.
    Word words = 0;
    for (int i = 0; i < length;) {
        ErlDrvTermData op = spec[i];
        auto arg = [&](int k) { return i + k < length ? spec[i + k] : 0; };
        if (op == ERL_DRV_NIL) i += 1;
        else if (op == ERL_DRV_ATOM || op == ERL_DRV_PORT || op == ERL_DRV_PID) i += 2;
        else if (op == ERL_DRV_INT || op == ERL_DRV_UINT || op == ERL_DRV_INT64 || op == ERL_DRV_UINT64) words += 2, i += 2;
        else if (op == ERL_DRV_FLOAT) words += 2, i += 2;
        else if (op == ERL_DRV_STRING || op == ERL_DRV_STRING_CONS) words += 2 * arg(2), i += 3;
        else if (op == ERL_DRV_BUF2BINARY) words += vm::binary_words(arg(2)), i += 3;
        else if (op == ERL_DRV_BINARY) words += vm::binary_words(arg(2)), i += 4;
        else if (op == ERL_DRV_TUPLE) words += arg(1) + 1, i += 2;
        else if (op == ERL_DRV_LIST) words += 2 * arg(1), i += 2;
        else if (op == ERL_DRV_MAP) words += vm::map_words(arg(1)), i += 2;
        else return nullptr;  // ERL_DRV_EXT2TERM is not taken
        if (i > length) return nullptr;
    }
    vm::HeapFragment* frag = vm::HeapFragment::create(words + 1);
    std::vector<Term> stack;
    auto integer = [&](bool negative, std::uint64_t magnitude) {
        if (!negative && magnitude <= std::uint64_t(vm::MAX_SMALL)) return vm::make_small(vm::SWord(magnitude));
        if (negative && magnitude <= std::uint64_t(vm::MAX_SMALL) + 1) return vm::make_small(-vm::SWord(magnitude - 1) - 1);
        Term* hp = frag->alloc(2);
        hp[0] = vm::make_header(1, negative ? vm::Subtag::NegBig : vm::Subtag::PosBig);
        hp[1] = magnitude;
        return vm::make_boxed(hp);
    };
    auto signed_integer = [&](std::int64_t v) {
        return integer(v < 0, v < 0 ? std::uint64_t(0) - std::uint64_t(v) : std::uint64_t(v));
    };
    auto string_onto = [&](const char* s, std::size_t n, Term tail) {
        Term* cells = frag->alloc(2 * n);
        for (std::size_t k = n; k-- > 0;) tail = vm::make_cons_on(cells + 2 * k, vm::make_small(std::uint8_t(s[k])), tail);
        return tail;
    };
    bool ok = true;
    for (int i = 0; i < length && ok;) {
        ErlDrvTermData op = spec[i];
        if (op == ERL_DRV_NIL) {
            stack.push_back(vm::NIL);
            i += 1;
        } else if (op == ERL_DRV_ATOM || op == ERL_DRV_PORT || op == ERL_DRV_PID) {
            Term t = Term(spec[i + 1]);
            ok = op == ERL_DRV_ATOM ? vm::is_atom(t) : op == ERL_DRV_PORT ? vm::is_port(t) : vm::is_pid(t);
            stack.push_back(t);
            i += 2;
        } else if (op == ERL_DRV_INT) {
            stack.push_back(signed_integer(ErlDrvSInt(spec[i + 1])));
            i += 2;
        } else if (op == ERL_DRV_UINT) {
            stack.push_back(integer(false, spec[i + 1]));
            i += 2;
        } else if (op == ERL_DRV_INT64) {
            stack.push_back(signed_integer(*reinterpret_cast<const ErlDrvSInt64*>(spec[i + 1])));
            i += 2;
        } else if (op == ERL_DRV_UINT64) {
            stack.push_back(integer(false, *reinterpret_cast<const ErlDrvUInt64*>(spec[i + 1])));
            i += 2;
        } else if (op == ERL_DRV_FLOAT) {
            stack.push_back(vm::make_float_on(frag->alloc(2), *reinterpret_cast<const double*>(spec[i + 1])));
            i += 2;
        } else if (op == ERL_DRV_STRING) {
            stack.push_back(string_onto(reinterpret_cast<const char*>(spec[i + 1]), spec[i + 2], vm::NIL));
            i += 3;
        } else if (op == ERL_DRV_STRING_CONS) {
            ok = !stack.empty();
            if (ok) stack.back() = string_onto(reinterpret_cast<const char*>(spec[i + 1]), spec[i + 2], stack.back());
            i += 3;
        } else if (op == ERL_DRV_BUF2BINARY || op == ERL_DRV_BINARY) {
            const char* bytes;
            std::size_t n = spec[i + 2];
            if (op == ERL_DRV_BINARY) bytes = reinterpret_cast<ErlDrvBinary*>(spec[i + 1])->orig_bytes + spec[i + 3];
            else bytes = reinterpret_cast<const char*>(spec[i + 1]);
            stack.push_back(vm::make_binary_in(frag->alloc(vm::binary_words(n)), &frag->off_heap_first,
                                               reinterpret_cast<const std::uint8_t*>(bytes), n));
            i += op == ERL_DRV_BINARY ? 4 : 3;
        } else if (op == ERL_DRV_TUPLE) {
            std::size_t n = spec[i + 1];
            ok = stack.size() >= n;
            if (ok) {
                Term* hp = frag->alloc(n + 1);
                hp[0] = vm::make_arityval(n);
                std::copy(stack.end() - std::ptrdiff_t(n), stack.end(), hp + 1);
                stack.resize(stack.size() - n);
                stack.push_back(vm::make_boxed(hp));
            }
            i += 2;
        } else if (op == ERL_DRV_LIST) {
            // N terms: the elements, then the tail.
            std::size_t n = spec[i + 1];
            ok = n >= 1 && stack.size() >= n;
            if (ok) {
                Term list = stack.back();
                Term* cells = frag->alloc(2 * (n - 1));
                for (std::size_t k = n - 1; k-- > 0;) list = vm::make_cons_on(cells + 2 * k, stack[stack.size() - n + k], list);
                stack.resize(stack.size() - n);
                stack.push_back(list);
            }
            i += 2;
        } else {  // ERL_DRV_MAP: N key-value pairs
            std::size_t n = spec[i + 1];
            // Flatmaps only: up to 32 keys.
            ok = stack.size() >= 2 * n && n <= 32;
            if (ok) {
                std::vector<std::pair<Term, Term>> pairs;
                for (std::size_t k = stack.size() - 2 * n; k < stack.size(); k += 2) pairs.emplace_back(stack[k], stack[k + 1]);
                std::stable_sort(pairs.begin(), pairs.end(),
                                 [](auto& a, auto& b) { return vm::compare_terms(a.first, b.first) < 0; });
                // A key given twice keeps its last value (erts).
                std::vector<std::pair<Term, Term>> unique;
                for (auto& kv : pairs) {
                    if (!unique.empty() && vm::compare_terms(unique.back().first, kv.first) == 0) unique.back() = kv;
                    else unique.push_back(kv);
                }
                stack.resize(stack.size() - 2 * n);
                stack.push_back(beamlet::io::flatmap_on(frag->alloc(vm::map_words(unique.size())), unique));
            }
            i += 2;
        }
    }
    if (!ok || stack.size() != 1) {
        vm::free_fragment(frag);
        return nullptr;
    }
    *out = stack.back();
    return frag;
}

// A term a driver sends, traced as erts traces it: from a callback as the port's send (to a
// process that is gone as send_to_non_existing_process), from a thread of the driver's own
// ([in_callback] false) not at all.
int send_spec(vm::Port& port, vm::Term to, ErlDrvTermData* data, int len, bool in_callback = true) {
    if (!data || len <= 0) return -1;
    vm::Term msg;
    vm::HeapFragment* frag = build_term(data, len, &msg);
    if (!frag) return -1;
    if (!to) to = port.owner.load(std::memory_order_acquire);
    port.send_to(to, msg, frag, true, in_callback);
    return 1;
}

int send_spec(DynamicDriver* d, vm::Term to, ErlDrvTermData* data, int len) {
    return d ? send_spec(d->port(), to, data, len) : -1;
}

// erl_drv_output_term and erl_drv_send_term with a port term: from the driver's callback, or
// from a thread of the driver's own (erl_drv_thread_create), which finds the port in the
// table of the VM that loaded the driver.
int send_spec_from_port(ErlDrvTermData port, vm::Term to, ErlDrvTermData* data, int len) {
    if (DynamicDriver* d = driver_of_term(port)) return send_spec(d, to, data, len);
    vm::Vm* vm = beamlet::io::DriverTable::loading_vm();
    if (!vm || !vm::is_port(vm::Term(port))) return -1;
    std::shared_ptr<vm::Port> p = vm->port_table->lookup(vm::Term(port));
    return p ? send_spec(*p, to, data, len, false) : -1;
}

std::int64_t unit_per_second(ErlDrvTimeUnit unit) {
    switch (unit) {
    case ERL_DRV_SEC: return 1;
    case ERL_DRV_MSEC: return 1000;
    case ERL_DRV_USEC: return 1000000;
    case ERL_DRV_NSEC: return 1000000000;
    }
    return 0;
}

ErlDrvTime from_ns(std::int64_t ns, ErlDrvTimeUnit unit) {
    std::int64_t per = unit_per_second(unit);
    if (!per) return ERL_DRV_TIME_ERROR;
    std::int64_t div = 1000000000 / per;
    return ns >= 0 ? ns / div : -((-ns + div - 1) / div);
}

}  // namespace

struct ErlDrvMutex_ {
    std::mutex mutex;
    std::string name;
};

struct ErlDrvCond_ {
    std::condition_variable_any cond;
    std::string name;
};

struct ErlDrvTid_ {
    pthread_t thread;
    std::string name;
};

extern "C" {

int driver_output(ErlDrvPort port, char* buf, ErlDrvSizeT len) {
    return driver_output2(port, nullptr, 0, buf, len);
}

int driver_output2(ErlDrvPort port, char* hbuf, ErlDrvSizeT hlen, char* buf, ErlDrvSizeT len) {
    DynamicDriver* d = driver_of(port);
    if (!d) return -1;
    d->deliver(std::string_view(hbuf ? hbuf : "", hbuf ? hlen : 0), std::string_view(buf ? buf : "", buf ? len : 0));
    return 0;
}

int driver_output_binary(ErlDrvPort port, char* hbuf, ErlDrvSizeT hlen, ErlDrvBinary* bin, ErlDrvSizeT offset,
                         ErlDrvSizeT len) {
    if (!bin) return -1;
    return driver_output2(port, hbuf, hlen, bin->orig_bytes + offset, len);
}

ErlDrvSizeT driver_vec_to_buf(ErlIOVec* ev, char* buf, ErlDrvSizeT len) {
    ErlDrvSizeT copied = 0;
    for (int i = 0; i < ev->vsize && copied < len; ++i) {
        ErlDrvSizeT n = std::min<ErlDrvSizeT>(ev->iov[i].iov_len, len - copied);
        std::memcpy(buf + copied, ev->iov[i].iov_base, n);
        copied += n;
    }
    return copied;
}

int driver_outputv(ErlDrvPort port, char* hbuf, ErlDrvSizeT hlen, ErlIOVec* ev, ErlDrvSizeT skip) {
    DynamicDriver* d = driver_of(port);
    if (!d || !ev) return -1;
    // The vector's pieces after [skip] bytes, empty ones left out.
    std::vector<std::string_view> pieces;
    for (int i = 0; i < ev->vsize; ++i) {
        std::string_view piece(static_cast<const char*>(ev->iov[i].iov_base), ev->iov[i].iov_len);
        std::size_t drop = std::min<std::size_t>(skip, piece.size());
        skip -= drop;
        piece.remove_prefix(drop);
        if (!piece.empty()) pieces.push_back(piece);
    }
    d->deliver_pieces(std::string_view(hbuf ? hbuf : "", hbuf ? hlen : 0), pieces);
    return 0;
}

int erl_drv_output_term(ErlDrvTermData port, ErlDrvTermData* data, int len) {
    return send_spec_from_port(port, 0, data, len);
}

int erl_drv_send_term(ErlDrvTermData port, ErlDrvTermData receiver, ErlDrvTermData* data, int len) {
    if (!vm::is_pid(vm::Term(receiver))) return -1;
    return send_spec_from_port(port, vm::Term(receiver), data, len);
}

int driver_output_term(ErlDrvPort port, ErlDrvTermData* data, int len) { return send_spec(driver_of(port), 0, data, len); }

int driver_send_term(ErlDrvPort port, ErlDrvTermData receiver, ErlDrvTermData* data, int len) {
    if (!vm::is_pid(vm::Term(receiver))) return -1;
    return send_spec(driver_of(port), vm::Term(receiver), data, len);
}

ErlDrvTermData driver_mk_atom(char* string) { return vm::atom(string ? string : ""); }

ErlDrvTermData driver_mk_port(ErlDrvPort port) {
    DynamicDriver* d = driver_of(port);
    return d ? d->port().id : vm::atoms::undefined;
}

ErlDrvTermData driver_connected(ErlDrvPort port) {
    DynamicDriver* d = driver_of(port);
    return d ? d->port().owner.load(std::memory_order_acquire) : vm::atoms::undefined;
}

ErlDrvTermData driver_caller(ErlDrvPort port) {
    DynamicDriver* d = driver_of(port);
    return d ? d->caller() : vm::atoms::undefined;
}

ErlDrvTermData driver_mk_term_nil(void) { return vm::NIL; }

void set_port_control_flags(ErlDrvPort port, int flags) {
    if (DynamicDriver* d = driver_of(port)) d->set_control_flags(flags);
}

void set_busy_port(ErlDrvPort port, int on) {
    if (DynamicDriver* d = driver_of(port)) d->port().set_busy(on != 0);
}

int driver_failure_eof(ErlDrvPort port) {
    DynamicDriver* d = driver_of(port);
    if (!d) return -1;
    d->end_of_file();
    return 0;
}

int driver_failure_atom(ErlDrvPort port, char* string) {
    DynamicDriver* d = driver_of(port);
    if (!d || !string) return -1;
    d->fail(vm::atom(string));
    return 0;
}

int driver_failure_posix(ErlDrvPort port, int error) {
    DynamicDriver* d = driver_of(port);
    if (!d) return -1;
    d->fail(vm::atom(vm::posix_error_name(error)));
    return 0;
}

int driver_failure(ErlDrvPort port, int error) {
    DynamicDriver* d = driver_of(port);
    if (!d) return -1;
    d->fail(vm::make_small(error));
    return 0;
}

int driver_exit(ErlDrvPort port, int err) {
    DynamicDriver* d = driver_of(port);
    if (!d) return -1;
    d->fail(err == 0 ? vm::atoms::normal : vm::atom(vm::posix_error_name(err)));
    return 0;
}

char* erl_errno_id(int error) { return const_cast<char*>(vm::posix_error_name(error)); }

int driver_select(ErlDrvPort port, ErlDrvEvent event, int mode, int on) {
    DynamicDriver* d = driver_of(port);
    return d ? d->select(int(reinterpret_cast<std::intptr_t>(event)), mode, on) : -1;
}

int driver_set_timer(ErlDrvPort port, unsigned long time) {
    DynamicDriver* d = driver_of(port);
    return d ? d->set_timer(time) : -1;
}

int driver_cancel_timer(ErlDrvPort port) {
    DynamicDriver* d = driver_of(port);
    return d ? d->cancel_timer() : -1;
}

int driver_read_timer(ErlDrvPort port, unsigned long* time_left) {
    DynamicDriver* d = driver_of(port);
    return d && time_left ? d->read_timer(time_left) : -1;
}

int erl_drv_consume_timeslice(ErlDrvPort, int) { return 0; }

int driver_enq(ErlDrvPort port, char* buf, ErlDrvSizeT len) {
    DynamicDriver* d = driver_of(port);
    if (!d) return -1;
    d->enqueue(std::string(buf, len), false);
    return 0;
}

int driver_pushq(ErlDrvPort port, char* buf, ErlDrvSizeT len) {
    DynamicDriver* d = driver_of(port);
    if (!d) return -1;
    d->enqueue(std::string(buf, len), true);
    return 0;
}

ErlDrvSizeT driver_deq(ErlDrvPort port, ErlDrvSizeT size) {
    DynamicDriver* d = driver_of(port);
    return d ? d->dequeue(size) : ErlDrvSizeT(-1);
}

ErlDrvSizeT driver_sizeq(ErlDrvPort port) {
    DynamicDriver* d = driver_of(port);
    return d ? d->queue_size() : ErlDrvSizeT(-1);
}

int driver_enq_bin(ErlDrvPort port, ErlDrvBinary* bin, ErlDrvSizeT offset, ErlDrvSizeT len) {
    return bin ? driver_enq(port, bin->orig_bytes + offset, len) : -1;
}

int driver_pushq_bin(ErlDrvPort port, ErlDrvBinary* bin, ErlDrvSizeT offset, ErlDrvSizeT len) {
    return bin ? driver_pushq(port, bin->orig_bytes + offset, len) : -1;
}

SysIOVec* driver_peekq(ErlDrvPort port, int* vlen) {
    DynamicDriver* d = driver_of(port);
    if (!d) {
        if (vlen) *vlen = -1;
        return nullptr;
    }
    int count = 0;
    SysIOVec* v = d->peek(&count);
    if (vlen) *vlen = count;
    return v;
}

ErlDrvSizeT driver_peekqv(ErlDrvPort port, ErlIOVec* ev) {
    DynamicDriver* d = driver_of(port);
    if (!d || !ev) return ErlDrvSizeT(-1);
    return d->peek_vector(ev);
}

void* driver_alloc(ErlDrvSizeT size) { return std::malloc(size ? size : 1); }

void* driver_realloc(void* ptr, ErlDrvSizeT size) { return std::realloc(ptr, size ? size : 1); }

void driver_free(void* ptr) { std::free(ptr); }

ErlDrvBinary* driver_alloc_binary(ErlDrvSizeT size) {
    void* raw = std::malloc(sizeof(beamlet::io::BinaryBlock) + size);
    if (!raw) return nullptr;
    auto* block = new (raw) beamlet::io::BinaryBlock{{1}, {ErlDrvSInt(size), {0}}};
    return &block->bin;
}

ErlDrvBinary* driver_realloc_binary(ErlDrvBinary* bin, ErlDrvSizeT size) {
    if (!bin) return driver_alloc_binary(size);
    ErlDrvBinary* bigger = driver_alloc_binary(size);
    if (!bigger) return nullptr;
    std::memcpy(bigger->orig_bytes, bin->orig_bytes, std::min<ErlDrvSizeT>(size, ErlDrvSizeT(bin->orig_size)));
    driver_free_binary(bin);
    return bigger;
}

void driver_free_binary(ErlDrvBinary* bin) {
    if (bin && driver_binary_dec_refc(bin) == 0) {
        beamlet::io::BinaryBlock* block = beamlet::io::block_of(bin);
        block->~BinaryBlock();
        std::free(block);
    }
}

ErlDrvSInt driver_binary_get_refc(ErlDrvBinary* dbp) { return beamlet::io::block_of(dbp)->refc.load(); }

ErlDrvSInt driver_binary_inc_refc(ErlDrvBinary* dbp) { return beamlet::io::block_of(dbp)->refc.fetch_add(1) + 1; }

ErlDrvSInt driver_binary_dec_refc(ErlDrvBinary* dbp) { return beamlet::io::block_of(dbp)->refc.fetch_sub(1) - 1; }

void driver_system_info(ErlDrvSysInfo* sip, size_t si_size) {
    ErlDrvSysInfo info{};
    info.driver_major_version = ERL_DRV_EXTENDED_MAJOR_VERSION;
    info.driver_minor_version = ERL_DRV_EXTENDED_MINOR_VERSION;
    info.erts_version = const_cast<char*>("13.1.5");
    info.otp_release = const_cast<char*>("25");
    info.thread_support = 1;
    info.smp_support = 1;
    info.async_threads = 0;
    info.scheduler_threads = 1;
    if (DynamicDriver* d = DynamicDriver::current())
        if (d->port().vm.schedulers) info.scheduler_threads = d->port().vm.schedulers->count();
    info.nif_major_version = 2;
    info.nif_minor_version = 16;
    info.dirty_scheduler_support = 1;
    std::memcpy(sip, &info, std::min(si_size, sizeof info));
}

int driver_get_now(ErlDrvNowData* now) {
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    now->megasecs = (unsigned long)(us / 1000000000000);
    now->secs = (unsigned long)(us / 1000000 % 1000000);
    now->microsecs = (unsigned long)(us % 1000000);
    return 0;
}

ErlDrvTime erl_drv_monotonic_time(ErlDrvTimeUnit time_unit) {
    return from_ns(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count(),
                   time_unit);
}

ErlDrvTime erl_drv_time_offset(ErlDrvTimeUnit time_unit) {
    auto system = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    auto steady = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
    return from_ns(system - steady, time_unit);
}

ErlDrvTime erl_drv_convert_time_unit(ErlDrvTime val, ErlDrvTimeUnit from, ErlDrvTimeUnit to) {
    std::int64_t f = unit_per_second(from), t = unit_per_second(to);
    if (!f || !t) return ERL_DRV_TIME_ERROR;
    if (t >= f) return val * (t / f);
    std::int64_t div = f / t;
    return val >= 0 ? val / div : -((-val + div - 1) / div);
}

int erl_drv_getenv(const char* key, char* value, size_t* value_size) {
    const char* v = std::getenv(key);
    if (!v) return -1;
    std::size_t n = std::strlen(v);
    if (n + 1 > *value_size) {
        *value_size = n + 1;
        return 1;
    }
    std::memcpy(value, v, n + 1);
    *value_size = n;
    return 0;
}

int erl_drv_putenv(const char* key, char* value) { return ::setenv(key, value, 1) == 0 ? 0 : -1; }

ErlDrvMutex* erl_drv_mutex_create(char* name) { return new ErlDrvMutex{{}, name ? name : ""}; }
void erl_drv_mutex_destroy(ErlDrvMutex* mtx) { delete mtx; }
int erl_drv_mutex_trylock(ErlDrvMutex* mtx) { return mtx->mutex.try_lock() ? 0 : EBUSY; }
void erl_drv_mutex_lock(ErlDrvMutex* mtx) { mtx->mutex.lock(); }
void erl_drv_mutex_unlock(ErlDrvMutex* mtx) { mtx->mutex.unlock(); }
char* erl_drv_mutex_name(ErlDrvMutex* mtx) { return mtx ? mtx->name.data() : nullptr; }

ErlDrvCond* erl_drv_cond_create(char* name) { return new ErlDrvCond{{}, name ? name : ""}; }
void erl_drv_cond_destroy(ErlDrvCond* cnd) { delete cnd; }
void erl_drv_cond_signal(ErlDrvCond* cnd) { cnd->cond.notify_one(); }
void erl_drv_cond_broadcast(ErlDrvCond* cnd) { cnd->cond.notify_all(); }
void erl_drv_cond_wait(ErlDrvCond* cnd, ErlDrvMutex* mtx) { cnd->cond.wait(mtx->mutex); }
char* erl_drv_cond_name(ErlDrvCond* cnd) { return cnd ? cnd->name.data() : nullptr; }

ErlDrvThreadOpts* erl_drv_thread_opts_create(char*) { return new ErlDrvThreadOpts{-1}; }
void erl_drv_thread_opts_destroy(ErlDrvThreadOpts* opts) { delete opts; }

int erl_drv_thread_create(char* name, ErlDrvTid* tid, void* (*func)(void*), void* args, ErlDrvThreadOpts* opts) {
    if (!tid || !func) return EINVAL;
    auto* t = new ErlDrvTid_{{}, name ? name : ""};
    pthread_attr_t attr;
    ::pthread_attr_init(&attr);
    if (opts && opts->suggested_stack_size > 0)  // kilowords, as erts reads it
        ::pthread_attr_setstacksize(&attr, std::max<std::size_t>(std::size_t(opts->suggested_stack_size) * 1024 * sizeof(void*),
                                                                 PTHREAD_STACK_MIN));
    int error = ::pthread_create(&t->thread, &attr, func, args);
    ::pthread_attr_destroy(&attr);
    if (error) {
        delete t;
        return error;
    }
    *tid = t;
    return 0;
}

ErlDrvTid erl_drv_thread_self(void) {
    // Any thread (a scheduler's too): its own id, compared by erl_drv_equal_tids.
    thread_local ErlDrvTid_ self{::pthread_self(), ""};
    return &self;
}

int erl_drv_equal_tids(ErlDrvTid tid1, ErlDrvTid tid2) {
    return tid1 && tid2 && ::pthread_equal(tid1->thread, tid2->thread);
}

void erl_drv_thread_exit(void* resp) { ::pthread_exit(resp); }

int erl_drv_thread_join(ErlDrvTid tid, void** respp) {
    if (!tid) return EINVAL;
    int error = ::pthread_join(tid->thread, respp);
    if (!error) delete tid;
    return error;
}

char* erl_drv_thread_name(ErlDrvTid tid) { return tid ? tid->name.data() : nullptr; }

}  // extern "C"
