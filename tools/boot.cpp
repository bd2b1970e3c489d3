// tools/boot.cpp — wires Vm, loader, BIFs and scheduler; runs MOD:main().
#include "tools/boot.hpp"

#include "tools/break_menu.hpp"
#include "tools/cli_trace.hpp"

#include <csignal>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "bif/bifs.hpp"
#include "bif/term_format.hpp"
#include "io/drivers/tty_driver.hpp"
#include "io/io_layer.hpp"
#include "loader/beam_loader.hpp"
#include "nif/nif.hpp"
#include "tracing/tracer_module.hpp"
#include "tracing/breakpoints.hpp"
#include "tracing/hooks.hpp"
#include "vm/native_compiler.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/config.hpp"
#include "vm/entry_code.hpp"
#include "vm/interpreter.hpp"
#include "vm/process.hpp"
#include "vm/port_table.hpp"
#include "vm/scheduler.hpp"

namespace beamlet::tools {

using namespace vm;
namespace fs = std::filesystem;

namespace {

// BEAMLET_TRACE_STATS=1: the trace hooks that running code reaches, timed (beamlet compare
// reads the totals from the "beamlet-trace-stats" line written at the end of run_main).
class TimedTraceHooks : public TraceHooks {
public:
    explicit TimedTraceHooks(TraceHooks& inner) : m_inner(inner) {}

    Word function_breakpoint(Process* p, const CodeInfo* ci, Term* x) override {
        Timer t(*this, true);
        return m_inner.function_breakpoint(p, ci, x);
    }
    const Word* export_breakpoint(Process* p, Export* e, Term* x) override {
        Timer t(*this, true);
        return m_inner.export_breakpoint(p, e, x);
    }
    const Word* trace_frame_returned(Process* p, Term value) override {
        Timer t(*this, false);
        return m_inner.trace_frame_returned(p, value);
    }
    void exception_unwinding(Process* p, Term* from, Term* to, const Word* catch_at) override {
        Timer t(*this, false);
        m_inner.exception_unwinding(p, from, to, catch_at);
    }
    void schedule_break(Process* p, bool out) override { m_inner.schedule_break(p, out); }
    void module_loading(Module& module) override { m_inner.module_loading(module); }
    // Events are timed too; only breakpoint hits are counted.
    void process_spawned(Process* parent, Process* child, Term mfa, bool linked) override {
        Timer t(*this, false);
        m_inner.process_spawned(parent, child, mfa, linked);
    }
    void process_linked(Process* linker, Process* linked) override {
        Timer t(*this, false);
        m_inner.process_linked(linker, linked);
    }
    void process_unlinked(Process* unlinker, Term other_pid) override {
        Timer t(*this, false);
        m_inner.process_unlinked(unlinker, other_pid);
    }
    void process_event(Process* p, Term what, Term arg) override {
        Timer t(*this, false);
        m_inner.process_event(p, what, arg);
    }
    void message_sent(Process* sender, Term to, Term msg, bool exists) override {
        Timer t(*this, false);
        m_inner.message_sent(sender, to, msg, exists);
    }
    void message_queued(Process* p, const Message& m) override {
        Timer t(*this, false);
        m_inner.message_queued(p, m);
    }
    void receive_timeout(Process* p) override {
        Timer t(*this, false);
        m_inner.receive_timeout(p);
    }
    void scheduled(Process* p, SchedEvent event) override {
        Timer t(*this, false);
        m_inner.scheduled(p, event);
    }
    void garbage_collection(Process* p, bool end, bool major, Word words) override {
        Timer t(*this, false);
        m_inner.garbage_collection(p, end, major, words);
    }

    void seq_trace_event(Term tracer, Term token, Term kind, Term from, Term to, Term msg) override {
        Timer t(*this, false);
        m_inner.seq_trace_event(tracer, token, kind, from, to, msg);
    }
    void port_opened(Port* port, Term opener, Term driver) override {
        Timer t(*this, false);
        m_inner.port_opened(port, opener, driver);
    }
    void port_event(Port* port, Term what, Term arg) override {
        Timer t(*this, false);
        m_inner.port_event(port, what, arg);
    }
    void port_scheduled(Port* port, Term what, Term command) override {
        Timer t(*this, false);
        m_inner.port_scheduled(port, what, command);
    }
    void port_sent(Port* port, Term to, Term msg, bool exists) override {
        Timer t(*this, false);
        m_inner.port_sent(port, to, msg, exists);
    }
    void port_received(Port* port, Term from, Term msg) override {
        Timer t(*this, false);
        m_inner.port_received(port, from, msg);
    }

