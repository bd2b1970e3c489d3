// vm/port_driver.hpp — PortDriver: what runs behind a port (OTP's driver entry), called only by
// the port's executor (the holder of Port::exec). The drivers are the I/O layer's, one file
// each (io/drivers/: spawn, fd, inet).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vm/term.hpp"

namespace beamlet::vm {

struct Port;

// Bytes of a runtime batch (output_all) a driver may queue before the port counts as busy for
// its senders: OTP's dist_buf_busy_limit default, 1 MB.
inline constexpr std::size_t RUNTIME_BUSY_BYTES = 1024 * 1024;

// A packet the runtime writes through a port (the distribution's): [head], then [body]'s
// bytes [from, to). The fragments of one large message share its body.
struct RuntimePacket {
    std::string head;
    std::shared_ptr<const std::string> body;
    std::size_t from = 0, to = 0;

    std::size_t size() const { return head.size() + (to - from); }
    std::string_view body_bytes() const { return body ? std::string_view(*body).substr(from, to - from) : std::string_view(); }
};

class PortDriver {
public:
    virtual ~PortDriver() = default;

    // The port is in the port table: start watching the driver's descriptors.
    virtual void start(Port& port) = 0;
    // [bytes] from a command by [caller]: written to the program, or queued when it cannot
    // take them now (the port turns busy past the high watermark).
    virtual void output(Port& port, Term caller, std::string_view bytes) = 0;
    // Several commands from the runtime in a row ([packets], each as one output() from no
    // caller): the distribution's control messages. A driver may write them at once; one
    // that queues RUNTIME_BUSY_BYTES or more of them posts a DistOutput operation to its port
    // once its queue is down to half of that again (the distribution's senders wait for it).
    virtual void output_all(Port& port, const std::vector<RuntimePacket>& packets) {
        std::string bytes;
        for (const RuntimePacket& packet : packets) {
            bytes.assign(packet.head);
            bytes.append(packet.body_bytes());
            output(port, 0, bytes);
        }
    }
    // port_control/3 from [caller]: the reply's bytes, or nullopt (badarg) for a driver without
    // control operations or an operation it does not know.
    virtual std::optional<std::string> control(Port& /*port*/, Term /*caller*/, unsigned /*operation*/,
                                               std::string_view /*data*/) {
        return std::nullopt;
    }
    // Whether the driver has call operations (port_call/3 to one without is refused before
    // it is traced as received, as erts does).
    virtual bool takes_calls() const { return false; }
    // port_call/3 from [caller]: the reply's bytes (a term in the external format), or nullopt
    // (badarg) for a driver without call operations or a failed one.
    virtual std::optional<std::string> call(Port& /*port*/, Term /*caller*/, unsigned /*operation*/,
                                            std::string_view /*data*/) {
        return std::nullopt;
    }
    // Whether port_control/3 answers a binary rather than a list (OTP's
    // PORT_CONTROL_FLAG_BINARY).
    virtual bool binary_control() const { return false; }
    // The poller reported [events] (IoEvent bits): read, write what is queued, reap.
    virtual void ready(Port& port, std::uint32_t events) = 0;
    // The port closes: stop watching, close the descriptors; the program is left to end on
    // its own (it reads end of file) and is reaped when it does. With [flush], output still
    // queued is written first: the driver keeps its input pipe, answers true, and calls
    // Port::finish_closing once the queue is empty or cannot be written.
    virtual bool stop(Port& port, bool flush) = 0;
    // Whether commands reach the driver as I/O vectors (OTP's outputv, as inet's): their
    // 'receive' trace events show the data as a list of binaries, the vector's pieces.
    virtual bool takes_vectors() const { return false; }
    // A command for a driver that takes vectors: [bytes], in pieces ending at [ends] (none:
    // one piece). A driver that writes the bytes alike takes them as output().
    virtual void output_vector(Port& port, Term caller, std::string_view bytes, std::span<const std::size_t> ends) {
        (void)ends;
        output(port, caller, bytes);
    }
    // Bytes waiting to be written to the program (port_info queue_size).
    virtual std::size_t queue_size() const = 0;
    // Whether writability matters now (OTP selects for writing only then): output is queued,
    // or a socket is connecting.
    virtual bool wants_write() const { return queue_size() != 0; }
    // Whether readability matters now (a passive socket with no recv waiting selects nothing:
    // its data waits in the kernel, and no I/O turn runs for it).
    virtual bool wants_read() const { return true; }
    // Whether start() is the port's first I/O turn (the spawn driver's acknowledgement, traced
    // as one), or runs inside the open operation (inet's drivers).
    virtual bool starts_with_io_turn() const { return true; }
    // The program's OS process id (port_info os_pid), or -1.
    virtual long os_pid() const { return -1; }
};

}  // namespace beamlet::vm
