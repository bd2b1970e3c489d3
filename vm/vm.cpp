// vm/vm.cpp — Vm: export table, module installation, message sending, output.
#include "vm/vm.hpp"

#include <array>
#include <algorithm>
#include <cerrno>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "vm/atom_table.hpp"
#include "vm/code_engine.hpp"
#include "vm/copy.hpp"
#include "vm/interpreter.hpp"
#include "vm/native_compiler.hpp"
#include "vm/process.hpp"
#include "vm/code_permission.hpp"
#include "vm/literal_area.hpp"
#include "vm/magic.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/scheduler.hpp"
#include "vm/thread_progress.hpp"
#include "vm/timer_service.hpp"
#include "vm/trace_hooks.hpp"

namespace beamlet::vm {

Export* ExportTable::get(Term module, Term function, Word arity) {
    std::lock_guard lock(m_mutex);
    auto& slot = m_exports[Key{module, function, arity}];
    if (!slot) {
        slot = std::make_unique<Export>();
        Export* e = slot.get();
        e->module = module;
        e->function = function;
        e->arity = arity;
        e->trampoline[0] = op_word(Op::i_call_error_handler);
        e->trampoline[1] = reinterpret_cast<Word>(e);
        e->addresses[0].store(e->trampoline, std::memory_order_release);
        e->addresses[1].store(e->trampoline, std::memory_order_release);
        e->bp_trampoline[0] = op_word(Op::i_export_breakpoint);
        e->bp_trampoline[1] = reinterpret_cast<Word>(e);
    }
    return slot.get();
}

Export* ExportTable::find(Term module, Term function, Word arity) const {
    std::lock_guard lock(m_mutex);
    auto it = m_exports.find(Key{module, function, arity});
    return it == m_exports.end() ? nullptr : it->second.get();
}

std::vector<Export*> ExportTable::of_module(Term module) const {
    std::lock_guard lock(m_mutex);
    std::vector<Export*> out;
    // The keys are ordered by module first: its exports are one run of the map.
    for (auto it = m_exports.lower_bound(Key{module, 0, 0}); it != m_exports.end() && std::get<0>(it->first) == module; ++it)
        out.push_back(it->second.get());
    return out;
}

std::vector<Export*> ExportTable::all() const {
    std::lock_guard lock(m_mutex);
    std::vector<Export*> out;
    for (auto& [key, e] : m_exports) out.push_back(e.get());
    return out;
}

// A fun entry for a module that is not loaded: its calls take the detour.
struct Vm::LambdaStub {
    FunEntry entry;
    std::uint8_t md5[16] = {};
};

namespace {
std::atomic<std::uint64_t> g_vm_serials{0};
}  // namespace

Vm::Vm()
    : code_permission(std::make_unique<CodePermission>(*this)),
      timers(std::make_unique<TimerService>(*this)),
      m_fast_processes(std::make_unique<std::atomic<Process*>[]>(FAST_SLOTS)),
      m_serial(g_vm_serials.fetch_add(1, std::memory_order_relaxed) + 1) {
    port_table = std::make_unique<PortTable>(*this);
    start_monotonic_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now().time_since_epoch()).count();
}

Vm::~Vm() {
    // Ports close while the process table still exists (their links get exit signals), and
    // while port_table still points at the table (reset() clears it before destroying it).
    port_table->close_all();
    if (services.io) services.io->stop();
    port_table.reset();
    flush_stdout();
    // Literal areas the collector had not finished with: their binaries go with the VM.
    if (m_literal_area) m_literal_queue.push_back(m_literal_area);
    for (LiteralRelease* job : m_literal_queue) {
        release_off_heap_list(job->off_heap_first);
        delete job;
    }
}

void Vm::resume_suspended(Process* p) {
    bool enqueue = false;
    {
        std::lock_guard guard(p->lock);
        bool signal_only = p->signal_only_wait.exchange(false, std::memory_order_relaxed);
        if (p->state == ProcessState::Suspended) {
            p->state = ProcessState::Runnable;
            enqueue = true;
        } else if (!signal_only) {
            p->resume_pending = true;  // still on its way to being parked
        }
        // (Woken for a signal in a signal-only wait: its next turn sees the wait is over.)
    }
    if (enqueue) schedulers->enqueue(p);
}

Term Vm::trap_until_thread_progress(Process* p, BifContinuation continuation) {
    p->continuation = std::move(continuation);
    p->suspend_for = SuspendFor::ThreadProgress;
    p->progress_value = thread_progress->later();
    p->exception = PendingException{};
    return THE_NON_VALUE;
}

