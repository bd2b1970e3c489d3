// tests/fuzz/fuzz_loader.cpp — a .beam file from the fuzzer through everything loading does:
// the IFF container and gzip, every chunk (atoms, code with its compact terms, imports,
// exports, literals in the external term format, lines, funs, types), the validator, and the
// threading into interpreter code. The module is prepared but never published, so inputs stay
// independent. Any outcome is fine but a sanitizer report, a crash or a hang.
#include <cstdint>
#include <span>
#include <string>

#include "loader/beam_loader.hpp"
#include "vm/literal_area.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace beamlet;
    vm::Vm& vm = fuzz::runtime().vm();
    // Nothing survives an input: its literals go back to the arena (which never shrinks for
    // modules that are kept), so a long run does not fill it.
    vm::LiteralMark literals = vm::literal_mark();
    struct Rollback {
        vm::LiteralMark mark;
        ~Rollback() { vm::literal_rollback(mark); }
    } rollback{literals};
    auto code = loader::load_beam(std::span(data, size), "fuzz.beam", vm.exports);
    if (!code) {
        if (code.error().empty()) fuzz::fail("a load error without a message");
        return 0;
    }
    auto module = vm.prepare_module(*code);
    if (!module && module.error().empty()) fuzz::fail("a preparation error without a message");
    return 0;
}