    void report() const {
        std::fprintf(stderr, "beamlet-trace-stats hits=%lld ns=%lld\n", static_cast<long long>(m_hits.load()),
                     static_cast<long long>(m_ns.load()));
    }

private:
    struct Timer {
        Timer(TimedTraceHooks& h, bool hit) : hooks(h), start(std::chrono::steady_clock::now()) {
            if (hit) hooks.m_hits.fetch_add(1, std::memory_order_relaxed);
        }
        ~Timer() {
            auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
            hooks.m_ns.fetch_add(ns.count(), std::memory_order_relaxed);
        }
        TimedTraceHooks& hooks;
        std::chrono::steady_clock::time_point start;
    };
    TraceHooks& m_inner;
    std::atomic<std::int64_t> m_hits{0}, m_ns{0};
};

}  // namespace

std::string library_dir() {
    return vm::config().lib_dir.value_or(BEAMLET_LIB_DIR);
}

std::string otp_preloaded_dir() {
    fs::path root = vm::config().otp_lib_dir.value_or(BEAMLET_OTP_LIB_DIR);
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec))
        if (entry.path().filename().string().starts_with("erts-")) return (entry.path() / "ebin").string();
    return {};
}

std::vector<std::string> otp_library_path() {
    fs::path root = vm::config().otp_lib_dir.value_or(BEAMLET_OTP_LIB_DIR);
    std::vector<std::string> apps;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        // erts holds OTP's preloaded modules, which are not on erl's code path (Runtime::load).
        if (entry.path().filename().string().starts_with("erts-")) continue;
        fs::path ebin = entry.path() / "ebin";
        if (fs::is_directory(ebin, ec)) apps.push_back(ebin.string());
    }
    // kernel and stdlib first, as in erl's code path; the other applications by name.
    auto rank = [](const std::string& dir) {
        std::string app = fs::path(dir).parent_path().filename().string();
        if (app.starts_with("kernel-")) return 0;
        if (app.starts_with("stdlib-")) return 1;
        return 2;
    };
    std::sort(apps.begin(), apps.end(), [&](const std::string& a, const std::string& b) {
        return rank(a) != rank(b) ? rank(a) < rank(b) : a < b;
    });
    return apps;
}

Runtime::Runtime(BootOptions options) : m_options(std::move(options)) {
    io::install(m_vm);
    m_options.code_path.push_back(library_dir());
    m_preloaded_dir = otp_preloaded_dir();
    for (std::string& dir : otp_library_path()) m_options.code_path.push_back(std::move(dir));
    std::vector<std::string> path = m_options.code_path;
    path.insert(path.end(), m_options.code_path_z.begin(), m_options.code_path_z.end());
    path.push_back((fs::path(library_dir()) / "kernel").string());
    m_vm.set_code_path(path);
    // Library modules are interpreted under the JIT unless BEAMLET_JIT_LIBRARIES=1 (see Vm).
    if (!vm::config().jit_libraries) {
        m_vm.interpreted_dirs.push_back(fs::path(library_dir()).string() + "/");
        m_vm.interpreted_dirs.push_back(fs::path(vm::config().otp_lib_dir.value_or(BEAMLET_OTP_LIB_DIR)).string() + "/");
    }
    if (m_options.schedulers <= 0) m_options.schedulers = int(std::max(1u, std::thread::hardware_concurrency()));
    tracing::CallCounter::set_schedulers(m_options.schedulers);
    bif::register_bifs(m_vm);
    nif::install(m_vm);
    m_vm.module_loader = [this](Term module) { return load(module); };
    m_vm.module_parser = [this](std::span<const std::uint8_t> bytes, const std::string& path) {
        return loader::load_beam(bytes, path, m_vm.exports);
    };
    m_vm.services.answer_info_request = [](Vm& vm, Process* p, Term from, Term request) {
        bif::answer_info_request(p, from, request, vm);
    };
    m_vm.services.print_term = [](Term t, int column) { return bif::print_term(t, column); };
    m_tracer = std::make_unique<tracing::TracingHooks>(m_vm);
    m_vm.services.trace = m_tracer.get();
    if (vm::config().trace_stats) {
        m_timed = std::make_unique<TimedTraceHooks>(*m_tracer);
        m_vm.services.trace = m_timed.get();
    }
    if (m_options.jit) {
        // LLVM is loaded with the JIT library when the first module is compiled.
        m_jit = std::make_unique<JitLoader>(m_vm);
        m_vm.services.code_engine = m_jit.get();
        // The lazy JIT: BEAMLET_JIT_HOT calls of a function make its module hot (0: every
        // module is compiled as it loads).
        m_vm.jit_hot_calls = DEFAULT_JIT_HOT_CALLS;
        if (auto hot = vm::config().jit_hot_calls) m_vm.jit_hot_calls = vm::Word(*hot);
        if (m_options.jit_eager) m_vm.jit_hot_calls = 0;
        if (m_vm.jit_hot_calls) {
            m_native_compiler = std::make_unique<vm::NativeCompiler>(m_vm);
            m_vm.native_compiler = m_native_compiler.get();
        }
    }
}

