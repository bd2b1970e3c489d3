// io/stdio.hpp — the VM's standard output, under OTP's user and standard_error (the fd
// driver's ports) and the emulator's own printing (erlang:display/1, crash dumps).
//
// Output to fd 1 is buffered: line by line on a terminal; otherwise written when the buffer
// passes 64 KiB, when a scheduler runs out of work, before anything goes to fd 2, and at exit
// (also on SIGINT/SIGTERM), so a program's output is complete and in order whatever ends it.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "vm/term.hpp"

namespace beamlet::vm {
struct Vm;
}

namespace beamlet::io {

using vm::Term;
using vm::Vm;
using vm::Word;

class StandardIo {
public:
    explicit StandardIo(Vm& vm);
    ~StandardIo();
    StandardIo(const StandardIo&) = delete;
    StandardIo& operator=(const StandardIo&) = delete;

    // Writes [bytes] to [fd] (1 or 2), following the buffering rules above.
    void write(int fd, std::string_view bytes);
    // Writes out what fd 1's buffer holds.
    void flush();
    // flush(), cheaply skipped when the buffer is empty (the schedulers call it when idle).
    void flush_if_pending() {
        if (m_pending.load(std::memory_order_acquire)) flush();
    }

private:
    void write_all(int fd, const char* data, std::size_t size);

    bool m_tty;
    std::mutex m_out_mutex;
    std::string m_out;
    std::atomic<bool> m_pending{false};
};

}  // namespace beamlet::io
