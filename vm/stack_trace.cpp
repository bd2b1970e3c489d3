// vm/stack_trace.cpp — stack traces as OTP builds them (see stack_trace.hpp).
#include "vm/stack_trace.hpp"
#include "vm/trace_frames.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/literal_area.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/utf8.hpp"
#include "vm/vm.hpp"
#include "vm/work_stack.hpp"

namespace beamlet::vm {

Term make_tuple2(Process* p, Term a, Term b) {
    Term* hp = p->alloc(3);
    hp[0] = make_arityval(2);
    hp[1] = a;
    hp[2] = b;
    return make_boxed(hp);
}

Term list_from(Process* p, const Term* items, Word n) {
    Term list = NIL;
    Term* hp = p->alloc(2 * n);
    for (Word i = n; i-- > 0;) {
        list = make_cons_on(hp, items[i], list);
        hp += 2;
    }
    return list;
}

namespace {

// The characters of [file] (UTF-8; a byte that is not, as itself), one by one.
template <typename Fn>
void for_each_char(const std::string& file, Fn&& fn) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(file.data());
    for (std::size_t i = 0; i < file.size();) {
        std::uint32_t c;
        int len = utf8_decode(bytes + i, file.size() - i, &c);
        if (len <= 0) {
            c = bytes[i];
            len = 1;
        }
        fn(c);
        i += std::size_t(len);
    }
}

Word char_count(const std::string& file) {
    Word n = 0;
    for_each_char(file, [&](std::uint32_t) { ++n; });
    return n;
}

// The list of [file]'s characters built front to back in [hp] (2 words per character).
Term char_list_at(const std::string& file, Term* hp) {
    Term list = NIL;
    Term* cell = hp;
    Term* last = nullptr;
    for_each_char(file, [&](std::uint32_t c) {
        if (last) last[1] = make_list(cell);
        else list = make_list(cell);
        cell[0] = make_small(SWord(c));
        cell[1] = NIL;
        last = cell;
        cell += 2;
    });
    return list;
}

}  // namespace

Term file_name_list(Process* p, const std::string& file) {
    Word n = char_count(file);
    return n ? char_list_at(file, p->alloc(2 * n)) : NIL;
}

Term file_name_literal(const std::string& file) {
    Word n = char_count(file);
    return n ? char_list_at(file, literal_alloc(2 * n)) : NIL;
}

Term module_file_name(Process* p, const Module* m, Word index) {
    if (index >= m->file_names.size()) return file_name_list(p, m->files[index]);
    // OTP builds the name on the heap for every frame, and call_memory counts those words:
    // a copy of the loader's literal, cell by cell, without decoding the UTF-8 again.
    Term literal = m->file_names[index];
    Word n = 0;
    for (Term l = literal; is_list(l); l = cdr(l)) ++n;
    if (n == 0) return NIL;
    Term* hp = p->alloc(2 * n);
    Term* cell = hp;
    for (Term l = literal; is_list(l); l = cdr(l), cell += 2) {
        cell[0] = car(l);
        cell[1] = cell + 2 < hp + 2 * n ? make_list(cell + 2) : NIL;
    }
    return make_list(hp);
}

