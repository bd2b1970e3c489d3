// bif/erlang_timers.cpp — send_after/3,4, start_timer/3,4, cancel_timer/1,2, read_timer/1,2.
#include <algorithm>
#include <cctype>
#include <chrono>

#include "bif/bifs.hpp"
#include "bif/process_bifs.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/copy.hpp"
#include "vm/entry_code.hpp"
#include "vm/interpreter.hpp"
#include "vm/stack_trace.hpp"
#include "vm/map.hpp"
#include "vm/scheduler.hpp"
#include "vm/seq_trace.hpp"
#include "vm/term_order.hpp"
#include "vm/timer_service.hpp"
#include "vm/trace_hooks.hpp"

namespace beamlet::bif {

using namespace vm;

// ---- timers ---------------------------------------------------------------------------------

namespace {

Term start_timer(Process* p, Term time, Term dest, Term msg, Term opts, bool wrap_timeout) {
    // {abs, true}: [time] is a point of erlang:monotonic_time(millisecond); one already past
    // fires at once.
    bool absolute = false;
    if (!is_proper_list(opts)) return p->badarg();
    for (Term l = opts; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (!is_tuple(o) || tuple_arity(o) != 2 || tuple_element(o, 0) != atom("abs") ||
            (tuple_element(o, 1) != atoms::true_ && tuple_element(o, 1) != atoms::false_))
            return p->badarg();
        absolute = tuple_element(o, 1) == atoms::true_;
    }
    if (!is_small(time) || (!absolute && small_value(time) < 0)) return p->badarg();
    if (!is_pid(dest) && !is_atom(dest)) return p->badarg();
    SWord ms = small_value(time);
    if (absolute) {
        std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now().time_since_epoch()).count();
        ms = std::max<SWord>(0, ms - SWord(now_ms));
    }
    Word id[3];
    new_ref_id(p, id);
    Term ref = make_ref_term(p, id);
    Term payload = wrap_timeout ? make_tuple_on(p, {atom("timeout"), ref, msg}) : msg;
    Word size = term_size_words(payload);
    HeapFragment* frag = nullptr;
    Term copy = payload;
    if (size) {
        frag = HeapFragment::create(size);
        Term* hp = frag->data;
        copy = copy_term(payload, &hp, &frag->off_heap_first);
        frag->used_words = size;
    }
    // As OTP, a timer to a pid dies with its process: none is armed for one already gone,
    // and do_exit cancels the others (has_bif_timers).
    std::shared_ptr<Process> target = is_pid(dest) ? p->vm.lookup_process(dest) : nullptr;
    auto target_exiting = [&] {
        std::lock_guard guard(target->lock);
        target->has_bif_timers = true;
        return target->exiting;
    };
    if (is_pid(dest) && (!target || target_exiting())) {
        if (frag) HeapFragment::destroy(frag);
        return ref;
    }
    p->vm.timers->arm_message(dest, copy, frag, std::uint64_t(ms), id);
    // Exited meanwhile: its do_exit may have cancelled its timers before this one was armed.
    if (target && target_exiting()) p->vm.timers->cancel(id);
    return ref;
}

Term timer_result(std::optional<std::int64_t> left) {
    if (!left) return atoms::false_;
    return make_small(*left);
}

}  // namespace

Term bif_send_after3(Process* p, Term* a) { return start_timer(p, a[0], a[1], a[2], NIL, false); }
Term bif_send_after4(Process* p, Term* a) { return start_timer(p, a[0], a[1], a[2], a[3], false); }
Term bif_start_timer3(Process* p, Term* a) { return start_timer(p, a[0], a[1], a[2], NIL, true); }
Term bif_start_timer4(Process* p, Term* a) { return start_timer(p, a[0], a[1], a[2], a[3], true); }

Term bif_cancel_timer1(Process* p, Term* a) {
    Word id[3];
    if (!ref_id_of(a[0], id)) return p->badarg();
    return timer_result(p->vm.timers->cancel(id));
}
Term bif_cancel_timer2(Process* p, Term* a) {
    Word id[3];
    if (!ref_id_of(a[0], id) || !is_proper_list(a[1])) return p->badarg();
    BEAMLET_CACHED_ATOM(am_info, "info");
    BEAMLET_CACHED_ATOM(am_async, "async");
    bool info = true, async = false;
    for (Term l = a[1]; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == am_info) info = tuple_element(o, 1) == atoms::true_;
        else if (is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == am_async) async = tuple_element(o, 1) == atoms::true_;
    }
    Term r = timer_result(p->vm.timers->cancel(id));
    if (async) {
        if (info) p->vm.send_message(nullptr, p->id, make_tuple_on(p, {atom("cancel_timer"), a[0], r}));
        return atoms::ok;
    }
    return info ? r : atoms::ok;
}
Term bif_read_timer1(Process* p, Term* a) {
    Word id[3];
    if (!ref_id_of(a[0], id)) return p->badarg();
    return timer_result(p->vm.timers->read(id));
}
// erlang:read_timer(Ref, [{async, Bool}]): with async the answer comes as a message
// {read_timer, Ref, Result} and the call returns ok.
Term bif_read_timer2(Process* p, Term* a) {
    Word id[3];
    if (!ref_id_of(a[0], id) || !is_proper_list(a[1])) return p->badarg();
    BEAMLET_CACHED_ATOM(am_async, "async");
    bool async = false;
    for (Term l = a[1]; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (!is_tuple(o) || tuple_arity(o) != 2 || tuple_element(o, 0) != am_async ||
            (tuple_element(o, 1) != atoms::true_ && tuple_element(o, 1) != atoms::false_))
            return p->badarg();
        async = tuple_element(o, 1) == atoms::true_;
    }
    Term r = timer_result(p->vm.timers->read(id));
    if (!async) return r;
    p->vm.send_message(nullptr, p->id, make_tuple_on(p, {atom("read_timer"), a[0], r}));
    return atoms::ok;
}

}  // namespace beamlet::bif
