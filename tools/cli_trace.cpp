// tools/cli_trace.cpp — the native half of `beamlet trace`: the tracer module that queues
// events, the writer thread that formats them, and the BIFs the Erlang half calls.
#include "tools/cli_trace.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "bif/bifs.hpp"
#include "bif/term_format.hpp"
#include "tools/svg_render.hpp"
#include "tools/trace_writers.hpp"
#include "tracing/native_tracers.hpp"
#include "vm/thread_signals.hpp"
#include "vm/atom_table.hpp"
#include "vm/block_cache.hpp"
#include "vm/copy.hpp"
#include "vm/heap.hpp"
#include "vm/map.hpp"
#include "vm/node.hpp"
#include "vm/process.hpp"
#include "vm/scheduler.hpp"
#include "vm/vm.hpp"

namespace beamlet::tools {

using namespace vm;

bool parse_trace_format(const std::string& name, TraceFormat* out) {
    static const std::pair<const char*, TraceFormat> names[] = {
        {"text", TraceFormat::Text}, {"json", TraceFormat::Json}, {"chrome", TraceFormat::Chrome},
        {"seq", TraceFormat::Sequence}, {"flame", TraceFormat::Flame}};
    for (const auto& [n, f] : names)
        if (name == n) {
            *out = f;
            return true;
        }
    return false;
}

namespace {

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

// ---- the tracer: events in, queued ----------------------------------------------------------------

struct CliTrace::Impl final : tracing::NativeTracer {
    Impl(Vm& vm_, CliTraceOptions options_)
        : vm(vm_), options(std::move(options_)), counting(options.max_events != 0 || options.progress) {}

    Vm& vm;
    CliTraceOptions options;
    std::int64_t start_ns = now_ns();
    std::string error;

    // Events from the tracing threads to the writer: a lock-free list the tracing threads push
    // to and the writer takes whole, newest first (no lock, no wake-up call per event).
    struct QueuedRecord {
        QueuedRecord* next = nullptr;
        TraceRecord record;
    };
    std::atomic<QueuedRecord*> pending{nullptr};
    std::uint64_t written = 0;             // events the writer took (the writer's own)
    std::atomic<bool> finishing{false};
    std::mutex mutex;                      // stop_reason, and finish() once

    std::atomic<bool> stopped{false};
    // Events that came (counted only for --max-events and --progress: a shared counter costs
    // every event a contended cache line) and those dropped after a limit.
    std::atomic<std::uint64_t> received{0}, dropped{0};
    const bool counting;
    std::atomic<std::int64_t> window_start_ns{0};
    std::atomic<std::uint64_t> window_count{0};
    std::string stop_reason;  // under [mutex]

    std::unique_ptr<TraceWriter> writer;
    std::thread writer_thread, progress_thread;
    std::atomic<bool> progress_done{false};

    tracing::TracerVerdict enabled(Term, Term, Term) const override {
        return stopped.load(std::memory_order_relaxed) ? tracing::TracerVerdict::Discard : tracing::TracerVerdict::Trace;
    }

    void trace(Term, Term tag, Term tracee, Term term, const tracing::TracerOpts& opts) const override {
        // A call's {message, Term} comes as match_spec_result; it is the call's extra here.
        Term extra = opts.match_spec_result && opts.match_spec_result != atoms::true_ ? opts.match_spec_result : opts.extra;
        const_cast<Impl*>(this)->capture(tag, tracee, term, extra);
    }

