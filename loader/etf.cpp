// loader/etf.cpp — a module's literals (LitT), decoded by the VM's one external term codec
// (vm/external_term.hpp) into the literal area.
#include "loader/etf.hpp"

#include "vm/external_term.hpp"
#include "vm/vm.hpp"

namespace beamlet::loader {

using namespace vm;

Result<Term> decode_literal(std::span<const std::uint8_t> bytes, ExportTable& exports, Term** off_heap) {
    if (bytes.empty() || bytes[0] != 131) return Error{"literal without the external format version byte"};
    DecodeResult r = decode_external(DecodeTarget::literals(exports, off_heap), bytes, false);
    if (r.status != DecodeStatus::Ok) return Error{r.error == "truncated" ? "truncated literal" : r.error};
    if (r.used != bytes.size()) return Error{"trailing bytes after literal"};
    return r.term;
}

}  // namespace beamlet::loader
