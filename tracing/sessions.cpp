// tracing/sessions.cpp — the legacy session.
#include "tracing/sessions.hpp"

#include "vm/atom_table.hpp"

namespace beamlet::tracing {

vm::TraceSession& legacy_session() {
    static vm::TraceSession* session = [] {
        auto* s = new vm::TraceSession();
        s->id = 0;
        s->name = vm::atom("legacy");
        return s;
    }();
    return *session;
}

}  // namespace beamlet::tracing
