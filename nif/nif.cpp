// nif/nif.cpp — NIF libraries: dlopen, binding a library's functions to its module's code
// (OTP's erts_load_nif), calling them, and unloading with the module's code.
//
// A bound function's first instruction word becomes i_call_nif (through the breakpoint's
// saved word when the function carries one), and the binding is found again from its
// CodeInfo. Modules that call erlang:load_nif/2 run interpreted under the JIT (vm/vm.cpp), so
// local calls reach that word too.
#include "nif/nif.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstdarg>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/heap.hpp"
#include "vm/instructions.hpp"
#include "vm/interpreter.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::nif {

using namespace vm;

struct NifLibrary {
    void* handle = nullptr;
    ErlNifEntry* entry = nullptr;
    Term module = 0;
    const Module* code = nullptr;  // the module instance it was loaded into
    void* priv_data = nullptr;
};

namespace {

std::shared_mutex g_mutex;
// Libraries by the module instance they belong to; a purged instance's library is unloaded.
std::unordered_map<const Module*, NifLibrary*> g_libraries;
// Bound functions by their header.
std::unordered_map<const CodeInfo*, NifFunction> g_bound;
std::atomic<unsigned long> g_generation{0};

// {error, {Reason, Text}} on [p]'s heap.
Term load_error(Process* p, const char* reason, const std::string& text) {
    Term chars = NIL;
    Term* hp = p->alloc(2 * text.size() + 3 + 3);
    for (std::size_t i = text.size(); i-- > 0;) {
        chars = make_cons_on(hp, make_small(static_cast<unsigned char>(text[i])), chars);
        hp += 2;
    }
    hp[0] = make_arityval(2);
    hp[1] = atom(reason);
    hp[2] = chars;
    hp[3] = make_arityval(2);
    hp[4] = atoms::error;
    hp[5] = make_boxed(hp);
    return make_boxed(hp + 3);
}

// The i_call_nif handler's way in: the NIF bound to [ci], called with [p]'s x registers.
Term call_from_code(Process* p, const CodeInfo* ci, Term* x) {
    NifFunction f;
    {
        std::shared_lock lock(g_mutex);
        auto it = g_bound.find(ci);
        if (it != g_bound.end()) f = it->second;
    }
    if (!f.func) return p->error(atoms::undef);
    Term exception = 0;
    Term r = call(f, p, p->id, x, int(ci->arity), &exception);
    if (r == THE_NON_VALUE) {
        if (exception == atoms::badarg) return p->badarg();
        return p->error(exception);
    }
    return r;
}

}  // namespace

void install(Vm& vm) {
    vm.services.nif_call = &call_from_code;
    set_vm(&vm);
}

unsigned long generation() { return g_generation.load(std::memory_order_acquire); }

Term call(const NifFunction& f, Process* heap, Term self, const Term* argv, int argc, Term* exception) {
    Env env;
    env.heap = heap;
    env.self = self;
    env.library = f.library;
    Term r = f.func->fptr(static_cast<ErlNifEnv*>(&env), argc, reinterpret_cast<const ERL_NIF_TERM*>(argv));
    if (env.exception) {
        *exception = env.exception;
        return THE_NON_VALUE;
    }
    return r;
}

NifFunction find(Vm& vm, Term module, Term name, unsigned arity) {
    const Module* m = vm.find_module(module);
    if (!m) return {};
    std::shared_lock lock(g_mutex);
    auto lib = g_libraries.find(m);
    if (lib == g_libraries.end()) return {};
    const ErlNifEntry* e = lib->second->entry;
    for (int i = 0; i < e->num_of_funcs; ++i)
        if (e->funcs[i].arity == arity && atom_text(name) == e->funcs[i].name) return NifFunction{&e->funcs[i], lib->second};
    return {};
}

