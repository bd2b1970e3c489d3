// tracing/code_change.cpp — clearing the breakpoints of code that is being replaced.
#include "tracing/code_change.hpp"

#include "tracing/sessions.hpp"
#include "vm/vm.hpp"

namespace beamlet::tracing {

using namespace vm;

namespace {

// One staged change per session that traces something in the module, one after the other.
Term clear_next(Process* p, std::shared_ptr<std::vector<std::shared_ptr<BreakpointChange>>> changes, std::size_t i,
                AfterChange then) {
    if (i == changes->size()) return then(p);
    return run_held_staged_change(p, (*changes)[i], [changes, i, then](Process* q) {
        return clear_next(q, changes, i + 1, then);
    });
}

}  // namespace

Term clear_module_tracing(Process* p, Term module, AfterChange then) {
    Module* m = p->vm.find_module(module);
    std::vector<const CodeInfo*> functions;
    if (m)
        for (const FunctionInfo& f : m->functions)
            if (m->code_info(f)->gen_bp.load(std::memory_order_acquire)) functions.push_back(m->code_info(f));
    std::vector<Export*> exports;
    for (Export* e : p->vm.exports.of_module(module))
        if (e->gen_bp.load(std::memory_order_acquire)) exports.push_back(e);
    if (functions.empty() && exports.empty()) return then(p);
    auto changes = std::make_shared<std::vector<std::shared_ptr<BreakpointChange>>>();
    for (TraceSession* session : live_sessions()) {
        bool traces = false;
        for (const CodeInfo* ci : functions) traces = traces || find_bp(ci->gen_bp, session);
        for (Export* e : exports) traces = traces || find_bp(e->gen_bp, session);
        if (!traces) continue;
        auto c = std::make_shared<BreakpointChange>();
        c->session = session;
        c->clear_all = true;
        c->code_change = true;
        c->functions = functions;
        c->exports = exports;
        changes->push_back(c);
    }
    return clear_next(p, changes, 0, then);
}

}  // namespace beamlet::tracing
