// tracing/hooks.hpp — TracingHooks: tracing's implementation of vm::TraceHooks, the one object
// tools/boot.cpp installs. It only dispatches: breakpoints and trace frames to call_trace,
// events to events, inheritance to process_flags, on_load patterns to breakpoints.
#pragma once

#include <mutex>
#include <unordered_map>
#include <vector>

#include "vm/trace_hooks.hpp"
#include "vm/vm.hpp"

namespace beamlet::tracing {

class TracingHooks : public vm::TraceHooks {
public:
    explicit TracingHooks(vm::Vm& vm) : m_vm(vm) {}

    vm::Word function_breakpoint(vm::Process* p, const vm::CodeInfo* ci, vm::Term* x) override;
    const vm::Word* export_breakpoint(vm::Process* p, vm::Export* e, vm::Term* x) override;
    const vm::Word* trace_frame_returned(vm::Process* p, vm::Term value) override;
    void exception_unwinding(vm::Process* p, vm::Term* from, vm::Term* to, const vm::Word* catch_at) override;
    void schedule_break(vm::Process* p, bool out) override;
    void module_loading(vm::Module& module) override;
    void replace_entry_word(const vm::CodeInfo* ci, vm::Word word) override;
    void native_entry_adopted(const vm::CodeInfo* ci) override;

    void process_spawned(vm::Process* parent, vm::Process* child, vm::Term mfa, bool linked) override;
    void process_linked(vm::Process* linker, vm::Process* linked) override;
    void process_unlinked(vm::Process* unlinker, vm::Term other_pid) override;
    void process_event(vm::Process* p, vm::Term what, vm::Term arg) override;
    void message_sent(vm::Process* sender, vm::Term to, vm::Term msg, bool exists) override;
    void message_queued(vm::Process* p, const vm::Message& m) override;
    void receive_timeout(vm::Process* p) override;
    void scheduled(vm::Process* p, vm::SchedEvent event) override;
    void drop_dead_tracers(vm::Process* p) override;
    void garbage_collection(vm::Process* p, bool end, bool major, vm::Word words) override;
    void port_opened(vm::Port* port, vm::Term opener, vm::Term driver) override;
    void port_event(vm::Port* port, vm::Term what, vm::Term arg) override;
    void port_scheduled(vm::Port* port, vm::Term what, vm::Term command) override;
    void port_sent(vm::Port* port, vm::Term to, vm::Term msg, bool exists) override;
    void port_received(vm::Port* port, vm::Term from, vm::Term msg) override;
    void seq_trace_event(vm::Term tracer, vm::Term token, vm::Term kind, vm::Term from, vm::Term to,
                         vm::Term msg) override;

private:
    vm::Vm& m_vm;
    // What link/1 passed on (set_on_link), by the linked process's pid, given again when that
    // process handles the link signal: erts applies inherited flags there, so a change made to
    // the linked process's flags in between is undone (OTP 27, trace_session_SUITE).
    std::mutex m_links_lock;
    std::unordered_map<vm::Term, std::vector<vm::TracerRef>> m_pending_links;
};

}  // namespace beamlet::tracing
