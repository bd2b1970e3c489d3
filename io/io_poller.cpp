// io/io_poller.cpp — the I/O thread: epoll, edge-triggered, one event word per descriptor
// holding the port's number and the IoEvent it stands for.
#include "io/io_poller.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/vm.hpp"

namespace beamlet::io {

using namespace vm;

namespace {
// The event word: the port's number above 8 bits of IoEvent. WAKE, ORPHAN and SELECTABLE
// (a Selectable's key above the bits) are not ports.
constexpr std::uint64_t EVENT_BITS = 8;
constexpr std::uint64_t WAKE = ~std::uint64_t(0);
constexpr std::uint32_t ORPHAN = 1u << 7;
constexpr std::uint32_t SELECTABLE = 1u << 6;

std::uint64_t event_word(Word number, std::uint32_t event) { return (std::uint64_t(number) << EVENT_BITS) | event; }
}  // namespace

IoPoller::IoPoller(Vm& vm) : m_vm(vm) {}

void IoPoller::stop() {
    // No scheduler polls any more: the flag is taken for good once it is free.
    if (!m_stopping.exchange(true, std::memory_order_acq_rel)) {
        m_started_flag.store(false, std::memory_order_release);
        while (m_polling.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
    }
    if (m_thread.joinable()) {
        std::uint64_t one = 1;
        [[maybe_unused]] ssize_t n = ::write(m_wake, &one, sizeof one);
        m_thread.join();
    }
}

IoPoller::~IoPoller() {
    stop();
    std::lock_guard guard(m_mutex);
    for (int pidfd : m_orphans) {
        try_reap(pidfd);  // those still running are left to init, as OTP leaves them
        ::close(pidfd);
    }
    m_orphans.clear();
    if (m_wake >= 0) ::close(m_wake);
    if (m_epoll >= 0) ::close(m_epoll);
}

void IoPoller::start() {
    std::call_once(m_started, [this] {
        // A program that exits before reading what it was sent must not take the VM down:
        // the write fails with EPIPE instead (spawned programs get SIGPIPE back, spawn_driver).
        std::signal(SIGPIPE, SIG_IGN);
        m_epoll = epoll_create1(EPOLL_CLOEXEC);
        m_wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = WAKE;
        epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wake, &ev);
        m_thread = std::thread([this] { loop(); });
        m_started_flag.store(true, std::memory_order_release);
    });
}

bool IoPoller::poll_now() {
    if (m_polling.exchange(true, std::memory_order_acquire)) return false;
    bool reported = false;
    if (m_started_flag.load(std::memory_order_acquire)) {
        constexpr int MAX_EVENTS = 64;
        epoll_event events[MAX_EVENTS];
        int n = epoll_wait(m_epoll, events, MAX_EVENTS, 0);
        for (int i = 0; i < n; ++i) {
            std::uint64_t word = events[i].data.u64;
            // The wake-up and the orphans (both level-triggered) stay the I/O thread's.
            if (word == WAKE || std::uint32_t(word & ((1u << EVENT_BITS) - 1)) == ORPHAN) continue;
            report(word, events[i].events);
            reported = true;
        }
    }
    m_polling.store(false, std::memory_order_release);
    return reported;
}

namespace {
// Both directions on one descriptor: what happened is what is reported.
std::uint32_t socket_events(std::uint32_t happened) {
    return (happened & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR) ? std::uint32_t(IO_READ) : 0u) |
           (happened & (EPOLLOUT | EPOLLHUP | EPOLLERR) ? std::uint32_t(IO_WRITE) : 0u);
}
}  // namespace

