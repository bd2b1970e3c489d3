// tests/unit/jit/engine_test.cpp — Engine: eager linking, patch sites armed and disarmed
// through the writable alias, module removal, link errors.
#include "jit/engine.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <llvm/ExecutionEngine/Orc/Core.h>

#include "jit/dual_mapper.hpp"
#include "tests/unit/jit/jit_test_support.hpp"

namespace beamlet::jit {
namespace {

using AddFn = std::int64_t (*)(std::int64_t, std::int64_t);

std::unique_ptr<Engine> make_engine() {
    std::string error;
    auto engine = Engine::create(0, &error);
    EXPECT_NE(engine, nullptr) << error;
    return engine;
}

std::vector<std::uint8_t> bytes_at(const std::uint8_t* address, std::size_t size) {
    return std::vector<std::uint8_t>(address, address + size);
}

std::int64_t read_counter(std::uint64_t address) {
    return std::atomic_ref<std::int64_t>(*reinterpret_cast<std::int64_t*>(address)).load();
}

// A module with bjf.add.[tag] and its counting trampoline, linked into a fresh engine.
class LinkedAdd : public ::testing::Test {
protected:
    void SetUp() override {
        engine = make_engine();
        ASSERT_NE(engine, nullptr);
        ASSERT_FALSE(llvm::errorToBool(engine->add_module(test::make_add_module(*engine, "t"), &tracker)));
        entry = llvm::cantFail(engine->lookup("bjf.add.t"));
        hits = llvm::cantFail(engine->lookup("bjt_hits_t"));
        add = reinterpret_cast<AddFn>(entry);
        site = engine->site(entry);
        ASSERT_NE(site, nullptr);
    }

