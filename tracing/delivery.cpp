// tracing/delivery.cpp — building trace messages in heap fragments and enqueueing them.
#include "tracing/delivery.hpp"

#include <time.h>

#include <atomic>
#include <chrono>

#include "tracing/native_tracers.hpp"
#include "tracing/process_flags.hpp"
#include "tracing/sessions.hpp"
#include "tracing/tracer_module.hpp"
#include "vm/atom_table.hpp"
#include "vm/copy.hpp"
#include "vm/heap.hpp"
#include "vm/mailbox.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/process.hpp"
#include "vm/scheduler.hpp"
#include "vm/seq_trace.hpp"
#include "vm/vm.hpp"

namespace beamlet::tracing {

using namespace vm;

namespace {

std::atomic<bool> g_cpu_timestamp{false};

// A timestamp, read when the message is built (as OTP's erl_tracer does).
struct Timestamp {
    enum class Kind : std::uint8_t { None, Now, Monotonic, Strict } kind = Kind::None;
    SWord a = 0, b = 0, c = 0;

    // Words it needs in the fragment.
    Word words() const { return kind == Kind::Now ? 4 : kind == Kind::Strict ? 3 : 0; }
    Term write(Term* hp) const {
        switch (kind) {
        case Kind::Now:
            hp[0] = make_arityval(3);
            hp[1] = make_small(a);
            hp[2] = make_small(b);
            hp[3] = make_small(c);
            return make_boxed(hp);
        case Kind::Strict:
            hp[0] = make_arityval(2);
            hp[1] = make_small(a);
            hp[2] = make_small(b);
            return make_boxed(hp);
        case Kind::Monotonic:
            return make_small(a);
        case Kind::None:
            break;
        }
        return 0;
    }
};

std::int64_t monotonic_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The lowest timestamp bit wins: timestamp, then strict_monotonic, then monotonic (OTP keeps
// them in that bit order).
Timestamp read_timestamp(Vm& vm, std::uint32_t flags) {
    Timestamp ts;
    if (flags & TRACE_TS_NOW) {
        std::int64_t us;
        if (g_cpu_timestamp.load(std::memory_order_relaxed)) {
            struct timespec t{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            us = std::int64_t(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
        } else {
            us = vm.unique_now_us();  // strictly increasing, as erlang:now/0
        }
        ts.kind = Timestamp::Kind::Now;
        ts.a = us / 1000000000000;
        ts.b = (us / 1000000) % 1000000;
        ts.c = us % 1000000;
    } else if (flags & TRACE_TS_STRICT) {
        ts.kind = Timestamp::Kind::Strict;
        ts.a = monotonic_ns();
        ts.b = vm.next_unique.fetch_add(1, std::memory_order_relaxed) - 576460752303423489LL;
    } else if (flags & TRACE_TS_MONO) {
        ts.kind = Timestamp::Kind::Monotonic;
        ts.a = monotonic_ns();
    }
    return ts;
}

}  // namespace

void set_cpu_timestamp(bool on) { g_cpu_timestamp.store(on, std::memory_order_relaxed); }
bool cpu_timestamp() { return g_cpu_timestamp.load(std::memory_order_relaxed); }

// A tracer module's enabled/3, then trace/5 with the event's fourth element as the trace term,
// its fifth as extra and the match spec's message as match_spec_result.
DeliveryResult deliver_to_module(Vm& vm, const TracerModule* t, std::uint32_t flags, const TraceEvent& event) {
    TracerKind kind = tracer_kind_of(event.tag);
    if (!event.enabled_checked) {
        switch (tracer_enabled(vm, t, kind, event.tag, event.tracee)) {
        case TracerVerdict::Trace: break;
        case TracerVerdict::Discard: return DeliveryResult::Discarded;
        case TracerVerdict::Remove: return DeliveryResult::TracerGone;
        }
    }
    TracerOpts opts;
    opts.extra = event.data[1];
    opts.match_spec_result = event.extra;
    opts.flags = flags;
    Term term = event.data[0] ? event.data[0] : NIL;
    return tracer_trace(vm, t, kind, event.tag, event.tracee, term, opts) ? DeliveryResult::Delivered
                                                                          : DeliveryResult::TracerGone;
}

namespace {

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Whether [session]'s limits let one more event go to [tracer]; counts it either way.
bool admit(Vm& vm, TraceSession& session, Tracer tracer) {
    const TraceLimits& limits = session.limits;
    OverloadState state = session.overload.load(std::memory_order_relaxed);
    if (state == OverloadState::Stopped) {
        session.dropped.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    bool over = false;
    if (limits.rate_max) {
        std::int64_t now = now_ms();
        std::int64_t start = session.window_start_ms.load(std::memory_order_relaxed);
        if (now - start >= std::int64_t(limits.rate_ms) &&
            session.window_start_ms.compare_exchange_strong(start, now, std::memory_order_relaxed))
            session.window_count.store(0, std::memory_order_relaxed);
        over = session.window_count.fetch_add(1, std::memory_order_relaxed) >= limits.rate_max;
    }
    if (!over && limits.max_queue && tracer.is_process()) {
        if (Process* to = vm.find_process(tracer.pid())) {
            std::uint32_t queued = to->message_count.load(std::memory_order_relaxed);
            // Paused by the queue: back once it is down to half the limit.
            std::uint32_t limit = state == OverloadState::Paused ? limits.max_queue / 2 : limits.max_queue;
            over = queued >= limit;
        }
    }
    if (over) {
        session.dropped.fetch_add(1, std::memory_order_relaxed);
        session.overload.store(limits.stop ? OverloadState::Stopped : OverloadState::Paused, std::memory_order_relaxed);
        return false;
    }
    if (state == OverloadState::Paused) session.overload.store(OverloadState::Running, std::memory_order_relaxed);
    session.delivered.fetch_add(1, std::memory_order_relaxed);
    return true;
}

}  // namespace

void set_trace_limits(TraceSession* session, const TraceLimits& limits) {
    std::lock_guard lock(session->mutex);
    session->limited.store(false, std::memory_order_release);
    session->limits = limits;
    session->delivered.store(0, std::memory_order_relaxed);
    session->dropped.store(0, std::memory_order_relaxed);
    session->window_count.store(0, std::memory_order_relaxed);
    session->window_start_ms.store(now_ms(), std::memory_order_relaxed);
    session->overload.store(OverloadState::Running, std::memory_order_relaxed);
    bool any = limits.rate_max || limits.max_queue;
    session->limited.store(any, std::memory_order_release);
}

namespace {
// A port tracer gets [msg] (built in [frag], freed here) in the external term format, as a
// command at its next turn: an event may come from anywhere, with locks held.
void post_to_port_tracer(Port& port, Term msg, HeapFragment* frag) {
    port.post_term(msg);
    free_fragment(frag);
}
}  // namespace

DeliveryResult deliver(Vm& vm, Tracer tracer, std::uint32_t flags, const TraceEvent& event, TraceSession* session) {
    if (session && session->limited.load(std::memory_order_acquire) && !tracer.is_none() &&
        !(tracer.is_process() && tracer.pid() == event.tracee) && !admit(vm, *session, tracer))
        return DeliveryResult::Discarded;
    if (tracer.is_module()) return deliver_to_module(vm, static_cast<const TracerModule*>(tracer.descriptor()), flags, event);
    // A session created without a tracer (undefined) traces into nothing.
    if (tracer.is_none() || tracer.word() == event.tracee) return DeliveryResult::Discarded;
    Process* to = nullptr;
    std::shared_ptr<Port> port;
    if (tracer.is_process()) to = vm.find_process(tracer.pid());
    else if (tracer.is_port()) port = vm.port_table->lookup(tracer.word());
    if (!to && !port) return DeliveryResult::TracerGone;

    Timestamp ts = read_timestamp(vm, flags);
    bool sched_id = flags & TRACE_SCHEDULER_ID;
    Word elements = 3;
    Word size = 0;
    for (Term d : event.data)
        if (d) {
            ++elements;
            size += term_size_words(d);
        }
    if (event.extra) {
        ++elements;
        size += term_size_words(event.extra);
    }
    if (sched_id) ++elements;
    if (ts.kind != Timestamp::Kind::None) ++elements;
    size += 1 + elements + ts.words();

    HeapFragment* frag = HeapFragment::create(size, true);
    Term* tuple = frag->data;
    Term* hp = tuple + 1 + elements;
    Word i = 0;
    tuple[i++] = make_arityval(elements);
    tuple[i++] = ts.kind == Timestamp::Kind::None ? atoms::trace : atoms::trace_ts;
    tuple[i++] = event.tracee;
    tuple[i++] = event.tag;
    for (Term d : event.data)
        if (d) tuple[i++] = copy_term(d, &hp, &frag->off_heap_first);
    if (event.extra) tuple[i++] = copy_term(event.extra, &hp, &frag->off_heap_first);
    if (sched_id) tuple[i++] = make_small(std::max(1, Schedulers::current_index() + 1));
    if (ts.kind != Timestamp::Kind::None) {
        tuple[i++] = ts.write(hp);
        hp += ts.words();
    }
    frag->used_words = Word(hp - frag->data);

    if (port) {
        post_to_port_tracer(*port, make_boxed(tuple), frag);
        return DeliveryResult::Delivered;
    }
    Message m{make_boxed(tuple), frag};
    m.from = event.tracee;
    // send_signal frees the fragment when the tracer has exited meanwhile.
    return vm.send_signal(to, m, true) ? DeliveryResult::Delivered : DeliveryResult::TracerGone;
}

bool deliver_seq_trace(Vm& vm, Term tracer, Term token, Term kind, Term from, Term to, Term msg) {
    if (Tracer t = Tracer::from_word(tracer); t.is_module()) {
        // trace(seq_trace, State, Label, {Kind, {LastCnt, Serial}, From, To, Msg}, Opts), the
        // label in the tracee's place (OTP's erl_tracer interface).
        static const Term am_seq_trace = atom("seq_trace");
        auto* tm = static_cast<const TracerModule*>(t.descriptor());
        Term label = seq_label(token);
        if (tracer_enabled(vm, tm, TracerKind::Default, am_seq_trace, label) != TracerVerdict::Trace) return true;
        Word seq = seq_flags(token);
        StackTuple<2> serial({make_small(SWord(seq_lastcnt(token))), make_small(SWord(seq_serial(token)))});
        StackTuple<5> info({kind, serial.term(), from, to, msg});
        TracerOpts opts;
        if (seq & SEQ_TIMESTAMP) opts.flags |= TRACE_TS_NOW;
        else if (seq & SEQ_STRICT_MONOTONIC) opts.flags |= TRACE_TS_STRICT;
        else if (seq & SEQ_MONOTONIC) opts.flags |= TRACE_TS_MONO;
        return tracer_trace(vm, tm, TracerKind::Default, am_seq_trace, label, info.term(), opts);
    }
    Process* dest = nullptr;
    std::shared_ptr<Port> port;
    if (is_port(tracer)) port = vm.port_table->lookup(tracer);
    else dest = vm.find_process(tracer);
    if (!dest && !port) return false;
    Word seq = seq_flags(token);
    std::uint32_t ts_flags = 0;
    if (seq & SEQ_TIMESTAMP) ts_flags |= TRACE_TS_NOW;
    if (seq & SEQ_STRICT_MONOTONIC) ts_flags |= TRACE_TS_STRICT;
    if (seq & SEQ_MONOTONIC) ts_flags |= TRACE_TS_MONO;
    Timestamp ts = read_timestamp(vm, ts_flags);
    Term label = seq_label(token);
    // {seq_trace, Label, {Kind, {LastCnt, Serial}, From, To, Msg}[, Ts]}
    Word size = (ts.kind == Timestamp::Kind::None ? 4 : 5) + 6 + 3 + ts.words() + term_size_words(label) +
                term_size_words(from) + term_size_words(to) + term_size_words(msg);
    HeapFragment* frag = HeapFragment::create(size, true);
    Term* hp = frag->data;
    Term* outer = hp;
    hp += ts.kind == Timestamp::Kind::None ? 4 : 5;
    Term* info = hp;
    hp += 6;
    Term* serial = hp;
    hp += 3;
    serial[0] = make_arityval(2);
    serial[1] = make_small(SWord(seq_lastcnt(token)));
    serial[2] = make_small(SWord(seq_serial(token)));
    info[0] = make_arityval(5);
    info[1] = kind;
    info[2] = make_boxed(serial);
    info[3] = copy_term(from, &hp, &frag->off_heap_first);
    info[4] = copy_term(to, &hp, &frag->off_heap_first);
    info[5] = copy_term(msg, &hp, &frag->off_heap_first);
    outer[0] = make_arityval(ts.kind == Timestamp::Kind::None ? 3 : 4);
    outer[1] = atom("seq_trace");
    outer[2] = copy_term(label, &hp, &frag->off_heap_first);
    outer[3] = make_boxed(info);
    if (ts.kind != Timestamp::Kind::None) {
        outer[4] = ts.write(hp);
        hp += ts.words();
    }
    frag->used_words = Word(hp - frag->data);
    if (port) {
        post_to_port_tracer(*port, make_boxed(outer), frag);
        return true;
    }
    Message m{make_boxed(outer), frag};
    m.from = from;
    return vm.send_signal(dest, m, true);
}

namespace {
template <typename Tracee>
bool deliver_for_tracee(Vm& vm, Tracee* tracee, const TracerRef& ref, const TraceEvent& event) {
    if (!ref.session->alive.load(std::memory_order_acquire)) return false;
    switch (deliver(vm, ref.tracer, ref.flags, event, ref.session)) {
    case DeliveryResult::Delivered: return true;
    case DeliveryResult::Discarded: return false;
    case DeliveryResult::TracerGone: drop_session(tracee, ref.session); return false;
    }
    return false;
}
}  // namespace

bool deliver_for(Vm& vm, Process* tracee, const TracerRef& ref, const TraceEvent& event) {
    return deliver_for_tracee(vm, tracee, ref, event);
}

bool deliver_for(Vm& vm, Port* tracee, const TracerRef& ref, const TraceEvent& event) {
    return deliver_for_tracee(vm, tracee, ref, event);
}

void notify_when_delivered(Vm& vm, Term caller, Term tracee, Term ref) {
    // The reference is copied now: the caller's heap may move before the wait is over.
    Term reply;
    HeapFragment* frag = nullptr;
    {
        Term words[4] = {make_arityval(3), atoms::trace_delivered, tracee, ref};
        frag = copy_to_fragment(make_boxed(words), &reply);
    }
    vm.after_thread_progress([&vm, caller, reply, frag] {
        flush_native_tracers();  // a native tracer's file holds the events too
        if (std::shared_ptr<Process> to = vm.lookup_process(caller)) {
            Message m{reply, frag};
            vm.send_signal(to.get(), m);
        } else {
            free_fragment(frag);
        }
    });
}

}  // namespace beamlet::tracing