std::int64_t Vm::unique_now_us() {
    std::int64_t now =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    std::int64_t last = last_now_us.load(std::memory_order_relaxed);
    while (true) {
        std::int64_t next = now > last ? now : last + 1;
        if (last_now_us.compare_exchange_weak(last, next, std::memory_order_relaxed)) return next;
    }
}

void Vm::after_thread_progress(std::function<void()> fn) {
    if (!schedulers) {
        fn();
        return;
    }
    schedulers->after_thread_progress(thread_progress->later(), std::move(fn));
}

Term Vm::trap_until_permission(Process* p, BifContinuation continuation) {
    p->continuation = std::move(continuation);
    p->exception = PendingException{};
    if (code_permission->seize(p)) {
        p->suspend_for = SuspendFor::Nothing;  // resumes at once, holding it
    } else {
        p->suspend_for = SuspendFor::Permission;
    }
    return THE_NON_VALUE;
}

void Vm::register_bif(Term module, Term function, Word arity, BifFn fn) {
    Export* e = exports.get(module, function, arity);
    e->bif = fn;
    e->trampoline[0] = op_word(Op::i_apply_bif);
    e->addresses[0].store(e->trampoline, std::memory_order_release);
    e->addresses[1].store(e->trampoline, std::memory_order_release);
}

BifFn Vm::find_bif(Term module, Term function, Word arity) const {
    Export* e = exports.find(module, function, arity);
    return e ? e->bif : nullptr;
}

Result<std::unique_ptr<Module>> Vm::prepare_module(const GenericModule& code) {
    ThreadLayout layout;
    auto threaded = thread_module(*this, code, &layout);
    if (!threaded) return Error{code.source_path + ": " + threaded.error()};
    std::unique_ptr<Module> mod = std::move(threaded.value());
    bool library = std::any_of(interpreted_dirs.begin(), interpreted_dirs.end(), [&](const std::string& dir) {
        return code.source_path.starts_with(dir);
    });
    // A module that loads NIFs runs interpreted: its NIFs take over functions through their
    // first threaded instruction, which native local calls would jump past (nif/nif.cpp).
    mod->loads_nifs = std::any_of(code.imports.begin(), code.imports.end(), [](const ImportEntry& i) {
        return i.module == atoms::erlang && i.function == atom("load_nif") && i.arity == 2;
    });
    mod->on_load_function = code.on_load_function;
    if (services.code_engine && !library && !mod->loads_nifs && jit_hot_calls && native_compiler) {
        // Lazy: each function's entry counts its calls until the module is hot.
        for (const FunctionInfo& f : mod->functions) {
            Word* entry = mod->code.get() + f.header_offset + sizeof(CodeInfo) / sizeof(Word);
            if (entry[0] == op_word(Op::i_jit_skip)) entry[0] = op_word(Op::i_jit_count);
        }
        mod->lazy_native = std::make_unique<LazyNative>(LazyNative{code, std::move(layout)});
    } else if (services.code_engine && !library && !mod->loads_nifs) {
        // Native code; if it cannot be compiled the module still runs, interpreted.
        std::string jit_error = services.code_engine->compile(*mod, code, layout);
        if (!jit_error.empty())
            std::fprintf(stderr, "beamlet: %s: JIT compilation failed, interpreting it: %s\n",
                         atom_text(code.name).c_str(), jit_error.c_str());
    }
    for (FunctionInfo& fi : mod->functions)
        if (fi.exported) fi.export_entry = exports.get(mod->name, fi.name, fi.arity);
    return mod;
}

namespace {

// Points [e] at [address] in both code indices (beamlet switches them together).
void set_export_address(Export* e, const Word* address) {
    e->addresses[0].store(address, std::memory_order_release);
    e->addresses[1].store(address, std::memory_order_release);
}

}  // namespace

