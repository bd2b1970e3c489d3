// bif/erlang_misc.cpp — apply, exceptions, process dictionary, time, refs, halt, module info.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <time.h>

#include "bif/bifs.hpp"
#include "nif/nif.hpp"
#include "vm/node.hpp"
#include "vm/port.hpp"
#include "vm/stack_trace.hpp"
#include "vm/config.hpp"
#include "vm/map.hpp"
#include "vm/scheduler.hpp"
#include "vm/term_hash.hpp"
#include "bif/term_format.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/interpreter.hpp"
#include "vm/term_order.hpp"
#include "vm/utf8.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// The clocks of OTP's time API: Erlang monotonic time, Erlang system time (monotonic time
// plus an offset fixed when the VM first asks, as in OTP's default no_time_warp mode) and
// the OS system time (os:system_time/0,1, which follows the OS clock's steps).
enum class Clock { Monotonic, ErlangSystem, OsSystem };

std::int64_t os_clock_ns(bool monotonic) {
    if (monotonic)
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::int64_t time_offset_ns() {
    static const std::int64_t offset = os_clock_ns(false) - os_clock_ns(true);
    return offset;
}

std::int64_t now_ns(Clock clock) {
    switch (clock) {
    case Clock::Monotonic: return os_clock_ns(true);
    case Clock::ErlangSystem: return os_clock_ns(true) + time_offset_ns();
    case Clock::OsSystem: return os_clock_ns(false);
    }
    return 0;
}

// Units per second of a time unit term; 0 if invalid.
std::int64_t units_per_second(Term unit) {
    if (unit == atoms::second || unit == atoms::seconds) return 1;
    if (unit == atoms::millisecond || unit == atoms::milli_seconds) return 1000;
    if (unit == atoms::microsecond || unit == atoms::micro_seconds) return 1000000;
    if (unit == atoms::nanosecond || unit == atoms::nano_seconds || unit == atoms::native || unit == atoms::perf_counter)
        return 1000000000;
    if (is_small(unit) && small_value(unit) > 0) return small_value(unit);
    return 0;
}

// Converts [value] from units of [from] per second to [to] (floor division, as OTP).
Term convert_units(Process* p, std::int64_t value, std::int64_t from, std::int64_t to) {
    __int128 v = __int128(value) * to;
    __int128 q = v / from;
    if ((v % from != 0) && ((v < 0) != (from < 0))) --q;
    if (q >= INT64_MIN && q <= INT64_MAX) return make_integer(p, std::int64_t(q));
    // Past 64 bits (a fine unit, e.g. picoseconds since 1970): a bignum.
    mpz_t big;
    mpz_init_set_si(big, long(value));
    mpz_mul_si(big, big, long(to));
    mpz_fdiv_q_ui(big, big, static_cast<unsigned long>(from));
    Term r = mpz_to_integer(p, big);
    mpz_clear(big);
    return r;
}

Term time_in(Process* p, Term unit, Clock clock) {
    std::int64_t ups = units_per_second(unit);
    if (!ups) return p->badarg();
    return convert_units(p, now_ns(clock), 1000000000, ups);
}

// Collects proper list [l] into [out]; false if improper.
bool list_items(Term l, std::vector<Term>* out) {
    for (; is_list(l); l = cdr(l)) out->push_back(car(l));
    return is_nil(l);
}

}  // namespace

// apply/2,3 trap into the callee: the arguments go to x registers and the process continues
// at the target's code (p->ip), returning to the caller's continuation.
Term bif_apply3(Process* p, Term* a) {
    Term m = a[0], f = a[1];
    std::vector<Term> args;
    if (!is_atom(m) || !is_atom(f) || !list_items(a[2], &args) || args.size() > 255) return p->badarg();
    Export* e = p->vm.exports.find(m, f, args.size());
    if (!e) e = p->vm.exports.get(m, f, args.size());
    for (std::size_t i = 0; i < args.size(); ++i) a[i] = args[i];
    p->ip = e->address();
    p->exception = PendingException{};
    return THE_NON_VALUE;
}

Term bif_apply2(Process* p, Term* a) {
    Term fun = a[0];
    std::vector<Term> args;
    if (!list_items(a[1], &args) || args.size() > 255) return p->badarg();
    if (is_export_fun(fun)) {
        const Export* e = reinterpret_cast<const Export*>(boxed_ptr(fun)[1]);
        if (e->arity != args.size()) {
            Term inner = make_tuple_on(p, {fun, a[1]});
            return p->error(make_tuple_on(p, {atoms::badarity, inner}));
        }
        for (std::size_t i = 0; i < args.size(); ++i) a[i] = args[i];
        p->ip = e->address();
        p->exception = PendingException{};
        return THE_NON_VALUE;
    }
    if (is_local_fun(fun)) {
        const Term* obj = boxed_ptr(fun);
        const FunEntry* fe = reinterpret_cast<const FunEntry*>(obj[1]);
        if (fe->user_arity() != args.size()) {
            Term inner = make_tuple_on(p, {fun, a[1]});
            return p->error(make_tuple_on(p, {atoms::badarity, inner}));
        }
        for (std::size_t i = 0; i < args.size(); ++i) a[i] = args[i];
        for (Word i = 0; i < fe->num_free; ++i) a[args.size() + i] = obj[3 + i];
        p->ip = fe->address();
        p->exception = PendingException{};
        return THE_NON_VALUE;
    }
    return p->error(make_tuple_on(p, {atoms::badfun, fun}));
}

// Raises [cls]:[reason] on purpose: the stack trace starts at the caller, not at the BIF.
static Term raise_from_bif(Process* p, Term cls, Term reason, Term frame_args = THE_NON_VALUE) {
    p->raise(cls, reason);
    p->exception.raised_by_bif = true;
    p->exception.frame_args = frame_args;
    return THE_NON_VALUE;
}

