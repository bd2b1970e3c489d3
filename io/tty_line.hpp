// io/tty_line.hpp — the line the tty_sl driver draws (io/drivers/tty_driver.cpp): what
// OTP's user_drv asks of it (put characters, move the cursor, insert, delete, beep), turned
// into the bytes a terminal needs.
//
// The line is kept as erts keeps it, one cell per column: a printable character, or the
// cells a character is drawn with — a control character as ^X (two cells), a tab as spaces
// to the next multiple of 8, a character the terminal cannot show (not UTF-8) as \ooo or
// \x{H...}. Each cell carries a tag so that the cursor steps over a whole character; the
// cursor's screen position follows from its cell index and the terminal's width, and moves
// with the ANSI sequences of xterm and the Linux console (up ESC [ A, down LF, left BS,
// right ESC [ C; the last column wraps late, when the next character comes).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace beamlet::io {

class TtyLine {
public:
    // The terminal's width, asked before each command (it may have been resized).
    void set_columns(int columns) { m_cols = columns > 0 ? columns : 80; }
    // Whether the terminal shows UTF-8; else characters past 127 are drawn escaped.
    void set_utf8(bool utf8) { m_utf8 = utf8; }

    // OP_PUTC: [bytes] (UTF-8) written at the cursor, over what is there; a newline, return
    // or escape writes out the line so far and starts a new one.
    void put_chars(std::string_view bytes);
    // OP_MOVE: the cursor [n] characters right (left, n < 0), within the line.
    void move(int n);
    // OP_INSC: [bytes] inserted at the cursor, the rest of the line drawn after them.
    void insert_chars(std::string_view bytes);
    // OP_DELC: [n] characters after the cursor deleted (before it, n < 0); the rest of the
    // line is drawn again and its old end blanked.
    void delete_chars(int n);
    // OP_BEEP.
    void beep() { m_out.push_back('\a'); }

    // What the commands so far have drawn; empties it.
    std::string take_output() { return std::move(m_out); }
    // The cursor's cell and the line's length (for tests).
    int cursor() const { return m_pos; }
    int length() const { return m_len; }

    // A line longer than this is broken first (as erts breaks it).
    static constexpr int MAX_LINE = 1 << 16;

private:
    int col(int cell) const { return cell % m_cols; }
    int row(int cell) const { return cell / m_cols; }
    bool printable(std::uint32_t ch) const;
    void set_cell(int at, std::uint32_t value);
    int insert_cells(std::string_view bytes);
    void write_cells(int from, int n);
    void move_cursor(int from, int to);
    int step_over(int n) const;
    // Each command first breaks a line longer than MAX_LINE.
    void break_long_line();

    std::vector<std::uint32_t> m_line;  // the cells of the line being edited
    int m_pos = 0, m_len = 0;           // the cursor's cell, the line's length
    int m_cols = 80;
    bool m_utf8 = true;
    std::string m_out;
};

}  // namespace beamlet::io
