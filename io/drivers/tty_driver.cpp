// io/drivers/tty_driver.cpp — the tty_sl driver (io/drivers/tty_driver.hpp).
//
// The line being edited is kept as erts keeps it, one cell per column: a printable
// character, or the cells a character is drawn with — a control character as ^X (two
// cells), a tab as spaces to the next multiple of 8, a character the terminal cannot show
// (not UTF-8) as \ooo or \x{H...}. Each cell carries a tag so that the cursor steps over a
// whole character; the cursor's screen position follows from its cell index and the
// terminal's width, and moves with the usual ANSI sequences (xterm's and the Linux
// console's: up ESC [ A, down LF, left BS, right ESC [ C; the last column wraps late).
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
#include "vm/atom_table.hpp"
#include "vm/heap.hpp"
#include "vm/port.hpp"

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

// Cell tags: a control character's or an escaped character's first cell holds the
// character, the rest of its cells only the tag.
constexpr std::uint32_t CONTROL_TAG = 0x10000000u;
constexpr std::uint32_t ESCAPED_TAG = 0x01000000u;
constexpr std::uint32_t TAG_MASK = 0xFF000000u;
constexpr int MAX_LINE = 1 << 16;  // a longer line is broken (as erts does)

// The code point at [*pos] of [s], advancing [*pos]; -1 when the bytes there are not UTF-8
// (overlong, a surrogate, past U+10FFFF), -2 when they are the start of a character cut off.
int decode_utf8(std::string_view s, std::size_t* pos) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[*pos + i]); };
    std::size_t left = s.size() - *pos;
    unsigned c = byte(0);
    if (c < 0x80) {
        ++*pos;
        return int(c);
    }
    int n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0) return -1;
    if (left < std::size_t(n)) {
        for (std::size_t i = 1; i < left; ++i)
            if ((byte(i) & 0xC0) != 0x80) return -1;
        return -2;
    }
    unsigned cp = c & (0x7F >> n);
    for (int i = 1; i < n; ++i) {
        if ((byte(std::size_t(i)) & 0xC0) != 0x80) return -1;
        cp = cp << 6 | (byte(std::size_t(i)) & 0x3F);
    }
    static constexpr unsigned smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < smallest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
    *pos += std::size_t(n);
    return int(cp);
}

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xC0 | cp >> 6));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xE0 | cp >> 12));
        out.push_back(char(0x80 | (cp >> 6 & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(char(0xF0 | cp >> 18));
        out.push_back(char(0x80 | (cp >> 12 & 0x3F)));
        out.push_back(char(0x80 | (cp >> 6 & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    }
}

// How a character the terminal cannot show is written after its backslash: three octal
// digits up to \777, else x{H...}.
std::string escaped_text(std::uint32_t ch) {
    char buf[16];
    if (ch <= 0777) std::snprintf(buf, sizeof buf, "%03o", ch);
    else std::snprintf(buf, sizeof buf, "x{%X}", ch);
    return buf;
}

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
        m_cols = int(window_size(1).first);
        if (m_pos > MAX_LINE) put_chars("\n");
        std::string_view data = bytes.substr(1);
        switch (static_cast<std::uint8_t>(bytes[0])) {
        case OP_PUTC:
        case OP_PUTC_SYNC: put_chars(data); break;
        case OP_MOVE: move_rel(int16(data)); break;
        case OP_INSC: insert_chars(data); break;
        case OP_DELC: delete_chars(int16(data)); break;
        case OP_BEEP: m_out.push_back('\a'); break;
        default: break;  // an unknown operation is ignored, as erts ignores it
        }
        if (!m_out.empty()) {
            m_writer->output(port, 0, m_out);
            m_out.clear();
        }
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
        if (m_utf8) {
            int ch = 0;
            while (pos < m_partial.size() && (ch = decode_utf8(m_partial, &pos)) >= 0) {}
            text = m_partial.substr(0, pos);
            if (ch == -1) {
                // Not a UTF-8 terminal after all: Latin-1 from here. What came before the bad
                // byte in the same read is dropped, as erts's driver drops it.
                m_utf8 = false;
                text.clear();
            }
        }
        if (!m_utf8) {
            for (; pos < m_partial.size(); ++pos) append_utf8(text, static_cast<unsigned char>(m_partial[pos]));
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

    // ---- the line being edited ----

    static int int16(std::string_view data) {
        if (data.size() < 2) return 0;
        return std::int16_t(static_cast<unsigned char>(data[0]) << 8 | static_cast<unsigned char>(data[1]));
    }

    int col(int cell) const { return cell % m_cols; }
    int row(int cell) const { return cell / m_cols; }
    static bool pad(std::uint32_t cell) { return (cell & TAG_MASK) && !(cell & ~TAG_MASK); }

    void set_cell(int at, std::uint32_t value) {
        if (std::size_t(at) >= m_line.size()) m_line.resize(std::size_t(at) * 2 + 64);
        m_line[std::size_t(at)] = value;
    }

    bool printable(std::uint32_t ch) const {
        return ch < 128 ? std::isprint(int(ch)) != 0 : m_utf8;
    }

    // Puts [bytes]' characters into the line at the cursor (overwriting), the cursor after
    // them; a newline, return or escape writes out the line so far and starts a new one.
    // Answers the number of cells written on the current line.
    int insert_cells(std::string_view bytes) {
        int first = m_pos;
        std::size_t pos = 0;
        while (pos < bytes.size()) {
            int c = decode_utf8(bytes, &pos);
            if (c < 0) c = static_cast<unsigned char>(bytes[pos++]);  // as erts: taken as is
            auto ch = std::uint32_t(c);
            if (printable(ch)) {
                set_cell(m_pos++, ch);
            } else if (ch >= 128) {
                std::size_t cells = escaped_text(ch).size();
                set_cell(m_pos++, ch | ESCAPED_TAG);
                while (cells--) set_cell(m_pos++, ESCAPED_TAG);
            } else if (ch == '\t') {
                set_cell(m_pos++, CONTROL_TAG | '\t');
                while (m_pos % 8) set_cell(m_pos++, CONTROL_TAG);
            } else if (ch == '\033' || ch == '\n' || ch == '\r') {
                write_cells(first, m_pos - first);
                if (ch == '\033') m_out.push_back('\033');
                else m_out += ch == '\n' ? "\r\n" : "\r";
                if (m_len > m_pos) std::copy(m_line.begin() + m_pos, m_line.begin() + m_len, m_line.begin());
                m_len = m_len > m_pos ? m_len - m_pos : 0;
                m_pos = first = 0;
            } else {
                set_cell(m_pos++, ch | CONTROL_TAG);
                set_cell(m_pos++, CONTROL_TAG);
            }
        }
        return m_pos - first;
    }

    // Draws [n] cells from [from]; the cursor ends after them.
    void write_cells(int from, int n) {
        std::string last;  // the last character drawn, to draw again past a late wrap
        int at = from;
        while (n > 0) {
            std::uint32_t cell = m_line[std::size_t(at)];
            if (!(cell & TAG_MASK)) {
                last.clear();
                if (m_utf8) append_utf8(last, cell);
                else last.push_back(char(cell));
                m_out += last;
                ++at, --n;
            } else if (cell == (CONTROL_TAG | '\t')) {
                do {
                    m_out.push_back(' ');
                    ++at, --n;
                } while (n > 0 && m_line[std::size_t(at)] == CONTROL_TAG);
                last.assign(1, ' ');
            } else if (cell & CONTROL_TAG) {
                char c = (cell & ~TAG_MASK) == 0177 ? '?' : char((cell & ~TAG_MASK) | 0x40);
                m_out.push_back('^');
                m_out.push_back(c);
                last.assign(1, c);
                at += 2, n -= 2;
            } else {
                std::string text = escaped_text(cell & ~TAG_MASK);
                m_out.push_back('\\');
                m_out += text;
                last.assign(1, text.back());
                at += int(text.size()) + 1, n -= int(text.size()) + 1;
            }
        }
        // Landed in the first column: the terminal wraps only when the next character comes
        // (xn), so one is drawn — a space past the end, else the cell's own — and stepped back.
        if (at != 0 && col(at) == 0) {
            m_out += at >= m_len ? std::string(" ") : last.empty() ? std::string(" ") : last;
            move_left(1);
        }
    }

    void move_left(int n) { m_out.append(std::size_t(n), '\b'); }
    void move_right(int n) {
        for (; n > 0; --n) m_out += "\033[C";
    }
    void move_up(int n) {
        for (; n > 0; --n) m_out += "\033[A";
    }
    void move_down(int n) { m_out.append(std::size_t(n), '\n'); }

    void move_cursor(int from, int to) {
        int dl = row(to) - row(from), dc = col(to) - col(from);
        if (dl > 0) move_down(dl);
        else if (dl < 0) move_up(-dl);
        if (dc > 0) move_right(dc);
        else if (dc < 0) move_left(-dc);
    }

    // The cell [n] characters after (before, n < 0) the cursor, within the line.
    int step_over(int n) const {
        int c = m_pos;
        for (; n > 0 && c < m_len; --n) {
            ++c;
            while (c < m_len && pad(m_line[std::size_t(c)])) ++c;
        }
        for (; n < 0 && c > 0; ++n) {
            --c;
            while (c > 0 && pad(m_line[std::size_t(c)])) --c;
        }
        return c;
    }

    void put_chars(std::string_view bytes) {
        int n = insert_cells(bytes);
        if (n > 0) write_cells(m_pos - n, n);
        if (m_pos > m_len) m_len = m_pos;
    }

    void move_rel(int n) {
        int to = step_over(n);
        move_cursor(m_pos, to);
        m_pos = to;
    }

    void insert_chars(std::string_view bytes) {
        std::vector<std::uint32_t> tail(m_line.begin() + m_pos, m_line.begin() + m_len);
        int n = insert_cells(bytes);
        for (std::size_t i = 0; i < tail.size(); ++i) set_cell(m_pos + int(i), tail[i]);
        m_len = m_pos + int(tail.size());
        write_cells(m_pos - n, m_len - (m_pos - n));
        move_cursor(m_len, m_pos);
    }

    // Deletes [n] characters after the cursor (before it, n < 0); the cursor stays at the
    // start of the gap, the rest of the line is drawn again and its old end blanked.
    void delete_chars(int n) {
        int to = step_over(n);
        if (to == m_pos) return;
        int gone = std::abs(to - m_pos);
        if (to < m_pos) {
            move_cursor(m_pos, to);
            std::swap(to, m_pos);  // the gap is [m_pos, to)
        }
        int after = m_len - to;
        std::copy(m_line.begin() + to, m_line.begin() + m_len, m_line.begin() + m_pos);
        m_len -= gone;
        write_cells(m_pos, after);
        m_out.append(std::size_t(gone), ' ');
        if (col(m_len + gone) == 0) {
            m_out.push_back(' ');
            move_left(1);
        }
        move_cursor(m_len + gone, m_pos);
    }

    int m_in;
    bool m_utf8;
    std::unique_ptr<PortDriver> m_writer;  // the terminal's output side: fd 1, queued as an fd port's
    std::string m_partial;                 // key stroke bytes of a character not complete yet
    std::string m_out;                     // what a command draws
    std::vector<std::uint32_t> m_line;     // the cells of the line being edited
    int m_pos = 0, m_len = 0;              // the cursor's cell, the line's length
    int m_cols = 80;
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
