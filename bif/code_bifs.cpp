// bif/code_bifs.cpp — code loading: erlang:load_module/2, delete_module/1, purge_module/1,
// check_old_code/1, check_process_code/2,3, loaded/0, pre_loaded/0, and the beamlet:* BIFs
// under beamlet's own code module (bif/lib/code.erl): the code path and module files.
//
// A load parses and threads (and JIT-compiles) the new code in the calling process, then
// takes the code modification permission to publish it: the process traps while it waits, and
// other processes keep running throughout (DESIGN.md §3).
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "bif/bifs.hpp"
#include "nif/nif.hpp"
#include "tracing/code_change.hpp"
#include "vm/binary.hpp"
#include "vm/code_permission.hpp"
#include "vm/copy.hpp"
#include "vm/interpreter.hpp"
#include "vm/module.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

Term error_tuple(Process* p, Term reason) { return make_tuple_on(p, {atoms::error, reason}); }

// The bytes of binary [t].
std::string binary_bytes(Term t) {
    BitView v = bit_view(t);
    std::string s(v.size_bytes(), '\0');
    copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(s.data()), 0, v.bit_size);
    return s;
}

// A string term as a std::string (bytes; characters above 255 are not file names here).
bool string_arg(Term t, std::string* out) {
    if (is_binary(t)) {
        *out = binary_bytes(t);
        return true;
    }
    return list_to_bytes(t, out);
}

// Loads [bytes] as module [name] from [path] for [p]: parse and prepare here, publish holding
// the permission. The result is {module, Name} or {error, Reason}, as erlang:load_module/2.
Term load_bytes(Process* p, Term name, const std::string& bytes, const std::string& path) {
    Vm& vm = p->vm;
    if (!vm.module_parser) return error_tuple(p, atom("badfile"));
    CallAccountingPause pause(p);  // parsing and compiling are not the caller's work
    auto code = vm.module_parser({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}, path);
    if (!code) return error_tuple(p, atom("badfile"));
    if (code->name != name) return error_tuple(p, atom("badfile"));
    code->source_path = path;
    auto module = vm.prepare_module(*code);
    if (!module) return error_tuple(p, atom("badfile"));
    // Held by the continuation until it publishes the module (a Module never moves: funs and
    // the JIT point at it).
    auto prepared = std::make_shared<std::unique_ptr<Module>>(std::move(*module));
    return vm.trap_until_permission(p, [name, prepared](Process* q, Term*) -> Term {
        Vm& vm = q->vm;
        if (vm.find_old_module(name) && vm.find_module(name)) {
            vm.code_permission->release(q);
            return error_tuple(q, atom("not_purged"));
        }
        // The breakpoints of the code being replaced go first (every session's, through the
        // staged sequence); then the new code is published, with on_load patterns applied.
        return tracing::clear_module_tracing(q, name, [name, prepared](Process* r) -> Term {
            Vm& vm = r->vm;
            vm.publish_module(std::move(*prepared));
            vm.code_permission->release(r);
            return make_tuple_on(r, {atom("module"), name});
        });
    });
}

}  // namespace

// erlang:load_module(Module, Binary)
Term bif_load_module(Process* p, Term* a) {
    if (!is_atom(a[0]) || !is_binary(a[1])) return p->badarg();
    return load_bytes(p, a[0], binary_bytes(a[1]), "");
}

// beamlet:load_binary(Module, Filename, Binary): load_module/2 recording where the code came
// from (code:which/1, stack traces).
Term bif_beamlet_load_binary(Process* p, Term* a) {
    std::string file;
    if (!is_atom(a[0]) || !is_binary(a[2]) || !string_arg(a[1], &file)) return p->badarg();
    return load_bytes(p, a[0], binary_bytes(a[2]), file);
}

// erlang:delete_module(Module): true, or undefined without current code; badarg if there is
// old code already.
Term bif_delete_module(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    Term name = a[0];
    return p->vm.trap_until_permission(p, [name](Process* q, Term*) -> Term {
        Vm& vm = q->vm;
        if (!vm.find_module(name)) {
            vm.code_permission->release(q);
            return atoms::undefined;
        }
        if (vm.find_old_module(name)) {
            vm.code_permission->release(q);
            return q->badarg();
        }
        return tracing::clear_module_tracing(q, name, [name](Process* r) -> Term {
            r->vm.delete_module(name);
            r->vm.code_permission->release(r);
            return atoms::true_;
        });
    });
}

