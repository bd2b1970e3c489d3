// tests/unit/tracing/breakpoints_test.cpp — the staged breakpoint sequence step by step:
// stage, install, commit, uninstall, consolidate, free (mirrors beam_bp.c), for local
// breakpoints in function headers and global ones in export entries, with two sessions.
#include <gtest/gtest.h>

#include "tools/boot.hpp"
#include "tracing/breakpoints.hpp"
#include "vm/breakpoint_site.hpp"
#include "tracing/sessions.hpp"
#include "vm/atom_table.hpp"
#include "vm/interpreter.hpp"

namespace beamlet {
namespace {

using tracing::BreakpointChange;

class Breakpoints : public testing::Test {
protected:
    void SetUp() override {
        tools::BootOptions options;
        options.code_path = {BEAMLET_UNIT_DATA_DIR};
        m_runtime = std::make_unique<tools::Runtime>(options);
        ASSERT_EQ(m_runtime->load(vm::atom("loader_sample")), "");
        m_module = m_runtime->vm().find_module(vm::atom("loader_sample"));
        ASSERT_NE(m_module, nullptr);
        for (const vm::FunctionInfo& f : m_module->functions)
            if (f.exported && vm::atom_text(f.name) != "module_info") {
                m_function = &f;
                break;
            }
        ASSERT_NE(m_function, nullptr);
    }

    const vm::CodeInfo* ci() const { return m_module->code_info(*m_function); }
    vm::Export* exported() const { return m_function->export_entry; }
    vm::Word first_word() const { return ci()->code()[0]; }

    std::unique_ptr<BreakpointChange> change(vm::TraceSession* s, bool enable, bool local) {
        auto c = std::make_unique<BreakpointChange>();
        c->session = s;
        c->trace = enable ? tracing::TraceAction::On : tracing::TraceAction::Off;
        c->global = !local;
        c->functions = {ci()};
        c->exports = {exported()};
        return c;
    }

    // The whole sequence, without the waits (single-threaded here).
    void run(BreakpointChange& c) {
        tracing::stage(c);
        tracing::install(c);
        tracing::commit();
        tracing::uninstall(c);
        tracing::consolidate(c);
        tracing::free_unlinked(c);
    }

    std::uint32_t active(const std::atomic<vm::GenericBp*>& chain, vm::TraceSession* s) {
        return tracing::active_flags(chain, s);
    }