namespace {

Term make_location(Process* p, const Module* m, const Word* at) {
    LineEntry loc = m->location_at(at);
    if (loc.line == 0) return NIL;
    // [{file, "name"}, {line, N}]
    Term name = module_file_name(p, m, loc.file_index);
    Term file_t = make_tuple2(p, atoms::file, name);
    Term line_t = make_tuple2(p, atoms::line, make_small(SWord(loc.line)));
    Term* cells = p->alloc(4);
    Term tail = make_cons_on(cells + 2, line_t, NIL);
    return make_cons_on(cells, file_t, tail);
}

Term make_frame(Process* p, Term m, Term f, Term arity_or_args, Term location) {
    Term* hp = p->alloc(5);
    hp[0] = make_arityval(4);
    hp[1] = m;
    hp[2] = f;
    hp[3] = arity_or_args;
    hp[4] = location;
    return make_boxed(hp);
}


// Calls [fn] with each return address of [p]'s call chain, innermost first: [cp], unless it is
// the one saved in the current frame (then the stack has it), and those saved on the stack
// from [E] up (raw code pointers among the terms: primary tag 00, never zero). [fn] returns
// false to stop: a stack trace needs the first few frames, not a walk of a deep stack.
template <typename Fn>
void walk_return_addresses(Process* p, const Term* E, const Word* cp, Fn&& fn) {
    const Term* first_saved = nullptr;
    for (const Term* s = E; s < p->hend; ++s)
        if (is_header(*s) && *s != 0) {
            first_saved = s;
            break;
        }
    // A return address the same as the one before it is skipped, as OTP records stack traces
    // (a body-recursive function shows one frame per distinct call site).
    const Word* prev = nullptr;
    if (cp && !(first_saved && reinterpret_cast<const Word*>(*first_saved) == cp))
        if (!fn(prev = cp)) return;
    for (const Term* s = first_saved; s && s < p->hend; ++s)
        if (is_header(*s) && *s != 0) {
            const Word* at = reinterpret_cast<const Word*>(*s);
            if (at == trace_return_code()) continue;  // a trace frame's: no call site
            if (at != prev && !fn(prev = at)) return;
        }
}

// The module that explains a failed BIF of [bif_module] (its error_info), as erts names it:
// erts's own for the modules erts implements, stdlib's and kernel's for theirs (trace's:
// bif/lib/beamlet_kernel_errors.erl); 0 for the rest (erts_debug's BIFs, and beamlet's own).
Term error_info_module(Term bif_module) {
    static const Term am_erl_erts_errors = atom("erl_erts_errors"),
                      am_erl_stdlib_errors = atom("erl_stdlib_errors"),
                      am_erl_kernel_errors = atom("erl_kernel_errors"),
                      am_beamlet_kernel_errors = atom("beamlet_kernel_errors");
    static const Term erts[] = {atom("erlang"), atom("erts_internal"), atom("atomics"), atom("counters"),
                                atom("persistent_term")};
    static const Term stdlib[] = {atom("lists"), atom("maps"), atom("binary"), atom("ets"),
                                  atom("math"),  atom("re"),   atom("unicode")};
    static const Term os = atom("os"), trace = atom("trace");
    if (std::find(std::begin(erts), std::end(erts), bif_module) != std::end(erts)) return am_erl_erts_errors;
    if (std::find(std::begin(stdlib), std::end(stdlib), bif_module) != std::end(stdlib)) return am_erl_stdlib_errors;
    if (bif_module == os) return am_erl_kernel_errors;
    // OTP 27's erl_kernel_errors explains the trace module; the installed OTP 25's cannot.
    if (bif_module == trace) return am_beamlet_kernel_errors;
    return 0;
}

}  // namespace

namespace {
std::atomic<int> g_backtrace_depth{8};
}  // namespace

int backtrace_depth() { return g_backtrace_depth.load(std::memory_order_relaxed); }
int set_backtrace_depth(int depth) { return g_backtrace_depth.exchange(depth, std::memory_order_relaxed); }

