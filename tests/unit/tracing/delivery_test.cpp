// tests/unit/tracing/delivery_test.cpp — the delivery layer and process flags on their own:
// trace message shapes built in fragments and enqueued on the tracer's inbox, timestamp
// precedence and the scheduler id, discarding (tracer = tracee, no tracer), a gone tracer
// taking the session's flags with it, the lock-free ref read, set_on_first_spawn, the
// match-spec actions' tracer replacement, and message patterns through the staged sequence.
#include <gtest/gtest.h>

#include <memory>

#include "tools/boot.hpp"
#include "tracing/breakpoints.hpp"
#include "tracing/delivery.hpp"
#include "matchspec/match_spec.hpp"
#include "tracing/process_flags.hpp"
#include "tracing/sessions.hpp"
#include "vm/atom_table.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beamlet {
namespace {

using tracing::DeliveryResult;
using tracing::TraceEvent;
using vm::atom;
using vm::make_small;
using vm::Term;
using vm::Tracer;

class Delivery : public testing::Test {
protected:
    void SetUp() override {
        tools::BootOptions options;
        m_runtime = std::make_unique<tools::Runtime>(options);
        m_tracee = add_process();
        m_tracer = add_process();
    }
    void TearDown() override {
        for (auto& p : m_processes) vm().remove_process(p.get());
    }

    vm::Vm& vm() { return m_runtime->vm(); }

    vm::Process* add_process() {
        auto p = std::make_shared<vm::Process>(vm(), 1000 + m_processes.size());
        vm().add_process(p);
        m_processes.push_back(p);
        return p.get();
    }

    // The message at the head of [p]'s inbox, taken off it.
    Term take(vm::Process* p) {
        std::lock_guard guard(p->lock);
        if (p->inbox.empty()) return 0;
        vm::Message m = p->inbox.front();
        p->inbox.erase(p->inbox.begin());
        m_keep.push_back(m.fragment);
        return m.term;
    }

    TraceEvent send_event(Term msg, Term to) {
        return TraceEvent{m_tracee->id, vm::atoms::send, {msg, to}};
    }