Term bif_error1(Process* p, Term* a) { return raise_from_bif(p, atoms::error, a[0]); }
Term bif_error2(Process* p, Term* a) {
    if (!is_list(a[1]) && !is_nil(a[1])) return raise_from_bif(p, atoms::error, a[0]);
    return raise_from_bif(p, atoms::error, a[0], a[1]);
}
// error(Reason, Args, Options): error/2, with Options' {error_info, Map} in the first frame's
// location (after its file and line), as erl_error and the shell use to explain the error.
Term bif_error3(Process* p, Term* a) {
    Term info = 0;
    Term l = a[2];
    for (; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (is_tuple(o) && tuple_arity(o) == 2 && tuple_element(o, 0) == atoms::error_info) info = o;
    }
    if (!is_nil(l)) return p->badarg();
    // The last error_info option counts, and only with a map (as OTP).
    if (info && !is_map(tuple_element(info, 1))) info = 0;
    Term result = bif_error2(p, a);
    p->exception.frame_error_info = info;
    return result;
}
Term bif_exit1(Process* p, Term* a) { return raise_from_bif(p, atoms::exit, a[0]); }
Term bif_throw(Process* p, Term* a) { return raise_from_bif(p, atoms::throw_, a[0]); }

namespace {
// A raise/3 stacktrace entry as OTP takes it: {M, F, ArityOrArgs, Location} and {Fun, Args,
// Location} as they are, the old forms {M, F, ArityOrArgs} and {Fun, Args} with an empty
// location; 0 for anything else (a location that is not a list, ...).
Term stacktrace_entry(Process* p, Term t) {
    if (!is_tuple(t)) return 0;
    Term first = tuple_element(t, 0);
    Word arity = tuple_arity(t);
    if (arity == 2) return is_fun(first) ? make_tuple_on(p, {first, tuple_element(t, 1), NIL}) : 0;
    if (arity == 3 && !is_fun(first)) {
        if (!is_atom(first) || !is_atom(tuple_element(t, 1))) return 0;
        return make_tuple_on(p, {first, tuple_element(t, 1), tuple_element(t, 2), NIL});
    }
    if (arity == 3 || (arity == 4 && is_atom(first) && is_atom(tuple_element(t, 1)))) {
        Term location = tuple_element(t, Word(arity - 1));
        return is_list(location) || is_nil(location) ? t : 0;
    }
    return 0;
}
}  // namespace

Term bif_raise(Process* p, Term* a) {
    Term cls = a[0];
    std::vector<Term> frames;
    // Invalid arguments make raise/3 return the atom badarg (documented), not raise it.
    if ((cls != atoms::error && cls != atoms::exit && cls != atoms::throw_) || !list_items(a[2], &frames))
        return atoms::badarg;
    for (Term& frame : frames)
        if (!(frame = stacktrace_entry(p, frame))) return atoms::badarg;
    // At most backtrace_depth() entries are kept (but one at depth 0), as in a stacktrace the
    // runtime builds.
    frames.resize(std::min(frames.size(), std::size_t(std::max(1, backtrace_depth()))));
    Term stacktrace = NIL;
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) stacktrace = make_cons_on(p->alloc(2), *it, stacktrace);
    raise_from_bif(p, cls, a[1]);
    p->exception.stacktrace = stacktrace;
    p->exception.trace_built = true;
    return THE_NON_VALUE;
}

Term bif_self(Process* p, Term*) { return p->id; }
Term bif_node0(Process*, Term*) { return this_node().name; }
Term bif_node1(Process* p, Term* a) {
    if (!is_any_pid(a[0]) && !is_any_port(a[0]) && !is_any_ref(a[0])) return p->badarg();
    return node_of(a[0]).name;
}

Term new_ref(Process* p) { return p->new_ref(); }

Term bif_make_ref(Process* p, Term*) { return new_ref(p); }

// ---- process dictionary ----

Term bif_put(Process* p, Term* a) {
    for (auto& [k, v] : p->dictionary)
        if (terms_exact_equal(k, a[0])) {
            Term old = v;
            v = a[1];
            return old;
        }
    p->dictionary.emplace_back(a[0], a[1]);
    return atoms::undefined;
}
Term bif_get1(Process* p, Term* a) {
    for (auto& [k, v] : p->dictionary)
        if (terms_exact_equal(k, a[0])) return v;
    return atoms::undefined;
}
Term bif_get0(Process* p, Term*) {
    Term l = NIL;
    for (auto& [k, v] : p->dictionary) {
        Term pair = make_tuple_on(p, {k, v});
        l = make_cons_on(p->alloc(2), pair, l);
    }
    return l;
}
Term bif_erase1(Process* p, Term* a) {
    for (auto it = p->dictionary.begin(); it != p->dictionary.end(); ++it)
        if (terms_exact_equal(it->first, a[0])) {
            Term v = it->second;
            p->dictionary.erase(it);
            return v;
        }
    return atoms::undefined;
}
Term bif_erase0(Process* p, Term* a) {
    Term all = bif_get0(p, a);
    p->dictionary.clear();
    return all;
}
Term bif_get_keys0(Process* p, Term*) {
    Term l = NIL;
    for (auto& [k, v] : p->dictionary) l = make_cons_on(p->alloc(2), k, l);
    return l;
}
Term bif_get_keys1(Process* p, Term* a) {
    Term l = NIL;
    for (auto& [k, v] : p->dictionary)
        if (terms_exact_equal(v, a[0])) l = make_cons_on(p->alloc(2), k, l);
    return l;
}

// ---- time ----

Term bif_monotonic_time0(Process* p, Term*) { return make_integer(p, now_ns(Clock::Monotonic)); }