Module* Vm::publish_module(std::unique_ptr<Module> mod) {
    Module* m = mod.get();
    // on_load trace patterns go in while no process can reach the code yet.
    if (services.trace) services.trace->module_loading(*m);
    // The module and its exports switch under one lock, so that a process asking whether it
    // is loaded (OTP's error_handler: module_loaded/1, then function_exported/3) never sees
    // the new module without its exports: that was a spurious undef.
    {
        std::lock_guard lock(m_modules_mutex);
        m_code_index[m->code.get()] = m;
        auto& slot = m_modules[m->name];
        std::unique_ptr<Module> previous = std::move(slot);
        slot = std::move(mod);
        Module* old = nullptr;
        if (previous) {
            old = previous.get();
            retire_old_locked(m->name);
            m_old_modules[m->name] = std::move(previous);
        }
        // With an on_load function, the exports wait for it (finish_on_load).
        if (m->on_load_function) m->on_load_pending.store(true, std::memory_order_release);
        else publish_exports_locked(m, old);
    }
    code_generation.fetch_add(1, std::memory_order_acq_rel);
    return m;
}

void Vm::publish_exports_locked(Module* m, Module* previous) {
    // Exports of the previous version that this one lacks become undefined.
    if (previous) {
        for (FunctionInfo& fi : previous->functions) {
            Export* e = fi.export_entry;
            if (!e || e->is_bif()) continue;
            bool kept = false;
            for (const FunctionInfo& nf : m->functions) kept = kept || (nf.export_entry == e);
            if (!kept) set_export_address(e, e->trampoline);
        }
    }
    for (FunctionInfo& fi : m->functions) {
        Export* e = fi.export_entry;
        if (!e || e->is_bif()) continue;  // a native implementation wins over the Erlang placeholder body
        const Word* address = m->code_info(fi)->code();
        if (e->gen_bp.load(std::memory_order_acquire)) {
            // A global on_load pattern: calls go through the export's breakpoint trampoline.
            e->bp_original.store(address, std::memory_order_release);
            address = e->bp_trampoline;
        }
        set_export_address(e, address);
    }
}

Vm::OnLoadClaim Vm::claim_on_load(Term name, const Word** entry) {
    Module* m = find_module(name);
    if (!m || !m->on_load_function) return OnLoadClaim::None;
    bool expected = true;
    if (!m->on_load_pending.compare_exchange_strong(expected, false, std::memory_order_acq_rel))
        return m->on_load_running.load(std::memory_order_acquire) ? OnLoadClaim::Running : OnLoadClaim::None;
    m->on_load_running.store(true, std::memory_order_release);
    for (const FunctionInfo& fi : m->functions)
        if (fi.name == m->on_load_function && fi.arity == 0) *entry = m->code_info(fi)->code();
    return *entry ? OnLoadClaim::Claimed : OnLoadClaim::None;
}

bool Vm::finish_on_load(Term name, bool keep) {
    Module* m = find_module(name);
    if (!m || !m->on_load_running.load(std::memory_order_acquire)) return false;
    if (keep) {
        {
            std::lock_guard lock(m_modules_mutex);
            auto old = m_old_modules.find(name);
            publish_exports_locked(m, old == m_old_modules.end() ? nullptr : old->second.get());
        }
        code_generation.fetch_add(1, std::memory_order_acq_rel);
        m->on_load_running.store(false, std::memory_order_release);
        return true;
    }
    // The module is not loaded after all: the previous code (if any) is current again.
    std::lock_guard lock(m_modules_mutex);
    auto it = m_modules.find(name);
    m_purged_modules.push_back(std::move(it->second));
    m_modules.erase(it);
    auto old = m_old_modules.find(name);
    if (old != m_old_modules.end()) {
        m_modules[name] = std::move(old->second);
        m_old_modules.erase(old);
    }
    m->on_load_running.store(false, std::memory_order_release);
    code_generation.fetch_add(1, std::memory_order_acq_rel);
    return true;
}

bool Vm::request_native_code(Process* p, const Word* marker) {
    const Module* m = native_compiler ? module_containing(marker) : nullptr;
    if (!m) return false;
    // It waits for the native code (then runs it) only when the VM has nothing else to do:
    // every other scheduler asleep, no process queued. Then the wait (the first compilation
    // loads LLVM: 15-50 ms) holds up no one, and a lone hot loop, the usual single-process
    // program, is native from then on. Otherwise it goes on interpreted, as every other
    // process does meanwhile: a process others are waiting on (a spawner, a server) never
    // stalls for the JIT. Never while it holds the code modification permission, which the
    // switch needs.
    bool wait = schedulers->alone(p->scheduler_index) && !code_permission->held_by(p);
    Term waiter = wait ? p->id : Term(0);
    return native_compiler->request(*const_cast<Module*>(m), waiter);
}

