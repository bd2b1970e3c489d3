// tests/fuzz/fuzz_trace_pattern.cpp — the command-line trace-pattern parser
// (beamlet_cli_trace:compile_pattern/1, Erlang code run by the VM) on fuzzer text. Whatever the
// text, the parser answers {ok, ...} or {error, Line}: a process that exits any other way than
// normally is a finding, as is anything that hurts the VM running it.
#include <cstdint>
#include <memory>

#include "bif/bifs.hpp"
#include "bif/term_format.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "vm/atom_table.hpp"
#include "vm/entry_code.hpp"
#include "vm/interpreter.hpp"
#include "vm/process.hpp"
#include "vm/scheduler.hpp"

namespace {

using namespace beamlet;

// Runs [f(args)] in a process of its own to the end; its exit reason.
vm::Term run_call(vm::Vm& vm, const vm::Export* f, std::initializer_list<vm::Term> args, vm::Process* p) {
    vm::prepare_call(p, f, args);
    vm::Schedulers schedulers(vm, 1);
    schedulers.enqueue(p);
    schedulers.run_until_exit(p);
    return p->exit_reason;
}

// OTP's erl_scan asks erl_features, which asks init once for the command line's feature flags;
// this bare VM has no init, so the answers are set as init would leave them (no features).
void preset_features(tools::Runtime& runtime) {
    vm::Vm& vm = runtime.vm();
    vm::Term module = vm::atom("persistent_term");
    if (!runtime.load(module).empty()) fuzz::fail("persistent_term does not load");
    const vm::Export* put = vm.exports.find(module, vm::atom("put"), 2);
    const std::pair<const char*, vm::Term> presets[] = {
        {"enabled_features", vm::NIL}, {"keywords", vm::NIL}, {"init_done", vm::atoms::true_}};
    for (const auto& [name, value] : presets) {
        auto p = std::make_shared<vm::Process>(vm, vm.next_pid.fetch_add(1) + 1);
        vm.add_process(p);
        vm::Term key = bif::make_tuple_on(p.get(), {vm::atom("erl_features"), vm::atom(name)});
        if (run_call(vm, put, {key, value}, p.get()) != vm::atoms::normal) fuzz::fail("persistent_term:put/2 failed");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace beamlet;
    using vm::Term;
    if (size > 512) return 0;  // patterns are one command-line word
    tools::Runtime& runtime = fuzz::runtime(/*library_path=*/true);
    vm::Vm& vm = runtime.vm();
    Term module = vm::atom("beamlet_cli_trace");
    static const vm::Export* compile = [&] {
        preset_features(runtime);
        if (!runtime.load(module).empty()) fuzz::fail("beamlet_cli_trace does not load");
        return vm.exports.find(module, vm::atom("compile_pattern"), 1);
    }();
    auto p = std::make_shared<vm::Process>(vm, vm.next_pid.fetch_add(1) + 1);
    Term text = vm::NIL;  // the bytes as Latin-1 characters
    for (std::size_t i = size; i-- > 0;) text = vm::make_cons_on(p->alloc(2), vm::make_small(data[i]), text);
    vm::prepare_call(p.get(), compile, {text});
    vm.add_process(p);
    vm::Schedulers schedulers(vm, 1);
    schedulers.enqueue(p.get());
    schedulers.run_until_exit(p.get());
    if (p->exit_reason != vm::atoms::normal) {
        std::fprintf(stderr, "fuzz: compile_pattern exited with %s\n", bif::print_term(p->exit_reason, 0).c_str());
        fuzz::fail("the pattern parser crashed");
    }
    return 0;
}