// erlang:purge_module(Module): drops the old code; badarg if there is none. (The code module
// first kills the processes that still run it.)
Term bif_purge_module(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    Term name = a[0];
    return p->vm.trap_until_permission(p, [name](Process* q, Term*) -> Term {
        bool purged = q->vm.purge_module(name);
        if (purged) nif::module_purged(q->vm, name);
        q->vm.code_permission->release(q);
        return purged ? atoms::true_ : q->badarg();
    });
}

Term bif_check_old_code(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return make_bool(p->vm.find_old_module(a[0]) != nullptr);
}

// Whether [p] (on its own thread, not running) executes code of [m]: its current
// instruction, continuation, or a return address or catch on its stack.
bool executes_code_of(const Process* p, const Module* m) {
    if (!m) return false;
    if (m->contains(p->ip) || m->contains(p->cp)) return true;
    for (const Term* s = p->stop; s < p->hend; ++s) {
        Term w = *s;
        if ((w & TAG_PRIMARY_MASK) == TAG_PRIMARY_HEADER && m->contains(reinterpret_cast<const Word*>(w))) return true;
        if (is_catch(w) && m->contains(catch_handler(w))) return true;
    }
    return false;
}

// erlang:check_process_code(Pid, Module[, Options]): whether Pid runs old code of Module. The
// question is answered on Pid's own thread, as process_info is.
Term bif_check_process_code2(Process* p, Term* a) {
    if (!is_pid(a[0]) || !is_atom(a[1])) return p->badarg();
    if (!p->vm.find_old_module(a[1])) return atoms::false_;
    BEAMLET_CACHED_ATOM(am_check_process_code, "$check_process_code");
    Term what = make_tuple_on(p, {am_check_process_code, a[1]});
    if (a[0] == p->id) return make_bool(executes_code_of(p, p->vm.find_old_module(a[1])));
    return request_process_info(p, a, a[0], what, atoms::false_);
}

Term bif_check_process_code3(Process* p, Term* a) {
    if (!is_list(a[2]) && !is_nil(a[2])) return p->badarg();
    return bif_check_process_code2(p, a);
}

// erlang:loaded(): the modules with current code.
Term bif_loaded(Process* p, Term*) {
    Term l = NIL;
    for (Module* m : p->vm.loaded_modules()) l = make_cons_on(p->alloc(2), m->name, l);
    return l;
}

// erlang:pre_loaded(): the modules that are part of the VM itself (no .beam file).
Term bif_pre_loaded(Process* p, Term*) {
    Term l = NIL;
    for (const char* name : {"erlang", "erts_internal", "init", "prim_file", "erl_prim_loader"})
        l = make_cons_on(p->alloc(2), atom(name), l);
    return l;
}

// beamlet:code_path(): the directories searched for modules.
Term bif_beamlet_code_path(Process* p, Term*) {
    std::vector<std::string> dirs = p->vm.code_path();
    Term l = NIL;
    for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) l = make_cons_on(p->alloc(2), bytes_to_list(p, *it), l);
    return l;
}

// beamlet:set_code_path(Dirs)
Term bif_beamlet_set_code_path(Process* p, Term* a) {
    std::vector<std::string> dirs;
    Term l = a[0];
    for (; is_list(l); l = cdr(l)) {
        std::string d;
        if (!string_arg(car(l), &d)) return p->badarg();
        dirs.push_back(d);
    }
    if (!is_nil(l)) return p->badarg();
    p->vm.set_code_path(std::move(dirs));
    return atoms::true_;
}

// beamlet:module_file(Module): where the current code of Module came from ("" if from a
// binary), or false when it is not loaded.
Term bif_beamlet_module_file(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    Module* m = p->vm.find_module(a[0]);
    if (!m) return atoms::false_;
    return bytes_to_list(p, m->source_path);
}

// beamlet:read_file(Filename): {ok, Binary} or {error, enoent}: the code module reads .beam
// files with it (file:read_file/1 needs the file server, which code loading must not).
Term bif_beamlet_read_file(Process* p, Term* a) {
    std::string path;
    if (!string_arg(a[0], &path)) return p->badarg();
    std::ifstream in(path, std::ios::binary);
    if (!in) return error_tuple(p, atom("enoent"));
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return make_tuple_on(p, {atoms::ok, make_binary(p, bytes)});
}

// beamlet:is_dir(Filename)
Term bif_beamlet_is_dir(Process* p, Term* a) {
    std::string path;
    if (!string_arg(a[0], &path)) return p->badarg();
    std::error_code ec;
    return make_bool(std::filesystem::is_directory(path, ec));
}

}  // namespace beamlet::bif