Result<Module*> Vm::install_module(const GenericModule& code) {
    auto mod = prepare_module(code);
    if (!mod) return Error{mod.error()};
    if (find_module(code.name)) return Error{"module " + atom_text(code.name) + " is already loaded"};
    return publish_module(std::move(*mod));
}

bool Vm::delete_module(Term name) {
    std::unique_ptr<Module> current;
    {
        std::lock_guard lock(m_modules_mutex);
        auto it = m_modules.find(name);
        if (it == m_modules.end()) return false;
        current = std::move(it->second);
        m_modules.erase(it);
    }
    for (FunctionInfo& fi : current->functions)
        if (fi.export_entry && !fi.export_entry->is_bif()) set_export_address(fi.export_entry, fi.export_entry->trampoline);
    code_generation.fetch_add(1, std::memory_order_acq_rel);
    std::lock_guard lock(m_modules_mutex);
    retire_old_locked(name);
    m_old_modules[name] = std::move(current);
    return true;
}

void Vm::retire_old_locked(Term name) {
    auto it = m_old_modules.find(name);
    if (it == m_old_modules.end()) return;
    m_purged_modules.push_back(std::move(it->second));
    m_old_modules.erase(it);
}

bool Vm::purge_module(Term name) {
    Module* purged;
    {
        std::lock_guard lock(m_modules_mutex);
        auto it = m_old_modules.find(name);
        if (it == m_old_modules.end()) return false;
        // Purged code is never unmapped: funs and return addresses into it may still sit in
        // messages or tables (OTP checks literal areas and copies them out; beamlet keeps the
        // memory). Its funs no longer run it.
        for (auto& fe : it->second->funs) fe->route_to_detour();
        purged = it->second.get();
        m_purged_modules.push_back(std::move(it->second));
        m_old_modules.erase(it);
        code_generation.fetch_add(1, std::memory_order_acq_rel);
    }
    end_pending_purge(purged);
    release_module_literals(*purged);
    return true;
}

bool Vm::prepare_purge(Term name) {
    std::lock_guard lock(m_modules_mutex);
    auto it = m_old_modules.find(name);
    if (it == m_old_modules.end()) return false;
    {
        std::lock_guard purge_lock(m_purge_mutex);
        m_purge_pending = it->second.get();
    }
    for (auto& fe : it->second->funs) fe->route_to_detour();
    return true;
}

void Vm::abort_purge(Term name) {
    const Module* kept;
    {
        std::lock_guard lock(m_modules_mutex);
        auto it = m_old_modules.find(name);
        if (it == m_old_modules.end()) return;
        kept = it->second.get();
        for (auto& fe : it->second->funs) fe->route_to_code();
    }
    end_pending_purge(kept);
}

bool Vm::await_purge(Process* p, const Module* module) {
    std::lock_guard lock(m_purge_mutex);
    if (!module || module != m_purge_pending) return false;
    m_purge_waiters.push_back(p->id);
    return true;
}

void Vm::end_pending_purge(const Module* module) {
    std::vector<Term> waiters;
    {
        std::lock_guard lock(m_purge_mutex);
        if (module != m_purge_pending) return;
        m_purge_pending = nullptr;
        waiters.swap(m_purge_waiters);
    }
    for (Term pid : waiters)
        if (std::shared_ptr<Process> w = lookup_process(pid)) resume_suspended(w.get());
}

const FunEntry* Vm::lambda_stub(Term module, Word index, Word old_uniq, Word arity, Word num_free,
                                const std::uint8_t md5[16]) {
    std::lock_guard lock(m_lambda_stubs_mutex);
    auto& slot = m_lambda_stubs[{module, index, old_uniq, arity, num_free}];
    if (!slot) {
        slot = std::make_unique<LambdaStub>();
        LambdaStub& s = *slot;
        std::copy(md5, md5 + 16, s.md5);
        s.entry.module_name = module;
        s.entry.function = NIL;  // not known until the module is loaded ([] in OTP's fun_info)
        s.entry.arity = arity + num_free;
        s.entry.num_free = num_free;
        s.entry.index = index;
        s.entry.old_uniq = old_uniq;
        s.entry.stub_md5 = s.md5;
        init_fun_entry(s.entry, nullptr);
    }
    return &slot->entry;
}

Module* Vm::find_old_module(Term name) const {
    std::lock_guard lock(m_modules_mutex);
    auto it = m_old_modules.find(name);
    return it == m_old_modules.end() ? nullptr : it->second.get();
}