    // On the event's thread: the limits, then a copy of the event for the writer. [names]:
    // {Pid, Name} pairs for pids of other nodes (--node), which this VM cannot look up.
    void capture(Term tag, Term tracee, Term term, Term extra, Term names = NIL) {
        if (stopped.load(std::memory_order_relaxed)) {
            dropped.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        std::uint64_t n = counting ? received.fetch_add(1, std::memory_order_relaxed) + 1 : 0;
        std::int64_t t = now_ns();
        if (options.max_events && n > options.max_events) {
            stop("stopped after " + std::to_string(options.max_events) + " events (--max-events)");
            dropped.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        if (options.rate_max && over_rate(t)) {
            stop("stopped: more than " + std::to_string(options.rate_max) + " events in " +
                 std::to_string(options.rate_ms) + " ms (--max-rate)");
            dropped.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        TraceRecord r;
        r.ns = t - start_ns;
        r.tag = tag;
        r.scheduler = Schedulers::current_index() + 1;
        // The tracee is a pid or a port, or seq_trace's label (any term). Other nodes' pids
        // (--node) are their stable copies, one word for each pid as a local pid is: the
        // writers compare them and keep them past the record.
        tracee = stable_pid(tracee);
        term = stable_pid(term);
        extra = stable_pid(extra);
        auto words_of = [](Term t) { return !t || is_external_pid(t) ? Word(0) : term_size_words(t); };
        Word sizes[3] = {words_of(tracee), words_of(term), words_of(extra)};
        Word size = sizes[0] + sizes[1] + sizes[2];
        r.fragment = size ? HeapFragment::create(size, /*pooled=*/true) : nullptr;  // freed by the writer thread
        Term* hp = size ? r.fragment->data : nullptr;
        Term** off_heap = r.fragment ? &r.fragment->off_heap_first : nullptr;
        auto copy = [&](Term t, Word words) { return words ? copy_term(t, &hp, off_heap) : t; };
        // A send to a registered name: who had the name then (arrows and flows need the pid).
        static const Term am_send = atom("send");
        if (tag == am_send && extra && is_atom(extra))
            r.to_pid = vm.whereis_id(extra);
        r.tracee = copy(tracee, sizes[0]);
        r.term = copy(term, sizes[1]);
        r.extra = copy(extra, sizes[2]);
        if (r.fragment) r.fragment->used_words = size;
        bool seq = is_tuple(r.term) && tuple_arity(r.term) == 5 && !is_pid(tracee) && !is_port(tracee);
        if (seq) {  // seq_trace's {Kind, Serial, From, To, Message}: From and To (in our copy) too
            Term* info = boxed_ptr(r.term) + 1;
            info[2] = stable_pid(info[2]);
            info[3] = stable_pid(info[3]);
        }
        // Names of pids met for the first time, while their processes still live: the
        // tracee, a pid that is the event (spawn, link), a send's receiver (or the holder of
        // the name it was sent to), seq_trace's sender and receiver ({Kind, Serial, From, To,
        // Message}). Each thread remembers the pids it named (another thread may name one
        // again: the writer keeps the first name).
        thread_local struct {
            const Impl* trace = nullptr;
            std::unordered_set<Term> pids;  // never reused
        } named;
        if (named.trace != this) {
            named.trace = this;
            named.pids.clear();
        }
        for (Term pid : {tracee, term, extra, r.to_pid, seq ? tuple_element(term, 2) : 0, seq ? tuple_element(term, 3) : 0})
            if (pid && is_pid(pid) && !named.pids.count(pid))
                if (std::optional<std::string> name = process_name(vm, pid)) {  // not a process being born
                    named.pids.insert(pid);
                    r.names.emplace_back(pid, std::move(*name));
                }
        for (; is_list(names); names = cdr(names)) {
            Term pair = car(names);
            std::string name;
            if (is_tuple(pair) && tuple_arity(pair) == 2 && is_external_pid(tuple_element(pair, 0)) &&
                bif::iolist_to_bytes(tuple_element(pair, 1), &name))
                r.names.emplace_back(stable_pid(tuple_element(pair, 0)), std::move(name));
        }
        if (finishing.load(std::memory_order_acquire)) {  // the writer has gone
            free_fragment(r.fragment);
            dropped.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        auto* q = new (cached_alloc(sizeof(QueuedRecord))) QueuedRecord{nullptr, std::move(r)};
        QueuedRecord* head = pending.load(std::memory_order_relaxed);
        do {
            q->next = head;
        } while (!pending.compare_exchange_weak(head, q, std::memory_order_release, std::memory_order_relaxed));
    }

    static Term stable_pid(Term t) { return t && is_external_pid(t) ? stable_external(t) : t; }

    bool over_rate(std::int64_t t) {
        std::int64_t window = std::int64_t(options.rate_ms) * 1000000;
        std::int64_t begun = window_start_ns.load(std::memory_order_relaxed);
        if (t - begun >= window && window_start_ns.compare_exchange_strong(begun, t, std::memory_order_relaxed))
            window_count.store(0, std::memory_order_relaxed);
        return window_count.fetch_add(1, std::memory_order_relaxed) >= options.rate_max;
    }

    // A limit tripped: no more events; the Erlang half ends the session and says why.
    void stop(const std::string& why) {
        bool expected = false;
        if (!stopped.compare_exchange_strong(expected, true)) return;
        {
            std::lock_guard guard(mutex);
            stop_reason = why;
        }
        static const Term am_server = atom("beamlet_cli_trace");
        if (Term pid = vm.whereis_id(am_server); is_pid(pid)) {
            Term msg[3] = {make_arityval(2), atom("stop"), atom("limit")};
            vm.send_message(nullptr, pid, make_boxed(msg));
        }
    }

    // ---- the writer thread ----

    void start() {
        // The signal thread writes the trace out before the VM exits (tools/boot.cpp).
        vm::StopSignalsBlocked blocked;
        writer_thread = std::thread([this] { write_loop(); });
        if (options.progress) progress_thread = std::thread([this] { report_progress(); });
    }

    // Twice a second: events so far, dropped, and the rate over the last half second; on one
    // line rewritten in place on a terminal, a line each otherwise.
    void report_progress() {
        bool terminal = isatty(STDERR_FILENO);
        std::uint64_t last_n = 0;
        std::int64_t last_ns = now_ns();
        while (!progress_done.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
            if (progress_done.load()) break;
            std::uint64_t n = received.load();
            std::int64_t t = now_ns();
            double rate = double(n - last_n) * 1e9 / double(std::max<std::int64_t>(1, t - last_ns));
            last_n = n;
            last_ns = t;
            std::fprintf(stderr, "%sbeamlet trace: %llu events, %llu dropped, %.0f/s%s", terminal ? "\r" : "",
                         static_cast<unsigned long long>(n), static_cast<unsigned long long>(dropped.load()), rate,
                         terminal ? "   " : "\n");
        }
    }

    // The writer thread: takes what the tracing threads pushed, in time order, every
    // millisecond while events come (up to every 20 ms when none do).
    void write_loop() {
        // Below the schedulers: when they want every core, the program runs on and the trace
        // catches up (its events wait in memory).
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
        pthread_setname_np(pthread_self(), "beamlet-trace");
        std::vector<QueuedRecord*> batch;
        auto idle = std::chrono::milliseconds(1);
        while (true) {
            bool last = finishing.load(std::memory_order_acquire);
            QueuedRecord* list = pending.exchange(nullptr, std::memory_order_acquire);
            if (!list) {
                if (last) return;
                std::this_thread::sleep_for(idle);
                idle = std::min(idle * 2, std::chrono::milliseconds(20));
                continue;
            }
            idle = std::chrono::milliseconds(1);
            for (; list; list = list->next) batch.push_back(list);
            // Newest first as taken; threads that pushed together may have taken their time
            // stamps in the other order.
            std::reverse(batch.begin(), batch.end());
            std::stable_sort(batch.begin(), batch.end(),
                             [](const QueuedRecord* a, const QueuedRecord* b) { return a->record.ns < b->record.ns; });
            written += batch.size();
            for (QueuedRecord* q : batch) {
                writer->event(q->record);
                free_fragment(q->record.fragment);
                q->~QueuedRecord();
                cached_free(q, sizeof(QueuedRecord));
            }
            batch.clear();
            writer->flush();
        }
    }

    // The end: what is queued goes out, the writer closes its output (and draws pictures).
    void finish(const std::string& why) {
        {
            std::lock_guard guard(mutex);
            if (finishing.exchange(true, std::memory_order_acq_rel)) return;
        }
        if (writer_thread.joinable()) writer_thread.join();
        progress_done.store(true);
        if (progress_thread.joinable()) progress_thread.join();
        if (options.progress && isatty(STDERR_FILENO)) std::fputc('\n', stderr);
        std::string summary = writer->finish();
        std::string reason;
        {
            std::lock_guard guard(mutex);
            reason = stop_reason.empty() ? why : stop_reason;
        }
        if (options.profile) {  // the tables are the summary
            if (!reason.empty()) std::fprintf(stderr, "beamlet profile: %s\n", reason.c_str());
            return;
        }
        std::uint64_t n = written;
        std::fprintf(stderr, "beamlet trace: %llu events%s%s%s\n", static_cast<unsigned long long>(n),
                     summary.empty() ? "" : ", ", summary.c_str(), reason.empty() ? "" : ("; " + reason).c_str());
    }
};

namespace {

CliTrace::Impl* g_cli = nullptr;

// beamlet:cli_trace_spec() -> #{...}: what the command line asked for (the Erlang half's input).
Term bif_cli_trace_spec(Process* p, Term*) {
    if (!g_cli) return atoms::undefined;
    const CliTraceOptions& o = g_cli->options;
    Term patterns = NIL;
    for (auto it = o.patterns.rbegin(); it != o.patterns.rend(); ++it)
        patterns = make_cons_on(p->alloc(2), bif::utf8_to_list(p, *it), patterns);
    Term events = NIL;
    for (auto it = o.events.rbegin(); it != o.events.rend(); ++it) events = make_cons_on(p->alloc(2), atom(*it), events);
    // Calls need their returns for slices (chrome) and stacks (flame).
    bool returns = o.format == TraceFormat::Chrome || o.format == TraceFormat::Flame;
    Term nodes = NIL;
    for (auto it = o.nodes.rbegin(); it != o.nodes.rend(); ++it) nodes = make_cons_on(p->alloc(2), atom(*it), nodes);
    return map_from_pairs(p, {{atom("kind"), atom(o.profile ? "profile" : "trace")},
                              {atom("nodes"), nodes},
                              {atom("patterns"), patterns},
                              {atom("procs"), bif::utf8_to_list(p, o.procs)},
                              {atom("events"), events},
                              {atom("global"), make_bool(o.global)},
                              {atom("returns"), make_bool(returns)},
                              {atom("time_limit"), o.time_limit_ms ? make_small(SWord(o.time_limit_ms)) : atoms::infinity},
                              {atom("per_process"), make_bool(o.per_process)},
                              {atom("sort"), atom(o.sort)}});
}

// beamlet:cli_trace_note(Text): a line on stderr ("beamlet trace: Text").
Term bif_cli_trace_note(Process* p, Term* a) {
    std::string text;
    if (!bif::iolist_to_bytes(a[0], &text)) return p->badarg();
    p->vm.flush_stdout();
    std::fprintf(stderr, "beamlet %s: %s\n", g_cli && g_cli->options.profile ? "profile" : "trace", text.c_str());
    return atoms::ok;
}

// beamlet:cli_trace_write(IoData): text for the output (beamlet profile's tables).
Term bif_cli_trace_write(Process* p, Term* a) {
    std::string text;
    if (!g_cli || !bif::iolist_to_bytes(a[0], &text)) return p->badarg();
    p->vm.flush_stdout();
    g_cli->writer->raw(text);
    g_cli->writer->flush();
    return atoms::ok;
}

// beamlet:cli_trace_calls_return(Bool): every traced call reports its return.
Term bif_cli_trace_calls_return(Process* p, Term* a) {
    if (!g_cli || (a[0] != atoms::true_ && a[0] != atoms::false_)) return p->badarg();
    g_cli->writer->calls_return(a[0] == atoms::true_);
    return atoms::ok;
}

// beamlet_cli_tracer:enabled/3 and trace/5, for code that calls the tracer module itself
// (seq_trace:set_system_tracer/1 checks it with enabled/3).
Term bif_cli_tracer_enabled(Process* p, Term* a) {
    return g_cli ? tracing::call_native_enabled(*g_cli, a) : p->badarg();
}
Term bif_cli_tracer_trace(Process* p, Term* a) { return g_cli ? tracing::call_native_trace(*g_cli, a) : p->badarg(); }

// beamlet:cli_trace_finish(Reason): the session is over and every event delivered.
// beamlet:cli_trace_event(TraceMessage, Names): a trace message from another node (--node:
// dbg's relay there sends them to this node's dbg) as an event of this trace: {trace, Tracee,
// Tag, Term[, Extra]}, the same with trace_ts and a time stamp last, or {seq_trace, Label,
// Info[, TimeStamp]}. Names: [{Pid, Name}] for the pids it shows for the first time.
Term bif_cli_trace_event(Process* p, Term* a) {
    if (!g_cli || !is_tuple(a[0]) || !(is_list(a[1]) || is_nil(a[1]))) return p->badarg();
    static const Term am_trace = atom("trace"), am_trace_ts = atom("trace_ts"), am_seq_trace = atom("seq_trace");
    Term m = a[0];
    Word n = tuple_arity(m);
    auto el = [&](Word i) { return tuple_element(m, i); };
    Term kind = el(0);
    if (kind == am_trace_ts) --n;  // without its time stamp
    if ((kind == am_trace || kind == am_trace_ts) && (n == 4 || n == 5)) {
        g_cli->capture(el(2), el(1), el(3), n == 5 ? el(4) : 0, a[1]);
    } else if (kind == am_seq_trace && (n == 3 || n == 4)) {
        g_cli->capture(am_seq_trace, el(1), el(2), 0, a[1]);
    } else {
        return p->badarg();
    }
    return atoms::ok;
}

Term bif_cli_trace_finish(Process* p, Term* a) {
    if (!g_cli) return p->badarg();
    std::string why = is_atom(a[0]) && a[0] != atom("main_exited") ? atom_text(a[0]) : "";
    if (why == "time_limit") why = "stopped at the time limit (--time-limit)";
    p->vm.flush_stdout();
    g_cli->finish(why);
    return atoms::ok;
}

}  // namespace

CliTrace::CliTrace(Vm& vm, CliTraceOptions options) : m_impl(std::make_unique<Impl>(vm, std::move(options))) {
    m_impl->writer = make_trace_writer(vm, m_impl->options, &m_impl->error);
}

CliTrace::~CliTrace() {
    if (g_cli == m_impl.get()) {
        m_impl->finish("");
        tracing::register_native_tracer(atom("beamlet_cli_tracer"), nullptr);
        g_cli = nullptr;
    }
}

void CliTrace::install() {
    if (!m_impl->writer) return;
    g_cli = m_impl.get();
    tracing::register_native_tracer(atom("beamlet_cli_tracer"), m_impl.get());
    m_impl->vm.register_bif(atom("beamlet"), atom("cli_trace_spec"), 0, bif_cli_trace_spec);
    m_impl->vm.register_bif(atom("beamlet"), atom("cli_trace_note"), 1, bif_cli_trace_note);
    m_impl->vm.register_bif(atom("beamlet"), atom("cli_trace_write"), 1, bif_cli_trace_write);
    m_impl->vm.register_bif(atom("beamlet"), atom("cli_trace_finish"), 1, bif_cli_trace_finish);
    m_impl->vm.register_bif(atom("beamlet"), atom("cli_trace_event"), 2, bif_cli_trace_event);
    m_impl->vm.register_bif(atom("beamlet"), atom("cli_trace_calls_return"), 1, bif_cli_trace_calls_return);
    m_impl->vm.register_bif(atom("beamlet_cli_tracer"), atom("enabled"), 3, bif_cli_tracer_enabled);
    m_impl->vm.register_bif(atom("beamlet_cli_tracer"), atom("trace"), 5, bif_cli_tracer_trace);
    m_impl->start();
}

void CliTrace::flush() {
    if (m_impl->writer) m_impl->finish("interrupted");
}

const std::string& CliTrace::error() const { return m_impl->error; }

}  // namespace beamlet::tools
