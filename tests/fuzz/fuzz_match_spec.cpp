// tests/fuzz/fuzz_match_spec.cpp — the match-spec compiler and runner as
// erlang:match_spec_test/3 drives them: the input holds a match specification in the external
// term format, optionally followed by the call's arguments (or a table object) in the same
// format. The spec is compiled for tracing and for tables and, when it compiles, run.
#include <cstdint>
#include <memory>
#include <span>

#include "tests/fuzz/fuzz_support.hpp"
#include "matchspec/match_spec.hpp"
#include "vm/external_term.hpp"
#include "vm/process.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace beamlet;
    vm::Vm& vm = fuzz::runtime().vm();
    auto p = std::make_unique<vm::Process>(vm, 1);
    vm::DecodeResult spec = vm::decode_external(p.get(), std::span(data, size), true);
    if (spec.status != vm::DecodeStatus::Ok) return 0;
    vm::Term args = vm::NIL;
    if (spec.used < size) {
        vm::DecodeResult rest = vm::decode_external(p.get(), std::span(data + spec.used, size - spec.used), true);
        if (rest.status == vm::DecodeStatus::Ok) args = rest.term;
    }
    // A badarg (arguments that are not a list) is an answer too: the process is not reused.
    for (bool table : {false, true}) matchspec::match_spec_test(p.get(), args, spec.term, table);
    return 0;
}
