// vm/system_monitor.cpp — the system monitors' list and the events they get: long_gc,
// large_heap, long_schedule (processes and ports), busy_port and long_message_queue.
#include "vm/system_monitor.hpp"

#include <algorithm>

#include "vm/atom_table.hpp"
#include "vm/port.hpp"
#include "vm/port_table.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

void SystemMonitors::set(Word owner, Term receiver, const MonitorLimits& limits) {
    std::lock_guard guard(m_mutex);
    auto it = std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry& e) { return e.owner == owner; });
    if (!limits.any()) {
        if (it != m_entries.end()) m_entries.erase(it);
    } else {
        if (it == m_entries.end()) it = m_entries.insert(m_entries.end(), Entry{owner, receiver, {}, 0});
        const MonitorLimits& old = it->limits;
        bool msgq_changed = old.long_msgq != limits.long_msgq || old.msgq_on != limits.msgq_on ||
                            old.msgq_off != limits.msgq_off || it->receiver != receiver;
        if (limits.long_msgq && (msgq_changed || !it->msgq_generation)) it->msgq_generation = m_next_generation++;
        if (!limits.long_msgq) it->msgq_generation = 0;
        it->receiver = receiver;
        it->limits = limits;
    }
    summarize_locked();
}

void SystemMonitors::remove(Word owner) {
    std::lock_guard guard(m_mutex);
    std::erase_if(m_entries, [&](const Entry& e) { return e.owner == owner; });
    summarize_locked();
}

void SystemMonitors::remove_if_receiver(Word owner, Term receiver) {
    std::lock_guard guard(m_mutex);
    std::erase_if(m_entries, [&](const Entry& e) { return e.owner == owner && e.receiver == receiver; });
    summarize_locked();
}

std::optional<SystemMonitors::Entry> SystemMonitors::get(Word owner) const {
    std::lock_guard guard(m_mutex);
    for (const Entry& e : m_entries)
        if (e.owner == owner) return e;
    return std::nullopt;
}

std::vector<SystemMonitors::Entry> SystemMonitors::snapshot() const {
    std::lock_guard guard(m_mutex);
    return m_entries;
}

void SystemMonitors::summarize_locked() {
    auto lowest = [&](std::uint64_t MonitorLimits::*limit) {
        std::uint64_t low = 0;
        for (const Entry& e : m_entries)
            if (std::uint64_t v = e.limits.*limit; v && (!low || v < low)) low = v;
        return low;
    };
    std::uint64_t on_min = std::numeric_limits<std::uint64_t>::max(), off_max = 0;
    bool busy_port = false;
    std::size_t msgq_monitors = 0;
    for (const Entry& e : m_entries) {
        busy_port |= e.limits.busy_port;
        if (!e.limits.long_msgq) continue;
        ++msgq_monitors;
        on_min = std::min(on_min, e.limits.msgq_on);
        off_max = std::max(off_max, e.limits.msgq_off);
    }
    m_long_gc_ms.store(lowest(&MonitorLimits::long_gc_ms), std::memory_order_relaxed);
    m_long_schedule_ms.store(lowest(&MonitorLimits::long_schedule_ms), std::memory_order_relaxed);
    m_large_heap_words.store(lowest(&MonitorLimits::large_heap_words), std::memory_order_relaxed);
    m_busy_port.store(busy_port, std::memory_order_relaxed);
    m_msgq_on_min.store(on_min, std::memory_order_relaxed);
    m_msgq_off_max.store(off_max, std::memory_order_relaxed);
    m_msgq_monitors.store(msgq_monitors, std::memory_order_relaxed);
    m_active.store(!m_entries.empty(), std::memory_order_relaxed);
    m_epoch.fetch_add(1, std::memory_order_release);
}

// ---- the events ----

namespace {
Term pair_on(Term* hp, Term key, Term value) {
    hp[0] = make_arityval(2);
    hp[1] = key;
    hp[2] = value;
    return make_boxed(hp);
}
}  // namespace

void Vm::notify_monitor(Term receiver, Term msg) {
    if (is_pid(receiver)) {
        send_message(nullptr, receiver, msg);
    } else if (is_port(receiver)) {
        // A session's tracer may be a port: the message in the external format, as a command.
        if (std::shared_ptr<Port> port = port_table->lookup(receiver)) port->post_term(msg);
    }
}