    std::unique_ptr<Engine> engine;
    std::shared_ptr<llvm::orc::ResourceTracker> tracker;
    std::uint64_t entry = 0;
    std::uint64_t hits = 0;
    AddFn add = nullptr;
    const PatchSite* site = nullptr;
};

TEST_F(LinkedAdd, LinkingLeavesTheSiteDisabledAndTheFunctionCorrect) {
    const Arch arch = engine->arch();
    EXPECT_EQ(site->exec, reinterpret_cast<std::uint8_t*>(entry));
    EXPECT_EQ(bytes_at(site->exec, Engine::site_size(arch)), Engine::disabled_form(arch, entry, site->trampoline));
    EXPECT_FALSE(Engine::armed(*site));
    ASSERT_EQ(engine->sites().size(), 1u);
    EXPECT_EQ(engine->sites()[0], site);

    EXPECT_EQ(add(20, 22), 42);
    EXPECT_EQ(add(-5, 3), -2);
    EXPECT_EQ(read_counter(hits), 0);
    // The prefix data sits right before the entry, where a breakpoint handler finds the header.
    std::uint64_t tag = 0;
    std::memcpy(&tag, site->exec - 8, sizeof tag);
    EXPECT_EQ(tag, test::PREFIX_TAG);
}

TEST_F(LinkedAdd, ArmedSiteCallsTheTrampolineOnEveryCall) {
    const Arch arch = engine->arch();
    Engine::arm(*site);
    EXPECT_TRUE(Engine::armed(*site));
    EXPECT_EQ(bytes_at(site->exec, Engine::site_size(arch)), Engine::enabled_form(arch, entry, site->trampoline));
    for (std::int64_t i = 0; i < 100; ++i) ASSERT_EQ(add(i, 1000), i + 1000);
    EXPECT_EQ(read_counter(hits), 100);

    Engine::disarm(*site);
    EXPECT_FALSE(Engine::armed(*site));
    EXPECT_EQ(bytes_at(site->exec, Engine::site_size(arch)), Engine::disabled_form(arch, entry, site->trampoline));
    EXPECT_EQ(add(1, 2), 3);
    EXPECT_EQ(read_counter(hits), 100);
}

TEST_F(LinkedAdd, PatchingWritesThroughTheAliasOfNonWritableCode) {
    std::uint8_t* alias = engine->writable_alias(entry);
    EXPECT_NE(alias, reinterpret_cast<std::uint8_t*>(entry));
    EXPECT_EQ(alias, site->writable);
    EXPECT_EQ(test::page_permissions(site->exec), "r-xs");
    EXPECT_EQ(test::page_permissions(alias), "rw-s");
    int local = 0;
    EXPECT_EQ(engine->writable_alias(reinterpret_cast<std::uint64_t>(&local)), nullptr);
}

// The site in the machine code itself, read through the executable view: `mov x17, x30` and
// `bl trampoline` when armed, `nop` when not, each word stored through the writable alias
// (the executable pages are never writable), and every armed call reaches the trampoline —
// under qemu-user too, where the JIT syncs code by remapping (dual_mapper.hpp).
TEST_F(LinkedAdd, AArch64ArmedSiteIsABlStoredThroughTheAlias) {
    if (engine->arch() != Arch::AArch64) GTEST_SKIP() << "an AArch64 host only";
    RecordProperty("code_sync", code_sync_remaps() ? "cache maintenance + remap" : "cache maintenance");
    auto word = [&](int i) {
        std::uint32_t value = 0;
        std::memcpy(&value, site->exec + 4 * i, sizeof value);
        return value;
    };
    const std::uint64_t bl_pc = entry + 4;
    const std::uint32_t bl = 0x94000000U | (static_cast<std::uint32_t>((site->trampoline - bl_pc) >> 2) & 0x03FFFFFFU);
    EXPECT_NE(site->writable, site->exec);
    EXPECT_EQ(test::page_permissions(site->exec), "r-xs");
    EXPECT_EQ(word(0), 0xAA1E03F1U);  // mov x17, x30
    EXPECT_EQ(word(1), 0xD503201FU);  // nop
    for (int round = 0; round < 3; ++round) {
        Engine::arm(*site);
        EXPECT_EQ(word(0), 0xAA1E03F1U);
        EXPECT_EQ(word(1), bl);
        const std::int64_t before = read_counter(hits);
        for (std::int64_t i = 0; i < 10; ++i) ASSERT_EQ(add(i, 1), i + 1);
        EXPECT_EQ(read_counter(hits) - before, 10) << "round " << round;
        Engine::disarm(*site);
        EXPECT_EQ(word(1), 0xD503201FU);
        for (std::int64_t i = 0; i < 10; ++i) ASSERT_EQ(add(i, 1), i + 1);
        EXPECT_EQ(read_counter(hits) - before, 10) << "round " << round;
    }
    EXPECT_EQ(test::page_permissions(site->exec), "r-xs");
}

TEST_F(LinkedAdd, RemovingTheTrackerFreesTheModule) {
    const auto* code = site->exec;
    ASSERT_FALSE(llvm::errorToBool(tracker->remove()));
    auto gone = engine->lookup("bjf.add.t");
    EXPECT_FALSE(gone);
    llvm::consumeError(gone.takeError());
    EXPECT_EQ(engine->site(entry), nullptr);
    EXPECT_TRUE(engine->sites().empty());
    // A stale call into the freed code faults instead of running it.
    EXPECT_EQ(test::page_permissions(code), "---s");

    // The names are free again, and the memory is reused.
    std::shared_ptr<llvm::orc::ResourceTracker> again;
    ASSERT_FALSE(llvm::errorToBool(engine->add_module(test::make_add_module(*engine, "t"), &again)));
    auto relinked = reinterpret_cast<AddFn>(llvm::cantFail(engine->lookup("bjf.add.t")));
    EXPECT_EQ(relinked(2, 3), 5);
    EXPECT_EQ(engine->sites().size(), 1u);
}

TEST_F(LinkedAdd, ModulesShareOneReservationWithinCallReach) {
    std::shared_ptr<llvm::orc::ResourceTracker> second;
    ASSERT_FALSE(llvm::errorToBool(engine->add_module(test::make_add_module(*engine, "u"), &second)));
    const std::uint64_t other = llvm::cantFail(engine->lookup("bjf.add.u"));
    const std::uint64_t distance = other > entry ? other - entry : entry - other;
    EXPECT_LT(distance, std::uint64_t{256} << 20);
    ASSERT_EQ(engine->sites().size(), 2u);
    EXPECT_EQ(engine->sites()[1], engine->site(other));
    // Each module's sites call its own trampoline.
    EXPECT_NE(engine->site(other)->trampoline, site->trampoline);
}

// One thread calls the function in chunks, passing a code barrier (a thread-progress epoch)
// between chunks, while the other toggles the site 10,000 times. Results stay right; once a
// toggle has been followed by two epochs, every call counts (armed) or none does (disarmed).
TEST_F(LinkedAdd, TogglingWhileAnotherThreadCallsIsSafe) {
    constexpr int CHUNK_CALLS = 64;
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> epoch{0};
    std::atomic<std::uint64_t> wrong{0};
    std::thread caller;
    // Stops and joins the caller on every way out, failed assertions included.
    struct Join {
        std::atomic<bool>& stop;
        std::thread& thread;
        ~Join() {
            stop = true;
            if (thread.joinable()) thread.join();
        }
    } join{stop, caller};
    caller = std::thread([&] {
        std::int64_t i = 0;
        while (!stop.load(std::memory_order_relaxed)) {
            for (int k = 0; k < CHUNK_CALLS; ++k, ++i)
                if (add(i, k) != i + k) wrong.fetch_add(1, std::memory_order_relaxed);
            // The quiescent point. AArch64 needs a context synchronization event to fetch the
            // new instruction. x86 promises it only after a serializing instruction; like
            // jit-design.md §4.3 this relies on the observed behaviour without one.
#if defined(__aarch64__)
            asm volatile("isb" ::: "memory");
#endif
            epoch.fetch_add(1, std::memory_order_seq_cst);
        }
    });

    // Waits until the caller has passed [count] more quiescent points (false after 5 s). Two
    // after a store: the chunk that was running has ended and a whole chunk ran after it.
    auto wait_epochs = [&](std::uint64_t count) {
        const std::uint64_t start = epoch.load(std::memory_order_seq_cst);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (epoch.load(std::memory_order_seq_cst) < start + count) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            std::this_thread::yield();
        }
        return true;
    };