void IoPoller::report(std::uint64_t word, std::uint32_t happened) {
    std::uint32_t event = std::uint32_t(word & ((1u << EVENT_BITS) - 1));
    Word number = Word(word >> EVENT_BITS);
    if (event == SELECTABLE) {
        std::shared_ptr<Selectable> owner;
        {
            std::lock_guard guard(m_mutex);
            auto it = m_selectables.find(number);
            if (it != m_selectables.end()) owner = it->second.lock();
        }
        if (owner) owner->io_ready(socket_events(happened));
        return;
    }
    if (event == IO_SOCKET) event = socket_events(happened);
    // A hang-up or an error is reported as what the descriptor was watched for: the
    // executor's read (write) then sees end of file (EPIPE).
    if ((event & IO_READ) && (happened & (EPOLLHUP | EPOLLRDHUP | EPOLLERR))) event |= IO_HUP;
    if (std::shared_ptr<Port> port = m_vm.port_table->lookup_number(number)) port->io_ready(event);
}

bool IoPoller::watch(int fd, Word port_number, std::uint32_t event) {
    start();
    epoll_event ev{};
    // Edge-triggered: the executor reads (writes) until the descriptor would block, and only a
    // new edge wakes the port again. A pidfd becomes readable once, when its process exits.
    ev.events = (event == IO_SOCKET  ? EPOLLIN | EPOLLOUT | EPOLLRDHUP
                 : event == IO_WRITE ? EPOLLOUT
                 : event == IO_READ  ? EPOLLIN | EPOLLRDHUP
                                     : EPOLLIN) |
                EPOLLET;
    ev.data.u64 = event_word(port_number, event);
    return epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev) == 0;
}

void IoPoller::forget(int fd) {
    if (m_epoll >= 0) epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
}

Word IoPoller::watch_selectable(int fd, std::weak_ptr<Selectable> owner) {
    start();
    Word key;
    {
        std::lock_guard guard(m_mutex);
        key = ++m_next_selectable;
        m_selectables.emplace(key, std::move(owner));
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    ev.data.u64 = event_word(key, SELECTABLE);
    if (epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev) == 0) return key;
    std::lock_guard guard(m_mutex);
    m_selectables.erase(key);
    return 0;
}

void IoPoller::forget_selectable(int fd, Word key) {
    forget(fd);
    std::lock_guard guard(m_mutex);
    m_selectables.erase(key);
}

bool IoPoller::try_reap(int pidfd) {
    siginfo_t info{};
    // P_PIDFD waits for exactly this child: no other child's status is ever taken.
    return waitid(P_PIDFD, id_t(pidfd), &info, WEXITED | WNOHANG) == 0 && info.si_pid != 0;
}

void IoPoller::reap(int pidfd) {
    if (try_reap(pidfd)) {
        ::close(pidfd);
        return;
    }
    start();
    {
        std::lock_guard guard(m_mutex);
        m_orphans.push_back(pidfd);
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = event_word(Word(pidfd), ORPHAN);
    epoll_ctl(m_epoll, EPOLL_CTL_ADD, pidfd, &ev);
}

std::size_t IoPoller::orphans() const {
    std::lock_guard guard(m_mutex);
    return m_orphans.size();
}

void IoPoller::loop() {
    constexpr int MAX_EVENTS = 64;
    epoll_event events[MAX_EVENTS];
    while (true) {
        int n = epoll_wait(m_epoll, events, MAX_EVENTS, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            return;
        }
        for (int i = 0; i < n; ++i) {
            std::uint64_t word = events[i].data.u64;
            if (word == WAKE) return;
            std::uint32_t event = std::uint32_t(word & ((1u << EVENT_BITS) - 1));
            Word number = Word(word >> EVENT_BITS);
            if (event == ORPHAN) {
                int pidfd = int(number);
                epoll_ctl(m_epoll, EPOLL_CTL_DEL, pidfd, nullptr);
                try_reap(pidfd);
                ::close(pidfd);
                std::lock_guard guard(m_mutex);
                m_orphans.erase(std::remove(m_orphans.begin(), m_orphans.end(), pidfd), m_orphans.end());
                continue;
            }
            report(word, events[i].events);
        }
    }
}

}  // namespace beamlet::io