void Vm::monitor_gc(Process* p, std::uint64_t ms) {
    Word heap_block = p->heap_size_words, old_block = Word(p->old_hend - p->old_heap);
    // [{timeout, Ms}] (long_gc only) and the heap figures, as OTP reports them.
    const std::pair<const char*, Word> figures[] = {
        {"old_heap_block_size", old_block}, {"heap_block_size", heap_block}, {"mbuf_size", p->mbuf_words},
        {"stack_size", p->stack_used_words()}, {"old_heap_size", Word(p->old_htop - p->old_heap)},
        {"heap_size", Word(p->htop - p->heap)}};
    Term words[7 * 5 + 2 * 7 + 6];
    auto build_info = [&](bool with_timeout) {
        Term* hp = words;
        Term list = NIL;
        for (int i = 5; i >= 0; --i) {
            Term item = pair_on(hp, atom(figures[i].first), make_small(SWord(figures[i].second)));
            hp += 3;
            list = make_cons_on(hp, item, list);
            hp += 2;
        }
        if (with_timeout) {
            Term item = pair_on(hp, atom("timeout"), make_small(SWord(ms)));
            hp += 3;
            list = make_cons_on(hp, item, list);
            hp += 2;
        }
        return list;
    };
    auto send = [&](Term receiver, const char* event, Term info) {
        Term msg[5] = {make_arityval(4), atom("monitor"), p->id, atom(event), info};
        notify_monitor(receiver, make_boxed(msg));
    };
    for (const SystemMonitors::Entry& m : system_monitors.snapshot()) {
        if (m.receiver == p->id) continue;
        const MonitorLimits& l = m.limits;
        if (l.long_gc_ms && ms >= l.long_gc_ms) send(m.receiver, "long_gc", build_info(true));
        if (l.large_heap_words && heap_block + old_block >= l.large_heap_words)
            send(m.receiver, "large_heap", build_info(false));
    }
}

void Vm::monitor_schedule(Term who, std::uint64_t ms, std::initializer_list<std::pair<Term, Term>> info) {
    Term words[4 * 5 + 5];
    Term list = NIL;
    Term* hp = words;
    for (auto it = std::rbegin(info); it != std::rend(info); ++it) {
        Term item = pair_on(hp, it->first, it->second);
        hp += 3;
        list = make_cons_on(hp, item, list);
        hp += 2;
    }
    Term msg[5] = {make_arityval(4), atom("monitor"), who, atom("long_schedule"), list};
    for (const SystemMonitors::Entry& m : system_monitors.snapshot())
        if (m.receiver != who && m.limits.long_schedule_ms && ms >= m.limits.long_schedule_ms)
            notify_monitor(m.receiver, make_boxed(msg));
}

void Vm::monitor_schedule(Process* p, std::uint64_t ms, Term in, Term out) {
    std::uint64_t limit = system_monitors.long_schedule_ms();
    if (!limit || ms < limit) return;
    monitor_schedule(p->id, ms, {{atom("timeout"), make_small(SWord(ms))}, {atom("in"), in}, {atom("out"), out}});
}

void Vm::monitor_busy_port(Term pid, Term port) {
    if (!system_monitors.busy_port()) return;
    Term msg[5] = {make_arityval(4), atom("monitor"), pid, atom("busy_port"), port};
    for (const SystemMonitors::Entry& m : system_monitors.snapshot())
        if (m.limits.busy_port && m.receiver != pid) notify_monitor(m.receiver, make_boxed(msg));
}

void Vm::monitor_msgq(Process* p, std::size_t length) {
    static const Term am_long_message_queue = atom("long_message_queue");
    auto send = [&](Term receiver, Term on) {
        Term msg[5] = {make_arityval(4), atom("monitor"), p->id, am_long_message_queue, on};
        notify_monitor(receiver, make_boxed(msg));
    };
    std::vector<std::uint64_t>& reported = p->long_msgq_reported;
    p->long_msgq_epoch = system_monitors.epoch();
    std::vector<SystemMonitors::Entry> monitors = system_monitors.snapshot();
    // Off: the monitors whose "on" this process reported and whose queue is down to their
    // Disable; a setting changed or removed meanwhile is forgotten without a word.
    std::erase_if(reported, [&](std::uint64_t generation) {
        auto it = std::find_if(monitors.begin(), monitors.end(),
                               [&](const SystemMonitors::Entry& m) { return m.msgq_generation == generation; });
        if (it == monitors.end()) return true;
        if (length > it->limits.msgq_off) return false;
        send(it->receiver, atoms::false_);
        return true;
    });
    // On: the monitors whose Enable the queue has reached.
    for (const SystemMonitors::Entry& m : monitors) {
        if (!m.limits.long_msgq || length < m.limits.msgq_on || m.receiver == p->id) continue;
        if (std::find(reported.begin(), reported.end(), m.msgq_generation) != reported.end()) continue;
        reported.push_back(m.msgq_generation);
        send(m.receiver, atoms::true_);
    }
}

}  // namespace beamlet::vm