std::string Runtime::trace_from_command_line(const CliTraceOptions& options) {
    m_cli_trace = std::make_unique<CliTrace>(m_vm, options);
    if (!m_cli_trace->error().empty()) return m_cli_trace->error();
    m_cli_trace->install();
    return {};
}

Runtime::~Runtime() {
    // No module is switched to native code while the VM goes away.
    m_vm.native_compiler = nullptr;
    m_native_compiler.reset();
    // The command-line trace ends first: its writer may still name processes.
    m_cli_trace.reset();
    m_vm.services.trace = nullptr;
    tracing::release_all(m_vm);
    tracing::release_tracer_modules();
    nif::release_all();
    m_vm.services.code_engine = nullptr;  // m_jit goes before m_vm
}

std::string Runtime::load(Term module) {
    if (m_vm.find_module(module)) return {};
    std::string path = module_file(module);
    if (path.empty()) return "module " + atom_text(module) + " not found on the code path";
    return load_path(module, path);
}

std::string Runtime::module_file(Term module) const {
    // OTP's preloaded modules (erlang, erts_internal, zlib, ...) come from erts's ebin whatever
    // the code path says, as erl has them built in; beamlet's own modules (beamlet_*) from its
    // library (build/lib, bif/lib/README.md).
    std::vector<std::string> dirs;
    if (!m_preloaded_dir.empty()) dirs.push_back(m_preloaded_dir);
    if (atom_text(module).starts_with("beamlet")) dirs.push_back(library_dir());
    for (const std::string& dir : m_vm.code_path()) dirs.push_back(dir);
    for (const std::string& dir : dirs) {
        fs::path path = fs::path(dir) / (atom_text(module) + ".beam");
        std::error_code ec;
        if (fs::exists(path, ec)) return path.string();
    }
    return {};
}

std::string Runtime::load_path(Term module, const std::string& path) {
    Term loaded;
    std::string error = load_file(path, &loaded);
    if (!error.empty()) return error;
    if (loaded != module) return path + ": file contains module " + atom_text(loaded);
    return {};
}

std::string Runtime::load_file(const std::string& path, Term* module_out) {
    auto code = loader::load_beam_file(path, m_vm.exports);
    if (!code) return code.error();
    // erl's built-in copies of the preloaded modules are compiled without line information
    // (their stack frames read {zlib,uncompress,1,[]}); erts's ebin copies, which beamlet
    // loads, have it: drop it, so that stack traces read as erl's.
    if (!m_preloaded_dir.empty() && fs::path(path).parent_path() == fs::path(m_preloaded_dir))
        for (vm::LineItem& item : code->line_items) item.line = 0;
    *module_out = code->name;
    if (m_vm.find_module(code->name)) return {};
    if (auto installed = m_vm.install_module(*code); !installed) return installed.error();
    return {};
}

namespace {

// "t:f/1 (t.erl, line 5)" from a stack frame {M, F, ArityOrArgs, Location}.
std::string frame_text(Term frame) {
    if (!is_tuple(frame) || tuple_arity(frame) != 4) return bif::write_term(frame);
    Term m = tuple_element(frame, 0), f = tuple_element(frame, 1), a = tuple_element(frame, 2);
    std::string s = bif::write_term(m) + ":" + bif::write_term(f) + "/";
    if (is_small(a)) s += std::to_string(small_value(a));
    else {
        SWord n = 0;
        for (Term l = a; is_list(l); l = cdr(l)) ++n;
        s += std::to_string(n);
    }
    std::string file;
    SWord line = 0;
    for (Term l = tuple_element(frame, 3); is_list(l); l = cdr(l)) {
        Term item = car(l);
        if (!is_tuple(item) || tuple_arity(item) != 2) continue;
        if (tuple_element(item, 0) == atoms::file) {
            for (Term c = tuple_element(item, 1); is_list(c); c = cdr(c)) file += char(small_value(car(c)));
        } else if (tuple_element(item, 0) == atoms::line && is_small(tuple_element(item, 1))) {
            line = small_value(tuple_element(item, 1));
        }
    }
    if (!file.empty()) s += " (" + file + ", line " + std::to_string(line) + ")";
    return s;
}

}  // namespace