// erlang:now/0: {MegaSecs, Secs, MicroSecs}, strictly increasing (trace timestamps share it).
Term bif_now0(Process* p, Term*) {
    std::int64_t us = p->vm.unique_now_us();
    return make_tuple_on(p, {make_small(us / 1000000000000), make_small((us / 1000000) % 1000000), make_small(us % 1000000)});
}
Term bif_monotonic_time1(Process* p, Term* a) { return time_in(p, a[0], Clock::Monotonic); }

namespace {
// The wall clock as a broken-down local ([local]) or universal time.
std::tm calendar_now(bool local) {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    if (local) localtime_r(&t, &tm);
    else gmtime_r(&t, &tm);
    return tm;
}
Term date_of(Process* p, const std::tm& tm) {
    return make_tuple_on(p, {make_small(tm.tm_year + 1900), make_small(tm.tm_mon + 1), make_small(tm.tm_mday)});
}
Term time_of(Process* p, const std::tm& tm) {
    return make_tuple_on(p, {make_small(tm.tm_hour), make_small(tm.tm_min), make_small(tm.tm_sec)});
}
}  // namespace

// erlang:date/0, time/0, localtime/0, universaltime/0.
Term bif_date0(Process* p, Term*) { return date_of(p, calendar_now(true)); }
Term bif_time0(Process* p, Term*) { return time_of(p, calendar_now(true)); }
Term bif_localtime0(Process* p, Term*) {
    std::tm tm = calendar_now(true);
    return make_tuple_on(p, {date_of(p, tm), time_of(p, tm)});
}
Term bif_universaltime0(Process* p, Term*) {
    std::tm tm = calendar_now(false);
    return make_tuple_on(p, {date_of(p, tm), time_of(p, tm)});
}

namespace {

// {{Y, M, D}, {H, Mi, S}} as a struct tm (fields unchecked beyond their types); false if the
// term does not have that shape or a field is out of range.
bool datetime_of(Term t, std::tm* out) {
    if (!is_tuple(t) || tuple_arity(t) != 2) return false;
    Term d = tuple_element(t, 0), c = tuple_element(t, 1);
    if (!is_tuple(d) || tuple_arity(d) != 3 || !is_tuple(c) || tuple_arity(c) != 3) return false;
    SWord v[6];
    for (int i = 0; i < 3; ++i) {
        if (!is_small(tuple_element(d, i)) || !is_small(tuple_element(c, i))) return false;
        v[i] = small_value(tuple_element(d, i));
        v[3 + i] = small_value(tuple_element(c, i));
    }
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (v[0] < 0 || v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > days[v[1] - 1]) return false;
    bool leap = (v[0] % 4 == 0 && v[0] % 100 != 0) || v[0] % 400 == 0;
    if (v[1] == 2 && v[2] == 29 && !leap) return false;
    if (v[3] < 0 || v[3] > 23 || v[4] < 0 || v[4] > 59 || v[5] < 0 || v[5] > 59) return false;
    *out = std::tm{};
    out->tm_year = int(v[0] - 1900);
    out->tm_mon = int(v[1] - 1);
    out->tm_mday = int(v[2]);
    out->tm_hour = int(v[3]);
    out->tm_min = int(v[4]);
    out->tm_sec = int(v[5]);
    return true;
}

// The first year that local time conversions take (OTP's BASEYEAR: 32-bit time_t's first
// whole year).
constexpr int LOCAL_TIME_BASE_YEAR = 1902;

Term datetime_term(Process* p, const std::tm& tm) { return make_tuple_on(p, {date_of(p, tm), time_of(p, tm)}); }

}  // namespace

Term bif_universaltime_to_localtime(Process* p, Term* a) {
    std::tm tm;
    if (!datetime_of(a[0], &tm) || tm.tm_year < LOCAL_TIME_BASE_YEAR - 1900) return p->badarg();
    std::time_t t = timegm(&tm);
    std::tm local{};
    localtime_r(&t, &local);
    return datetime_term(p, local);
}

Term bif_localtime_to_universaltime(Process* p, Term* a) {
    std::tm tm;
    if (!datetime_of(a[0], &tm) || tm.tm_year < LOCAL_TIME_BASE_YEAR - 1900) return p->badarg();
    if (a[1] != atoms::true_ && a[1] != atoms::false_ && a[1] != atoms::undefined) return p->badarg();
    tm.tm_isdst = a[1] == atoms::true_ ? 1 : a[1] == atoms::false_ ? 0 : -1;
    std::time_t t = mktime(&tm);
    std::tm utc{};
    gmtime_r(&t, &utc);
    return datetime_term(p, utc);
}

Term bif_universaltime_to_posixtime(Process* p, Term* a) {
    std::tm tm;
    if (!datetime_of(a[0], &tm)) return p->badarg();
    return make_integer(p, std::int64_t(timegm(&tm)));
}

Term bif_posixtime_to_universaltime(Process* p, Term* a) {
    if (!is_small(a[0])) return p->badarg();
    std::time_t t = std::time_t(small_value(a[0]));
    std::tm utc{};
    if (!gmtime_r(&t, &utc)) return p->badarg();
    return datetime_term(p, utc);
}