Module* Vm::find_module(Term name) const {
    std::lock_guard lock(m_modules_mutex);
    auto it = m_modules.find(name);
    return it == m_modules.end() ? nullptr : it->second.get();
}

const Module* Vm::module_containing(const Word* p) const {
    // Each thread remembers recent answers, by address: a module's code never moves and a
    // published Module lives as long as its Vm, so an entry of this Vm's stays right, and a
    // stack trace (one look-up per frame) mostly skips the lock and the search.
    struct Recent {
        std::uint64_t vm = 0;
        const Module* m = nullptr;
    };
    thread_local std::array<Recent, 64> recent{};
    Recent& r = recent[(reinterpret_cast<std::uintptr_t>(p) >> 8) % recent.size()];
    if (r.vm == m_serial && r.m->contains(p)) return r.m;
    const Module* m = nullptr;
    {
        std::lock_guard lock(m_modules_mutex);
        auto it = m_code_index.upper_bound(p);  // the first module starting after p
        if (it != m_code_index.begin() && std::prev(it)->second->contains(p)) m = std::prev(it)->second;
    }
    if (m) r = {m_serial, m};
    return m;
}

std::vector<Module*> Vm::loaded_modules() const {
    std::lock_guard lock(m_modules_mutex);
    std::vector<Module*> out;
    for (auto& [name, m] : m_modules) out.push_back(m.get());
    return out;
}

std::vector<std::string> Vm::code_path() const {
    std::lock_guard lock(m_code_path_mutex);
    return m_code_path;
}

void Vm::set_code_path(std::vector<std::string> dirs) {
    std::lock_guard lock(m_code_path_mutex);
    m_code_path = std::move(dirs);
}

std::string Vm::ensure_loaded(Term module, Process* loader) {
    if (find_module(module)) return {};
    CallAccountingPause pause(loader);
    std::lock_guard lock(m_load_mutex);
    if (find_module(module)) return {};
    if (!module_loader) return "no code path";
    return module_loader(module);
}

std::shared_ptr<Process> Vm::lookup_process(Term pid) const {
    std::lock_guard lock(m_process_mutex);
    auto it = m_processes.find(pid);
    return it == m_processes.end() ? nullptr : it->second;
}

std::shared_ptr<Process> Vm::whereis(Term name) const {
    std::lock_guard lock(m_process_mutex);
    auto it = m_registered.find(name);
    if (it == m_registered.end()) return nullptr;
    auto p = m_processes.find(it->second->id);
    return p == m_processes.end() ? nullptr : p->second;
}

Process* Vm::find_process(Term pid) const {
    if (Schedulers::current_index() < 0) return lookup_process(pid).get();
    if (Process* p = m_fast_processes[pid_number(pid) % FAST_SLOTS].load(std::memory_order_acquire); p && p->id == pid)
        return p;
    std::lock_guard lock(m_process_mutex);
    auto it = m_processes.find(pid);
    return it == m_processes.end() ? nullptr : it->second.get();
}

void Vm::add_process(std::shared_ptr<Process> p) {
    std::lock_guard lock(m_process_mutex);
    std::atomic<Process*>& slot = m_fast_processes[pid_number(p->id) % FAST_SLOTS];
    if (!slot.load(std::memory_order_relaxed)) slot.store(p.get(), std::memory_order_release);
    m_processes[p->id] = std::move(p);
}

void Vm::remove_process(Process* p) {
    std::shared_ptr<Process> owner;
    {
        std::lock_guard lock(m_process_mutex);
        for (auto it = m_registered.begin(); it != m_registered.end();)
            it = it->second == p ? m_registered.erase(it) : std::next(it);
        std::atomic<Process*>& slot = m_fast_processes[pid_number(p->id) % FAST_SLOTS];
        if (slot.load(std::memory_order_relaxed) == p) slot.store(nullptr, std::memory_order_release);
        if (auto it = m_processes.find(p->id); it != m_processes.end()) {
            owner = std::move(it->second);
            m_processes.erase(it);
        }
    }
    if (owner) bury(std::move(owner));
}

void Vm::bury(std::shared_ptr<Process> p) {
    // Scheduler threads may still hold [p] from find_process until their next quiescent point.
    // The dead are freed in batches: a batch is sealed when the wait for it starts, so that
    // everything in it left the table before that wait began.
    bool start;
    {
        std::lock_guard lock(m_graveyard_mutex);
        m_graveyard.push_back(std::move(p));
        start = !m_graveyard_sealing;
        m_graveyard_sealing = true;
    }
    if (start) after_thread_progress([this] { seal_graveyard(); });
}