namespace {

// SIGTERM and SIGINT, taken by one thread with sigwait (the other threads block them): SIGTERM
// asks init to stop (init:stop/0: the logger's and the io servers' output is written, exit
// status 0, as erl's signal handler does); SIGINT is the break menu when the shell has the
// terminal, else it writes what is buffered and exits with 130; SIGCONT puts the shell's
// terminal back in raw mode.
// [init] is the pid of init while the run lasts; 0 after it, when a signal just exits.
std::atomic<Term> g_signal_init{0};
// The command-line trace whose output a signal writes out before the VM exits.
std::atomic<CliTrace*> g_signal_trace{nullptr};

void start_signal_thread(Vm& vm) {
    static std::once_flag once;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGCONT);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);  // inherited by the schedulers started later
    std::call_once(once, [&vm, set] {
        std::thread([&vm, set] {
            for (;;) {
                int sig = 0;
                if (sigwait(&set, &sig) != 0) continue;
                Term init = g_signal_init.load();
                if (sig == SIGTERM && init) {
                    // init:stop/0's message to OTP's init.
                    Term stop[3] = {make_arityval(2), atom("stop"), atom("stop")};
                    vm.send_message(nullptr, init, make_boxed(stop));
                    continue;
                }
                if (sig == SIGINT && io::tty_active()) {
                    break_menu(vm);
                    continue;
                }
                if (sig == SIGCONT) {  // back from Ctrl-Z: the job control shell reset the terminal
                    io::tty_continued();
                    continue;
                }
                io::tty_restore();
                if (CliTrace* trace = g_signal_trace.load()) trace->flush();  // complete files
                if (init) vm.flush_stdout();
                std::fflush(stdout);
                std::_Exit(sig == SIGINT ? 130 : 143);
            }
        }).detach();
    });
}

}  // namespace

std::string Runtime::preload_otp() {
    // erl has OTP's preloaded modules built in: all of them are loaded before the first
    // process runs (the code server never loads them: they are not on its path), and so is
    // beamlet_internal, which BIFs trap into.
    // erlang comes first: its Erlang-written functions tell the loader which native BIFs
    // are Erlang code in OTP (Export::erlang_in_otp), before any module calls them.
    std::error_code ec;
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(m_preloaded_dir, ec))
        if (entry.path().extension() == ".beam") names.push_back(entry.path().stem().string());
    if (ec) return m_preloaded_dir + ": " + ec.message();
    std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
        return std::pair(a != "erlang", a) < std::pair(b != "erlang", b);
    });
    for (const std::string& name : names) {
        Term module = atom(name);
        std::string error = load(module);
        if (!error.empty()) return error;
        m_vm.preloaded.push_back(module);
    }
    // beamlet's own modules (beamlet_internal, beamlet_run, beamlet_cli_trace, ...) are not on
    // the code server's path either.
    for (const auto& entry : fs::directory_iterator(library_dir(), ec)) {
        std::string name = entry.path().stem().string();
        if (entry.path().extension() != ".beam" || !name.starts_with("beamlet")) continue;
        std::string error = load(atom(name));
        if (!error.empty()) return error;
    }
    m_vm.otp_error_handler = true;
    return {};
}

