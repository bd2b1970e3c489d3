// vm/process.cpp — Process construction, fragment allocation and raising exceptions.
#include "vm/process.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/block_cache.hpp"
#include "vm/heap_blocks.hpp"
#include "vm/literal_area.hpp"
#include "vm/magic.hpp"
#include "vm/seq_trace.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

std::optional<Priority> priority_of(Term t) {
    static const Term names[] = {atom("max"), atom("high"), atom("normal"), atom("low")};
    for (int i = 0; i < 4; ++i)
        if (t == names[i]) return Priority(i);
    return std::nullopt;
}

Term priority_atom(Priority prio) {
    static const Term names[] = {atom("max"), atom("high"), atom("normal"), atom("low")};
    return names[int(prio)];
}

Term keep_monitor_tag(Term tag, std::shared_ptr<HeapFragment>* heap) {
    if (!is_boxed(tag) && !is_list(tag)) return tag;
    Term kept;
    heap->reset(copy_to_fragment(tag, &kept), free_fragment);
    return kept;
}

namespace {
std::atomic<std::uint64_t> g_incarnations{0};
}  // namespace

Process::Process(Vm& vm_, Word pid_number)
    : vm(vm_), id(make_pid(pid_number)), incarnation(g_incarnations.fetch_add(1, std::memory_order_relaxed) + 1) {
    heap_size_words = heap_block_words = next_heap_size_words(MIN_HEAP_SIZE_WORDS);
    heap = static_cast<Term*>(cached_alloc(heap_size_words * sizeof(Term)));
    heap_cached = true;
    htop = heap;
    hend = heap + heap_size_words;
    stop = hend;
    high_water = heap;
}

Term trap_yield(Process* p, const Export* shown_as, BifContinuation continuation, Word live) {
    p->continuation = std::move(continuation);
    p->trapped_in = shown_as;
    p->trap_live = live;
    p->suspend_for = SuspendFor::Nothing;
    p->exception = PendingException{};
    return THE_NON_VALUE;
}

Term Process::new_ref() {
    Word n = vm.next_ref.fetch_add(1, std::memory_order_relaxed) + 1;
    Term* hp = alloc(REF_WORDS);
    hp[0] = make_header(REF_WORDS - 1, Subtag::Ref);
    hp[1] = n & 0x3FFFF;
    hp[2] = n >> 18;
    hp[3] = 0;
    return make_boxed(hp);
}

void Process::reset_heap() {
    release_off_heap_list(off_heap_first);
    off_heap_first = nullptr;
    for (HeapFragment* f = mbuf; f;) {
        HeapFragment* next = f->next;
        HeapFragment::destroy(f);
        f = next;
    }
    mbuf = nullptr;
    mbuf_words = 0;
    htop = heap;
    stop = hend;
    high_water = heap;
    if (old_heap) old_htop = old_heap;
    dictionary.clear();
}

Process::~Process() {
    // Releases the off-heap binaries still referenced from the heap and fragments.
    release_off_heap_list(off_heap_first);
    // The native objects that monitor it (a process that never exited: the VM is going)
    // lose its monitor's reference without a down call.
    for (MagicHandle* h : resource_monitors) h->release();
    for (HeapFragment* f = mbuf; f;) {
        HeapFragment* next = f->next;
        HeapFragment::destroy(f);
        f = next;
    }
    auto free_message = [](const Message& m) {
        if (!m.fragment) return;
        release_off_heap_list(m.fragment->off_heap_first);
        HeapFragment::destroy(m.fragment);
    };
    for (Message& m : inbox) {
        if (m.kind == SignalKind::CopyLiterals) literal_release_done(reinterpret_cast<LiteralRelease*>(m.term));
        free_message(m);
    }
    queue.for_each(free_message);
    free_heap_block();
    heap_block_free(old_heap, Word(old_hend - old_heap) * sizeof(Term));
}

void Process::free_heap_block() {
    if (heap_cached) cached_free(heap, next_heap_size_words(MIN_HEAP_SIZE_WORDS) * sizeof(Term));
    else heap_block_free(heap, heap_block_words * sizeof(Term));
    heap_cached = false;
}

bool add_resource_monitor(Process* p, MagicHandle* h) {
    std::lock_guard guard(p->lock);
    if (p->exiting) return false;
    h->add_ref();
    p->resource_monitors.push_back(h);
    return true;
}

void remove_resource_monitor(Process* self, Term owner, MagicHandle* h) {
    std::shared_ptr<Process> keep;
    Process* o = owner == self->id ? self : (keep = self->vm.lookup_process(owner)).get();
    if (!o) return;
    bool found = false;
    {
        std::lock_guard guard(o->lock);
        auto it = std::find(o->resource_monitors.begin(), o->resource_monitors.end(), h);
        if (it != o->resource_monitors.end()) {
            o->resource_monitors.erase(it);
            found = true;
        }
    }
    if (found) h->release();
}

Term* Process::alloc_fragment(Word n) {
    // Small allocations share a fragment: thousands of one-object fragments would make the
    // next collection slow (it checks every pointer against every fragment).
    // A BIF building a large answer gets fragments that double in size (to 1M words), so that
    // a million small objects take a few dozen fragments, not thousands.
    if (mbuf && mbuf->size_words - mbuf->used_words >= n) return mbuf->alloc(n);
    constexpr Word MIN_WORDS = 512, MAX_GROWN_WORDS = Word(1) << 20;
    Word size = std::max(n, std::clamp(mbuf ? mbuf->size_words * 2 : MIN_WORDS, MIN_WORDS, MAX_GROWN_WORDS));
    HeapFragment* frag = HeapFragment::create(size);
    frag->next = mbuf;
    mbuf = frag;
    mbuf_words += size;
    return frag->alloc(n);
}

