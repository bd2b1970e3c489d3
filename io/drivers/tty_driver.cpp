// io/drivers/tty_driver.cpp — the tty_sl driver (io/drivers/tty_driver.hpp): the terminal's
// modes, key strokes in, user_drv's commands out through the line editor (io/tty_line.hpp).
#include "io/drivers/tty_driver.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <mutex>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "io/drivers/fd_driver.hpp"
#include "io/drivers/stream_driver.hpp"
#include "io/io_layer.hpp"
#include "io/io_poller.hpp"
#include "io/tty_line.hpp"
#include "vm/atom_table.hpp"
#include "vm/heap.hpp"
#include "vm/port.hpp"
#include "vm/utf8.hpp"

namespace beamlet::io {

using namespace vm;

namespace {

// The terminal's modes before the driver started, and whether a driver has it now. Plain
// statics: tty_restore runs in the signal thread and on the way out, with no lock to take.
struct termios g_saved_mode, g_raw_mode;
std::atomic<bool> g_active{false};
std::atomic<bool> g_paused{false};  // the break menu reads the terminal
std::mutex g_port_lock;
std::weak_ptr<Port> g_port;  // the driver's port, for tty_resume (under g_port_lock)

// user_drv's operations (OP_*) and port_control codes (ERTS_TTYSL_DRV_CONTROL_MAGIC_NUMBER
// + 100, 101, 102).
enum : std::uint8_t { OP_PUTC = 0, OP_MOVE = 1, OP_INSC = 2, OP_DELC = 3, OP_BEEP = 4, OP_PUTC_SYNC = 5 };
constexpr unsigned CONTROL_MAGIC = 0x018b0900;
constexpr unsigned CTRL_GET_WINSIZE = CONTROL_MAGIC + 100;
constexpr unsigned CTRL_GET_UNICODE_STATE = CONTROL_MAGIC + 101;
constexpr unsigned CTRL_SET_UNICODE_STATE = CONTROL_MAGIC + 102;

// The terminal's width and height (80x24 when it does not say).
std::pair<std::uint32_t, std::uint32_t> window_size(int fd) {
    struct winsize ws {};
    if (::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) return {ws.ws_col, ws.ws_row};
    return {80, 24};
}

class TtyDriver final : public PortDriver {
public:
    TtyDriver(int in, bool utf8) : m_in(in), m_utf8(utf8) {}
    ~TtyDriver() override { close_fd(m_in); }

    void start(Port& port) override {
        PortOptions out;
        out.in = false;
        m_writer = open_descriptors(out, 0, 1);
        m_writer->start(port);
        {
            std::lock_guard guard(g_port_lock);
            g_port = port.self;
        }
        layer(port.vm).poller().watch(m_in, vm::port_number(port.id), IO_READ);
    }

    void output(Port& port, Term, std::string_view bytes) override {
        if (bytes.empty()) return;
        m_line.set_columns(int(window_size(1).first));
        m_line.set_utf8(m_utf8);
        std::string_view data = bytes.substr(1);
        switch (static_cast<std::uint8_t>(bytes[0])) {
        case OP_PUTC:
        case OP_PUTC_SYNC: m_line.put_chars(data); break;
        case OP_MOVE: m_line.move(int16(data)); break;
        case OP_INSC: m_line.insert_chars(data); break;
        case OP_DELC: m_line.delete_chars(int16(data)); break;
        case OP_BEEP: m_line.beep(); break;
        default: break;  // an unknown operation is ignored, as erts ignores it
        }
        if (std::string out = m_line.take_output(); !out.empty()) m_writer->output(port, 0, out);
        if (static_cast<std::uint8_t>(bytes[0]) == OP_PUTC_SYNC) {
            // {Port, ok}: user_drv answers the put_chars_sync request with it.
            HeapFragment* frag = HeapFragment::create(3);
            Term* hp = frag->alloc(3);
            hp[0] = make_arityval(2);
            hp[1] = port.id;
            hp[2] = atom("ok");
            port.send_to_owner(make_boxed(hp), frag);
        }
    }

