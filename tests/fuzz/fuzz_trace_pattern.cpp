// tests/fuzz/fuzz_trace_pattern.cpp — the command-line trace-pattern parser
// (beamlet_cli_trace:compile_pattern/1, Erlang code run by the VM) on fuzzer text. Whatever the
// text, the parser answers {ok, ...} or {error, Line}: a process that exits any other way than
// normally is a finding, as is anything that hurts the VM running it.
#include <cstdint>
#include <memory>

#include "bif/term_format.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "vm/atom_table.hpp"
#include "vm/entry_code.hpp"
#include "vm/interpreter.hpp"
#include "vm/process.hpp"
#include "vm/scheduler.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace beamlet;
    using vm::Term;
    if (size > 512) return 0;  // patterns are one command-line word
    tools::Runtime& runtime = fuzz::runtime(/*library_path=*/true);
    vm::Vm& vm = runtime.vm();
    Term module = vm::atom("beamlet_cli_trace");
    static const vm::Export* compile = [&] {
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