    std::unique_ptr<tools::Runtime> m_runtime;
    std::vector<std::shared_ptr<vm::Process>> m_processes;
    std::vector<vm::HeapFragment*> m_keep;
    vm::Process* m_tracee = nullptr;
    vm::Process* m_tracer = nullptr;

public:
    ~Delivery() override {
        for (vm::HeapFragment* f : m_keep) vm::free_fragment(f);
    }
};

TEST_F(Delivery, BuildsTheTupleInAFragmentOnTheTracersInbox) {
    Term msg_words[3] = {vm::make_arityval(2), atom("hello"), make_small(42)};
    Term msg = vm::make_boxed(msg_words);  // a term on the C++ stack: delivery copies it
    auto r = tracing::deliver(vm(), Tracer::process(m_tracer->id), 0, send_event(msg, m_tracer->id));
    ASSERT_EQ(r, DeliveryResult::Delivered);
    Term t = take(m_tracer);
    ASSERT_TRUE(vm::is_tuple(t));
    ASSERT_EQ(vm::tuple_arity(t), 5u);
    EXPECT_EQ(vm::tuple_element(t, 0), vm::atoms::trace);
    EXPECT_EQ(vm::tuple_element(t, 1), m_tracee->id);
    EXPECT_EQ(vm::tuple_element(t, 2), vm::atoms::send);
    EXPECT_TRUE(vm::terms_exact_equal(vm::tuple_element(t, 3), msg));
    EXPECT_NE(vm::boxed_ptr(vm::tuple_element(t, 3)), msg_words);
    EXPECT_EQ(vm::tuple_element(t, 4), m_tracer->id);
    EXPECT_EQ(take(m_tracer), 0u);  // exactly one message
}

TEST_F(Delivery, TimestampPrecedenceAndSchedulerIdBeforeIt) {
    auto shape = [&](std::uint32_t flags) {
        EXPECT_EQ(tracing::deliver(vm(), Tracer::process(m_tracer->id), flags, send_event(atom("m"), m_tracer->id)),
                  DeliveryResult::Delivered);
        return take(m_tracer);
    };
    Term now = shape(vm::TRACE_TS_NOW | vm::TRACE_TS_STRICT | vm::TRACE_TS_MONO);
    EXPECT_EQ(vm::tuple_element(now, 0), vm::atoms::trace_ts);
    Term ts = vm::tuple_element(now, 5);
    ASSERT_TRUE(vm::is_tuple(ts));
    EXPECT_EQ(vm::tuple_arity(ts), 3u);  // {Mega, Sec, Micro}: timestamp wins
    Term strict = vm::tuple_element(shape(vm::TRACE_TS_STRICT | vm::TRACE_TS_MONO), 5);
    ASSERT_TRUE(vm::is_tuple(strict));
    EXPECT_EQ(vm::tuple_arity(strict), 2u);  // {Mono, Unique}: strict over monotonic
    EXPECT_TRUE(vm::is_small(vm::tuple_element(shape(vm::TRACE_TS_MONO), 5)));
    Term with_id = shape(vm::TRACE_SCHEDULER_ID | vm::TRACE_TS_MONO);
    ASSERT_EQ(vm::tuple_arity(with_id), 7u);
    EXPECT_TRUE(vm::is_small(vm::tuple_element(with_id, 5)));  // scheduler id, then the timestamp
    EXPECT_TRUE(vm::is_small(vm::tuple_element(with_id, 6)));
    Term plain = shape(0);
    EXPECT_EQ(vm::tuple_element(plain, 0), vm::atoms::trace);
    EXPECT_EQ(vm::tuple_arity(plain), 5u);
}

TEST_F(Delivery, NowTimestampsStrictlyIncrease) {
    Term first = 0;
    for (int i = 0; i < 100; ++i) {
        tracing::deliver(vm(), Tracer::process(m_tracer->id), vm::TRACE_TS_NOW, send_event(atom("m"), m_tracer->id));
        Term ts = vm::tuple_element(take(m_tracer), 5);
        if (first) {
            EXPECT_LT(vm::compare_terms(first, ts), 0);
        }
        first = ts;
    }
}

TEST_F(Delivery, MatchSpecResultComesAfterTheData) {
    TraceEvent e = send_event(atom("m"), m_tracer->id);
    e.extra = atom("marked");
    tracing::deliver(vm(), Tracer::process(m_tracer->id), 0, e);
    Term t = take(m_tracer);
    ASSERT_EQ(vm::tuple_arity(t), 6u);
    EXPECT_EQ(vm::tuple_element(t, 5), atom("marked"));
}

TEST_F(Delivery, ATracerThatIsTheTraceeOrNoneGetsNothing) {
    EXPECT_EQ(tracing::deliver(vm(), Tracer::process(m_tracee->id), 0, send_event(atom("m"), m_tracer->id)),
              DeliveryResult::Discarded);
    EXPECT_EQ(tracing::deliver(vm(), Tracer(), 0, send_event(atom("m"), m_tracer->id)), DeliveryResult::Discarded);
    EXPECT_EQ(take(m_tracee), 0u);
}

TEST_F(Delivery, AGoneTracerTakesTheSessionsFlagsWithIt) {
    vm::TraceSession* session = &tracing::legacy_session();
    Tracer dead = Tracer::process(vm::make_pid(999999));
    ASSERT_TRUE(tracing::set_process_flags(vm(), m_tracee, session, dead, vm::TRACE_SEND, true, true));
    EXPECT_EQ(m_tracee->all_trace_flags.load(), vm::TRACE_SEND);
    vm::TracerRef ref = tracing::process_trace_ref(m_tracee, session);
    EXPECT_FALSE(tracing::deliver_for(vm(), m_tracee, ref, send_event(atom("m"), m_tracer->id)));
    EXPECT_EQ(m_tracee->all_trace_flags.load(), 0u);
    EXPECT_EQ(tracing::process_trace_ref(m_tracee, session).flags, 0u);
}

TEST_F(Delivery, OneSessionIsReadWithoutTheLockAndSeveralWithIt) {
    vm::TraceSession* legacy = &tracing::legacy_session();
    vm::TraceSession* other = tracing::create_session(atom("unit_other"), Tracer::process(m_tracer->id));
    tracing::set_process_flags(vm(), m_tracee, legacy, Tracer::process(m_tracer->id), vm::TRACE_SEND, true);
    int seen = 0;
    tracing::for_each_ref(m_tracee, vm::TRACE_SEND, [&](const vm::TracerRef& r) {
        EXPECT_EQ(r.session, legacy);
        ++seen;
    });
    EXPECT_EQ(seen, 1);
    EXPECT_EQ(m_tracee->sole_trace_session.load(), legacy);
    tracing::set_process_flags(vm(), m_tracee, other, Tracer::process(m_tracer->id), vm::TRACE_SEND | vm::TRACE_PROCS,
                               true);
    EXPECT_EQ(m_tracee->sole_trace_session.load(), nullptr);
    seen = 0;
    tracing::for_each_ref(m_tracee, vm::TRACE_PROCS, [&](const vm::TracerRef& r) {
        EXPECT_EQ(r.session, other);
        ++seen;
    });
    EXPECT_EQ(seen, 1);
    tracing::retire_session(other);
}

TEST_F(Delivery, SetOnFirstSpawnOverridesSetOnSpawnInBoth) {
    vm::TraceSession* legacy = &tracing::legacy_session();
    vm::Process* child = add_process();
    tracing::set_process_flags(vm(), m_tracee, legacy, Tracer::process(m_tracer->id),
                               vm::TRACE_PROCS | vm::TRACE_SOS | vm::TRACE_SOS1, true);
    tracing::inherit_on_spawn(m_tracee, child);
    EXPECT_EQ(tracing::process_trace_ref(child, legacy).flags, vm::TRACE_PROCS);
    EXPECT_EQ(tracing::process_trace_ref(m_tracee, legacy).flags, vm::TRACE_PROCS);
    EXPECT_EQ(tracing::process_trace_ref(child, legacy).tracer, Tracer::process(m_tracer->id));
}

TEST_F(Delivery, ReplacingARefWithoutATracerUntracesTheProcess) {
    vm::TraceSession* legacy = &tracing::legacy_session();
    tracing::set_process_flags(vm(), m_tracee, legacy, Tracer::process(m_tracer->id), vm::TRACE_CALL, true);
    tracing::replace_trace_ref(m_tracee, legacy, Tracer(), vm::TRACE_CALL);
    EXPECT_EQ(tracing::process_trace_ref(m_tracee, legacy).flags, 0u);
    EXPECT_EQ(m_tracee->all_trace_flags.load(), 0u);
}

TEST_F(Delivery, MessagePatternsGoThroughTheStagedSequence) {
    vm::TraceSession* session = tracing::create_session(atom("unit_patterns"), Tracer::process(m_tracer->id));
    Term clause[4] = {vm::make_arityval(3), vm::NIL, vm::NIL, vm::NIL};
    Term cells[4];
    clause[1] = vm::make_cons_on(cells, atom("_"), vm::make_cons_on(cells + 2, atom("_"), vm::NIL));
    Term spec_cells[2];
    Term spec = vm::make_cons_on(spec_cells, vm::make_boxed(clause), vm::NIL);
    matchspec::MatchSpec* ms = matchspec::MatchSpec::compile(vm(), spec, nullptr, matchspec::MatchSpecKind::Send);
    ASSERT_NE(ms, nullptr);
    ms->add_ref();
    {
        tracing::BreakpointChange c;
        c.session = session;
        c.send = tracing::MessagePatternChange{true, true, ms};
        ASSERT_TRUE(tracing::stage(c));
        unsigned active = tracing::active_bp_index(), staging = tracing::staging_bp_index();
        EXPECT_EQ(session->send_pattern[active].ms, nullptr);  // running code sees no change yet
        EXPECT_EQ(session->send_pattern[staging].ms, ms);
        tracing::install(c);
        tracing::commit();
        EXPECT_EQ(session->send_pattern[tracing::active_bp_index()].ms, ms);
        tracing::uninstall(c);
        tracing::consolidate(c);
        for (const tracing::MessagePattern& p : session->send_pattern) {
            EXPECT_TRUE(p.on);
            EXPECT_EQ(p.ms, ms);  // both generations equal outside a change
        }
        tracing::free_unlinked(c);
    }
    tracing::BreakpointChange off;
    off.session = session;
    off.send = tracing::MessagePatternChange{true, false, nullptr};
    tracing::stage(off);
    tracing::install(off);
    tracing::commit();
    tracing::uninstall(off);
    tracing::consolidate(off);
    tracing::free_unlinked(off);  // drops the last references: the spec is freed here
    for (const tracing::MessagePattern& p : session->send_pattern) {
        EXPECT_FALSE(p.on);
        EXPECT_EQ(p.ms, nullptr);
    }
    tracing::retire_session(session);
}

}  // namespace
}  // namespace beamlet