std::vector<std::string> Runtime::boot_arguments(Term module) const {
    // As erlexec passes them to the emulator for `erl -noshell -s beamlet_run start MOD`:
    // the root, bindir and progname, then the user's flags.
    fs::path lib = vm::config().otp_lib_dir.value_or(BEAMLET_OTP_LIB_DIR);
    fs::path root = lib.parent_path();
    fs::path erts = fs::path(m_preloaded_dir).parent_path();
    const char* home = std::getenv("HOME");
    std::vector<std::string> argv = {"-root", root.string(), "-bindir", (root / erts.filename() / "bin").string(),
                                     "-progname", "erl", "--", "-home", home ? home : "/", "--"};
    // The shell's user_drv, started a little faster (bif/lib/beamlet_shell.erl), unless the
    // flags choose another user.
    auto chosen = [&](const char* flag) {
        return std::find(m_options.init_flags.begin(), m_options.init_flags.end(), flag) != m_options.init_flags.end();
    };
    // -noinput implies -noshell, as erlexec adds it.
    if (m_options.noshell || m_options.noinput || chosen("-noinput")) argv.push_back("-noshell");
    else if (!chosen("-user") && !chosen("-nouser") && !chosen("-oldshell"))
        argv.insert(argv.end(), {"-user", "beamlet_shell"});
    if (m_options.noinput) argv.push_back("-noinput");
    // The user's -extra words stay last, with the program's arguments after them.
    auto extra = std::find(m_options.init_flags.begin(), m_options.init_flags.end(), "-extra");
    argv.insert(argv.end(), m_options.init_flags.begin(), extra);
    std::vector<std::string> pa, pz;
    for (const std::string& dir : m_options.code_path) {
        if (dir == library_dir()) break;  // the -pa directories come first (Runtime::Runtime)
        // "." is on OTP's code server path anyway (first, in interactive mode); as a -pa
        // directory it would also be on erl_prim_loader's boot path, where a stray .beam in the
        // working directory (binary.beam, say) would replace OTP's module while kernel starts.
        // As erl's -pz, the same after OTP's library directories.
        if (dir != ".") pa.push_back(dir);
    }
    // The modules of newer OTP releases that beamlet supplies (OTP 27's trace): after OTP's
    // own library directories, as kernel's ebin would hold them, and before the user's -pz
    // directories, which stay last as on erl (bif/lib/README.md).
    pz.push_back((fs::path(library_dir()) / "kernel").string());
    for (const std::string& dir : m_options.code_path_z)
        if (dir != ".") pz.push_back(dir);
    for (auto [flag, dirs] : {std::pair{"-pa", &pa}, std::pair{"-pz", &pz}})
        if (!dirs->empty()) {
            argv.push_back(flag);
            argv.insert(argv.end(), dirs->begin(), dirs->end());
        }
    if (module) {
        for (const char* a : {"-s", "beamlet_run", "start"}) argv.push_back(a);
        argv.push_back(atom_text(module));
    }
    if (extra != m_options.init_flags.end() || !m_options.program_args.empty()) {
        argv.push_back("-extra");
        if (extra != m_options.init_flags.end()) argv.insert(argv.end(), extra + 1, m_options.init_flags.end());
        argv.insert(argv.end(), m_options.program_args.begin(), m_options.program_args.end());
    }
    return argv;
}