    std::optional<std::string> control(Port&, Term, unsigned operation, std::string_view data) override {
        std::string reply;
        switch (operation) {
        case CTRL_GET_WINSIZE: {
            auto [w, h] = window_size(0);
            reply.append(reinterpret_cast<const char*>(&w), sizeof w);
            reply.append(reinterpret_cast<const char*>(&h), sizeof h);
            break;
        }
        case CTRL_GET_UNICODE_STATE: reply.push_back(m_utf8 ? 1 : 0); break;
        case CTRL_SET_UNICODE_STATE:
            if (data.empty()) break;
            reply.push_back(m_utf8 ? 1 : 0);
            m_utf8 = data[0] != 0;
            break;
        default: break;  // an empty answer, as erts's driver gives
        }
        return reply;
    }

    void ready(Port& port, std::uint32_t events) override {
        if (events & IO_WRITE) m_writer->ready(port, IO_WRITE);
        if ((events & IO_READ) && m_in >= 0 && port.is_open()) read_keys(port);
    }

    bool stop(Port& port, bool flush) override {
        ::tcsetattr(0, TCSANOW, &g_saved_mode);
        g_active.store(false);
        if (m_in >= 0) layer(port.vm).poller().forget(m_in);
        close_fd(m_in);
        return m_writer && m_writer->stop(port, flush);
    }

    std::size_t queue_size() const override { return m_writer ? m_writer->queue_size() : 0; }
    bool wants_write() const override { return m_writer && m_writer->wants_write(); }

private:
    // ---- key strokes: to the owner as bytes ----

