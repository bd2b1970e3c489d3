// bif/code_bifs.cpp — code loading: erlang:load_module/2, delete_module/1, check_old_code/1,
// loaded/0, pre_loaded/0, OTP's two-phase loading (prepare_loading/2, finish_loading/1) under
// OTP's code server, and the natives under OTP's erts_code_purger (erts_internal:purge_module/2,
// check_process_code/1; erlang:purge_module/1 and check_process_code/2,3 are OTP's Erlang).
//
// A load parses and threads (and JIT-compiles) the new code in the calling process, then
// takes the code modification permission to publish it: the process traps while it waits, and
// other processes keep running throughout (DESIGN.md §3).
#include <algorithm>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "bif/bifs.hpp"
#include "bif/process_bifs.hpp"
#include "nif/nif.hpp"
#include "tracing/code_change.hpp"
#include "vm/binary.hpp"
#include "vm/code_permission.hpp"
#include "vm/copy.hpp"
#include "vm/interpreter.hpp"
#include "vm/magic.hpp"
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

}  // namespace

// erts_internal:beamfile_chunk(Bin, Id): the data of chunk Id ("Meta", "Code", ...) of a
// .beam, or undefined when it has none or Bin is no .beam at all (erl_features asks it for
// the "Meta" chunk before OTP's erlang:load_module/2 loads); badarg unless Id has 4 characters.
Term bif_erts_internal_beamfile_chunk(Process* p, Term* a) {
    std::string id;
    if (!is_binary(a[0]) || !list_to_bytes(a[1], &id) || id.size() != 4) return p->badarg();
    std::string bytes = binary_bytes(a[0]);
    auto u32 = [&](std::size_t at) {
        auto b = [&](std::size_t k) { return std::uint32_t(std::uint8_t(bytes[at + k])); };
        return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
    };
    if (bytes.size() < 12 || bytes.compare(0, 4, "FOR1") != 0 || bytes.compare(8, 4, "BEAM") != 0)
        return atoms::undefined;
    std::size_t end = std::min<std::size_t>(bytes.size(), std::size_t(u32(4)) + 8);
    for (std::size_t at = 12; at + 8 <= end;) {
        std::size_t size = u32(at + 4);
        if (size > end - at - 8) break;
        if (bytes.compare(at, 4, id) == 0) return make_binary(p, std::string_view(bytes).substr(at + 8, size));
        at += 8 + ((size + 3) & ~std::size_t(3));
    }
    return atoms::undefined;
}

// erts_internal:beamfile_module_md5(Bin): the MD5 the loader gives the module in Bin (its
// module_info(md5)), computed by parsing it as a load would, without loading; undefined when
// Bin is no valid .beam (code:module_md5/1); badarg unless Bin is a binary.
Term bif_erts_internal_beamfile_module_md5(Process* p, Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    std::string bytes = binary_bytes(a[0]);
    auto parsed = p->vm.module_parser(
        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), "");
    if (!parsed) return atoms::undefined;
    return make_binary(p, parsed.value().md5, sizeof parsed.value().md5);
}

// ---- OTP's two-phase loading (init, code_server, erlang:load_module/2): prepare anywhere,
// finish holding the permission ----

namespace {

// A module parsed and prepared by erts_internal:prepare_loading/2, not yet published: the
// magic reference's object until erlang:finish_loading/1 takes the code.
struct PreparedCode {
    Term name;
    bool on_load;
    std::mutex mutex;
    std::unique_ptr<Module> module;  // null once finished
};

void destroy_prepared(MagicHandle* h) { delete static_cast<PreparedCode*>(h->data); }

PreparedCode* prepared_of(Term t) {
    if (!is_magic_ref(t)) return nullptr;
    MagicHandle* h = magic_handle(t);
    return h->destructor == destroy_prepared ? static_cast<PreparedCode*>(h->data) : nullptr;
}

using PreparedList = std::vector<std::pair<Term, std::unique_ptr<Module>>>;

// OTP's code server gives prepare_loading the code, not the file: a module whose .beam of the
// same size is in a library directory on the code path (OTP's or beamlet's own) is that file,
// so that it stays with the interpreter under the JIT as library modules do (Vm::interpreted_dirs).
std::string library_file_of(const Vm& vm, Term name, std::size_t size) {
    for (const std::string& dir : vm.code_path()) {
        bool library = std::any_of(vm.interpreted_dirs.begin(), vm.interpreted_dirs.end(),
                                   [&](const std::string& prefix) { return dir.starts_with(prefix); });
        if (!library) continue;
        std::error_code ec;
        std::filesystem::path file = std::filesystem::path(dir) / (atom_text(name) + ".beam");
        if (std::filesystem::file_size(file, ec) == size && !ec) return file.string();
    }
    return {};
}

// Publishes modules [i..] of [list] (the caller holds the permission), each after the trace
// patterns on the code it replaces are cleared; then releases the permission. The result is ok,
// or {on_load, Modules} naming those whose on_load function must run before their exports
// appear (erlang:call_on_load_function/1).
Term publish_prepared(Process* q, std::shared_ptr<PreparedList> list, std::size_t i) {
    if (i == list->size()) {
        q->vm.code_permission->release(q);
        Term on_load = NIL;
        for (auto it = list->rbegin(); it != list->rend(); ++it)
            if (q->vm.find_module(it->first) && q->vm.find_module(it->first)->on_load_function)
                on_load = make_cons_on(q->alloc(2), it->first, on_load);
        return is_nil(on_load) ? atoms::ok : make_tuple_on(q, {atom("on_load"), on_load});
    }
    Term name = (*list)[i].first;
    return tracing::clear_module_tracing(q, name, [list, i](Process* r) -> Term {
        r->vm.publish_module(std::move((*list)[i].second));
        return publish_prepared(r, list, i + 1);
    });
}

}  // namespace

