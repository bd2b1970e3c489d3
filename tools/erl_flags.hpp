// tools/erl_flags.hpp — the part of erl's command line that `beamlet run` (and trace, profile)
// takes as erl does: the flags OTP's init and application controller read (-boot, -boot_var,
// -config, -mode, -shutdown_time, -App Par Val), the ones erlexec handles itself (-env,
// -args_file) and the ERL_AFLAGS / ERL_FLAGS / ERL_ZFLAGS environment variables.
#pragma once

#include <string>
#include <vector>

namespace beamlet::tools {

struct ErlFlags {
    // For OTP's init, in the order given (init:get_argument/1 answers from them).
    std::vector<std::string> init_flags;
    // -env Var Value: set in the VM's environment before it boots, as erlexec does.
    std::vector<std::pair<std::string, std::string>> env;
    // beamlet run: the words after the program (its main/1's arguments, init's plain
    // arguments), and whether erl's -s, -run or -eval give init something to run.
    std::vector<std::string> program_args;
    bool runs_functions = false;
    // erl's +S N[:M]: the schedulers (0: not given).
    int schedulers = 0;
    // beamlet erl: -noshell was given (it is not among init_flags: the boot puts it first).
    bool noshell = false;
};

// Takes erl's flags out of [args] (argv: the program, the subcommand, then its arguments),
// after putting ERL_AFLAGS' words first and ERL_FLAGS' and ERL_ZFLAGS' last (their emulator
// flags, +X, are beamlet's to ignore) and expanding each -args_file in place. What is left is
// beamlet's own options and the target. For `beamlet run` the first word that is neither a
// flag nor a flag's value is the program, and every word after it is the program's
// (ErlFlags::program_args), as for escript. -s, -run, -eval and -extra go to init as on erl
// (run, shell), -remsh too (shell). `beamlet erl` (beamlet named erl) takes the whole command
// line as erl does: every word goes to init, but for erlexec's own flags (-env, -args_file,
// the emulator's +X). False, with [error] set, when -env or -args_file lacks
// its values or an -args_file cannot be read; erl's flags a subcommand has no place for
// (-eval on beamlet trace, -remsh on run, ...) are errors too, not silently dropped.
bool extract_erl_flags(std::vector<std::string>& args, ErlFlags* out, std::string* error);

}  // namespace beamlet::tools