// erlang:statistics/1: runtime and wall_clock ({Total, SinceLastCall} in milliseconds, the
// "since last call" per scheduler as OTP keeps it), reductions and exact_reductions (likewise),
// the run queue lengths and active tasks, garbage_collection.
Term bif_statistics1(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_runtime, "runtime");
    BEAMLET_CACHED_ATOM(am_wall_clock, "wall_clock");
    BEAMLET_CACHED_ATOM(am_run_queue, "run_queue");
    thread_local std::int64_t last_runtime = 0, last_wall = 0;
    if (a[0] == am_runtime) {
        struct timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        std::int64_t ms = std::int64_t(t.tv_sec) * 1000 + t.tv_nsec / 1000000;
        Term r = make_tuple_on(p, {make_integer(p, ms), make_integer(p, ms - last_runtime)});
        last_runtime = ms;
        return r;
    }
    if (a[0] == am_wall_clock) {
        std::int64_t ms = (now_ns(Clock::Monotonic) - p->vm.start_monotonic_ns) / 1000000;
        Term r = make_tuple_on(p, {make_integer(p, ms), make_integer(p, ms - last_wall)});
        last_wall = ms;
        return r;
    }
    Schedulers* scheds = p->vm.schedulers;
    if (a[0] == atom("reductions") || a[0] == atom("exact_reductions")) {
        // {Total, SinceLastCall}, the last call VM-wide (as OTP's last_reductions).
        static std::atomic<std::uint64_t> last{0}, last_exact{0};
        std::atomic<std::uint64_t>& since = a[0] == atom("reductions") ? last : last_exact;
        std::uint64_t total = (scheds ? scheds->reductions() : 0) +
                              std::uint64_t(std::max<std::int64_t>(0, CONTEXT_REDS - p->slice_reds));
        std::uint64_t before = since.exchange(total, std::memory_order_relaxed);
        // (Another caller may have counted a slice that had not ended yet: never below zero.)
        std::uint64_t diff = total >= before ? total - before : 0;
        return make_tuple_on(p, {make_integer(p, std::int64_t(total)), make_integer(p, std::int64_t(diff))});
    }
    // The run queues: beamlet's schedulers', then the dirty CPU and dirty I/O queues OTP lists
    // (beamlet runs no dirty schedulers: empty). Active tasks count the running ones too.
    bool all = a[0] == atom("run_queue_lengths_all") || a[0] == atom("total_run_queue_lengths_all") ||
               a[0] == atom("active_tasks_all") || a[0] == atom("total_active_tasks_all");
    bool active = a[0] == atom("active_tasks") || a[0] == atom("active_tasks_all") ||
                  a[0] == atom("total_active_tasks") || a[0] == atom("total_active_tasks_all");
    bool total = a[0] == am_run_queue || a[0] == atom("total_run_queue_lengths") ||
                 a[0] == atom("total_run_queue_lengths_all") || a[0] == atom("total_active_tasks") ||
                 a[0] == atom("total_active_tasks_all");
    bool per_queue = a[0] == atom("run_queue_lengths") || a[0] == atom("run_queue_lengths_all") ||
                     a[0] == atom("active_tasks") || a[0] == atom("active_tasks_all");
    if (total || per_queue) {
        std::vector<std::size_t> lengths = scheds ? scheds->queue_lengths() : std::vector<std::size_t>{0};
        if (active) lengths[std::size_t(std::max(0, Schedulers::current_index()))] += 1;  // the caller runs
        lengths.push_back(0);          // dirty CPU
        if (all) lengths.push_back(0);  // dirty I/O
        if (total) {
            std::size_t sum = 0;
            for (std::size_t n : lengths) sum += n;
            return make_small(SWord(sum));
        }
        Term l = NIL;
        for (auto it = lengths.rbegin(); it != lengths.rend(); ++it) l = make_cons_on(p->alloc(2), make_small(SWord(*it)), l);
        return l;
    }
    if (a[0] == atom("io")) {
        auto bytes = [p](const std::atomic<std::uint64_t>& n) { return make_integer(p, std::int64_t(n.load(std::memory_order_relaxed))); };
        return make_tuple_on(p, {make_tuple_on(p, {atom("input"), bytes(Port::all_input_bytes)}),
                                 make_tuple_on(p, {atom("output"), bytes(Port::all_output_bytes)})});
    }
    if (a[0] == atom("garbage_collection")) {
        return make_tuple_on(p, {make_integer(p, std::int64_t(p->vm.gc_count.load(std::memory_order_relaxed))),
                                 make_integer(p, std::int64_t(p->vm.gc_reclaimed_words.load(std::memory_order_relaxed))),
                                 make_small(0)});
    }
    return p->badarg();
}
Term bif_system_time0(Process* p, Term*) { return make_integer(p, now_ns(Clock::ErlangSystem)); }
Term bif_system_time1(Process* p, Term* a) { return time_in(p, a[0], Clock::ErlangSystem); }
Term bif_os_system_time0(Process* p, Term*) { return make_integer(p, now_ns(Clock::OsSystem)); }
Term bif_os_system_time1(Process* p, Term* a) { return time_in(p, a[0], Clock::OsSystem); }
// erlang:timestamp/0: Erlang system time as {MegaSecs, Secs, MicroSecs}.
Term bif_timestamp(Process* p, Term*) {
    std::int64_t us = now_ns(Clock::ErlangSystem) / 1000;
    return make_tuple_on(p, {make_small(us / 1000000000000), make_small((us / 1000000) % 1000000), make_small(us % 1000000)});
}
// erlang:time_offset/0,1: OS system time minus monotonic time.
Term bif_time_offset0(Process* p, Term*) { return make_integer(p, time_offset_ns()); }
Term bif_time_offset1(Process* p, Term* a) {
    std::int64_t ups = units_per_second(a[0]);
    if (!ups) return p->badarg();
    return convert_units(p, time_offset_ns(), 1000000000, ups);
}

Term bif_convert_time_unit(Process* p, Term* a) {
    std::int64_t from = units_per_second(a[1]), to = units_per_second(a[2]);
    if (!is_integer(a[0]) || !from || !to) return p->badarg();
    // floor(Value * To / From), at any size.
    mpz_t v;
    mpz_init(v);
    integer_to_mpz(a[0], v);
    mpz_mul_si(v, v, long(to));
    mpz_fdiv_q_ui(v, v, static_cast<unsigned long>(from));
    Term r = mpz_to_integer(p, v);
    mpz_clear(v);
    return r;
}

