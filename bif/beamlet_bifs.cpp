// bif/beamlet_bifs.cpp — beamlet:* BIFs: VM internals exposed for tests (thread progress,
// the code modification permission, scheduler identity).
#include "bif/bifs.hpp"
#include "vm/atom_table.hpp"
#include "vm/code_permission.hpp"
#include "vm/copy.hpp"
#include "vm/binary.hpp"
#include "vm/entry_code.hpp"
#include "vm/interpreter.hpp"
#include "vm/scheduler.hpp"
#include "vm/seq_trace.hpp"
#include "io/io_layer.hpp"

#include <algorithm>

namespace beamlet::bif {

using namespace vm;

namespace {
// Waits for thread progress [left] more times, suspending the process each time.
Term progress_wait_step(Process* p, SWord left, SWord total) {
    if (left == 0) return make_small(total);
    return p->vm.trap_until_thread_progress(
        p, [left, total](Process* q, Term*) { return progress_wait_step(q, left - 1, total); });
}
}  // namespace

// beamlet:thread_progress_wait(N): suspends the caller until thread progress has passed a
// later point, N times in a row; other processes keep running meanwhile. Returns N.
Term bif_beamlet_thread_progress_wait(Process* p, Term* a) {
    if (!is_small(a[0]) || small_value(a[0]) < 0) return p->badarg();
    return progress_wait_step(p, small_value(a[0]), small_value(a[0]));
}

// beamlet:seize_code_permission(): returns true once the caller holds the permission
// (suspended meanwhile if another process holds it); badarg if it already holds it.
Term bif_beamlet_seize_code_permission(Process* p, Term*) {
    if (p->vm.code_permission->held_by(p)) return p->badarg();
    return p->vm.trap_until_permission(p, [](Process*, Term*) { return atoms::true_; });
}

// beamlet:release_code_permission(): releases it; badarg unless the caller holds it.
Term bif_beamlet_release_code_permission(Process* p, Term*) {
    if (!p->vm.code_permission->held_by(p)) return p->badarg();
    p->vm.code_permission->release(p);
    return atoms::true_;
}

// beamlet:start_main(Module, Args): the process running Module:main(Args) when the module
// exports main/1 (Args: the program's arguments, strings, as escript passes them) and Args
// is not empty or there is no main/0, else Module:main(); in the caller's group, its exit ends the run (tools/boot.cpp reports how
// it ended). beamlet_run has had the code server load Module; if it could not (its on_load
// function failed), main raises undef at once rather than have the code server try again.
Term bif_beamlet_start_main(Process* p, Term* a) {
    Vm& vm = p->vm;
    if (!is_atom(a[0]) || !(is_list(a[1]) || is_nil(a[1])) || vm.main_process) return p->badarg();
    bool loaded = vm.find_module(a[0]) != nullptr;
    auto exported = [&](Word arity) {
        Export* e = loaded ? vm.exports.find(a[0], atoms::main, arity) : nullptr;
        return e && e->address() != e->trampoline ? e : nullptr;
    };
    // main/1 when there are arguments or no main/0 (a module with both, run without
    // arguments, runs main() as before main/1 was beamlet run's).
    Export* main1 = exported(1);
    bool with_args = main1 && (is_list(a[1]) || !exported(0));
    Export* entry = with_args ? main1
                    : loaded  ? vm.exports.get(a[0], atoms::main, 0)
                              : vm.exports.get(atoms::erlang, atoms::error, 2);
    auto main = std::make_shared<Process>(vm, vm.take_pid_number());
    main->is_main = true;
    // As erl's -eval/-s/-run process (init starts it trapping exits): a linked process or
    // port that exits reaches main:main() as an {'EXIT', From, Reason} message.
    main->trap_exit = true;
    main->initial_call[0] = a[0];
    main->initial_call[1] = atoms::main;
    main->initial_call[2] = make_small(with_args ? 1 : 0);
    main->group_leader.store(p->group_leader.load());
    if (with_args) {
        Term* hp = main->alloc(std::max<Word>(term_size_words(a[1]), 1));
        prepare_call(main.get(), entry, {copy_term(a[1], &hp, &main->off_heap_first)});
    } else if (loaded) prepare_call(main.get(), entry, {});
    else prepare_call(main.get(), entry, {atoms::undef, NIL});
    vm.main_process = main;
    seq_trace_inherit(p, main.get());  // beamlet trace -e seq_trace gives it a token
    vm.add_process(main);
    if (p->vm.services.trace) {
        // Spawned by init as far as tracing goes: new-process flags apply to it (beamlet trace).
        Term mfa[4] = {make_arityval(3), a[0], atoms::main, NIL};
        p->vm.services.trace->process_spawned(p, main.get(), make_boxed(mfa), false);
    }
    vm.schedulers->set_main(main.get());
    vm.schedulers->enqueue(main.get());
    return main->id;
}

// beamlet:cli_trace_spec(): undefined, unless `beamlet trace` or `beamlet profile` runs the
// program (tools/cli_trace.cpp registers its own then).
Term bif_beamlet_cli_trace_spec(Process*, Term*) { return atoms::undefined; }

Term bif_beamlet_schedulers(Process* p, Term*) { return make_small(p->vm.schedulers->count()); }
Term bif_beamlet_scheduler_id(Process*, Term*) { return make_small(Schedulers::current_index() + 1); }

}  // namespace beamlet::bif