// erts_internal:prepare_loading(Module, Binary): the code parsed and prepared (threaded, and
// compiled when the JIT takes the module) in the caller, as a magic reference; {error, badfile}
// when it is not a module called Module.
Term bif_erts_internal_prepare_loading(Process* p, Term* a) {
    if (!is_atom(a[0]) || !is_binary(a[1])) return p->badarg();
    Vm& vm = p->vm;
    if (!vm.module_parser) return error_tuple(p, atom("badfile"));
    std::string bytes = binary_bytes(a[1]);
    CallAccountingPause pause(p);  // parsing and compiling are not the caller's work
    auto code = vm.module_parser({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}, "");
    // Why a module is refused goes to the logger, as erts reports it.
    auto refused = [&](std::string_view why) {
        if (why.starts_with(": ")) why.remove_prefix(2);  // (the parser's message for no path)
        Term args = make_cons_on(p->alloc(2), bytes_to_list(p, why, NIL), NIL);
        vm.log_error(p, "Error loading module ~w:~n  ~s~n", make_cons_on(p->alloc(2), a[0], args));
        return error_tuple(p, atom("badfile"));
    };
    if (!code) return refused(code.error());
    if (code->name != a[0]) return refused("module name in object code is " + atom_text(code->name));
    code->source_path = library_file_of(vm, a[0], bytes.size());
    auto module = vm.prepare_module(*code);
    if (!module) return refused(module.error());
    auto* prepared = new PreparedCode{a[0], (*module)->on_load_function != 0, {}, std::move(*module)};
    return new_magic_ref(p, prepared, destroy_prepared);
}

// erlang:has_prepared_code_on_load(Prepared)
Term bif_has_prepared_code_on_load(Process* p, Term* a) {
    PreparedCode* prepared = prepared_of(a[0]);
    if (!prepared) return p->badarg();
    std::lock_guard guard(prepared->mutex);
    if (!prepared->module) return p->badarg();
    return make_bool(prepared->on_load);
}

