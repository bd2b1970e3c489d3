// io/drivers/tty_driver.hpp — OTP 25's tty_sl driver, the terminal under Erlang's shell:
// OTP's user_drv opens it as open_port({spawn, "tty_sl -c -e"}, [eof]) and talks to it in
// its protocol. The terminal goes into raw mode (no line discipline, no echo; signals stay:
// Ctrl-C is the break menu), key strokes reach the port's owner as bytes (UTF-8, or each byte
// a Latin-1 character on a terminal that is not UTF-8), and commands draw the line being
// edited: put characters, move the cursor, insert, delete, beep (OP_PUTC ... OP_PUTC_SYNC,
// which answers {Port, ok} once written). port_control/3 answers the window size and the
// Unicode state. Not on a terminal (standard input or output is a pipe or a file), or on a
// terminal that cannot move its cursor (TERM unset or dumb), the driver does not start, and
// user_drv falls back to OTP's line-by-line `user`, as on erl.
#pragma once

#include <memory>
#include <string>

#include "vm/port_driver.hpp"

namespace beamlet::io {

// The driver for [command] ("tty_sl -c -e": -c/+c line mode off/on, -e/+e echo off/on),
// or null with [error] set (EINVAL: not a terminal, or one already open).
std::unique_ptr<vm::PortDriver> tty_driver(const std::string& command, int* error);

// Whether a tty_sl port has the terminal in raw mode now.
bool tty_active();
// Puts the terminal back as it was before the driver started (async-signal-safe): on the
// way out of the VM (halt, a signal, an internal error) and while the break menu reads its
// answer as erl reads it, a line in the terminal's own mode.
void tty_restore();
// Raw mode again, after the break menu; the driver reads what was typed meanwhile.
void tty_resume();
// Raw mode again after the process was stopped (Ctrl-Z) and continued: the job control shell
// put the terminal back in its own mode meanwhile (erts's driver does this on SIGCONT).
void tty_continued();

}  // namespace beamlet::io