Term bif_unique_integer0(Process* p, Term*) {
    return make_integer(p, p->vm.next_unique.fetch_add(1, std::memory_order_relaxed) - 576460752303423489LL);
}
Term bif_unique_integer1(Process* p, Term* a) {
    bool positive = false;
    for (Term l = a[0]; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return p->badarg();
        if (car(l) == atoms::positive) positive = true;
        else if (car(l) != atoms::monotonic) return p->badarg();
    }
    std::int64_t n = p->vm.next_unique.fetch_add(1, std::memory_order_relaxed);
    return make_integer(p, positive ? n : n - 576460752303423489LL);
}

// ---- halt, display, gc ----

// halt/0,1 stop the whole VM at once, after flushing what the program has written. On OTP's
// boot the schedulers stop instead and the run ends as when main exits (tools/boot.cpp:
// init:stop/0 ends in halt/1 there, and a command-line trace is written out).
static Term halt_now(Process* p, int status) {
    // The schedulers stop; tools/boot.cpp's run_main reports the status. The first halt wins,
    // as on erl, where halt/1 ends the VM at once: a process on another scheduler that calls
    // halt/0 (init:stop's) before the schedulers have stopped must not turn a halt(1) into 0.
    int none = -1;
    p->vm.halt_status.compare_exchange_strong(none, status);
    p->vm.schedulers->stop();
    p->yield_requested = true;
    return atoms::true_;
}

Term bif_halt0(Process* p, Term*) { return halt_now(p, 0); }
Term bif_halt1(Process* p, Term* a) {
    int status;
    if (is_small(a[0]) && small_value(a[0]) >= 0) status = int(small_value(a[0]) & 0xFF);
    else if (a[0] == atom("abort")) status = 134;
    else if (is_list(a[0]) || is_nil(a[0])) {
        std::string s;
        if (!list_to_bytes(a[0], &s)) return p->badarg();
        // The slogan, on standard error as erts writes it (no crash dump: beamlet writes none).
        p->vm.flush_stdout();
        s += "\r\n";
        std::fwrite(s.data(), 1, s.size(), stderr);
        status = 1;
    } else return p->badarg();
    return halt_now(p, status);
}

// halt(Status, Options): halt/1 once the options are a proper list of {flush, Boolean}, as
// OTP 25 checks them (flushing is what beamlet does either way).
Term bif_halt2(Process* p, Term* a) {
    Term l = a[1];
    for (; is_list(l); l = cdr(l)) {
        Term o = car(l);
        if (!is_tuple(o) || tuple_arity(o) != 2 || tuple_element(o, 0) != atom("flush") ||
            (tuple_element(o, 1) != atoms::true_ && tuple_element(o, 1) != atoms::false_))
            return p->badarg();
    }
    if (!is_nil(l)) return p->badarg();
    return bif_halt1(p, a);
}

namespace {
// erlang:display/1's format (the emulator's %T): like ~w, but printable lists and binaries as
// strings and floats in %e notation.
void display_term(Term t, std::string& out) {
    auto printable = [](std::uint32_t c) { return c >= 32 && c <= 126; };
    if (is_list(t)) {
        bool str = true;
        Term l = t;
        for (; is_list(l) && str; l = cdr(l)) str = is_small(car(l)) && printable(std::uint32_t(small_value(car(l))));
        if (str && is_nil(l)) {
            out += '"';
            for (l = t; is_list(l); l = cdr(l)) {
                auto c = char(small_value(car(l)));
                if (c == '"' || c == '\\') out += '\\';
                out += c;
            }
            out += '"';
            return;
        }
        out += '[';
        for (l = t; is_list(l); l = cdr(l)) {
            if (l != t) out += ',';
            display_term(car(l), out);
        }
        if (!is_nil(l)) {
            out += '|';
            display_term(l, out);
        }
        out += ']';
    } else if (is_tuple(t)) {
        out += '{';
        for (Word i = 0; i < tuple_arity(t); ++i) {
            if (i) out += ',';
            display_term(tuple_element(t, i), out);
        }
        out += '}';
    } else if (is_map(t)) {  // #{a=>1,b=>2}: no spaces, as the emulator prints
        out += "#{";
        bool first = true;
        map_for_each(t, [&](Term k, Term v) {
            if (!first) out += ',';
            first = false;
            display_term(k, out);
            out += "=>";
            display_term(v, out);
        });
        out += '}';
    } else if (is_float(t)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%e", float_value(t));
        out += buf;
    } else if (is_bitstring(t) && is_binary(t)) {
        BitView v = bit_view(t);
        std::string bytes;
        for (std::size_t i = 0; i < v.size_bytes(); ++i) {
            std::size_t bit = v.bit_offset + 8 * i;
            std::uint8_t b = (bit % 8 == 0) ? v.bytes[bit / 8]
                                            : std::uint8_t((v.bytes[bit / 8] << (bit % 8)) | (v.bytes[bit / 8 + 1] >> (8 - bit % 8)));
            bytes += char(b);
        }
        bool str = !bytes.empty() && std::all_of(bytes.begin(), bytes.end(), [&](char c) { return printable(std::uint8_t(c)); });
        if (!str) {
            out += write_term(t);
            return;
        }
        out += "<<\"" + bytes + "\">>";
    } else {
        out += write_term(t);
    }
}
}  // namespace

// erlang:display_string/1: a string (any characters, written as UTF-8) on the emulator's
// standard error (OTP's logger prints with it before its handlers run).
Term bif_display_string(Process* p, Term* a) {
    std::string bytes;
    Term l = a[0];
    for (; is_list(l); l = cdr(l)) {
        Term c = car(l);
        if (!is_small(c) || small_value(c) < 0 || small_value(c) > 0x10FFFF) return p->badarg();
        put_utf8(std::uint32_t(small_value(c)), bytes);
    }
    if (!is_nil(l)) return p->badarg();
    p->vm.flush_stdout();
    std::fwrite(bytes.data(), 1, bytes.size(), stderr);
    return atoms::true_;
}

Term bif_display(Process* p, Term* a) {
    std::string out;
    display_term(a[0], out);
    p->vm.write_stdout(out + "\r\n");  // as the emulator's own printing, even without a tty
    return atoms::true_;
}