void Process::release_to(const AllocMark& mark) {
    while (off_heap_first != mark.off_heap_first) {
        Term* next = reinterpret_cast<Term*>(off_heap_first[4]);
        release_off_heap(off_heap_first);
        off_heap_first = next;
    }
    while (mbuf != mark.mbuf) {
        HeapFragment* next = mbuf->next;
        HeapFragment::destroy(mbuf);
        mbuf = next;
    }
    if (mbuf) mbuf->used_words = mark.mbuf_used;
    mbuf_words = mark.mbuf_words;
    htop = mark.htop;
}

Word Process::on_heap_message_words() const {
    static const Term am_message_queue_data = atom("message_queue_data"), am_off_heap = atom("off_heap");
    for (const auto& [flag, value] : kept_flags)
        if (flag == am_message_queue_data && value == am_off_heap) return 0;
    Word words = 0;
    queue.for_each([&](const Message& m) {
        if (m.fragment) words += m.fragment->used_words;
    });
    return words;
}

bool Process::fetch_inbox() {
    // Every message in the inbox or the queue is counted (a sender counts before it pushes,
    // under the lock): equal counts mean no message waits in the inbox, and the lock is not
    // needed to know it. One that arrives meanwhile is seen by the wait, under the lock.
    if (message_count.load(std::memory_order_relaxed) == queue.size()) return false;
    if (all_trace_flags.load(std::memory_order_relaxed) & TRACE_RECEIVE) {
        // Traced: the events are delivered outside the lock (a tracer may be tracing us).
        std::vector<Message> arrived;
        {
            std::lock_guard guard(lock);
            std::size_t n = 0;
            while (n < inbox.size() && inbox[n].kind == SignalKind::Message) ++n;
            arrived.assign(inbox.begin(), inbox.begin() + std::ptrdiff_t(n));
            inbox.erase(inbox.begin(), inbox.begin() + std::ptrdiff_t(n));
        }
        for (const Message& m : arrived) queue_message(m);
        return !arrived.empty();
    }
    std::size_t n = 0;
    {
        std::lock_guard guard(lock);
        while (n < inbox.size() && inbox[n].kind == SignalKind::Message) queue.push_back(inbox[n++]);
        if (n == inbox.size()) inbox.clear();
        else inbox.erase(inbox.begin(), inbox.begin() + std::ptrdiff_t(n));  // a signal waits
    }
    if (n > 0) queue_grew();
    return n > 0;
}

void Process::queue_grew() {
    const SystemMonitors& monitors = vm.system_monitors;
    std::size_t length = queue.size();
    if (length < monitors.msgq_on_min()) return;
    // Already "on" for every monitor as of now: nothing to report.
    if (long_msgq_epoch == monitors.epoch() && long_msgq_reported.size() == monitors.msgq_monitors()) return;
    vm.monitor_msgq(this, length);
}

void Process::queue_shrank() {
    if (long_msgq_reported.empty()) return;
    std::size_t length = queue.size();
    if (length <= vm.system_monitors.msgq_off_max()) vm.monitor_msgq(this, length);
}

void Process::queue_message(const Message& m) {
    queue.push_back(m);
    if ((all_trace_flags.load(std::memory_order_relaxed) & TRACE_RECEIVE) && vm.services.trace)
        vm.services.trace->message_queued(this, m);
    queue_grew();
}

void Process::remove_message() {
    Message m = queue.take_current();
    message_count.fetch_sub(1, std::memory_order_relaxed);
    queue_shrank();
    // seq_trace: a message from a process with a token, or without one while we hold one.
    if (m.seq_token != 0 && (m.seq_token != NIL || seq_token != NIL)) seq_trace_receive(this, m);
    adopt_fragment(m);
}

void Process::adopt_fragment(const Message& m) {
    if (HeapFragment* f = m.fragment) {
        f->next = mbuf;
        mbuf = f;
        mbuf_words += f->size_words;
        if (f->off_heap_first) adopt_binaries(f);
    }
}

void Process::adopt_binaries(HeapFragment* f) {
    // The message's off-heap binaries join the process's list, and count towards its next
    // collection (young_binary_words).
    Term* last = f->off_heap_first;
    young_binary_words += last[1] / sizeof(Word);
    while (last[4]) {
        last = reinterpret_cast<Term*>(last[4]);
        young_binary_words += last[1] / sizeof(Word);
    }
    last[4] = reinterpret_cast<Word>(off_heap_first);
    off_heap_first = f->off_heap_first;
    f->off_heap_first = nullptr;
}

Term Process::raise(Term cls, Term reason) {
    exception = PendingException{};
    exception.cls = cls;
    exception.reason = reason;
    return THE_NON_VALUE;
}

Term Process::error(Term reason) { return raise(atoms::error, reason); }
Term Process::badarg() { return error(atoms::badarg); }
Term Process::badarg(Term cause) {
    error(atoms::badarg);
    exception.error_cause = cause;
    return THE_NON_VALUE;
}
Term Process::badarith() { return error(atoms::badarith); }

}  // namespace beamlet::vm
