// tracing/staged_change.cpp — the staged change's step machine.
//
// Each step runs in a continuation of the calling BIF: the process traps until thread progress
// has passed a point after the previous step (vm::Vm::trap_until_thread_progress), holding the
// code modification permission throughout, so only one change is ever in flight.
#include "tracing/staged_change.hpp"

#include "vm/assert.hpp"
#include "vm/code_permission.hpp"
#include "vm/vm.hpp"

namespace beamlet::tracing {

using namespace vm;

namespace {

void run_step(BreakpointChange& change, ChangeStep step) {
    switch (step) {
    case ChangeStep::Install: install(change); break;
    case ChangeStep::Commit: commit(); break;
    case ChangeStep::Uninstall: uninstall(change); break;
    case ChangeStep::Consolidate: consolidate(change); break;
    case ChangeStep::Free: free_unlinked(change); break;
    }
}

// Runs [step] and traps for the next one; after the last, runs [then] if there is one, else
// releases the permission and returns [result] as the BIF's value.
Term continue_at(Process* p, std::shared_ptr<BreakpointChange> change, ChangeStep step, Term result,
                 AfterChange then) {
    BEAMLET_ASSERT(p->vm.code_permission->held_by(p));
    run_step(*change, step);
    if (step == ChangeStep::Free) {
        if (then) return then(p);
        p->vm.code_permission->release(p);
        return result;
    }
    auto next = ChangeStep(int(step) + 1);
    return p->vm.trap_until_thread_progress(p, [change, next, result, then](Process* q, Term*) {
        return continue_at(q, change, next, result, then);
    });
}

}  // namespace

Term run_staged_change(Process* p, std::shared_ptr<BreakpointChange> change, PrepareChange prepare) {
    change->engine = p->vm.services.code_engine;
    return p->vm.trap_until_permission(p, [change, prepare](Process* q, Term*) {
        BEAMLET_ASSERT(q->vm.code_permission->held_by(q));
        Term result = prepare(q, *change);
        if (result == THE_NON_VALUE || !stage(*change)) {
            q->vm.code_permission->release(q);
            return result;
        }
        // Wait #1: every thread sees the new GenericBps before an instruction leads to them.
        return q->vm.trap_until_thread_progress(q, [change, result](Process* r, Term*) {
            return continue_at(r, change, ChangeStep::Install, result, nullptr);
        });
    });
}

Term run_held_staged_change(Process* p, std::shared_ptr<BreakpointChange> change, AfterChange then) {
    BEAMLET_ASSERT(p->vm.code_permission->held_by(p));
    change->engine = p->vm.services.code_engine;
    if (!stage(*change)) return then(p);
    return p->vm.trap_until_thread_progress(p, [change, then](Process* q, Term*) {
        return continue_at(q, change, ChangeStep::Install, NIL, then);
    });
}

}  // namespace beamlet::tracing
