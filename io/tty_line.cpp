// io/tty_line.cpp — the tty_sl driver's line (io/tty_line.hpp).
#include "io/tty_line.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "vm/utf8.hpp"

namespace beamlet::io {

namespace {

// Cell tags: a control character's or an escaped character's first cell holds the
// character, the rest of its cells only the tag.
constexpr std::uint32_t CONTROL_TAG = 0x10000000u;
constexpr std::uint32_t ESCAPED_TAG = 0x01000000u;
constexpr std::uint32_t TAG_MASK = 0xFF000000u;

bool pad(std::uint32_t cell) { return (cell & TAG_MASK) && !(cell & ~TAG_MASK); }

// How a character the terminal cannot show is written after its backslash: three octal
// digits up to \777, else x{H...}.
std::string escaped_text(std::uint32_t ch) {
    char buf[16];
    if (ch <= 0777) std::snprintf(buf, sizeof buf, "%03o", ch);
    else std::snprintf(buf, sizeof buf, "x{%X}", ch);
    return buf;
}

void move_left(std::string& out, int n) { out.append(std::size_t(n), '\b'); }

}  // namespace

bool TtyLine::printable(std::uint32_t ch) const { return ch < 128 ? std::isprint(int(ch)) != 0 : m_utf8; }

void TtyLine::set_cell(int at, std::uint32_t value) {
    if (std::size_t(at) >= m_line.size()) m_line.resize(std::size_t(at) * 2 + 64);
    m_line[std::size_t(at)] = value;
}

// Puts [bytes]' characters into the line at the cursor, the cursor after them. Answers the
// number of cells written on the current line (a newline starts another).
int TtyLine::insert_cells(std::string_view bytes) {
    int first = m_pos;
    const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        std::uint32_t ch;
        int n = vm::utf8_decode(p + pos, bytes.size() - pos, &ch);
        if (n <= 0) ch = p[pos], n = 1;  // as erts: a byte that is not UTF-8 is taken as is
        pos += std::size_t(n);
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

// Draws [n] cells from [from]; the terminal's cursor ends after them.
void TtyLine::write_cells(int from, int n) {
    std::string last;  // the last character drawn, to draw again past a late wrap
    int at = from;
    while (n > 0) {
        std::uint32_t cell = m_line[std::size_t(at)];
        if (!(cell & TAG_MASK)) {
            last.clear();
            if (m_utf8) vm::put_utf8(cell, last);
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
    // Landed in the first column: the terminal wraps only when the next character comes, so
    // one is drawn — a space past the end of the line, else the cell's own — and stepped back.
    if (at != 0 && col(at) == 0) {
        m_out += at >= m_len || last.empty() ? std::string(" ") : last;
        move_left(m_out, 1);
    }
}

void TtyLine::move_cursor(int from, int to) {
    int dl = row(to) - row(from), dc = col(to) - col(from);
    if (dl > 0) m_out.append(std::size_t(dl), '\n');
    for (; dl < 0; ++dl) m_out += "\033[A";
    for (; dc > 0; --dc) m_out += "\033[C";
    if (dc < 0) move_left(m_out, -dc);
}

// The cell [n] characters after (before, n < 0) the cursor, within the line.
int TtyLine::step_over(int n) const {
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

void TtyLine::break_long_line() {
    if (m_pos > MAX_LINE) insert_cells("\n");
}

void TtyLine::put_chars(std::string_view bytes) {
    break_long_line();
    int n = insert_cells(bytes);
    if (n > 0) write_cells(m_pos - n, n);
    if (m_pos > m_len) m_len = m_pos;
}

void TtyLine::move(int n) {
    break_long_line();
    int to = step_over(n);
    move_cursor(m_pos, to);
    m_pos = to;
}

void TtyLine::insert_chars(std::string_view bytes) {
    break_long_line();
    std::vector<std::uint32_t> tail(m_line.begin() + m_pos, m_line.begin() + m_len);
    int n = insert_cells(bytes);
    for (std::size_t i = 0; i < tail.size(); ++i) set_cell(m_pos + int(i), tail[i]);
    m_len = m_pos + int(tail.size());
    write_cells(m_pos - n, m_len - (m_pos - n));
    move_cursor(m_len, m_pos);
}

void TtyLine::delete_chars(int n) {
    break_long_line();
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
        move_left(m_out, 1);
    }
    move_cursor(m_len + gone, m_pos);
}

}  // namespace beamlet::io