namespace {
// A collection of the caller, done by the scheduler as the process yields (a BIF must never
// move terms its caller holds).
Term collect_self(Process* p, Process::GcRequest kind) {
    p->gc_requested = std::max(p->gc_requested, kind);
    p->yield_requested = true;
    return atoms::true_;
}
}  // namespace

// garbage_collect/0: a major collection.
Term bif_garbage_collect(Process* p, Term*) { return collect_self(p, Process::GcRequest::major); }

// garbage_collect/1: a major collection of another process, which it does when it handles the
// request signal; the caller waits for {Ref, true} (false: the process does not exist).
Term bif_garbage_collect1(Process* p, Term* a) {
    if (!is_pid(a[0])) return p->badarg();
    if (a[0] == p->id) return bif_garbage_collect(p, a);
    std::shared_ptr<Process> other = p->vm.lookup_process(a[0]);
    if (!other) return atoms::false_;
    Term ref = new_ref(p);
    Message m;
    m.kind = SignalKind::GcRequest;
    m.from = p->id;
    m.priority = p->priority.load(std::memory_order_relaxed);  // OTP's: inherit
    m.fragment = copy_to_fragment(ref, &m.term);
    if (!p->vm.send_signal(other.get(), m)) return atoms::false_;
    const Export* await = p->vm.exports.get(atom("erts_internal"), atom("await_result"), 1);
    a[0] = ref;
    p->ip = await->address();
    p->exception = PendingException{};
    return THE_NON_VALUE;  // trap: continue in erts_internal:await_result(Ref)
}

// erts_internal:garbage_collect(major | minor): a collection of the caller, as
// garbage_collect/0 (OTP's erlang:garbage_collect/2 calls it for the process itself).
Term bif_erts_internal_garbage_collect(Process* p, Term* a) {
    if (a[0] == atom("major")) return collect_self(p, Process::GcRequest::major);
    if (a[0] == atom("minor")) return collect_self(p, Process::GcRequest::minor);
    return p->badarg();
}

// erts_internal:request_system_task(Pid, Priority, {Task, ReqId | Args}): the target runs Task
// when it handles the signal and sends {Task, ReqId, Result} back; a dead process answers
// false. Tasks: {garbage_collect, ReqId, major | minor}, {check_process_code, ReqId, Module},
// {copy_literals, ReqId, Bool} (beamlet never frees literals under a process: always ok), and
// OTP's {system_task_test, ReqId} (true once handled). At most two arguments, as OTP's.
Term bif_erts_internal_request_system_task(Process* p, Term* a) {
    static const Term am_garbage_collect = atom("garbage_collect"), am_check_process_code = atom("check_process_code"),
                      am_copy_literals = atom("copy_literals"), am_system_task_test = atom("system_task_test"),
                      am_minor = atom("minor"), am_major = atom("major");
    Term req = a[2];
    std::optional<Priority> prio =
        a[1] == atom("inherit") ? std::optional(p->priority.load(std::memory_order_relaxed)) : priority_of(a[1]);
    if (!is_pid(a[0]) || !prio) return p->badarg();
    if (!is_tuple(req) || tuple_arity(req) < 2 || tuple_arity(req) > 4) return p->badarg();
    Term task = tuple_element(req, 0);
    Term arg = tuple_arity(req) > 2 ? tuple_element(req, 2) : THE_NON_VALUE;
    bool valid = task == am_system_task_test ||
                 (task == am_garbage_collect && (arg == am_minor || arg == am_major)) ||
                 (task == am_check_process_code && arg != THE_NON_VALUE && is_atom(arg)) ||
                 (task == am_copy_literals && arg != THE_NON_VALUE);
    if (!valid) return p->badarg();
    auto request = [&] {
        Message m;
        m.kind = SignalKind::SystemTask;
        m.from = p->id;
        m.priority = *prio;
        m.fragment = copy_to_fragment(req, &m.term);
        return m;
    };
    std::shared_ptr<Process> other = p->vm.lookup_process(a[0]);
    if (other && p->vm.send_signal(other.get(), request())) return atoms::ok;
    // A dead process answers: send_signal has freed what it was given (the target exited
    // after the lookup), so the answer is made from a fresh copy.
    Message m = request();
    p->vm.run_system_task(nullptr, m);
    return atoms::ok;
}

Term bif_erts_internal_request_system_task4(Process* p, Term* a) {
    if (a[0] != p->id) return p->badarg();  // the requester is the caller (OTP: dirty-signal handler)
    return bif_erts_internal_request_system_task(p, a + 1);
}

// erts_internal:cmp_term(A, B): -1, 0 or 1 in the exact term order (1 < 1.0: =:=).
Term bif_erts_internal_cmp_term(Process*, Term* a) {
    int c = compare_terms_exact(a[0], a[1]);
    return make_small(c < 0 ? -1 : c > 0 ? 1 : 0);
}

// erts_internal:term_type(T): how T is represented, in OTP's names for the representations
// beamlet shares (maps are flatmaps at any size here).
Term bif_erts_internal_term_type(Process*, Term* a) {
    Term t = a[0];
    const char* type = "nil";
    if (is_small(t)) type = "fixnum";
    else if (is_atom(t)) type = "atom";
    else if (is_pid(t)) type = "pid";
    else if (is_port(t)) type = "port";
    else if (is_list(t)) type = "list";
    else if (is_catch(t)) type = "catch";
    else if (is_boxed(t)) {
        switch (header_subtag(boxed_header(t))) {
        case Subtag::Tuple: type = "tuple"; break;
        case Subtag::PosBig:
        case Subtag::NegBig: type = "bignum"; break;
        case Subtag::Ref: type = "reference"; break;
        case Subtag::Fun: type = "fun"; break;
        case Subtag::Float: type = "hfloat"; break;
        case Subtag::Export: type = "export"; break;
        case Subtag::RefcBin: type = "refc_binary"; break;
        case Subtag::HeapBin: type = "heap_binary"; break;
        case Subtag::SubBin: type = "sub_binary"; break;
        case Subtag::Map: type = is_flatmap(t) ? "flatmap" : "hashmap"; break;
        case Subtag::HashNode: type = "hashmap_node"; break;
        case Subtag::ExternalPid: type = "external_pid"; break;
        case Subtag::ExternalPort: type = "external_port"; break;
        case Subtag::ExternalRef: type = "external_ref"; break;
        default: break;
        }
    }
    return atom(type);
}

