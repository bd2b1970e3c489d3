// tools/break_menu.cpp — erts's break menu (tools/break_menu.hpp).
#include "tools/break_menu.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bif/term_format.hpp"
#include "io/drivers/tty_driver.hpp"
#include "vm/atom_table.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beamlet::tools {

using vm::Term;

namespace {

void say(const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        ssize_t n = ::write(1, text.data() + done, text.size() - done);
        if (n <= 0) return;
        done += std::size_t(n);
    }
}

[[noreturn]] void leave(vm::Vm& vm, int status) {
    vm.flush_stdout();
    std::fflush(stdout);
    std::_Exit(status);
}

// (p)roc info: each process, with its registered name.
std::string process_list(vm::Vm& vm) {
    std::string text;
    std::vector<std::pair<Term, Term>> names;  // pid, name
    for (Term name : vm.registered_names()) names.emplace_back(vm.whereis_id(name), name);
    for (Term pid : vm.process_ids()) {
        text += "=proc:" + bif::write_term(pid) + "\n";
        for (auto& [id, name] : names)
            if (id == pid) text += "Name: " + bif::write_term(name) + "\n";
    }
    return text;
}

// (l)oaded: the modules and their number.
std::string loaded_list(vm::Vm& vm) {
    std::vector<std::string> names;
    for (vm::Module* m : vm.loaded_modules()) names.push_back(bif::write_term(m->name));
    std::sort(names.begin(), names.end());
    std::string text = "Current code: " + std::to_string(names.size()) + " modules\n";
    for (const std::string& name : names) text += name + "\n";
    return text;
}

// (i)nfo: the counts erts's info starts with.
std::string system_info(vm::Vm& vm) {
    return "=memory\nprocesses: " + std::to_string(vm.process_count()) + "\nmodules: " +
           std::to_string(vm.loaded_modules().size()) + "\natoms: " + std::to_string(vm::AtomTable::global().count()) + "\n";
}

}  // namespace

void break_menu(vm::Vm& vm) {
    io::tty_restore();
    say("\nBREAK: (a)bort (A)bort with dump (c)ontinue (p)roc info (i)nfo\n"
        "       (l)oaded (v)ersion (k)ill (D)b-tables (d)istribution\n");
    for (;;) {
        unsigned char answer[64];
        ssize_t n = ::read(0, answer, sizeof answer);
        if (n <= 0) leave(vm, 0);  // end of input: as erts, the VM ends
        switch (answer[0]) {
        case 'q':
        case 'a':
        case '*': leave(vm, 0);
        case 'A':
            say("beamlet writes no crash dump: aborting\n");
            leave(vm, 1);
        case 'c': break;
        case 'p': say(process_list(vm)); break;
        case 'l': say(loaded_list(vm)); break;
        case 'i': say(system_info(vm)); break;
        case 'v': say("Erlang (beamlet) emulator version 13.1.5\n"); break;
        case '\n': continue;
        default: say("Eh?\n\n"); continue;
        }
        io::tty_resume();
        return;
    }
}

}  // namespace beamlet::tools