    void read_keys(Port& port) {
        for (;;) {
            if (g_paused.load()) return;  // the break menu's; tty_resume reads on
            char buf[1024];
            ssize_t n = ::read(m_in, buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
            if (n <= 0) {
                // The terminal hung up: the port fails, as erts's driver_failure.
                port.terminate(atom("eio"));
                return;
            }
            port.count_input(std::size_t(n));
            m_partial.append(buf, std::size_t(n));
            deliver(port);
            if (!port.is_open() || std::size_t(n) < sizeof buf) return;
        }
    }

    void deliver(Port& port) {
        std::string text;
        std::size_t pos = 0;
        const auto* p = reinterpret_cast<const std::uint8_t*>(m_partial.data());
        if (m_utf8) {
            std::uint32_t ch;
            int n = 1;
            while (pos < m_partial.size() && (n = utf8_decode(p + pos, m_partial.size() - pos, &ch)) > 0)
                pos += std::size_t(n);
            text = m_partial.substr(0, pos);
            if (n == 0) {
                // Not a UTF-8 terminal after all: Latin-1 from here. What came before the bad
                // byte in the same read is dropped, as erts's driver drops it.
                m_utf8 = false;
                text.clear();
            }
        }
        if (!m_utf8) {
            for (; pos < m_partial.size(); ++pos) put_utf8(p[pos], text);
        }
        m_partial.erase(0, pos);
        if (text.empty()) return;
        vm::HeapFragment* frag = vm::HeapFragment::create(2 * text.size() + 6);
        Term* cells = frag->alloc(2 * text.size());
        Term list = vm::NIL;
        for (std::size_t i = text.size(); i-- > 0;)
            list = vm::make_cons_on(cells + 2 * i, vm::make_small(static_cast<unsigned char>(text[i])), list);
        port.deliver(list, frag);
    }

    static int int16(std::string_view data) {
        if (data.size() < 2) return 0;
        return std::int16_t(static_cast<unsigned char>(data[0]) << 8 | static_cast<unsigned char>(data[1]));
    }

    int m_in;
    bool m_utf8;
    std::unique_ptr<PortDriver> m_writer;  // the terminal's output side: fd 1, queued as an fd port's
    std::string m_partial;                 // key stroke bytes of a character not complete yet
    TtyLine m_line;                        // the line being edited, as drawn
};

bool terminal_can_move_cursor() {
    const char* term = std::getenv("TERM");
    return term && *term && std::strcmp(term, "dumb") != 0;
}

// The locale's character set is UTF-8 (erts's check: LC_ALL, LC_CTYPE, LANG).
bool utf8_locale() {
    for (const char* var : {"LC_ALL", "LC_CTYPE", "LANG"}) {
        const char* value = std::getenv(var);
        if (value && *value) return std::strstr(value, "UTF-8") || std::strstr(value, "utf8");
    }
    return false;
}

}  // namespace

std::unique_ptr<PortDriver> tty_driver(const std::string& command, int* error) {
    *error = EINVAL;
    if (!::isatty(0) || !::isatty(1) || !terminal_can_move_cursor() || g_active.load()) return nullptr;
    // The words after the driver's name: +X / -X turn a mode on or off (c: line mode, e:
    // echo), anything else is a terminal to open, which beamlet's driver does not take.
    int canon = 0, echo = 0;
    std::size_t at = command.find(' ');
    while (at != std::string::npos) {
        std::size_t end = command.find(' ', at + 1);
        std::string_view word = std::string_view(command).substr(at + 1, end == std::string::npos ? end : end - at - 1);
        at = end;
        if (word.empty()) continue;
        if (word.size() < 2 || (word[0] != '+' && word[0] != '-')) return nullptr;
        int flag = word[0] == '+' ? 1 : -1;
        if (word[1] == 'c') canon = flag;
        if (word[1] == 'e') echo = flag;
    }
    if (::tcgetattr(0, &g_saved_mode) != 0) return nullptr;
    g_raw_mode = g_saved_mode;
    g_raw_mode.c_iflag &= ~tcflag_t(ISTRIP);
    if (canon < 0) {
        g_raw_mode.c_iflag &= ~tcflag_t(ICRNL);
        g_raw_mode.c_lflag &= ~tcflag_t(ICANON);
        g_raw_mode.c_oflag &= ~tcflag_t(OPOST);
        g_raw_mode.c_cc[VMIN] = 1;
        g_raw_mode.c_cc[VTIME] = 0;
    } else if (canon > 0) {
        g_raw_mode.c_iflag |= ICRNL;
        g_raw_mode.c_lflag |= ICANON;
        g_raw_mode.c_oflag |= OPOST;
    }
    if (echo < 0) g_raw_mode.c_lflag &= ~tcflag_t(ECHO);
    if (echo > 0) g_raw_mode.c_lflag |= ECHO;
    // The keys are read from a description of the terminal of the port's own (non-blocking:
    // fd 0's stays as it was, for the break menu and for programs the shell starts).
    int in = ::open("/proc/self/fd/0", O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (in < 0) return nullptr;
    if (::tcsetattr(0, TCSANOW, &g_raw_mode) != 0) {
        ::close(in);
        return nullptr;
    }
    g_paused.store(false);
    g_active.store(true);
    *error = 0;
    return std::make_unique<TtyDriver>(in, utf8_locale());
}

bool tty_active() { return g_active.load(); }

void tty_restore() {
    if (!g_active.load()) return;
    g_paused.store(true);
    ::tcsetattr(0, TCSANOW, &g_saved_mode);
}

void tty_continued() {
    if (g_active.load() && !g_paused.load()) ::tcsetattr(0, TCSANOW, &g_raw_mode);
}

void tty_resume() {
    if (!g_active.load()) return;
    ::tcsetattr(0, TCSANOW, &g_raw_mode);
    g_paused.store(false);
    std::shared_ptr<Port> port;
    {
        std::lock_guard guard(g_port_lock);
        port = g_port.lock();
    }
    if (port) port->io_ready(IO_READ);
}

}  // namespace beamlet::io