Term load_nif(Process* p, Term module, const std::string& path, Term load_info) {
    Vm& vm = p->vm;
    const Module* code = vm.find_module(module);
    if (!code) return load_error(p, "old_code", "Calling load_nif from old module '" + atom_text(module) + "' not allowed");
    {
        std::shared_lock lock(g_mutex);
        if (g_libraries.count(code))
            return load_error(p, "reload", "NIF library already loaded (reload disallowed since OTP 20).");
    }
    std::string file = path + ".so";
    void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        std::string why = dlerror();
        // beamlet also looks in the current directory for a bare name (erl_tracer's example
        // loads "erl_msg_tracer" from where the shell runs), which dlopen alone does not.
        if (path.find('/') == std::string::npos) handle = dlopen(("./" + file).c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* slogan = "Failed to load NIF library";
            if (why.find(file) != std::string::npos) return load_error(p, "load_failed", std::string(slogan) + ": '" + why + "'");
            return load_error(p, "load_failed", std::string(slogan) + " " + path + ": '" + why + "'");
        }
    }
    auto fail = [&](const char* reason, const std::string& text) {
        dlclose(handle);
        return load_error(p, reason, text);
    };
    auto init = reinterpret_cast<ErlNifEntry* (*)()>(dlsym(handle, "nif_init"));
    if (!init) return fail("bad_lib", std::string("Failed to find library init function: '") + dlerror() + "'");
    ErlNifEntry* entry = init();
    if (!entry) return fail("bad_lib", "Library init-call unsuccessful");
    if (entry->major != ERL_NIF_MAJOR_VERSION || entry->minor > ERL_NIF_MINOR_VERSION)
        return fail("bad_lib", "Library version (" + std::to_string(entry->major) + "." + std::to_string(entry->minor) +
                                   ") not compatible (with " + std::to_string(ERL_NIF_MAJOR_VERSION) + "." +
                                   std::to_string(ERL_NIF_MINOR_VERSION) + ").");
    if (!entry->name || atom_text(module) != entry->name)
        return fail("bad_lib", std::string("Library module name '") + (entry->name ? entry->name : "") +
                                   "' does not match calling module '" + atom_text(module) + "'");
    std::vector<const CodeInfo*> targets;
    for (int i = 0; i < entry->num_of_funcs; ++i) {
        const ErlNifFunc& f = entry->funcs[i];
        const CodeInfo* ci = nullptr;
        for (const FunctionInfo& fi : code->functions)
            if (fi.arity == f.arity && atom_text(fi.name) == f.name) ci = code->code_info(fi);
        if (!ci)
            return fail("bad_lib", "Function not found " + atom_text(module) + ":" + f.name + "/" + std::to_string(f.arity));
        if (f.flags != 0 && f.flags != ERL_NIF_DIRTY_JOB_CPU_BOUND && f.flags != ERL_NIF_DIRTY_JOB_IO_BOUND)
            return fail("bad_lib", "Illegal flags field value " + std::to_string(f.flags) + " for NIF " +
                                       atom_text(module) + ":" + f.name + "/" + std::to_string(f.arity));
        targets.push_back(ci);
    }

    auto* lib = new NifLibrary{handle, entry, module, code, nullptr};
    // The previous instance's library, for upgrade.
    NifLibrary* previous = nullptr;
    if (const Module* old = vm.find_old_module(module)) {
        std::shared_lock lock(g_mutex);
        auto it = g_libraries.find(old);
        if (it != g_libraries.end()) previous = it->second;
    }
    Env env;
    env.heap = p;
    env.self = p->id;
    env.library = lib;
    int veto = 0;
    if (previous) {
        if (!entry->upgrade) {
            delete lib;
            return fail("upgrade", "Upgrade not supported by this NIF library.");
        }
        veto = entry->upgrade(&env, &lib->priv_data, &previous->priv_data, load_info);
        if (veto) {
            delete lib;
            return fail("upgrade", "Library upgrade-call unsuccessful (" + std::to_string(veto) + ").");
        }
    } else if (entry->load) {
        veto = entry->load(&env, &lib->priv_data, load_info);
        if (veto) {
            delete lib;
            return fail("load", "Library load-call unsuccessful (" + std::to_string(veto) + ").");
        }
    }
    {
        std::unique_lock lock(g_mutex);
        g_libraries[code] = lib;
        for (int i = 0; i < entry->num_of_funcs; ++i) g_bound[targets[std::size_t(i)]] = NifFunction{&entry->funcs[i], lib};
    }
    // Calls reach the NIFs from now on; the stubs' bodies stay in place behind them.
    Word op = op_word(Op::i_call_nif);
    for (const CodeInfo* ci : targets) {
        if (TraceHooks* hooks = p->vm.services.trace) hooks->replace_entry_word(ci, op);
        else TraceHooks::write_entry_word(ci, op);
    }
    g_generation.fetch_add(1, std::memory_order_acq_rel);
    return atoms::ok;
}

void module_purged(Vm& vm, Term module) {
    // Every library of a module instance that is no longer current or old.
    std::vector<NifLibrary*> gone;
    {
        std::unique_lock lock(g_mutex);
        for (auto it = g_libraries.begin(); it != g_libraries.end();) {
            NifLibrary* lib = it->second;
            bool live = vm.find_module(module) == lib->code || vm.find_old_module(module) == lib->code;
            if (lib->module == module && !live) {
                for (auto b = g_bound.begin(); b != g_bound.end();)
                    b = b->second.library == lib ? g_bound.erase(b) : std::next(b);
                gone.push_back(lib);
                it = g_libraries.erase(it);
            } else {
                ++it;
            }
        }
    }
    if (gone.empty()) return;
    g_generation.fetch_add(1, std::memory_order_acq_rel);
    for (NifLibrary* lib : gone) {
        // Callers that looked the library up before it went may still be inside it: it is
        // closed once every scheduler has passed a quiescent point.
        auto finish = [lib] {
            if (lib->entry->unload) {
                Env env;
                env.library = lib;
                lib->entry->unload(&env, lib->priv_data);
            }
            dlclose(lib->handle);
            delete lib;
        };
        vm.after_thread_progress(finish);
    }
}

void release_all() {
    std::unique_lock lock(g_mutex);
    for (auto& [code, lib] : g_libraries) delete lib;
    g_libraries.clear();
    g_bound.clear();
    g_generation.fetch_add(1, std::memory_order_acq_rel);
}

void* library_priv_data(const NifLibrary* lib) { return lib ? lib->priv_data : nullptr; }

}  // namespace beamlet::nif