// erts_internal:map_to_tuple_keys(Map): a flatmap's keys tuple itself, shared with the map
// (erts_debug:size/1 counts it once).
Term bif_erts_internal_map_to_tuple_keys(Process* p, Term* a) {
    if (!is_map(a[0])) return p->error(make_tuple_on(p, {atoms::badmap, a[0]}));
    if (!is_flatmap(a[0])) return p->badarg();
    return map_keys(a[0]);
}

// erts_internal:time_unit() and perf_counter_unit(): parts per second of native time and of
// os:perf_counter/0 (nanoseconds for both).
Term bif_erts_internal_time_unit(Process*, Term*) { return make_small(1000000000); }

// erts_internal:no_aux_work_threads(): 1 + the threads that answer system_info({memory_internal,
// ...}) requests (one here: the runtime's).
Term bif_erts_internal_no_aux_work_threads(Process*, Term*) { return make_small(2); }

// erts_internal:is_system_process(Pid): beamlet has no processes that the VM itself hides.
Term bif_erts_internal_is_system_process(Process* p, Term* a) {
    if (!is_pid(a[0])) return p->badarg();
    return atoms::false_;
}

// erts_internal:scheduler_wall_time(Enable): whether scheduler wall-time accounting was on
// (kernel_refc switches it for erlang:system_flag(scheduler_wall_time, _)). beamlet keeps the
// setting only: statistics(scheduler_wall_time) does not measure it.
Term bif_erts_internal_scheduler_wall_time(Process* p, Term* a) {
    static std::atomic<bool> enabled{false};
    if (a[0] != atoms::true_ && a[0] != atoms::false_) return p->badarg();
    return make_bool(enabled.exchange(a[0] == atoms::true_));
}

// erlang:bump_reductions(N): the caller's time slice is N reductions shorter (at most a
// whole slice, as OTP's; a bignum is badarg on OTP 25's 64-bit emulator).
Term bif_bump_reductions(Process* p, Term* a) {
    if (!is_small(a[0]) || small_value(a[0]) < 0) return p->badarg();
    p->slice_reds -= std::min<SWord>(small_value(a[0]), CONTEXT_REDS);
    return atoms::true_;
}

// ---- module info ----

namespace {
Term exports_list(Process* p, const Module* m, bool all) {
    Term l = NIL;
    for (auto it = m->functions.rbegin(); it != m->functions.rend(); ++it) {
        if (!all && !it->exported) continue;
        Term pair = make_tuple_on(p, {it->name, make_small(SWord(it->arity))});
        l = make_cons_on(p->alloc(2), pair, l);
    }
    return l;
}
}  // namespace

Term bif_get_module_info2(Process* p, Term* a) {
    const Module* m = p->vm.find_module(a[0]);
    if (!m) return p->badarg();
    Term what = a[1];
    if (what == atoms::module) return m->name;
    if (what == atoms::exports) return exports_list(p, m, false);
    if (what == atoms::functions) return exports_list(p, m, true);
    if (what == atoms::attributes) return m->attributes;
    if (what == atoms::compile) return m->compile_info;
    if (what == atoms::md5) return make_binary(p, m->md5, 16);
    // No HiPE: no function is native code.
    if (what == atom("native")) return atoms::false_;
    if (what == atom("native_addresses")) return NIL;
    // NIFs: those of a library load_nif bound, and the functions of a module that loads NIFs
    // which beamlet implements natively in their place (erl_tracer's, prim_file's, ...).
    if (what == atom("nifs")) {
        Term l = NIL;
        for (auto it = m->functions.rbegin(); it != m->functions.rend(); ++it)
            if (nif::find(p->vm, m->name, it->name, unsigned(it->arity)).func ||
                (m->loads_nifs && it->export_entry && it->export_entry->is_bif()))
                l = make_cons_on(p->alloc(2), make_tuple_on(p, {it->name, make_small(SWord(it->arity))}), l);
        return l;
    }
    return p->badarg();
}
Term bif_get_module_info1(Process* p, Term* a) {
    const Module* m = p->vm.find_module(a[0]);
    if (!m) return p->badarg();
    Term items[] = {atoms::module, atoms::exports, atoms::attributes, atoms::compile, atoms::md5};
    Term l = NIL;
    for (int i = 4; i >= 0; --i) {
        Term args[2] = {a[0], items[i]};
        Term v = bif_get_module_info2(p, args);
        l = make_cons_on(p->alloc(2), make_tuple_on(p, {items[i], v}), l);
    }
    return l;
}
Term bif_function_exported(Process* p, Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1]) || !is_small(a[2])) return p->badarg();
    Export* e = p->vm.exports.find(a[0], a[1], Word(small_value(a[2])));
    if (!e) return atoms::false_;
    if (e->is_bif()) return atoms::true_;
    return make_bool(e->address() != e->trampoline);
}

Term bif_send(Process* p, Term* a) {
    switch (p->vm.send(p, a[0], a[1])) {
    case Vm::SendResult::Badarg: return p->badarg();
    case Vm::SendResult::Suspend: return wait_for_busy_port(p, a[1]);
    default: return a[1];
    }
}