    // Toggles in bursts of 250 between the caller's epochs, so that the 10,000 toggles are
    // spread over many chunks of calls rather than over the first few. Few waits keep the
    // test short on a loaded machine, where each one may last a scheduler time slice.
    for (int toggle = 0; toggle < 10'000; ++toggle) {
        if (toggle % 250 == 0) {
            ASSERT_TRUE(wait_epochs(1));
        }
        Engine::arm(*site);
        if (toggle % 2000 == 0) {
            ASSERT_TRUE(wait_epochs(2));
            const std::int64_t before = read_counter(hits);
            ASSERT_TRUE(wait_epochs(2));
            EXPECT_GE(read_counter(hits) - before, CHUNK_CALLS);
        }
        Engine::disarm(*site);
        if (toggle % 2000 == 1000) {
            ASSERT_TRUE(wait_epochs(2));
            const std::int64_t before = read_counter(hits);
            ASSERT_TRUE(wait_epochs(2));
            EXPECT_EQ(read_counter(hits), before);
        }
    }
    ASSERT_TRUE(wait_epochs(2));
    stop = true;
    caller.join();
    EXPECT_GE(epoch.load(), 40u);
    EXPECT_EQ(wrong.load(), 0u);
    const std::int64_t settled = read_counter(hits);
    EXPECT_EQ(add(7, 8), 15);
    EXPECT_EQ(read_counter(hits), settled);
}

TEST(Engine, FasterCodegenKeepsThePatchSite) {
    std::string error;
    auto engine = Engine::create(1, &error);
    ASSERT_NE(engine, nullptr) << error;
    std::shared_ptr<llvm::orc::ResourceTracker> tracker;
    ASSERT_FALSE(llvm::errorToBool(engine->add_module(test::make_add_module(*engine, "o1"), &tracker)));
    const std::uint64_t entry = llvm::cantFail(engine->lookup("bjf.add.o1"));
    const PatchSite* site = engine->site(entry);
    ASSERT_NE(site, nullptr);
    Engine::arm(*site);
    EXPECT_EQ(reinterpret_cast<AddFn>(entry)(40, 2), 42);
    EXPECT_EQ(read_counter(llvm::cantFail(engine->lookup("bjt_hits_o1"))), 1);
}

TEST(Engine, RejectsAPatchableFunctionWithoutEntryNops) {
    auto engine = make_engine();
    ASSERT_NE(engine, nullptr);
    std::shared_ptr<llvm::orc::ResourceTracker> tracker;
    const std::string message =
        llvm::toString(engine->add_module(test::make_add_module(*engine, "bad", {.entry_nops = false}), &tracker));
    EXPECT_NE(message.find("bjf.add.bad"), std::string::npos) << message;
    EXPECT_NE(message.find("patchable-function-entry"), std::string::npos) << message;
    EXPECT_EQ(tracker, nullptr);
    EXPECT_TRUE(engine->sites().empty());

    // The engine goes on working, and the failed module's names are free again.
    ASSERT_FALSE(llvm::errorToBool(engine->add_module(test::make_add_module(*engine, "bad"), &tracker)));
    EXPECT_EQ(reinterpret_cast<AddFn>(llvm::cantFail(engine->lookup("bjf.add.bad")))(1, 1), 2);
}

TEST(Engine, RejectsPatchableFunctionsWithoutATrampoline) {
    auto engine = make_engine();
    ASSERT_NE(engine, nullptr);
    std::shared_ptr<llvm::orc::ResourceTracker> tracker;
    const std::string message =
        llvm::toString(engine->add_module(test::make_add_module(*engine, "lone", {.trampoline = false}), &tracker));
    EXPECT_NE(message.find(TRAMPOLINE_NAME), std::string::npos) << message;
    EXPECT_EQ(tracker, nullptr);
}

std::int64_t triple_it(std::int64_t x) { return 3 * x; }

// JIT code reaches the runtime both by name (a symbol exported by the process) and by
// absolute address (what the compiler embeds).
TEST(Engine, CallsRuntimeFunctionsByNameAndByAddress) {
    auto engine = make_engine();
    ASSERT_NE(engine, nullptr);
    auto context = std::make_unique<llvm::LLVMContext>();
    auto module = std::make_unique<llvm::Module>("runtime_calls", *context);
    module->setTargetTriple(engine->triple());
    module->setDataLayout(engine->data_layout());
    auto* i64 = llvm::Type::getInt64Ty(*context);
    auto* unary = llvm::FunctionType::get(i64, {i64}, false);
    auto labs = module->getOrInsertFunction("labs", unary);
    auto* function = llvm::Function::Create(unary, llvm::GlobalValue::ExternalLinkage, "calls_runtime", *module);
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(*context, "entry", function));
    llvm::Value* absolute = builder.CreateCall(labs, {function->getArg(0)});
    auto* address = llvm::ConstantExpr::getIntToPtr(
        llvm::ConstantInt::get(i64, reinterpret_cast<std::uint64_t>(&triple_it)), builder.getPtrTy());
    builder.CreateRet(builder.CreateCall(unary, address, {absolute}));

    std::shared_ptr<llvm::orc::ResourceTracker> tracker;
    ASSERT_FALSE(llvm::errorToBool(
        engine->add_module(llvm::orc::ThreadSafeModule(std::move(module), std::move(context)), &tracker)));
    auto calls_runtime = reinterpret_cast<std::int64_t (*)(std::int64_t)>(llvm::cantFail(engine->lookup("calls_runtime")));
    EXPECT_EQ(calls_runtime(-14), 42);
    EXPECT_TRUE(engine->sites().empty());
}

}  // namespace
}  // namespace beamlet::jit
