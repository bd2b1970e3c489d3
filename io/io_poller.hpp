// io/io_poller.hpp — IoPoller: the I/O thread. One epoll instance watches every port's
// descriptors (edge-triggered) and the pidfds of their programs; a readiness event sets a bit
// on the port and puts it in a run queue, where a scheduler does the actual reading and
// writing (OTP's poll thread). No thread per port, no busy waiting, no signal handlers.
//
// Events carry the port's number, not a pointer: a port closed while an event for it was in
// flight is simply not found.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <thread>
#include <vector>

#include "vm/term.hpp"

namespace beamlet::vm {
struct Vm;
}

namespace beamlet::io {

using vm::Term;
using vm::Vm;
using vm::Word;

// A descriptor's owner that is not a port (a socket of OTP's socket module, whose NIFs select
// on it as enif_select does): told of readiness on the thread that saw it.
class Selectable {
public:
    virtual ~Selectable() = default;
    // [events]: IO_READ and/or IO_WRITE (a hang-up or an error is both).
    virtual void io_ready(std::uint32_t events) = 0;
};

class IoPoller {
public:
    explicit IoPoller(Vm& vm);
    // Stops the thread (after reaping the children that have already exited).
    ~IoPoller();
    // Stops the thread now: no readiness is reported any more (VM exit, before the
    // schedulers go). Idempotent.
    void stop();
    IoPoller(const IoPoller&) = delete;
    IoPoller& operator=(const IoPoller&) = delete;

    // Reports [fd]'s readiness to port number [port_number] as [event] (an IoEvent: IO_READ
    // for readable or hung up, IO_WRITE for writable, IO_CHILD for a pidfd whose process
    // exited; IO_SOCKET for both directions of a socket, reported as IO_READ and IO_WRITE
    // bits) until forget(fd). False if epoll refuses the descriptor.
    bool watch(int fd, Word port_number, std::uint32_t event);
    // Stops reporting [fd] (before it is closed).
    void forget(int fd);
    // Reports both directions of [fd] to [owner] (edge-triggered, as for a port's socket) while
    // it lives, until forget_selectable; the key to forget it by, or 0 if epoll refuses [fd].
    Word watch_selectable(int fd, std::weak_ptr<Selectable> owner);
    // Stops reporting [fd] to the owner of [key]. A report already under way may still reach
    // the owner (which it keeps alive meanwhile): the owner ignores it once it has closed.
    void forget_selectable(int fd, Word key);
    // Waits for the program behind [pidfd] to exit, reaps it and closes [pidfd]: for a port
    // that closed before its program ended.
    void reap(int pidfd);
    // How many closed ports' programs have not exited yet.
    std::size_t orphans() const;
    // Reports the ports' readiness that is there now, without waiting, from any thread (an
    // idle scheduler); false if another thread is doing it. Orphans are the I/O thread's.
    bool poll_now();

private:
    void start();
    void loop();
    // Reaps the orphan behind [pidfd] if it has exited; true if it did.
    static bool try_reap(int pidfd);
    // Tells the port of the event word [word] what [happened] (epoll's bits).
    void report(std::uint64_t word, std::uint32_t happened);

    Vm& m_vm;
    int m_epoll = -1;
    int m_wake = -1;  // an eventfd that ends the loop
    std::once_flag m_started;
    std::atomic<bool> m_started_flag{false};
    std::atomic<bool> m_polling{false};  // a scheduler is in poll_now
    std::atomic<bool> m_stopping{false};
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::vector<int> m_orphans;  // pidfds being reaped, under m_mutex
    // The selectables by key, under m_mutex.
    std::unordered_map<Word, std::weak_ptr<Selectable>> m_selectables;
    Word m_next_selectable = 0;
};

}  // namespace beamlet::io