// phash2/1: OTP's make_hash2 in 27 bits; phash2/2 and phash/2: in 1..Range (phash) or
// 0..Range-1 (phash2), Range in 1..2^32.
Term bif_phash2(Process*, Term* a) { return make_small(make_hash2(a[0]) & ((1u << 27) - 1)); }

static bool hash_range(Term t, std::uint64_t* range) {
    auto r = integer_to_int64(t);
    if (!r || *r < 1 || *r > (std::int64_t(1) << 32)) return false;
    *range = std::uint64_t(*r);
    return true;
}

Term bif_phash2_2(Process* p, Term* a) {
    std::uint64_t range;
    if (!hash_range(a[1], &range)) return p->badarg();
    return make_small(SWord(make_hash2(a[0]) % range));
}

Term bif_phash(Process* p, Term* a) {
    std::uint64_t range;
    if (!hash_range(a[1], &range)) return p->badarg();
    return make_small(SWord(make_hash(a[0]) % range + 1));
}

}  // namespace beamlet::bif

namespace beamlet::bif {
using namespace vm;

Term bif_make_fun(Process* p, Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1]) || !is_small(a[2]) || small_value(a[2]) < 0 || small_value(a[2]) > 255)
        return p->badarg();
    Export* e = p->vm.exports.get(a[0], a[1], Word(small_value(a[2])));
    Term* hp = p->alloc(2);
    hp[0] = make_header(1, Subtag::Export);
    hp[1] = reinterpret_cast<Word>(e);
    return make_boxed(hp);
}

}  // namespace beamlet::bif

namespace beamlet::bif {
using namespace vm;

// erlang:fun_info_mfa/1: {Module, Name, Arity} of a fun (proc_lib's initial calls).
Term bif_fun_info_mfa(Process* p, Term* a) {
    Term fun = a[0];
    if (!is_fun(fun)) return p->badarg();
    if (is_export_fun(fun)) {
        const Export* e = reinterpret_cast<const Export*>(boxed_ptr(fun)[1]);
        return make_tuple_on(p, {e->module, e->function, make_small(SWord(e->arity))});
    }
    const FunEntry* fe = reinterpret_cast<const FunEntry*>(boxed_ptr(fun)[1]);
    return make_tuple_on(p, {fe->module_name, fe->function, make_small(SWord(fe->user_arity()))});
}

namespace {
// The name of [fe]'s function; for a fun whose calls take the detour (the stand-in of a fun
// decoded before its module was loaded, or a fun of code being purged or purged), the name in
// the module loaded since (current or old), if it is that code (same MD5); else [], as erts
// says when no code is loaded for the fun.
Term fun_name(Vm& vm, const FunEntry* fe) {
    if (fe->runs_own_code()) return fe->function;
    const std::uint8_t* md5 = fe->module ? fe->module->md5 : fe->stub_md5;
    for (const Module* m : {vm.find_module(fe->module_name), vm.find_old_module(fe->module_name)}) {
        if (!m || m == fe->module || !std::equal(md5, md5 + 16, m->md5)) continue;
        for (const auto& f : m->funs)
            if (f->index == fe->index && f->arity == fe->arity) return f->function;
    }
    return NIL;
}
}  // namespace

// erlang:fun_info/2 for the items that have a meaning here.
Term bif_fun_info(Process* p, Term* a) {
    Term fun = a[0], item = a[1];
    if (!is_fun(fun) || !is_atom(item)) return p->badarg();
    Term value;
    if (is_export_fun(fun)) {
        const Export* e = reinterpret_cast<const Export*>(boxed_ptr(fun)[1]);
        if (item == atoms::arity) value = make_small(SWord(e->arity));
        else if (item == atoms::module) value = e->module;
        else if (item == atoms::name) value = e->function;
        else if (item == atoms::type) value = atoms::external;
        else if (item == atoms::env) value = NIL;
        else if (item == atoms::pid || item == atoms::index || item == atoms::uniq || item == atoms::new_index ||
                 item == atoms::new_uniq)
            value = atoms::undefined;
        else return p->badarg();
    } else {
        const Term* obj = boxed_ptr(fun);
        const FunEntry* fe = reinterpret_cast<const FunEntry*>(obj[1]);
        if (item == atoms::arity) value = make_small(SWord(fe->user_arity()));
        else if (item == atoms::module) value = fe->module_name;
        else if (item == atoms::name) value = fun_name(p->vm, fe);
        else if (item == atoms::type) value = atoms::local;
        else if (item == atoms::pid) value = obj[2];
        else if (item == atoms::index || item == atoms::new_index) value = make_small(SWord(fe->index));
        else if (item == atoms::uniq) value = make_small(SWord(fe->old_uniq));
        else if (item == atoms::new_uniq) {
            const std::uint8_t* md5 = fe->module ? fe->module->md5 : fe->stub_md5;
            static const std::uint8_t none[16] = {};
            value = make_binary(p, md5 ? md5 : none, 16);
        }
        else if (item == atoms::env) {
            value = NIL;
            for (Word i = fe->num_free; i-- > 0;) value = make_cons_on(p->alloc(2), obj[3 + i], value);
        } else return p->badarg();
    }
    return make_tuple_on(p, {item, value});
}

}  // namespace beamlet::bif

namespace beamlet::bif {
// erlang:module_loaded/1: true if [Module] is loaded (it is never loaded by this call).
vm::Term bif_module_loaded(vm::Process* p, vm::Term* a) {
    if (!vm::is_atom(a[0])) return p->badarg();
    return vm::make_bool(p->vm.find_module(a[0]) != nullptr);
}
}  // namespace beamlet::bif

namespace beamlet::bif {

// net_kernel:dflag_unicode_io(Pid): whether Pid's node takes unicode io requests (OTP's io
// module asks before every request). Every process is local here.
vm::Term bif_dflag_unicode_io(vm::Process*, vm::Term*) { return vm::atoms::true_; }

}  // namespace beamlet::bif
