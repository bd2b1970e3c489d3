// tools/beamlet/main.cpp — the beamlet command line: `beamlet run`, `shell`, `escript`,
// `trace`, `profile`, `dis` and `compare`.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <malloc.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "io/drivers/tty_driver.hpp"
#include "loader/beam_loader.hpp"
#include "tools/boot.hpp"
#include "tools/cli_trace.hpp"
#include "tools/compare.hpp"
#include "tools/disassembler.hpp"
#include "tools/erl_flags.hpp"
#include "tracing/breakpoints.hpp"
#include "vm/atom_table.hpp"

using namespace beamlet;
namespace fs = std::filesystem;

namespace {

// Resolves MOD | FILE.erl | FILE.beam to a module name, adding the file's directory to the path.
bool resolve_target(const std::string& target, tools::BootOptions& options, vm::Term* module) {
    fs::path path(target);
    std::string ext = path.extension().string();
    if (ext == ".erl") {
        auto beam = tools::compile_erl(target);
        if (!beam) {
            std::fprintf(stderr, "beamlet: %s\n", beam.error().c_str());
            return false;
        }
        // The compiled module first (its cache directory holds nothing else), the user's -pa
        // directories next, the source's own directory (the program's other modules) last.
        options.code_path.insert(options.code_path.begin(), fs::path(*beam).parent_path().string());
        // After OTP's libraries (as erl -pz): the program's modules, not replacements of OTP's.
        std::string dir = path.parent_path().string();
        options.code_path_z.push_back(dir.empty() ? "." : dir);
        *module = vm::atom(path.stem().string());
        return true;
    }
    if (ext == ".beam") {
        std::error_code ec;
        if (!fs::exists(path, ec)) {
            std::fprintf(stderr, "beamlet: %s: no such file\n", target.c_str());
            return false;
        }
        std::string dir = path.parent_path().string();
        options.code_path.insert(options.code_path.begin(), dir.empty() ? "." : dir);
        *module = vm::atom(path.stem().string());
        return true;
    }
    auto a = vm::AtomTable::global().intern(target);
    if (!a) {
        std::fprintf(stderr, "beamlet: bad module name\n");
        return false;
    }
    options.code_path.push_back(".");
    *module = *a;
    return true;
}

// The emulator flags an escript gives on its `%%!` line (the second, or the third when the
// second is an editor's `%% -*- ...` line), as OTP's escript launcher reads them. A file
// that cannot be read has none: OTP's escript module reports it.
std::vector<std::string> escript_flags(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::string line;
    std::vector<std::string> flags;
    for (int n = 1; n <= 3 && std::getline(in, line); ++n) {
        if (n == 1) continue;
        if (line.starts_with("%%!")) {
            std::string word;
            for (char c : line.substr(3) + ' ') {
                if (c == ' ' || c == '\t' || c == '\r') {
                    if (!word.empty()) flags.push_back(std::move(word));
                    word.clear();
                } else {
                    word.push_back(c);
                }
            }
            break;
        }
        if (!(n == 2 && line.starts_with("%%") && line.find("-*-") != std::string::npos)) break;
    }
    return flags;
}

// Exit statuses (README, "Exit status"): 3 when memory runs out, 70 (EX_SOFTWARE) for an
// internal error. Either ends the whole VM with one line on stderr, as OTP's does with a
// message ("eheap_alloc: Cannot allocate ...") and a crash dump, never with a signal.
constexpr int EXIT_OUT_OF_MEMORY = 3;
constexpr int EXIT_INTERNAL_ERROR = 70;

[[noreturn]] void on_terminate() {
    io::tty_restore();
    std::fflush(stdout);
    const char* what = "unknown exception";
    int status = EXIT_INTERNAL_ERROR;
    try {
        if (std::exception_ptr e = std::current_exception()) std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
        std::fputs("beamlet: out of memory: a process's heap, or the VM, could not grow; the VM stops (as OTP's does)\n",
                   stderr);
        _exit(EXIT_OUT_OF_MEMORY);
    } catch (const std::exception& e) {
        what = e.what();
    } catch (...) {
    }
    std::fprintf(stderr, "beamlet: internal error: %s\n", what);
    _exit(status);
}

}  // namespace