void Vm::seal_graveyard() {
    std::vector<std::shared_ptr<Process>> batch;
    {
        std::lock_guard lock(m_graveyard_mutex);
        batch.swap(m_graveyard);
        m_graveyard_sealing = false;
    }
    // This wait starts after every process of the batch left the table.
    after_thread_progress([batch = std::move(batch)]() mutable { batch.clear(); });
}

bool Vm::register_name(Term name, Process* p) {
    {
        std::lock_guard lock(m_process_mutex);
        if (m_registered.count(name) || m_registered_ports.count(name)) return false;
        for (auto& [n, q] : m_registered)
            if (q == p) return false;
        m_registered.emplace(name, p);
        std::lock_guard plock(p->lock);
        p->registered_name = name;
    }
    // The event goes to the registered process's tracer, whoever registered it (OTP).
    if ((p->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PROCS) && services.trace)
        services.trace->process_event(p, atoms::register_, name);
    return true;
}

bool Vm::register_name(Term name, Port* port) {
    {
        std::lock_guard lock(m_process_mutex);
        if (m_registered.count(name) || m_registered_ports.count(name)) return false;
        std::lock_guard plock(port->lock);
        if (port->state != PortState::Open || port->registered_name) return false;
        m_registered_ports.emplace(name, port);
        port->registered_name = name;
    }
    if ((port->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PORTS) && services.trace)
        services.trace->port_event(port, atoms::register_, name);
    return true;
}

bool Vm::unregister_name(Term name) {
    std::shared_ptr<Process> owner;
    std::shared_ptr<Port> port;
    {
        std::lock_guard lock(m_process_mutex);
        if (auto pit = m_registered_ports.find(name); pit != m_registered_ports.end()) {
            {
                std::lock_guard plock(pit->second->lock);
                pit->second->registered_name = 0;
            }
            port = pit->second->self.lock();
            m_registered_ports.erase(pit);
        } else {
            auto it = m_registered.find(name);
            if (it == m_registered.end()) return false;
            {
                std::lock_guard plock(it->second->lock);
                it->second->registered_name = 0;
            }
            if (auto p = m_processes.find(it->second->id); p != m_processes.end()) owner = p->second;
            m_registered.erase(it);
        }
    }
    if (owner && (owner->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PROCS) && services.trace)
        services.trace->process_event(owner.get(), atoms::unregister, name);
    if (port && (port->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PORTS) && services.trace)
        services.trace->port_event(port.get(), atoms::unregister, name);
    return true;
}

void Vm::unregister_port(Term name, Port* port) {
    {
        std::lock_guard lock(m_process_mutex);
        auto it = m_registered_ports.find(name);
        if (it == m_registered_ports.end() || it->second != port) return;
        m_registered_ports.erase(it);
    }
    if ((port->all_trace_flags.load(std::memory_order_relaxed) & TRACE_PORTS) && services.trace)
        services.trace->port_event(port, atoms::unregister, name);
}

Term Vm::whereis_id(Term name) const {
    std::lock_guard lock(m_process_mutex);
    if (auto it = m_registered.find(name); it != m_registered.end()) return it->second->id;
    if (auto it = m_registered_ports.find(name); it != m_registered_ports.end()) return it->second->id;
    return 0;
}

std::vector<Term> Vm::registered_names() const {
    std::lock_guard lock(m_process_mutex);
    std::vector<Term> out;
    for (auto& [n, p] : m_registered) out.push_back(n);
    for (auto& [n, port] : m_registered_ports) out.push_back(n);
    return out;
}

std::vector<Term> Vm::process_ids() const {
    std::lock_guard lock(m_process_mutex);
    std::vector<Term> out;
    for (auto& [id, p] : m_processes) out.push_back(id);
    return out;
}

std::size_t Vm::process_count() const {
    std::lock_guard lock(m_process_mutex);
    return m_processes.size();
}

void Vm::write_stdout(std::string_view text) {
    if (services.io) return services.io->write(1, text);
    while (!text.empty()) {
        ssize_t n = ::write(1, text.data(), text.size());
        if (n <= 0 && errno != EINTR) return;
        if (n > 0) text.remove_prefix(std::size_t(n));
    }
}

void Vm::flush_stdout() {
    if (services.io) services.io->flush();
}

}  // namespace beamlet::vm
