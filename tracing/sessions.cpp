// tracing/sessions.cpp — the legacy session and the trace module's sessions.
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

namespace {
std::mutex g_sessions_mutex;
// Sessions live as long as the program (never destroyed, so static destruction order at exit
// cannot leave a dangling list).
std::vector<vm::TraceSession*>& g_sessions = *new std::vector<vm::TraceSession*>();
vm::Word g_next_id = 1;
std::atomic<int> g_live_sessions{0};
}  // namespace

vm::TraceSession* create_session(vm::Term name, vm::Tracer tracer) {
    auto* s = new vm::TraceSession();
    s->name = name;
    s->tracer = tracer;
    std::lock_guard lock(g_sessions_mutex);
    s->id = g_next_id++;
    s->weak_id = s->id - 1;
    g_sessions.push_back(s);
    g_live_sessions.fetch_add(1, std::memory_order_relaxed);
    return s;
}

vm::TraceSession* find_session(vm::Term name, vm::Word weak_id) {
    std::lock_guard lock(g_sessions_mutex);
    for (vm::TraceSession* s : g_sessions)
        if (s->weak_id == weak_id && s->name == name && s->alive.load()) return s;
    return nullptr;
}

std::vector<vm::TraceSession*> live_sessions() {
    std::vector<vm::TraceSession*> out{&legacy_session()};
    std::lock_guard lock(g_sessions_mutex);
    for (vm::TraceSession* s : g_sessions)
        if (s->alive.load()) out.push_back(s);
    return out;
}

namespace {
std::atomic<int> g_new_procs_sessions{0};
}

void set_new_procs_flags(vm::TraceSession* session, std::uint32_t flags, vm::Tracer tracer, bool on) {
    std::lock_guard guard(session->mutex);
    bool had = session->new_procs_flags != 0;
    if (on) {
        session->new_procs_flags |= flags;
        session->new_procs_tracer = tracer;
    } else {
        session->new_procs_flags &= ~flags;
    }
    if (!session->new_procs_flags) session->new_procs_tracer = vm::Tracer();
    bool has = session->new_procs_flags != 0;
    if (has != had) g_new_procs_sessions.fetch_add(has ? 1 : -1, std::memory_order_acq_rel);
}

int new_procs_sessions() { return g_new_procs_sessions.load(std::memory_order_acquire); }

namespace {
std::atomic<int> g_new_ports_sessions{0};
}

void set_new_ports_flags(vm::TraceSession* session, std::uint32_t flags, vm::Tracer tracer, bool on) {
    std::lock_guard guard(session->mutex);
    bool had = session->new_ports_flags != 0;
    if (on) {
        session->new_ports_flags |= flags;
        session->new_ports_tracer = tracer;
    } else {
        session->new_ports_flags &= ~flags;
    }
    if (!session->new_ports_flags) session->new_ports_tracer = vm::Tracer();
    bool has = session->new_ports_flags != 0;
    if (has != had) g_new_ports_sessions.fetch_add(has ? 1 : -1, std::memory_order_acq_rel);
}

int new_ports_sessions() { return g_new_ports_sessions.load(std::memory_order_acquire); }

void retire_session(vm::TraceSession* session) {
    set_new_procs_flags(session, ~0u, vm::Tracer(), false);
    set_new_ports_flags(session, ~0u, vm::Tracer(), false);
    if (session->alive.exchange(false)) g_live_sessions.fetch_sub(1, std::memory_order_relaxed);
}

bool sessions_in_use() { return g_live_sessions.load(std::memory_order_relaxed) > 0; }

}  // namespace beamlet::tracing