// erlang:finish_loading([Prepared]): publishes the prepared modules together, holding the code
// modification permission: ok, {on_load, Modules} (loaded; their on_load functions must run),
// or {not_purged, Modules} (old code still there: nothing is loaded); badarg for anything but
// a list of unfinished prepared code, or one module twice.
Term bif_finish_loading(Process* p, Term* a) {
    std::vector<MagicHandle*> items;
    Term l = a[0];
    for (; is_list(l); l = cdr(l)) {
        PreparedCode* prepared = prepared_of(car(l));
        if (!prepared) return p->badarg();
        for (MagicHandle* other : items) {
            auto* o = static_cast<PreparedCode*>(other->data);
            if (o == prepared || o->name == prepared->name) return p->badarg();
        }
        items.push_back(magic_handle(car(l)));
    }
    if (!is_nil(l)) return p->badarg();
    for (MagicHandle* h : items) {
        auto* prepared = static_cast<PreparedCode*>(h->data);
        std::lock_guard guard(prepared->mutex);
        if (!prepared->module) return p->badarg();
    }
    // The prepared code is held here while the caller waits for the permission: its list and
    // magic references may be collected meanwhile.
    std::shared_ptr<std::vector<MagicHandle*>> held(new std::vector<MagicHandle*>(std::move(items)),
                                                    [](std::vector<MagicHandle*>* v) {
                                                        for (MagicHandle* h : *v) h->release();
                                                        delete v;
                                                    });
    for (MagicHandle* h : *held) h->add_ref();
    return p->vm.trap_until_permission(p, [held](Process* q, Term*) -> Term {
        Vm& vm = q->vm;
        Term not_purged = NIL;
        for (auto it = held->rbegin(); it != held->rend(); ++it) {
            Term name = static_cast<PreparedCode*>((*it)->data)->name;
            if (vm.find_old_module(name) && vm.find_module(name)) not_purged = make_cons_on(q->alloc(2), name, not_purged);
        }
        if (!is_nil(not_purged)) {
            vm.code_permission->release(q);
            return make_tuple_on(q, {atom("not_purged"), not_purged});
        }
        auto modules = std::make_shared<PreparedList>();
        for (MagicHandle* h : *held) {
            auto* prepared = static_cast<PreparedCode*>(h->data);
            std::lock_guard guard(prepared->mutex);
            if (!prepared->module) continue;  // finished by another process meanwhile
            modules->emplace_back(prepared->name, std::move(prepared->module));
        }
        return publish_prepared(q, modules, 0);
    });
}

// erts_internal:purge_module(Module, Op), the steps of OTP's erts_code_purger: prepare (and
// prepare_on_load) answer whether there is old code to purge; complete purges it; abort keeps it.
Term bif_erts_internal_purge_module(Process* p, Term* a) {
    static const Term am_prepare = atom("prepare"), am_prepare_on_load = atom("prepare_on_load"),
                      am_complete = atom("complete"), am_abort = atom("abort");
    Term name = a[0], op = a[1];
    if (!is_atom(name)) return p->badarg();
    if (op == am_prepare || op == am_prepare_on_load) return make_bool(p->vm.prepare_purge(name));
    if (op == am_abort) {  // a soft purge that failed
        p->vm.abort_purge(name);
        return atoms::false_;
    }
    if (op != am_complete) return p->badarg();
    return p->vm.trap_until_permission(p, [name](Process* q, Term*) -> Term {
        bool purged = q->vm.purge_module(name);
        if (purged) nif::module_purged(q->vm, name);
        q->vm.code_permission->release(q);
        return make_bool(purged);
    });
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

Term bif_check_old_code(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return make_bool(p->vm.find_old_module(a[0]) != nullptr);
}

// erts_internal:check_process_code(Module): whether the caller runs old code of Module (OTP's
// erlang:check_process_code/2,3 ask another process with a check_process_code system task,
// Vm::run_system_task).
Term bif_erts_internal_check_process_code(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return make_bool(runs_code_of(p, p->vm.find_old_module(a[0])));
}

// erts_literal_area_collector:release_area_switch(): the literal area being released is done
// with; true if another one is now to be released, once thread progress has passed (no
// message sharing its literals is still being made then).
Term bif_release_area_switch(Process* p, Term*) {
    if (!p->vm.switch_literal_area()) return atoms::false_;
    return p->vm.trap_until_thread_progress(p, [](Process*, Term*) -> Term { return atoms::true_; });
}

// erts_literal_area_collector:send_copy_request(Pid, AreaId, How): Pid copies what it holds of
// the area being released, then answers {copy_literals, {AreaId, How, Pid}, ok} (a dead
// process too).
Term bif_send_copy_request(Process* p, Term* a) {
    if (!is_pid(a[0])) return p->badarg();
    BEAMLET_CACHED_ATOM(am_copy_literals, "copy_literals");
    Term id = make_tuple_on(p, {a[1], a[2], a[0]});
    Term request[3] = {a[0], atom("inherit"), make_tuple_on(p, {am_copy_literals, id, atoms::true_})};
    return bif_erts_internal_request_system_task(p, request);
}

// erlang:loaded(): the modules with current code.
Term bif_loaded(Process* p, Term*) {
    Term l = NIL;
    for (Module* m : p->vm.loaded_modules()) l = make_cons_on(p->alloc(2), m->name, l);
    return l;
}

// erlang:pre_loaded(): OTP's preloaded modules, loaded before the first process (as erl has
// them built in).
Term bif_pre_loaded(Process* p, Term*) {
    Term l = NIL;
    for (Term name : p->vm.preloaded) l = make_cons_on(p->alloc(2), name, l);
    return l;
}

}  // namespace beamlet::bif