namespace {
// As erlexec: a node named on the command line (-sname, -name) needs epmd, started as
// `epmd -daemon` (which returns once the daemon runs; one already running makes it a no-op),
// unless -start_epmd false says it is someone else's to start.
void start_epmd_for(const std::vector<std::string>& flags) {
    bool named = false, start = true;
    for (std::size_t i = 0; i < flags.size(); ++i) {
        if (flags[i] == "-sname" || flags[i] == "-name") named = true;
        if (flags[i] == "-start_epmd" && i + 1 < flags.size() && flags[i + 1] == "false") start = false;
    }
    if (!named || !start) return;
    pid_t pid = ::fork();
    if (pid == 0) {
        ::execlp("epmd", "epmd", "-daemon", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    if (pid > 0) {
        int status;
        ::waitpid(pid, &status, 0);
    }
}
}  // namespace

bool Runtime::boot(Term module) {
    start_epmd_for(m_options.init_flags);
    // The first process is init: erl_init:start(init, BootArgs), as on erl. OTP's init runs the
    // boot script (the kernel application: code server, file server, logger, ...), then
    // `-s beamlet_run start MOD` starts the main process, whose exit ends the run (or what
    // the user's -s, -run and -eval start, or the shell, runs until something halts).
    std::string boot_error = preload_otp();
    Export* boot = m_vm.exports.find(atom("erl_init"), atom("start"), 2);
    if (!boot_error.empty() || !boot || boot->address() == boot->trampoline) {
        std::fprintf(stderr, "beamlet: cannot boot: %s\n", boot_error.empty() ? "erl_init:start/2 is missing" : boot_error.c_str());
        return false;
    }
    start_signal_thread(m_vm);
    g_signal_trace.store(m_cli_trace.get());
    Schedulers schedulers(m_vm, m_options.schedulers);
    std::shared_ptr<Process> init = std::make_shared<Process>(m_vm, 0);  // <0.0.0>, as on erl
    g_signal_init.store(init->id);
    init->initial_call[0] = atom("erl_init");
    init->initial_call[1] = atom("start");
    init->initial_call[2] = make_small(2);
    init->group_leader.store(init->id);  // as erl's init: its own group leader
    Term args = NIL;
    std::vector<std::string> argv = boot_arguments(module);
    for (auto it = argv.rbegin(); it != argv.rend(); ++it)
        args = make_cons_on(init->alloc(2), make_binary(init.get(), *it), args);
    prepare_call(init.get(), boot, {atoms::init, args});
    m_vm.add_process(init);
    schedulers.enqueue(init.get());
    // The system processes erts starts next to init: the code purger, the literal area
    // collector and the dirty-process signal handlers (OTP's preloaded modules).
    for (const char* name : {"erts_code_purger", "erts_literal_area_collector", "erts_dirty_process_signal_handler",
                             "erts_dirty_process_signal_handler", "erts_dirty_process_signal_handler"}) {
        Export* start = m_vm.exports.find(atom(name), atom("start"), 0);
        if (!start || start->address() == start->trampoline) continue;
        auto system = std::make_shared<Process>(m_vm, m_vm.take_pid_number());
        system->initial_call[0] = atom(name);
        system->initial_call[1] = atom("start");
        system->initial_call[2] = make_small(0);
        system->group_leader.store(init->id);
        prepare_call(system.get(), start, {});
        if (std::string_view(name) == "erts_literal_area_collector")
            m_vm.literal_area_collector.store(system->id, std::memory_order_release);
        m_vm.add_process(system);
        schedulers.enqueue(system.get());
    }
    schedulers.run_until_exit(init.get());
    if (m_native_compiler) m_native_compiler->stop();  // before the schedulers go
    m_vm.port_table->shutdown();
    g_signal_init.store(0);
    g_signal_trace.store(nullptr);
    m_init = init;
    return true;
}

int Runtime::halted_status() {
    if (m_vm.main_process || m_vm.halt_status.load() < 0) return -1;
    // halt/1 before the program started (beamlet trace: a bad pattern, said on stderr), or
    // with no program: the status is all there is to report, as on erl.
    m_vm.flush_stdout();
    std::fflush(stdout);
    return m_vm.halt_status.load();
}

int Runtime::run_system() {
    bool booted = boot(0);
    io::tty_restore();  // the shell's terminal, as it was
    if (!booted) return 1;
    if (int halted = halted_status(); halted >= 0) return halted;
    m_vm.flush_stdout();
    std::fprintf(stderr, "beamlet: the system stopped: %s\n", bif::print_term(m_init->exit_reason, 34).c_str());
    return 1;
}

int Runtime::run_main(Term module) {
    // The module is read here only to say at once what is wrong with it (missing, malformed,
    // no main/0); OTP's code server loads it when main/0 is first called, as erl's does for
    // `-s MOD main` (so code:is_loaded/1, which/1 and all_loaded/0 know it).
    bool on_load = false;
    if (!m_vm.find_module(module)) {
        std::string path = module_file(module);
        if (path.empty()) {
            std::fprintf(stderr, "beamlet: module %s not found on the code path\n", atom_text(module).c_str());
            return 1;
        }
        auto code = loader::load_beam_file(path, m_vm.exports);
        if (!code) {
            std::fprintf(stderr, "beamlet: %s\n", code.error().c_str());
            return 1;
        }
        if (code->name != module) {
            std::fprintf(stderr, "beamlet: %s: file contains module %s\n", path.c_str(), atom_text(code->name).c_str());
            return 1;
        }
        auto is_main = [](const ExportEntry& e) { return e.function == atoms::main && e.arity <= 1; };
        if (std::none_of(code->exports.begin(), code->exports.end(), is_main)) {
            std::fprintf(stderr, "beamlet: %s exports neither main/1 nor main/0\n", atom_text(module).c_str());
            return 1;
        }
        on_load = code->on_load_function != 0;
    } else {
        auto exported = [&](Word arity) {
            Export* entry = m_vm.exports.find(module, atoms::main, arity);
            return entry && entry->address() != entry->trampoline;
        };
        if (!exported(0) && !exported(1)) {
            std::fprintf(stderr, "beamlet: %s exports neither main/1 nor main/0\n", atom_text(module).c_str());
            return 1;
        }
    }
    if (!boot(module)) return 1;
    std::shared_ptr<Process> main = m_vm.main_process;
    if (int halted = halted_status(); halted >= 0) std::_Exit(halted);
    if (!main) {
        m_vm.flush_stdout();
        std::fprintf(stderr, "beamlet: the system did not start: %s\n", bif::print_term(m_init->exit_reason, 34).c_str());
        return 1;
    }
    m_vm.flush_stdout();
    if (m_timed) static_cast<TimedTraceHooks*>(m_timed.get())->report();
    // erlang:halt/1 while main still ran (halt stops the schedulers); init:stop/0,1 ends in
    // halt/1 after killing every process, main too.
    if (int halted = m_vm.halt_status.load(); halted >= 0 && (!main->exited || main->exit_reason == atoms::killed))
        return halted;
    if (main->exit_reason == atoms::normal) return 0;
    const PendingException& exc = main->exception;
    // The module's on_load function failed (a NIF library that does not load, say): it was
    // unloaded, as OTP does, and main/0 is undefined. One line says so.
    if (on_load && exc.cls == atoms::error && exc.reason == atoms::undef && !m_vm.find_module(module)) {
        std::fprintf(stderr, "beamlet: %s: its on_load function failed (the warning report says why), so %s:main/0 is undefined\n",
                     atom_text(module).c_str(), atom_text(module).c_str());
        return 1;
    }
    if (!exc.cls) {
        std::fprintf(stderr, "** exited: %s\n", bif::print_term(main->exit_reason, 12).c_str());
        return 1;
    }
    std::string text = "** exception " + bif::write_term(exc.cls) + ": " + bif::print_term(exc.reason, 23);
    bool first = true;
    for (Term l = exc.stacktrace; is_list(l); l = cdr(l)) {
        text += first ? "\n     in function  " : "\n     in call from ";
        text += frame_text(car(l));
        first = false;
    }
    std::fprintf(stderr, "%s\n", text.c_str());
    return 1;
}

namespace {

// FNV-1a over [data], continuing from [h].
std::uint64_t fnv1a(std::string_view data, std::uint64_t h = 14695981039346656037ull) {
    for (unsigned char c : data) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

}  // namespace

Result<std::string> compile_erl(const std::string& erl_path) {
    std::error_code ec;
    fs::path source = fs::absolute(erl_path, ec);
    std::ifstream in(source, std::ios::binary);
    if (ec || !in) return Error{erl_path + ": no such file"};
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // One directory per (path, content): a cached module never stands in for another file's
    // module of the same name, and holds nothing else that could shadow the code path.
    char key[17];
    std::snprintf(key, sizeof key, "%016llx",
                  static_cast<unsigned long long>(fnv1a(text, fnv1a(source.string() + '\0'))));
    const std::optional<std::string>& home = vm::config().xdg_cache_home;
    fs::path root = home ? fs::path(*home) / "beamlet" / "erlc"
                         : fs::temp_directory_path() / ("beamlet-cache-" + std::to_string(getuid()));
    fs::path dir = root / key;
    fs::path beam = dir / (source.stem().string() + ".beam");
    if (fs::exists(beam, ec)) return beam.string();
    // Compile aside, then rename: a concurrent beamlet never sees half a directory.
    fs::create_directories(root, ec);
    fs::path tmp = root / (std::string(key) + ".tmp" + std::to_string(getpid()));
    fs::create_directories(tmp, ec);
    if (ec) return Error{root.string() + ": cannot create the compile cache: " + ec.message()};
    // erlc prints warnings on its standard output: they go to ours for errors, never into
    // the program's output.
    std::string cmd = "erlc -o '" + tmp.string() + "' '" + source.string() + "' 1>&2";
    if (std::system(cmd.c_str()) != 0) {
        fs::remove_all(tmp, ec);
        return Error{erl_path + ": erlc failed"};
    }
    fs::rename(tmp, dir, ec);
    if (ec) fs::remove_all(tmp, ec);  // another beamlet got there first: use its copy
    if (!fs::exists(beam, ec)) return Error{erl_path + ": erlc wrote no " + beam.filename().string()};
    return beam.string();
}

}  // namespace beamlet::tools
