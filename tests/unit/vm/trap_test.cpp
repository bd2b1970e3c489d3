// tests/unit/vm/trap_test.cpp — trapping BIFs and the code modification permission, run by
// Erlang code (data/trap_sample.erl) on several schedulers while other processes keep running.
#include <gtest/gtest.h>

#include "tools/boot.hpp"
#include "vm/atom_table.hpp"

namespace beamlet {
namespace {

int run_sample(int schedulers, std::string* output) {
    tools::BootOptions options;
    options.code_path = {BEAMLET_UNIT_DATA_DIR};
    options.schedulers = schedulers;
    tools::Runtime runtime(options);
    testing::internal::CaptureStdout();
    int status = runtime.run_main(vm::atom("trap_sample"));
    *output = testing::internal::GetCapturedStdout();
    return status;
}

TEST(TrappingBifs, ThreadProgressWaitsCompleteWhileWorkersRunOnTwoSchedulers) {
    std::string out;
    ASSERT_EQ(run_sample(2, &out), 0) << out;
    EXPECT_NE(out.find("progress_waits_complete: ok"), std::string::npos) << out;
    EXPECT_NE(out.find("workers_ran_during_waits: ok"), std::string::npos) << out;
}

TEST(TrappingBifs, CodePermissionIsExclusiveAndHandedOverInTurn) {
    std::string out;
    ASSERT_EQ(run_sample(2, &out), 0) << out;
    EXPECT_NE(out.find("permission_exclusive: ok"), std::string::npos) << out;
    EXPECT_NE(out.find("busy_ran_during_permission: ok"), std::string::npos) << out;
    EXPECT_NE(out.find("double_seize_is_badarg: ok"), std::string::npos) << out;
    EXPECT_NE(out.find("release_unheld_is_badarg: ok"), std::string::npos) << out;
}

TEST(TrappingBifs, WorksOnOneScheduler) {
    std::string out;
    ASSERT_EQ(run_sample(1, &out), 0) << out;
    EXPECT_NE(out.find("all ok"), std::string::npos) << out;
}

}  // namespace
}  // namespace beamlet