int main(int argc, char** argv) {
    std::set_terminate(on_terminate);
    // malloc grows its heaps 16 MiB at a time and gives memory back only past 32 MiB free:
    // processes, heaps and messages churn through the same blocks, and each fresh page is a
    // fault (the default 128 KiB steps made building the ring of 1000 processes 1.6x slower).
    // Blocks of 128 KiB or more stay mapped apart: taking them from the heaps too (an
    // M_MMAP_THRESHOLD of 32 MiB) saves binary-trees the page faults of its large heaps' new
    // blocks (-8% there) but makes every small request after a large free consolidate
    // malloc's fast bins (a ring of 1000 processes 1.13x slower); process heaps that large
    // are mapped by vm/heap_blocks.* instead, which keeps a few for the next collection.
    mallopt(M_TOP_PAD, 16 << 20);
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
    CLI::App app{"beamlet: a small BEAM-like VM with Erlang tracing built in"};
    app.require_subcommand(1);
    // `beamlet` alone on a terminal is `beamlet shell`, as `erl` alone is Erlang's shell; beamlet
    // started as `erl` (a symlink) is `beamlet erl`.
    std::vector<std::string> args(argv, argv + argc);
    if (fs::path(args[0]).filename() == "erl") args.insert(args.begin() + 1, "erl");
    else if (argc == 1 && ::isatty(0) && ::isatty(1)) args.push_back("shell");
    std::string log_level = "warn";
    app.add_option("--log-level", log_level, "diagnostics level (trace, debug, info, warn, error)");

    std::vector<std::string> path_dirs, path_dirs_z;
    std::string target;
    int schedulers = 0;
    std::string engine = "jit";
    bool noinput = false;
    const char* noinput_help = "standard input is not read by the system (erl's -noinput): the program may read fd 0 "
                               "itself";

    // The VM's options, on every subcommand that runs one ([paths]: and its code path's).
    auto add_vm_options = [&](CLI::App* cmd, bool paths) {
        if (paths) {
            cmd->add_option("-p,-a,--pa", path_dirs, "add a directory to the code path")->allow_extra_args(false);
            cmd->add_option("--pz", path_dirs_z, "add a directory at the end of the code path (erl's -pz)")
                ->allow_extra_args(false);
        }
        cmd->add_option("-S,--schedulers", schedulers, "scheduler threads (default: cores)");
        cmd->add_option("--engine", engine, "execution engine: jit (LLVM ORC, the default) or interp")
            ->check(CLI::IsMember({"jit", "interp"}));
    };

    CLI::App* run = app.add_subcommand("run", "run MOD:main(ARGS) (or main()) and exit when it returns; erl's flags "
                                              "(-eval, -s, -run, -extra, ...) as on erl -noshell");
    add_vm_options(run, true);
    run->add_flag("--noinput", noinput, noinput_help);
    run->add_option("target", target, "MOD, FILE.erl or FILE.beam (optional with -eval, -s, -run or a node name), then "
                                      "its arguments");

    CLI::App* shell = app.add_subcommand("shell", "OTP's Erlang shell, as erl starts it (erl's flags too: -sname, "
                                                  "-remsh NODE, -eval, ...)");
    add_vm_options(shell, true);

    CLI::App* erl = app.add_subcommand("erl", "erl's command line as erl takes it, on beamlet (also: beamlet "
                                              "started as erl, through a symlink); +S N sets the schedulers, "
                                              "BEAMLET_ENGINE=interp the engine");

    CLI::App* escript = app.add_subcommand("escript", "run an escript as OTP's escript does: beamlet escript "
                                                      "[--engine E] [-S N] FILE [ARGS...]");
    add_vm_options(escript, false);
    escript->add_option("script", target, "the escript")->required();

    // beamlet trace / beamlet profile: the program traced from the command line.
    tools::CliTraceOptions trace_options;
    std::vector<std::string> events;
    std::string format = "text", max_rate;
    auto add_run_options = [&](CLI::App* cmd) {
        add_vm_options(cmd, true);
        cmd->add_flag("--noinput", noinput, noinput_help);
        cmd->add_option("target", target, "MOD, FILE.erl or FILE.beam");
        cmd->add_option("patterns", trace_options.patterns,
                        "call patterns: 'm', 'm:f', 'm:*', 'm:f/2', 'm:f(X, _) when X > 1 -> return; stack'");
        cmd->add_option("--procs", trace_options.procs,
                        "processes: main (the main process and what it spawns, the default), all, new, or a "
                        "registered name");
        cmd->add_option("-o,--output", trace_options.output, "output file (default: standard output, or a file "
                                                              "named after the format)");
    };
    CLI::App* trace = app.add_subcommand("trace", "run MOD:main() traced from the command line");
    add_run_options(trace);
    trace->add_option("-e,--events", events, "events: send, receive, procs, running, gc, ports, seq_trace (comma-separated)")
        ->delimiter(',');
    trace->add_flag("--global", trace_options.global, "global call patterns (remote calls only) instead of local");
    trace->add_option("--node", trace_options.nodes,
                      "trace this running node (beamlet or erl; repeatable) instead of a program: the patterns "
                      "follow the options, processes are --procs all, new or a name there")
        ->allow_extra_args(false);
    trace->add_option("-f,--format", format, "text (the default), json (JSON lines), chrome (Trace Event format for "
                                             "Perfetto / chrome://tracing / speedscope), seq (sequence diagram, "
                                             "SVG), flame (flame graph, SVG and folded stacks)")
        ->check(CLI::IsMember({"text", "json", "chrome", "seq", "flame"}));
    trace->add_option("-n,--max-events", trace_options.max_events, "stop tracing after this many events");
    trace->add_option("--max-rate", max_rate, "stop tracing when more than N events come within MS milliseconds: N/MS");
    trace->add_option("-t,--time-limit", trace_options.time_limit_ms, "stop tracing after this many milliseconds");
    trace->add_option("-d,--depth", trace_options.depth,
                      "print terms to this depth, as ~P does (default 30; 0: in full)");
    trace->add_flag("--progress", trace_options.progress, "a progress line on stderr (events, dropped, rate)");
    CLI::App* profile = app.add_subcommand(
        "profile", "run MOD:main() with call_count, call_time and call_memory on its functions (or the patterns "
                   "given) and print them as tables");
    add_run_options(profile);
    profile->add_flag("--per-process", trace_options.per_process, "a table per process");
    profile->add_option("--sort", trace_options.sort, "sort by time (the default), calls, memory or name")
        ->check(CLI::IsMember({"time", "calls", "memory", "name"}));

    CLI::App* dis = app.add_subcommand("dis", "print a module's loaded code, function headers included");
    dis->add_option("-p,-a,--pa", path_dirs, "add a directory to the code path")->allow_extra_args(false);
    std::string dis_engine = "interp";
    dis->add_option("--engine", dis_engine, "show the code of this engine: interp, or jit (patch sites too)")
        ->check(CLI::IsMember({"jit", "interp"}));
    dis->add_option("target", target, "MOD, FILE.erl or FILE.beam")->required();

    CLI::App* compare = app.add_subcommand(
        "compare", "run a (traced) program under the interpreter and the JIT: are the outputs, trace messages "
                   "included, identical, and what does tracing cost each engine?");
    compare->add_option("-p,-a,--pa", path_dirs, "add a directory to the code path")->allow_extra_args(false);
    compare->add_option("-S,--schedulers", schedulers, "scheduler threads (default: 1, for a deterministic order)");
    compare->add_option("target", target, "MOD, FILE.erl or FILE.beam")->required();
    tools::CompareOptions compare_options;
    compare->add_option("--ignore", compare_options.ignore,
                        "leave out standard output lines that this regex (ECMAScript) matches, e.g. timings; "
                        "repeatable")
        ->allow_extra_args(false);

    // erl's flags for init (-config, -kernel Par Val, ...) and erlexec (-env, -args_file,
    // ERL_FLAGS), then the rest as beamlet's options.
    tools::ErlFlags erl_flags;
    std::string flags_error;
    if (!tools::extract_erl_flags(args, &erl_flags, &flags_error)) {
        std::fprintf(stderr, "beamlet: %s\n", flags_error.c_str());
        return 1;
    }
    for (const auto& [var, value] : erl_flags.env) ::setenv(var.c_str(), value.c_str(), 1);
    // beamlet escript [OPTIONS] FILE ARGS...: the words after the script are its own.
    std::vector<std::string> script_args;
    if (args.size() > 1 && args[1] == "escript") {
        for (std::size_t i = 2; i < args.size(); ++i) {
            if (args[i] == "-S" || args[i] == "--schedulers" || args[i] == "--engine") {
                ++i;
                continue;
            }
            if (!args[i].starts_with("-") || args[i] == "-") {
                script_args.assign(args.begin() + std::ptrdiff_t(i + 1), args.end());
                args.resize(i + 1);
                break;
            }
        }
    }
    // Erlang users write -pa DIR and -noinput; CLI11 wants --pa or -p. Accept the Erlang spelling.
    for (auto& a : args)
        if (a == "-pa" || a == "-pz" || a == "-noinput") a = "-" + a;
    std::vector<char*> cargs;
    for (auto& a : args) cargs.push_back(a.data());
    try {
        app.parse(int(cargs.size()), cargs.data());
    } catch (const CLI::ParseError& e) {
        // --help prints and exits 0; a wrong command line is one line on stderr and status 2
        // (README, "Exit status"), not CLI11's own codes.
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
        std::fprintf(stderr, "beamlet: %s (beamlet --help for usage)\n", e.what());
        return 2;
    }
    spdlog::set_level(spdlog::level::from_str(log_level));

    tools::BootOptions options;
    options.code_path = path_dirs;
    options.code_path_z = path_dirs_z;
    options.schedulers = schedulers ? schedulers : erl_flags.schedulers;
    options.noinput = noinput;
    options.init_flags = erl_flags.init_flags;
    options.program_args = erl_flags.program_args;
    options.jit = dis->parsed() ? dis_engine == "jit" : engine == "jit";
    if (erl->parsed()) {
        // As erl: a shell unless -noshell (or -detached, refused above), init's flags as given.
        const char* engine_env = std::getenv("BEAMLET_ENGINE");
        options.jit = !engine_env || std::string_view(engine_env) != "interp";
        options.noshell = erl_flags.noshell;
        tools::Runtime runtime(options);
        return runtime.run_system();
    }
    if (shell->parsed()) {
        options.noshell = false;
        tools::Runtime runtime(options);
        return runtime.run_system();
    }
    if (escript->parsed()) {
        // As OTP's escript launcher starts erl: `erl +B -boot no_dot_erlang -noshell
        // [%%! flags] -run escript start -extra FILE ARGS`; OTP's escript module does the rest.
        if (!std::ifstream(target)) {  // as the launcher says it (status 1, not the module's 127)
            std::fprintf(stderr, "escript: Failed to open file: %s\n", target.c_str());
            return 1;
        }
        // The %%! flags as erl takes them (+S N included; ERL_FLAGS and the like too, as the
        // launcher's erl does).
        std::vector<std::string> script_flags = {args[0], "erl"};
        for (std::string& flag : escript_flags(target)) script_flags.push_back(std::move(flag));
        tools::ErlFlags emulator;
        if (!tools::extract_erl_flags(script_flags, &emulator, &flags_error)) {
            std::fprintf(stderr, "escript: %s\n", flags_error.c_str());
            return 1;
        }
        options.init_flags = {"-boot", "no_dot_erlang"};
        options.init_flags.insert(options.init_flags.end(), emulator.init_flags.begin(), emulator.init_flags.end());
        options.init_flags.insert(options.init_flags.end(), {"-run", "escript", "start"});
        if (!schedulers && emulator.schedulers) options.schedulers = emulator.schedulers;
        for (const auto& [var, value] : emulator.env) ::setenv(var.c_str(), value.c_str(), 1);
        options.program_args = {target};
        options.program_args.insert(options.program_args.end(), script_args.begin(), script_args.end());
        tools::Runtime runtime(options);
        return runtime.run_system();
    }
    if (run->parsed() && target.empty()) {
        auto has = [&](const char* flag) {
            return std::find(options.init_flags.begin(), options.init_flags.end(), flag) != options.init_flags.end();
        };
        // erl -noshell with nothing to run waits for ever: worth it for a node (others call it).
        if (!erl_flags.runs_functions && !has("-sname") && !has("-name")) {
            std::fprintf(stderr, "beamlet: run wants a program (MOD, FILE.erl or FILE.beam), erl's -eval, -s or -run, "
                                 "or a node name (beamlet --help for usage)\n");
            return 2;
        }
        tools::Runtime runtime(options);
        return runtime.run_system();
    }
    if (trace->parsed() || profile->parsed()) {
        trace_options.profile = profile->parsed();
        trace_options.events = events;
        tools::parse_trace_format(format, &trace_options.format);
        if (!max_rate.empty()) {
            unsigned long long n = 0, ms = 0;
            if (std::sscanf(max_rate.c_str(), "%llu/%llu", &n, &ms) != 2 || !n || !ms) {
                std::fprintf(stderr, "beamlet: --max-rate wants N/MS (e.g. 1000/100), not %s\n", max_rate.c_str());
                return 2;
            }
            trace_options.rate_max = n;
            trace_options.rate_ms = ms;
        }
        if (!trace_options.nodes.empty()) {
            // No program: what would be its name is the first pattern, and the VM becomes a
            // hidden node (named after this process, unless -sname or -name says otherwise).
            if (!target.empty()) trace_options.patterns.insert(trace_options.patterns.begin(), target);
            target = "beamlet_cli_trace";  // its main/0 waits: the trace is the nodes'
            if (trace_options.procs == "main") trace_options.procs = "all";
            auto has = [&](const char* flag) {
                return std::find(options.init_flags.begin(), options.init_flags.end(), flag) != options.init_flags.end();
            };
            if (!has("-sname") && !has("-name")) {
                bool long_names = trace_options.nodes[0].find('.') != std::string::npos;
                options.init_flags.insert(options.init_flags.end(),
                                          {long_names ? "-name" : "-sname", "beamlet_trace_" + std::to_string(::getpid())});
            }
            if (!has("-hidden")) options.init_flags.push_back("-hidden");
        } else if (target.empty()) {
            std::fprintf(stderr, "beamlet trace: a program to run (MOD, FILE.erl or FILE.beam) or --node NODE\n");
            return 2;
        }
        if (!trace_options.profile && trace_options.patterns.empty() && events.empty()) {
            std::fprintf(stderr, "beamlet trace: nothing to trace: give call patterns or --events\n");
            return 2;
        }
        for (const std::string& e : events)
            if (e != "send" && e != "receive" && e != "procs" && e != "running" && e != "gc" && e != "ports" &&
                e != "seq_trace") {
                std::fprintf(stderr, "beamlet trace: unknown event %s (send, receive, procs, running, gc, ports, seq_trace)\n",
                             e.c_str());
                return 2;
            }
    }
    if (target.empty()) {  // (profile)
        std::fprintf(stderr, "beamlet: a program to run: MOD, FILE.erl or FILE.beam\n");
        return 2;
    }
    vm::Term module;
    if (!resolve_target(target, options, &module)) return 1;

    if (run->parsed()) {
        tools::Runtime runtime(options);
        return runtime.run_main(module);
    }
    if (trace->parsed() || profile->parsed()) {
        tools::Runtime runtime(options);
        std::string error = runtime.trace_from_command_line(trace_options);
        if (!error.empty()) {
            std::fprintf(stderr, "beamlet %s: %s\n", profile->parsed() ? "profile" : "trace", error.c_str());
            return 2;
        }
        return runtime.run_main(module);
    }
    if (compare->parsed()) return tools::compare_engines(options, vm::atom_text(module), compare_options);

    options.jit_eager = true;  // dis shows the module's native entries: compile it now
    tools::Runtime runtime(options);
    std::string error = runtime.load(module);
    if (!error.empty()) {
        std::fprintf(stderr, "beamlet: %s\n", error.c_str());
        return 1;
    }
    const vm::Module* m = runtime.vm().find_module(module);
    auto code = loader::load_beam_file(m->source_path, runtime.vm().exports);
    if (!code) {
        std::fprintf(stderr, "beamlet: %s\n", code.error().c_str());
        return 1;
    }
    std::fputs(tools::disassemble(*code, *m, runtime.vm().services.code_engine).c_str(), stdout);
    if (tools::JitLoader* jit = runtime.jit()) jit->describe(*m);
    return 0;
}
