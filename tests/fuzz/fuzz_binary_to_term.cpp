// tests/fuzz/fuzz_binary_to_term.cpp — binary_to_term's decoder on fuzzer bytes, safe and
// unsafe. A term that decodes must survive the round trip: term_to_binary of it decodes to a
// term exactly equal (=:=), using exactly the bytes encoded.
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "tests/fuzz/fuzz_support.hpp"
#include "vm/external_term.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"

namespace {

using namespace beamlet;

void round_trip(vm::Process* p, vm::Term term) {
    std::string bytes;
    vm::encode_external(term, vm::EncodeOptions{}, &bytes);
    auto again = vm::decode_external(p, std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), false);
    if (again.status != vm::DecodeStatus::Ok) fuzz::fail("term_to_binary wrote what binary_to_term refuses");
    if (again.used != bytes.size()) fuzz::fail("binary_to_term left bytes of term_to_binary's output");
    if (!vm::terms_exact_equal(term, again.term)) fuzz::fail("the round trip changed the term");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    vm::Vm& vm = fuzz::runtime().vm();
    auto p = std::make_unique<vm::Process>(vm, 1);
    std::span bytes(data, size);
    for (bool safe : {true, false}) {
        vm::DecodeResult r = vm::decode_external(p.get(), bytes, safe);
        if (r.status != vm::DecodeStatus::Ok) continue;
        if (r.used == 0 || r.used > size) fuzz::fail("a decoded term used no bytes or more than there were");
        round_trip(p.get(), r.term);
    }
    return 0;
}
