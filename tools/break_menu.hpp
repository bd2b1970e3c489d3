// tools/break_menu.hpp — erts's break menu: Ctrl-C in the shell (SIGINT while the tty_sl
// driver has the terminal) stops to ask what to do, as erl does.
#pragma once

namespace beamlet::vm {
class Vm;
}

namespace beamlet::tools {

// Prints the menu and reads the answer, a line in the terminal's own mode (the driver's raw
// mode is off meanwhile): (c)ontinue returns, with the terminal raw again; (a)bort and (q)uit
// end the VM with status 0; the others print what they name and return. The VM's processes
// keep running meanwhile (erts blocks its schedulers: a departure, README "The shell").
void break_menu(vm::Vm& vm);

}  // namespace beamlet::tools
