// tools/boot.hpp — the composition root: a Vm with its BIFs, code path and scheduler wired up.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tools/jit_loader.hpp"
#include "vm/scheduler.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {
class NativeCompiler;
}

namespace beamlet::tools {

// Calls of one function that make its module hot for the lazy JIT (BEAMLET_JIT_HOT).
inline constexpr vm::Word DEFAULT_JIT_HOT_CALLS = 1000;

class CliTrace;
struct CliTraceOptions;

struct BootOptions {
    std::vector<std::string> code_path;  // searched in order for MODULE.beam
    std::vector<std::string> code_path_z;  // erl's -pz: searched after OTP's libraries
    int schedulers = 0;                  // scheduler threads; 0 = one per core
    bool jit = false;                    // compile modules to native code (LLVM ORC)
    bool jit_eager = false;              // compile each module as it loads (not when hot)
    bool noinput = false;                // erl's -noinput: OTP's user does not read standard input
    std::vector<std::string> init_flags;  // erl's flags for init: -config F, -kernel Par Val, ...
    std::vector<std::string> program_args;  // the program's: init's plain arguments, main/1's
    bool noshell = true;                  // erl's -noshell (beamlet shell: false)
};

// A ready-to-run VM: BIFs registered, modules loaded on demand from the code path.
class Runtime {
public:
    explicit Runtime(BootOptions options);
    ~Runtime();

    vm::Vm& vm() { return m_vm; }
    // The JIT when modules are compiled to native code, else null.
    JitLoader* jit() { return m_jit.get(); }
    // Loads [module] from the code path now; empty string on success, else a one-line error.
    std::string load(vm::Term module);
    // Where [module] would be loaded from: OTP's preloaded modules from erts's ebin, beamlet's
    // own (beamlet_*) from its library, the rest from the code path; empty if nowhere.
    std::string module_file(vm::Term module) const;
    // Loads the .beam file at [path] (module name from the file); error text or empty.
    std::string load_file(const std::string& path, vm::Term* module_out);
    // Makes run_main trace the program as `beamlet trace` or `beamlet profile` asks
    // (tools/cli_trace.hpp); an error text when the output cannot be written, else empty.
    std::string trace_from_command_line(const CliTraceOptions& options);
    // Runs [module]:main() to completion. Prints an uncaught exception to stderr as the
    // Erlang shell does and returns the process exit status (0 normal, 1 on an exception).
    int run_main(vm::Term module);
    // Boots as erl does with the options' flags and no program of beamlet's: init runs what
    // -s, -run and -eval say, or the shell starts (!noshell). Returns halt's status once
    // something halts the system.
    int run_system();

private:
    std::string load_path(vm::Term module, const std::string& path);
    // OTP's boot: loads every preloaded module (and beamlet_internal); error text or empty.
    std::string preload_otp();
    // The arguments erl_init:start/2 gets, as erl's emulator would for this run ([module]:
    // `-s beamlet_run start MOD`, unless 0).
    std::vector<std::string> boot_arguments(vm::Term module) const;
    // Starts init and erts's system processes and runs the schedulers until the system
    // halts; false (with the error printed) if OTP's preloaded modules cannot be loaded.
    bool boot(vm::Term module);
    // After the run: the exit status of halt/1, when the system halted before any program
    // ran (or without one), else -1.
    int halted_status();

    BootOptions m_options;
    std::string m_preloaded_dir;  // erts's ebin: OTP's preloaded modules
    vm::Vm m_vm;
    std::unique_ptr<vm::TraceHooks> m_tracer;
    std::unique_ptr<vm::TraceHooks> m_timed;  // BEAMLET_TRACE_STATS: m_tracer, timed
    std::unique_ptr<JitLoader> m_jit;
    std::unique_ptr<vm::NativeCompiler> m_native_compiler;
    std::unique_ptr<CliTrace> m_cli_trace;  // beamlet trace / profile
    std::shared_ptr<vm::Process> m_init;     // init, once booted
};

// Compiles [erl_path] with erlc into a cache directory; returns the .beam path or an error.
vm::Result<std::string> compile_erl(const std::string& erl_path);
// beamlet's own library directory (the .beam files of bif/lib).
std::string library_dir();
// The ebin directories of the installed Erlang/OTP's applications ($BEAMLET_OTP_LIB, or the
// library directory found at build time), kernel and stdlib first.
std::vector<std::string> otp_library_path();
// The installed OTP's preloaded modules (erts-*/ebin), empty if not found.
std::string otp_preloaded_dir();

}  // namespace beamlet::tools
