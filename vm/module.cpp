// vm/module.cpp — lookups over a loaded module's code: function and source location at an address.
#include "vm/module.hpp"

#include "vm/breakpoint_site.hpp"
#include "vm/magic.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"
#include "vm/trace_hooks.hpp"

#include <algorithm>

namespace beamlet::vm {

std::atomic<unsigned> g_active_code_ix{0};

void TraceHooks::write_entry_word(const CodeInfo* ci, Word word) { patch_code_word(const_cast<Word*>(ci->code()), word); }

CallAccountingPause::CallAccountingPause(Process* p)
    : m_p(p && p->vm.services.trace && !p->call_accounting.empty() ? p : nullptr) {
    if (m_p) m_p->vm.services.trace->schedule_break(m_p, true);
}

CallAccountingPause::~CallAccountingPause() {
    if (m_p) m_p->vm.services.trace->schedule_break(m_p, false);
}

Module::~Module() { release_off_heap_list(literal_off_heap); }

const FunctionInfo* Module::function_at(const Word* p) const {
    if (!contains(p)) return nullptr;
    Word offset = Word(p - code.get());
    auto it = std::upper_bound(functions.begin(), functions.end(), offset,
                               [](Word off, const FunctionInfo& f) { return off < f.header_offset; });
    if (it == functions.begin()) return nullptr;
    --it;
    return offset < it->end_offset ? &*it : nullptr;
}

LineEntry Module::location_at(const Word* p) const {
    if (!contains(p)) return {0, 0, 0};
    Word offset = Word(p - code.get());
    auto it = std::upper_bound(lines.begin(), lines.end(), offset,
                               [](Word off, const LineEntry& l) { return off < l.code_offset; });
    if (it == lines.begin()) return {0, 0, 0};
    --it;
    // A location never leaks across a function boundary.
    const FunctionInfo* f = function_at(p);
    if (f && it->code_offset < f->header_offset) return {0, 0, 0};
    return *it;
}

}  // namespace beamlet::vm