    std::unique_ptr<tools::Runtime> m_runtime;
    vm::Module* m_module = nullptr;
    const vm::FunctionInfo* m_function = nullptr;
};

TEST_F(Breakpoints, StagingWritesOnlyTheStagingGenerationAndInstallsNothing) {
    vm::Word original = first_word();
    auto c = change(&tracing::legacy_session(), true, true);
    tracing::stage(*c);
    vm::GenericBp* bp = ci()->gen_bp.load();
    ASSERT_NE(bp, nullptr);  // first breakpoint on the function: linked at once
    EXPECT_EQ(bp->orig_instr, original);
    EXPECT_EQ(bp->data[tracing::active_bp_index()].flags.load(), 0u);
    EXPECT_EQ(bp->data[tracing::staging_bp_index()].flags.load(), tracing::BPF_LOCAL_TRACE);
    EXPECT_FALSE(vm::threaded_breakpoint_set(ci()));
    EXPECT_EQ(first_word(), original);
    // Finish the sequence so the function is left clean.
    tracing::install(*c);
    tracing::commit();
    tracing::uninstall(*c);
    tracing::consolidate(*c);
    tracing::free_unlinked(*c);
    auto off = change(&tracing::legacy_session(), false, true);
    run(*off);
}

TEST_F(Breakpoints, InstallWritesTheBreakpointAndCommitActivatesIt) {
    vm::Word original = first_word();
    auto c = change(&tracing::legacy_session(), true, true);
    tracing::stage(*c);
    tracing::install(*c);
    EXPECT_TRUE(vm::threaded_breakpoint_set(ci()));
    EXPECT_EQ(active(ci()->gen_bp, &tracing::legacy_session()), 0u);  // harmless until commit
    tracing::commit();
    EXPECT_EQ(active(ci()->gen_bp, &tracing::legacy_session()), tracing::BPF_LOCAL_TRACE);
    tracing::uninstall(*c);
    EXPECT_TRUE(vm::threaded_breakpoint_set(ci()));  // still wanted: stays
    tracing::consolidate(*c);
    vm::GenericBp* bp = ci()->gen_bp.load();
    ASSERT_NE(bp, nullptr);
    EXPECT_EQ(bp->data[0].flags.load(), bp->data[1].flags.load());  // generations agree again
    tracing::free_unlinked(*c);

    auto off = change(&tracing::legacy_session(), false, true);
    run(*off);
    EXPECT_FALSE(vm::threaded_breakpoint_set(ci()));
    EXPECT_EQ(first_word(), original);
    EXPECT_EQ(ci()->gen_bp.load(), nullptr);  // consolidation unlinked the empty GenericBp
}

TEST_F(Breakpoints, GlobalTracingSwitchesTheExportToItsTrampolineAndBack) {
    vm::Export* e = exported();
    const vm::Word* code = e->address();
    auto c = change(&tracing::legacy_session(), true, false);
    tracing::stage(*c);
    EXPECT_EQ(e->address(), code);
    tracing::install(*c);
    EXPECT_EQ(e->address(), e->bp_trampoline);
    EXPECT_EQ(e->bp_original.load(), code);
    tracing::commit();
    EXPECT_EQ(active(e->gen_bp, &tracing::legacy_session()), tracing::BPF_GLOBAL_TRACE);
    EXPECT_FALSE(vm::threaded_breakpoint_set(ci()));  // global never touches the function's code
    tracing::uninstall(*c);
    tracing::consolidate(*c);
    tracing::free_unlinked(*c);

    auto off = change(&tracing::legacy_session(), false, false);
    run(*off);
    EXPECT_EQ(e->address(), code);
    EXPECT_EQ(e->gen_bp.load(), nullptr);
}

TEST_F(Breakpoints, ASecondSessionIsPreparedAsideAndLinkedAtInstall) {
    vm::TraceSession* other = tracing::create_session(vm::atom("second"), vm::Tracer::process(vm::make_pid(1)));
    auto first = change(&tracing::legacy_session(), true, true);
    run(*first);
    vm::GenericBp* head = ci()->gen_bp.load();
    ASSERT_NE(head, nullptr);

    auto second = change(other, true, true);
    tracing::stage(*second);
    EXPECT_EQ(ci()->gen_bp.load(), head);  // readers may walk the chain: not linked yet
    ASSERT_NE(head->to_insert, nullptr);
    EXPECT_EQ(head->to_insert->session, other);
    tracing::install(*second);
    EXPECT_EQ(ci()->gen_bp.load()->session, other);  // linked at the head
    EXPECT_EQ(ci()->gen_bp.load()->next.load(), head);
    tracing::commit();
    tracing::uninstall(*second);
    tracing::consolidate(*second);
    tracing::free_unlinked(*second);
    EXPECT_EQ(active(ci()->gen_bp, other), tracing::BPF_LOCAL_TRACE);
    EXPECT_EQ(active(ci()->gen_bp, &tracing::legacy_session()), tracing::BPF_LOCAL_TRACE);

    // Removing one session keeps the breakpoint for the other.
    auto off_first = change(&tracing::legacy_session(), false, true);
    run(*off_first);
    EXPECT_TRUE(vm::threaded_breakpoint_set(ci()));
    EXPECT_EQ(active(ci()->gen_bp, &tracing::legacy_session()), 0u);
    auto off_second = change(other, false, true);
    run(*off_second);
    EXPECT_FALSE(vm::threaded_breakpoint_set(ci()));
    EXPECT_EQ(ci()->gen_bp.load(), nullptr);
    tracing::retire_session(other);
}

TEST_F(Breakpoints, TurningLocalOnClearsGlobalButTurningGlobalOffKeepsLocal) {
    auto global_on = change(&tracing::legacy_session(), true, false);
    run(*global_on);
    auto local_on = change(&tracing::legacy_session(), true, true);
    run(*local_on);
    EXPECT_EQ(active(exported()->gen_bp, &tracing::legacy_session()), 0u);
    EXPECT_EQ(active(ci()->gen_bp, &tracing::legacy_session()), tracing::BPF_LOCAL_TRACE);
    auto global_off = change(&tracing::legacy_session(), false, false);
    run(*global_off);
    EXPECT_EQ(active(ci()->gen_bp, &tracing::legacy_session()), tracing::BPF_LOCAL_TRACE);
    auto local_off = change(&tracing::legacy_session(), false, true);
    run(*local_off);
    EXPECT_EQ(ci()->gen_bp.load(), nullptr);
}

}  // namespace
}  // namespace beamlet
