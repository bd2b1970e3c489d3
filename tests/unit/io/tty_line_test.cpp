// tests/unit/io/tty_line_test.cpp — the tty_sl driver's line editor: the bytes user_drv's
// commands draw, as erts's driver draws them (cursor moves across wrapped lines, ^X for
// control characters, tabs, escapes on a terminal that is not UTF-8, the late wrap).
#include <gtest/gtest.h>

#include "io/tty_line.hpp"

namespace beamlet::io {
namespace {

constexpr const char* RIGHT = "\033[C";
constexpr const char* UP = "\033[A";

TEST(TtyLineTest, PutCharsDrawsThemAndMovesTheCursor) {
    TtyLine line;
    line.put_chars("1> ");
    EXPECT_EQ(line.take_output(), "1> ");
    EXPECT_EQ(line.cursor(), 3);
    EXPECT_EQ(line.length(), 3);
    // A newline: carriage return and line feed (the terminal is raw), a fresh line.
    line.put_chars("ok\n");
    EXPECT_EQ(line.take_output(), "ok\r\n");
    EXPECT_EQ(line.cursor(), 0);
    EXPECT_EQ(line.length(), 0);
}

TEST(TtyLineTest, MoveStepsWithinTheLine) {
    TtyLine line;
    line.put_chars("abcd");
    line.take_output();
    line.move(-3);
    EXPECT_EQ(line.take_output(), "\b\b\b");
    EXPECT_EQ(line.cursor(), 1);
    line.move(2);
    EXPECT_EQ(line.take_output(), std::string(RIGHT) + RIGHT);
    line.move(10);  // not past the end
    EXPECT_EQ(line.cursor(), 4);
    line.move(-10);  // nor before the start
    EXPECT_EQ(line.cursor(), 0);
}

TEST(TtyLineTest, InsertRedrawsTheRestAndComesBack) {
    TtyLine line;
    line.put_chars("1 + 2");
    line.move(-4);  // after "1"
    line.take_output();
    line.insert_chars("0");
    EXPECT_EQ(line.take_output(), "0 + 2\b\b\b\b");
    EXPECT_EQ(line.cursor(), 2);
    EXPECT_EQ(line.length(), 6);
}

TEST(TtyLineTest, DeleteBeforeAndAfterTheCursor) {
    TtyLine line;
    line.put_chars("abcdef");
    line.move(-3);  // before "d"
    line.take_output();
    line.delete_chars(-2);  // "bc"
    // Back two, the rest drawn, the old end blanked, back to the gap.
    EXPECT_EQ(line.take_output(), "\b\bdef  \b\b\b\b\b");
    EXPECT_EQ(line.cursor(), 1);
    EXPECT_EQ(line.length(), 4);
    line.delete_chars(1);  // "d"
    EXPECT_EQ(line.take_output(), "ef \b\b\b");
    EXPECT_EQ(line.length(), 3);
}

TEST(TtyLineTest, ControlCharactersAndTabsTakeTheirCells) {
    TtyLine line;
    line.put_chars("a\x01");
    EXPECT_EQ(line.take_output(), "a^A");
    EXPECT_EQ(line.cursor(), 3);
    line.move(-1);  // over ^A as one character
    EXPECT_EQ(line.cursor(), 1);
    line.move(1);
    EXPECT_EQ(line.take_output(), std::string("\b\b") + RIGHT + RIGHT);
    line.put_chars("\tb");
    EXPECT_EQ(line.take_output(), "     b");  // to column 8
    EXPECT_EQ(line.cursor(), 9);
}

TEST(TtyLineTest, WithoutUtf8CharactersPast127AreEscaped) {
    TtyLine line;
    line.set_utf8(false);
    line.put_chars("\xc3\xa9");  // é (U+E9)
    EXPECT_EQ(line.take_output(), "\\351");
    EXPECT_EQ(line.cursor(), 4);
    line.put_chars("\xe6\x97\xa5");  // U+65E5
    EXPECT_EQ(line.take_output(), "\\x{65E5}");
    line.move(-1);  // over the whole escape
    EXPECT_EQ(line.cursor(), 4);
    TtyLine utf8;
    utf8.put_chars("\xc3\xa9");
    EXPECT_EQ(utf8.take_output(), "\xc3\xa9");
}

TEST(TtyLineTest, TheCursorCrossesWrappedLines) {
    TtyLine line;
    line.set_columns(10);
    line.put_chars("0123456789");
    // Exactly at the edge: a space is drawn to make the terminal wrap, and stepped back.
    EXPECT_EQ(line.take_output(), "0123456789 \b");
    line.put_chars("abc");
    line.take_output();
    line.move(-8);  // cell 13 to cell 5: up a row, right two columns
    EXPECT_EQ(line.take_output(), std::string(UP) + RIGHT + RIGHT);
    line.move(8);  // back down
    EXPECT_EQ(line.take_output(), "\n\b\b");
}

TEST(TtyLineTest, AVeryLongLineIsBroken) {
    TtyLine line;
    std::string chunk(TtyLine::MAX_LINE + 1, 'x');
    line.put_chars(chunk);
    line.take_output();
    line.put_chars("y");
    EXPECT_EQ(line.take_output(), "\r\ny");
    EXPECT_EQ(line.cursor(), 1);
}

}  // namespace
}  // namespace beamlet::io