// Builds the stacktrace list for the pending exception of [p]: the failing BIF (if any), the
// function at [I], the continuation [cp] and the frames on the stack, at most backtrace_depth()
// of them but never none (OTP keeps the failing function at depth 0).
Term build_stacktrace_list(Process* p, const Word* I, const Word* cp, const Term* E, const Term* x) {
    const int MAX_DEPTH = std::max(1, backtrace_depth());
    WorkStack<Term, 16> frames;
    PendingException& exc = p->exception;
    // Frames mostly come in runs from one module: its range is checked before the code index
    // (a lock and a search). Modules outlive every process, so the pointer stays valid.
    const Module* last = nullptr;
    auto module_of = [&](const Word* at) {
        if (!last || !last->contains(at)) last = p->vm.module_containing(at);
        return last && last->contains(at) ? last : nullptr;
    };
    if (exc.bif_module && !exc.raised_by_bif) {
        Term args = list_from(p, exc.bif_args.data(), exc.bif_args.size());
        Term info = NIL;
        if (Term module = error_info_module(exc.bif_module)) {
            // [{error_info, #{module => ...}}], as OTP 25 adds for its BIFs.
            std::vector<std::pair<Term, Term>> pairs{{atoms::module, module}};
            if (exc.error_cause) pairs.emplace_back(atom("cause"), exc.error_cause);
            Term map = map_from_pairs(p, std::move(pairs));
            Term pair = make_tuple2(p, atoms::error_info, map);
            info = list_from(p, &pair, 1);
        }
        frames.push_back(make_frame(p, exc.bif_module, exc.bif_function, args, info));
    }
    auto add_code_frame = [&](const Word* at, bool is_return_address) {
        const Module* m = module_of(at);
        if (!m) return;
        const FunctionInfo* fi = m->function_at(at);
        if (!fi) return;
        const Word* where = is_return_address ? at - 1 : at;
        Term arity = make_small(SWord(fi->arity));
        Term location = make_location(p, m, where);
        if (frames.empty() && exc.frame_args != THE_NON_VALUE) arity = exc.frame_args;  // error/2
        if (frames.empty() && exc.frame_error_info) {  // error/3's error_info, after file and line
            Term info = make_cons_on(p->alloc(2), exc.frame_error_info, NIL);
            location = is_nil(location) ? info : make_cons_on(p->alloc(2), car(location), make_cons_on(p->alloc(2), car(cdr(location)), info));
        }
        frames.push_back(make_frame(p, m->name, fi->name, arity, location));
    };
    const Module* m = module_of(I);
    if (m && (!exc.bif_module || exc.raised_by_bif)) {
        const FunctionInfo* fi = m->function_at(I);
        if (fi && I == m->code.get() + fi->header_offset) {
            // function_clause: the frame carries the arguments.
            Term args = list_from(p, x, fi->arity);
            frames.push_back(make_frame(p, m->name, fi->name, args, make_location(p, m, I + 5)));
        } else {
            add_code_frame(I, false);
        }
    } else if (m && !exc.bif_tail_call) {
        add_code_frame(I, false);
    }
    walk_return_addresses(p, E, cp, [&](const Word* at) {
        if (int(frames.size()) >= MAX_DEPTH) return false;
        add_code_frame(at, true);
        return true;
    });
    return list_from(p, frames.data(), std::min(frames.size(), std::size_t(MAX_DEPTH)));
}

Term current_stacktrace(Process* p) {
    std::vector<Term> frames;
    auto add = [&](const Word* at, bool is_return_address) {
        const Module* m = p->vm.module_containing(at);
        const FunctionInfo* fi = m ? m->function_at(at) : nullptr;
        if (!fi) return;
        const Word* where = is_return_address ? at - 1 : at;
        frames.push_back(make_frame(p, m->name, fi->name, make_small(SWord(fi->arity)), make_location(p, m, where)));
    };
    add(p->ip, false);
    const std::size_t max_depth = std::size_t(backtrace_depth());
    walk_return_addresses(p, p->stop, p->cp, [&](const Word* at) {
        if (frames.size() >= max_depth) return false;
        add(at, true);
        return true;
    });
    if (frames.size() > max_depth) frames.resize(max_depth);
    return list_from(p, frames.data(), frames.size());
}

std::vector<const Word*> return_addresses(Process* p, std::size_t max) {
    std::vector<const Word*> out;
    walk_return_addresses(p, p->stop, p->cp, [&](const Word* at) {
        if (out.size() >= max) return false;
        out.push_back(at);
        return true;
    });
    return out;
}

}  // namespace beamlet::vm
