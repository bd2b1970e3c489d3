// tests/fuzz/fuzz_binary_to_term.cpp — the external term codec (vm/external_term.hpp) on
// fuzzer bytes, into each of its targets: a process heap (binary_to_term, safe and unsafe), a
// heap fragment (messages from other nodes) and the literal area (a module's literals). A term
// that decodes must survive the round trip: term_to_binary of it decodes to a term exactly
// equal (=:=), using exactly the bytes encoded; every target agrees with the heap on what it
// accepts (the literal area refuses pids, ports, references and local funs, and only those).
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "tests/fuzz/fuzz_support.hpp"
#include "vm/external_term.hpp"
#include "vm/heap.hpp"
#include "vm/literal_area.hpp"
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
    vm::DecodeResult unsafe;
    for (bool safe : {true, false}) {
        vm::DecodeResult r = vm::decode_external(p.get(), bytes, safe);
        if (!safe) unsafe = r;
        if (r.status != vm::DecodeStatus::Ok) continue;
        if (r.used == 0 || r.used > size) fuzz::fail("a decoded term used no bytes or more than there were");
        round_trip(p.get(), r.term);
    }

    vm::DecodeResult frag = vm::decode_external(vm::DecodeTarget::fragment(vm), bytes, false);
    if (frag.status != unsafe.status) fuzz::fail("a fragment and a heap disagree on the same bytes");
    if (frag.status == vm::DecodeStatus::Ok) {
        if (frag.used != unsafe.used || !vm::terms_exact_equal(frag.term, unsafe.term))
            fuzz::fail("a fragment's term differs from the heap's");
        vm::free_fragment(frag.fragment);
    }

    vm::LiteralMark mark = vm::literal_mark();
    vm::DecodeResult lit = vm::decode_external(vm::DecodeTarget::literals(vm.exports), bytes, false);
    if (lit.status == vm::DecodeStatus::Ok &&
        (unsafe.status != vm::DecodeStatus::Ok || lit.used != unsafe.used || !vm::terms_exact_equal(lit.term, unsafe.term)))
        fuzz::fail("a literal differs from the heap's term");
    if (lit.status != vm::DecodeStatus::Ok && unsafe.status == vm::DecodeStatus::Ok &&
        lit.error.rfind("unsupported external term tag", 0) != 0)
        fuzz::fail("the literal area refused a term for another reason than its kind");
    vm::literal_rollback(mark);
    return 0;
}
