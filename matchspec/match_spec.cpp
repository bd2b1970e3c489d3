// matchspec/match_spec.cpp — compiling and running trace match specifications.
//
// The program is a tree of nodes in one vector: patterns for the heads, expressions for guards
// and bodies. Variables '$N' get dense slots per clause; guard BIFs are resolved to their C++
// functions at compile time, so running a spec allocates nothing unless it builds terms.
#include "matchspec/match_spec.hpp"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <span>

#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/copy.hpp"
#include "vm/interpreter.hpp"
#include "vm/magic.hpp"
#include "vm/stack_trace.hpp"
#include "vm/map.hpp"
#include "vm/process.hpp"
#include "vm/seq_trace.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"
#include "vm/work_stack.hpp"

namespace beamlet::matchspec {

using namespace vm;

namespace {

// The node-global trace control word ({get_tcw} / {set_tcw, N}).
std::atomic<std::uint32_t> g_trace_control_word{0};

// Nesting deeper than this in a match spec is refused (OTP: system_limit).
constexpr int MAX_DEPTH = 1000;

enum class Action : std::uint8_t {
    None, Message, ReturnTrace, ExceptionTrace, ProcessDump, EnableTrace, DisableTrace, Trace, Caller,
    CallerLine, Display, Silent, SetTcw, GetTcw, IsSeqTrace, GetSeqToken, SetSeqToken, Self,
};

struct ActionName {
    const char* name;
    int arity;  // -1: one or two arguments (the process is optional)
    Action action;
    bool in_guard;
};
const ActionName ACTIONS[] = {
    {"message", 1, Action::Message, false},          {"return_trace", 0, Action::ReturnTrace, false},
    {"exception_trace", 0, Action::ExceptionTrace, false}, {"process_dump", 0, Action::ProcessDump, false},
    {"enable_trace", -1, Action::EnableTrace, false}, {"disable_trace", -1, Action::DisableTrace, false},
    {"trace", -2, Action::Trace, false},             {"caller", 0, Action::Caller, false},
    {"caller_line", 0, Action::CallerLine, false},   {"display", 1, Action::Display, false},
    {"silent", 1, Action::Silent, false},            {"set_tcw", 1, Action::SetTcw, false},
    {"get_tcw", 0, Action::GetTcw, true},            {"is_seq_trace", 0, Action::IsSeqTrace, true},
    {"get_seq_token", 0, Action::GetSeqToken, false}, {"set_seq_token", 2, Action::SetSeqToken, false},
    {"self", 0, Action::Self, true},
};

// The guard BIFs a match spec may call (OTP 25's guard_tab), all in module erlang.
struct GuardBif {
    const char* name;
    int arity;
};
const GuardBif GUARD_BIFS[] = {
    {"is_atom", 1},  {"is_float", 1},  {"is_integer", 1}, {"is_list", 1},  {"is_number", 1},
    {"is_pid", 1},   {"is_port", 1},   {"is_reference", 1}, {"is_tuple", 1}, {"is_map", 1},
    {"is_binary", 1}, {"is_function", 1}, {"is_record", 3}, {"abs", 1},     {"element", 2},
    {"hd", 1},       {"length", 1},    {"node", 1},       {"node", 0},     {"round", 1},
    {"size", 1},     {"map_size", 1},  {"bit_size", 1},   {"tl", 1},       {"trunc", 1},
    {"float", 1},    {"+", 1},         {"-", 1},          {"+", 2},        {"-", 2},
    {"*", 2},        {"/", 2},         {"div", 2},        {"rem", 2},      {"band", 2},
    {"bor", 2},      {"bxor", 2},      {"bnot", 1},       {"bsl", 2},      {"bsr", 2},
    {">", 2},        {">=", 2},        {"<", 2},          {"=<", 2},       {"==", 2},
    {"=:=", 2},      {"/=", 2},        {"=/=", 2},        {"not", 1},      {"xor", 2},
    {"map_get", 2},  {"is_map_key", 2}, {"binary_part", 2}, {"binary_part", 3}, {"byte_size", 1},
};

enum class Kind : std::uint8_t {
    // patterns
    PAny, PBind, PEqVar, PConst, PArgs, PTuple, PCons, PMap,
    // expressions
    EConst, EVar, EWhole, EAllVars, ETuple, ECons, EMap, EBif, EAnd, EOr, EAndAlso, EOrElse, EAction,
};

// '$N' -> N, or -1 when [t] is not a match variable.
// The atoms the compiler compares terms with at every pattern leaf and body term, interned
// once (match specs are compiled at every ets:select/match_object call).
Term any_atom() {
    static const Term a = atom("_");
    return a;
}
Term whole_object_atom() {
    static const Term a = atom("$_");
    return a;
}
Term all_bindings_atom() {
    static const Term a = atom("$$");
    return a;
}
Term const_atom() {
    static const Term a = atom("const");
    return a;
}

SWord variable_number(Term t) {
    if (!is_atom(t)) return -1;
    // Most atoms of a spec are not variables: the first byte of the order key says so.
    if ((AtomTable::global().order_key(t) >> 56) != '$') return -1;
    const std::string& s = atom_text(t);
    if (s.size() < 2 || s.size() > 10 || s[0] != '$') return -1;
    SWord n = 0;
    for (std::size_t i = 1; i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') return -1;
        n = n * 10 + (s[i] - '0');
    }
    if (s.size() > 2 && s[1] == '0') return -1;  // '$01' is an ordinary atom
    return n < 100000000 ? n : -1;
}

std::string show_term(const Vm& vm, Term t) { return vm.services.show(t); }

// Whether [t] nests tuples and lists deeper than [depth].
bool deeper_than(Term t, int depth) {
    if (!is_tuple(t) && !is_list(t)) return false;
    if (depth == 0) return true;
    if (is_tuple(t)) {
        for (Word i = 0; i < tuple_arity(t); ++i)
            if (deeper_than(tuple_element(t, i), depth - 1)) return true;
        return false;
    }
    Term l = t;
    for (; is_list(l); l = cdr(l))
        if (deeper_than(car(l), depth - 1)) return true;
    return deeper_than(l, depth - 1);
}

// [t] as the term printer writes it, but with terms nested deeper than [depth] written as
// ...: a match spec can be nested far deeper than the printer could recurse.
std::string show(const Vm& vm, Term t, int depth = 40) {
    if (!deeper_than(t, depth)) return show_term(vm, t);
    if (depth == 0) return "...";
    if (is_tuple(t)) {
        std::string out = "{";
        for (Word i = 0; i < tuple_arity(t); ++i) out += (i ? "," : "") + show(vm, tuple_element(t, i), depth - 1);
        return out + "}";
    }
    if (is_list(t)) {
        std::string out = "[";
        Term l = t;
        for (bool first = true; is_list(l); l = cdr(l), first = false) out += (first ? "" : ",") + show(vm, car(l), depth - 1);
        if (!is_nil(l)) out += "|" + show(vm, l, depth - 1);
        return out + "]";
    }
    return show_term(vm, t);
}

}  // namespace

struct MatchSpec::Node {
    Kind kind;
    Action action = Action::None;
    std::uint32_t n = 0;      // children, arity
    std::uint32_t first = 0;  // first child in m_kids
    std::uint32_t slot = 0;   // variable slot
    Term term = 0;            // constant, or map keys tuple
    BifFn bif = nullptr;
};

// ---- compiler ----------------------------------------------------------------------------------

class MatchSpecCompiler {
public:
    MatchSpecCompiler(Vm& vm, MatchSpec& ms, std::vector<std::string>* errors) : m_vm(vm), m_ms(ms), m_errors(errors) {}

    bool too_deep() const { return m_too_deep; }

    bool compile(Term spec) {
        if (!is_list(spec) && !is_nil(spec)) return error("Match programs are not in a list.");
        Term tail = spec;
        while (is_list(tail)) tail = cdr(tail);
        if (!is_nil(tail)) return error("Match programs are not in a proper list.");
        for (Term l = spec; !is_nil(l); l = cdr(l)) {
            Term clause = car(l);
            if (!is_tuple(clause) || tuple_arity(clause) != 3)
                return error("Match program part is not a tuple of arity 3.");
            if (!compile_clause(tuple_element(clause, 0), tuple_element(clause, 1), tuple_element(clause, 2)))
                return false;
        }
        return true;
    }

private:
    bool error(std::string message) {
        if (m_errors) m_errors->push_back(std::move(message));
        return false;
    }

    std::uint32_t add(MatchSpec::Node node) {
        m_ms.m_nodes.push_back(node);
        return std::uint32_t(m_ms.m_nodes.size() - 1);
    }

    // A node of [kind] over [kids] ([n]: its count field, by default the number of kids).
    std::uint32_t add_with_kids(Kind kind, std::span<const std::uint32_t> kids, std::uint32_t n) {
        MatchSpec::Node node{kind};
        node.n = n;
        node.first = add_kids(kids);
        return add(node);
    }
    std::uint32_t add_with_kids(Kind kind, const std::vector<std::uint32_t>& kids, std::uint32_t n) {
        return add_with_kids(kind, std::span<const std::uint32_t>(kids), n);
    }
    std::uint32_t add_with_kids(Kind kind, const std::vector<std::uint32_t>& kids) {
        return add_with_kids(kind, kids, std::uint32_t(kids.size()));
    }

    // Stores [kids] contiguously; returns the first index.
    std::uint32_t add_kids(std::span<const std::uint32_t> kids) {
        auto first = std::uint32_t(m_ms.m_kids.size());
        m_ms.m_kids.insert(m_ms.m_kids.end(), kids.begin(), kids.end());
        return first;
    }

    bool proper_list(Term l, std::vector<Term>* out) {
        for (; is_list(l); l = cdr(l)) out->push_back(car(l));
        return is_nil(l);
    }

    bool compile_clause(Term head, Term guards, Term body) {
        m_slots.clear();
        MatchSpec::Clause c{};
        std::uint32_t head_node;
        if (m_ms.m_table) {
            if (!pattern(head, 0, &head_node)) return false;
        } else if (is_list(head) || is_nil(head) || is_tuple(head)) {
            // A tuple head matches the arguments as the elements of a list head would.
            std::vector<Term> args;
            if (is_tuple(head)) {
                for (Word i = 0; i < tuple_arity(head); ++i) args.push_back(tuple_element(head, i));
            } else if (!proper_list(head, &args)) {
                return error("Match expression part " + show(m_vm, head) + " is not a proper list.");
            }
            std::vector<std::uint32_t> kids;
            for (Term a : args) {
                std::uint32_t k;
                if (!pattern(a, 0, &k)) return false;
                kids.push_back(k);
            }
            head_node = add_with_kids(Kind::PArgs, kids);
        } else if (head == any_atom() || variable_number(head) >= 0) {
            if (!pattern(head, 0, &head_node)) return false;
        } else {
            return error("Match head is invalid in this context.");
        }
        c.head = head_node;
        if (const MatchSpec::Node& h = m_ms.m_nodes[head_node]; h.kind == Kind::PArgs) {
            c.arity = int(h.n);
            for (std::uint32_t i = 0; i < h.n && c.immediate_count < 4; ++i) {
                const MatchSpec::Node& a = m_ms.m_nodes[m_ms.m_kids[h.first + i]];
                if (a.kind == Kind::PConst && is_immediate(a.term)) {
                    c.immediate_arg[c.immediate_count] = std::uint8_t(i);
                    c.immediate[c.immediate_count++] = a.term;
                }
            }
        }
        // Guards, then the body, each element compiled before the list's end is checked (the
        // order of OTP's errors). A table's body must be a non-empty list.
        std::vector<std::uint32_t>& gk = m_scratch.guards;
        std::vector<std::uint32_t>& bk = m_scratch.body;
        gk.clear();
        bk.clear();
        if (!expressions(guards, true, &gk)) return false;
        if (m_ms.m_table && !is_list(body)) return error("Body clause does not return anything.");
        if (!expressions(body, false, &bk)) return false;
        c.guards_first = add_kids(gk);
        c.guards_count = std::uint32_t(gk.size());
        c.body_first = add_kids(bk);
        c.body_count = std::uint32_t(bk.size());
        // '$$' lists the variables in the order of their numbers.
        std::vector<std::pair<SWord, std::uint32_t>>& order = m_scratch.order;
        order.assign(m_slots.begin(), m_slots.end());
        std::sort(order.begin(), order.end());
        std::vector<std::uint32_t>& slots = m_scratch.vars;
        slots.clear();
        for (auto& [number, slot] : order) slots.push_back(slot);
        c.vars_first = add_kids(slots);
        c.vars_count = std::uint32_t(slots.size());
        m_ms.m_max_slots = std::max<std::uint32_t>(m_ms.m_max_slots, std::uint32_t(slots.size()));
        m_ms.m_clauses.push_back(c);
        return true;
    }

    // The expressions of a guard or body list [l], compiled into [out].
    bool expressions(Term l, bool guard, std::vector<std::uint32_t>* out) {
        if (is_nil(l)) return true;
        if (!is_list(l)) return error("Match expression is not a list.");
        for (; is_list(l); l = cdr(l)) {
            std::uint32_t k;
            if (!expr(car(l), guard, 0, &k)) return false;
            out->push_back(k);
        }
        if (!is_nil(l)) return error("Match expression is not a proper list.");
        return true;
    }

    // Excessive nesting near [t] (OTP reports it twice: where it was noticed and for the
    // expression around it).
    bool nesting_error(Term t) {
        if (!m_too_deep) {
            // OTP formats into a 100-byte buffer (99 characters are kept) and reports the
            // innermost term of the first-element chain second.
            const std::string prefix = "Excessive nesting; system limit reached near: ";
            error((prefix + show(m_vm, t, 64)).substr(0, 99));
            Term inner = t;
            while ((is_list(inner) && !is_nil(inner)) || (is_tuple(inner) && tuple_arity(inner) > 0))
                inner = is_list(inner) ? car(inner) : tuple_element(inner, 0);
            error((prefix + show(m_vm, inner, 64)).substr(0, 99));
        }
        m_too_deep = true;
        return false;
    }

    // Whether a map in pattern [t] has a variable ('$N') as a key: OTP refuses that.
    static bool has_variable_map_key(Term t) {
        vm::WorkStack<Term> todo(t);
        bool found = false;
        while (!todo.empty() && !found) {
            Term u = todo.back();
            todo.pop_back();
            if (is_list(u)) {
                todo.push_back(car(u));
                todo.push_back(cdr(u));
            } else if (is_tuple(u)) {
                for (Word i = 0; i < tuple_arity(u); ++i) todo.push_back(tuple_element(u, i));
            } else if (is_map(u)) {
                map_for_each(u, [&](Term k, Term v) {
                    found = found || variable_number(k) >= 0;
                    todo.push_back(v);
                });
            }
        }
        return found;
    }

    // A pattern node for [t]: '_', '$N' (bind at its first occurrence, compare after), a
    // literal, or a tuple, list or map of patterns. Iterative: heads may nest as deep as any
    // term (OTP accepts them), so this uses no C++ recursion.
    bool pattern(Term t, int, std::uint32_t* out) {
        // The compound patterns being built, innermost last. Their children still to compile
        // and those compiled so far are on two shared stacks, each frame's above its
        // parent's (compiled at every ets:select call: no allocation per frame).
        struct Frame {
            Kind kind;
            std::uint32_t pending_base;  // m_pending[pending_base..]: in reverse order
            std::uint32_t kids_base;     // m_pattern_kids[kids_base..]
            std::uint32_t keys;          // PMap: its index in m_map_keys
        };
        if (has_variable_map_key(t)) return error("Variable found in map key.");
        vm::WorkStack<Frame, 16> stack;
        m_pending.clear();
        m_pattern_kids.clear();
        auto leaf_or_push = [&](Term u, std::uint32_t* leaf) {
            if (u == any_atom()) {
                *leaf = add({Kind::PAny});
                return true;
            }
            if (SWord v = variable_number(u); v >= 0) {
                auto it = std::find_if(m_slots.begin(), m_slots.end(), [&](auto& s) { return s.first == v; });
                MatchSpec::Node n{it == m_slots.end() ? Kind::PBind : Kind::PEqVar};
                if (it == m_slots.end()) {
                    n.slot = std::uint32_t(m_slots.size());
                    m_slots.emplace_back(v, n.slot);
                } else {
                    n.slot = it->second;
                }
                *leaf = add(n);
                return true;
            }
            Frame f{Kind::PConst, std::uint32_t(m_pending.size()), std::uint32_t(m_pattern_kids.size()), 0};
            if (is_list(u)) {
                f.kind = Kind::PCons;
                m_pending.push_back(cdr(u));
                m_pending.push_back(car(u));
            } else if (is_tuple(u)) {
                f.kind = Kind::PTuple;
                for (Word i = tuple_arity(u); i-- > 0;) m_pending.push_back(tuple_element(u, i));
            } else if (is_map(u)) {
                // Keys are literals; the values are patterns.
                f.kind = Kind::PMap;
                f.keys = std::uint32_t(m_ms.m_map_keys.size());
                std::vector<Term>& keys = m_ms.m_map_keys.emplace_back();
                map_for_each(u, [&](Term k, Term v) {
                    keys.push_back(k);
                    m_pending.push_back(v);
                });
                std::reverse(m_pending.begin() + f.pending_base, m_pending.end());
            } else {
                MatchSpec::Node n{Kind::PConst};
                n.term = u;
                *leaf = add(n);
                return true;
            }
            stack.push_back(f);
            return false;
        };
        if (leaf_or_push(t, out)) return true;
        while (true) {
            Frame top = stack.back();
            if (m_pending.size() > top.pending_base) {
                Term next = m_pending.back();
                m_pending.pop_back();
                std::uint32_t leaf;
                if (leaf_or_push(next, &leaf)) m_pattern_kids.push_back(leaf);
                continue;
            }
            std::span<const std::uint32_t> kids(m_pattern_kids.data() + top.kids_base,
                                                m_pattern_kids.size() - top.kids_base);
            std::uint32_t node;
            if (top.kind == Kind::PMap) {
                MatchSpec::Node n{Kind::PMap};
                n.n = std::uint32_t(kids.size());
                n.first = add_kids(kids);
                n.slot = top.keys;
                node = add(n);
            } else {
                node = add_with_kids(top.kind, kids, top.kind == Kind::PCons ? 0 : std::uint32_t(kids.size()));
            }
            m_pattern_kids.resize(top.kids_base);
            stack.pop_back();
            if (stack.empty()) {
                *out = node;
                return true;
            }
            m_pattern_kids.push_back(node);
        }
    }

    bool expr(Term t, bool guard, int depth, std::uint32_t* out) {
        if (depth > MAX_DEPTH) return nesting_error(t);
        if (is_atom(t)) {
            if (SWord v = variable_number(t); v >= 0) {
                auto it = std::find_if(m_slots.begin(), m_slots.end(), [&](auto& s) { return s.first == v; });
                if (it == m_slots.end()) return error("Variable $" + std::to_string(v) + " is unbound.");
                MatchSpec::Node n{Kind::EVar};
                n.slot = it->second;
                *out = add(n);
                return true;
            }
            if (t == whole_object_atom()) {
                *out = add({Kind::EWhole});
                return true;
            }
            if (t == all_bindings_atom()) {
                *out = add({Kind::EAllVars});
                return true;
            }
        }
        if (is_list(t)) {
            std::uint32_t h, tl;
            if (!expr(car(t), guard, depth + 1, &h) || !expr(cdr(t), guard, depth + 1, &tl)) return false;
            *out = add_with_kids(Kind::ECons, {h, tl}, 0);
            return true;
        }
        if (is_map(t)) {
            std::vector<std::uint32_t> kids;
            bool ok = true;
            map_for_each(t, [&](Term k, Term v) {
                std::uint32_t kk, vk;
                if (!ok || !expr(k, guard, depth + 1, &kk) || !expr(v, guard, depth + 1, &vk)) {
                    ok = false;
                    return;
                }
                kids.push_back(kk);
                kids.push_back(vk);
            });
            if (!ok) return false;
            *out = add_with_kids(Kind::EMap, kids, std::uint32_t(kids.size() / 2));
            return true;
        }
        if (is_tuple(t)) return tuple_expr(t, guard, depth, out);
        MatchSpec::Node n{Kind::EConst};
        n.term = t;
        *out = add(n);
        return true;
    }

    bool tuple_expr(Term t, bool guard, int depth, std::uint32_t* out) {
        Word arity = tuple_arity(t);
        if (arity == 2 && tuple_element(t, 0) == const_atom()) {
            MatchSpec::Node n{Kind::EConst};
            n.term = tuple_element(t, 1);
            *out = add(n);
            return true;
        }
        if (arity == 1 && is_tuple(tuple_element(t, 0))) {
            // {{A, B, ...}} builds a tuple.
            Term inner = tuple_element(t, 0);
            std::vector<std::uint32_t> kids;
            for (Word i = 0; i < tuple_arity(inner); ++i) {
                std::uint32_t k;
                if (!expr(tuple_element(inner, i), guard, depth + 1, &k)) return false;
                kids.push_back(k);
            }
            *out = add_with_kids(Kind::ETuple, kids);
            return true;
        }
        Term fn = arity ? tuple_element(t, 0) : 0;
        if (!fn || !is_atom(fn))
            return error(show(m_vm, t) + " is neither a function call, nor a tuple (tuples are written {{ ... }}).");
        int nargs = int(arity) - 1;
        const std::string& name = atom_text(fn);
        std::vector<std::uint32_t> kids;
        auto args = [&]() {
            for (Word i = 1; i < arity; ++i) {
                std::uint32_t k;
                if (!expr(tuple_element(t, i), guard, depth + 1, &k)) return false;
                kids.push_back(k);
            }
            return true;
        };
        Kind special = name == "and" ? Kind::EAnd : name == "or" ? Kind::EOr : name == "andalso" ? Kind::EAndAlso
                     : name == "orelse" ? Kind::EOrElse : Kind::EConst;
        if (special != Kind::EConst) {
            if (nargs == 0)
                return error("Special form '" + name + "' called without arguments in " + show(m_vm, t) + ".");
            if (!args()) return false;
            *out = add_with_kids(special, kids);
            return true;
        }
        for (const ActionName& a : ACTIONS) {
            if (name != a.name) continue;
            bool arity_ok = a.arity >= 0 ? nargs == a.arity : a.arity == -1 ? (nargs == 1 || nargs == 2) : (nargs == 2 || nargs == 3);
            // get_tcw and set_tcw are functions in OTP, not special forms: another arity does
            // not exist.
            if (!arity_ok && (a.action == Action::GetTcw || a.action == Action::SetTcw)) break;
            // OTP's order: the dialect, the context, then the arity. OTP 25 names
            // set_seq_token 'set_seq_trace' in the dialect error.
            if (m_ms.m_table && a.action != Action::Self)
                return error("Special form '" + std::string(name == "set_seq_token" ? "set_seq_trace" : name) +
                             "' used in wrong dialect.");
            if (!allowed_in_kind(a.action))
                return error("Special form '" + name + "' called in wrong context.");
            if (guard && !a.in_guard && arity_ok) {
                if (a.action == Action::SetTcw)
                    return error("Function " + name + "/" + std::to_string(nargs) + " cannot be called in this context.");
                return error("Special form '" + name + "' called in guard context.");
            }
            if (!arity_ok) {
                if (a.arity == 0) return error("Special form '" + name + "' called with arguments in " + show(m_vm, t) + ".");
                return error("Special form '" + name + "' called with wrong number of arguments in " + show(m_vm, t) + ".");
            }
            if (!args()) return false;
            MatchSpec::Node n{Kind::EAction};
            n.action = a.action;
            n.n = std::uint32_t(kids.size());
            n.first = add_kids(kids);
            *out = add(n);
            return true;
        }
        for (const GuardBif& g : GUARD_BIFS) {
            if (name != g.name || nargs != g.arity) continue;
            BifFn f = m_vm.find_bif(atoms::erlang, fn, Word(nargs));
            if (!f) break;
            if (!args()) return false;
            MatchSpec::Node n{Kind::EBif};
            n.bif = f;
            n.n = std::uint32_t(kids.size());
            n.first = add_kids(kids);
            *out = add(n);
            return true;
        }
        return error("Function " + show(m_vm, fn) + "/" + std::to_string(nargs) + " does_not_exist.");
    }

    // Send specs may not use caller; receive specs run outside the receiving process's
    // execution, so nothing that looks at or changes it (OTP's erl_db_util.c).
    bool allowed_in_kind(Action a) const {
        switch (m_ms.m_kind) {
        case MatchSpecKind::Call: return true;
        case MatchSpecKind::Send: return a != Action::Caller && a != Action::CallerLine;
        case MatchSpecKind::Receive:
            switch (a) {
            case Action::Caller: case Action::CallerLine: case Action::IsSeqTrace: case Action::GetSeqToken:
            case Action::SetSeqToken: case Action::EnableTrace: case Action::DisableTrace: case Action::Trace:
            case Action::Silent: case Action::ProcessDump: return false;
            default: return true;
            }
        }
        return true;
    }

    // [t] printed with its nested terms cut short.

    Vm& m_vm;
    MatchSpec& m_ms;
    std::vector<std::string>* m_errors;
    // Working space, kept by each thread from one compilation to the next: ETS's select and
    // match compile a spec at every call (Mnesia's lock manager, several per transaction),
    // and once warm a compilation allocates only the spec it returns.
    struct Scratch {
        std::vector<std::pair<SWord, std::uint32_t>> slots;  // '$N' -> slot, this clause
        std::vector<Term> pending;                           // pattern(): children still to compile
        std::vector<std::uint32_t> pattern_kids;             // pattern(): children compiled
        std::vector<std::uint32_t> guards, body, vars;       // compile_clause(): its lists
        std::vector<std::pair<SWord, std::uint32_t>> order;  // compile_clause(): '$$' order
    };
    static Scratch& thread_scratch() {
        static thread_local Scratch scratch;
        return scratch;
    }
    Scratch& m_scratch = thread_scratch();
    std::vector<std::pair<SWord, std::uint32_t>>& m_slots = m_scratch.slots;
    std::vector<Term>& m_pending = m_scratch.pending;
    std::vector<std::uint32_t>& m_pattern_kids = m_scratch.pattern_kids;
    bool m_too_deep = false;
};

MatchSpec* MatchSpec::compile_table(Vm& vm, Term source, std::vector<std::string>* errors, bool* too_deep) {
    auto* ms = new MatchSpec();
    ms->m_table = true;
    ms->m_storage = copy_to_fragment(source, &ms->m_source);
    ms->m_nodes.reserve(16);  // one allocation each for the usual spec, not five
    ms->m_kids.reserve(16);
    MatchSpecCompiler compiler(vm, *ms, errors);
    if (!compiler.compile(ms->m_source)) {
        if (too_deep) *too_deep = compiler.too_deep();
        delete ms;
        return nullptr;
    }
    return ms;
}

bool MatchSpec::recompile_table(Vm& vm, Term source, bool* too_deep) {
    m_nodes.clear();
    m_kids.clear();
    m_clauses.clear();
    m_map_keys.clear();
    m_max_slots = 0;
    m_table = true;
    keep_source(source);
    MatchSpecCompiler compiler(vm, *this, nullptr);
    if (compiler.compile(m_source)) return true;
    if (too_deep) *too_deep = compiler.too_deep();
    return false;
}

void MatchSpec::keep_source(Term source) {
    Word need = term_size_words(source);
    if (m_storage && need <= m_storage->size_words && m_storage->size_words <= 2 * need + 64) {
        release_off_heap_list(m_storage->off_heap_first);
        m_storage->off_heap_first = nullptr;
        Term* hp = m_storage->data;
        m_source = copy_term(source, &hp, &m_storage->off_heap_first);
        m_storage->used_words = need;
        return;
    }
    free_fragment(m_storage);
    m_storage = copy_to_fragment(source, &m_source);
}

MatchSpec* MatchSpec::compile(Vm& vm, Term source, std::vector<std::string>* errors, MatchSpecKind kind,
                              bool* too_deep) {
    auto* ms = new MatchSpec();
    ms->m_kind = kind;
    ms->m_storage = copy_to_fragment(source, &ms->m_source);
    ms->m_nodes.reserve(16);  // one allocation each for the usual spec, not five
    ms->m_kids.reserve(16);
    MatchSpecCompiler compiler(vm, *ms, errors);
    if (!compiler.compile(ms->m_source)) {
        if (too_deep) *too_deep = compiler.too_deep();
        delete ms;
        return nullptr;
    }
    return ms;
}

MatchSpec::~MatchSpec() { free_fragment(m_storage); }

// ---- runner ------------------------------------------------------------------------------------

class MatchSpecRunner {
public:
    MatchSpecRunner(const MatchSpec& ms, Process* p, const Term* args, Word n, MatchSpecActions& actions, Term* vars)
        : m_ms(ms), m_p(p), m_args(args), m_n(n), m_actions(actions), m_vars(vars) {}

    MatchSpec::Result run() {
        MatchSpec::Result r;
        for (const MatchSpec::Clause& c : m_ms.m_clauses) {
            m_clause = &c;
            if (!match(c.head, m_ms.m_table ? m_args[0] : 0)) continue;
            if (!guards_hold(c)) continue;
            r.matched = true;
            m_message = atoms::true_;
            m_in_body = true;
            Term last = atoms::true_;
            for (std::uint32_t i = 0; i < c.body_count; ++i) last = eval(m_ms.m_kids[c.body_first + i]);
            if (m_ms.m_table) m_message = last;
            r.message = m_message;
            r.flags = m_flags;
            return r;
        }
        return r;
    }

private:
    using Node = MatchSpec::Node;
    const Node& node(std::uint32_t i) const { return m_ms.m_nodes[i]; }
    std::uint32_t kid(const Node& n, std::uint32_t i) const { return m_ms.m_kids[n.first + i]; }

    void clear_exception() { m_p->exception = PendingException{}; }

    Term whole() {
        if (m_ms.m_table) return m_args[0];
        if (!m_whole) {
            Term l = NIL;
            Term* cells = m_p->alloc(2 * m_n);
            for (Word i = m_n; i-- > 0;) l = make_cons_on(cells + 2 * i, m_args[i], l);
            m_whole = l;
        }
        return m_whole;
    }

    // Matches pattern [i] against [t] (0: the argument array, for PArgs and the whole head).
    // Matches pattern node [root] against [t] (0: the argument list), left to right, with an
    // explicit stack: a pattern may be nested as deep as any term.
    bool match(std::uint32_t root, Term t) {
        struct Item {
            std::uint32_t node;
            Term term;
        };
        Item small[32];
        std::vector<Item> big;
        Item* stack = small;
        std::size_t size = 0, capacity = 32;
        auto push = [&](std::uint32_t node, Term term) {
            if (size == capacity) {
                if (big.empty()) big.assign(small, small + size);
                big.resize(capacity *= 2);
                stack = big.data();
            }
            stack[size++] = Item{node, term};
        };
        push(root, t);
        while (size) {
            Item it = stack[--size];
            const Node& n = node(it.node);
            switch (n.kind) {
            case Kind::PAny: break;
            case Kind::PBind: m_vars[n.slot] = it.term ? it.term : whole(); break;
            case Kind::PEqVar:
                if (!terms_exact_equal(m_vars[n.slot], it.term)) return false;
                break;
            case Kind::PConst:
                if (it.term != n.term && (is_immediate(n.term) || !terms_exact_equal(it.term, n.term))) return false;
                break;
            case Kind::PArgs:
                if (n.n != m_n) return false;
                for (std::uint32_t k = n.n; k-- > 0;) push(kid(n, k), m_args[k]);
                break;
            case Kind::PTuple:
                if (!is_tuple(it.term) || tuple_arity(it.term) != n.n) return false;
                for (std::uint32_t k = n.n; k-- > 0;) push(kid(n, k), tuple_element(it.term, k));
                break;
            case Kind::PCons:
                if (!is_list(it.term)) return false;
                push(kid(n, 1), cdr(it.term));
                push(kid(n, 0), car(it.term));
                break;
            case Kind::PMap: {
                if (!is_map(it.term)) return false;
                const std::vector<Term>& keys = m_ms.m_map_keys[n.slot];
                for (std::uint32_t k = n.n; k-- > 0;) {
                    const Term* v = map_lookup(it.term, keys[k]);
                    if (!v) return false;
                    push(kid(n, k), *v);
                }
                break;
            }
            default: return false;
            }
        }
        return true;
    }

    bool guards_hold(const MatchSpec::Clause& c) {
        for (std::uint32_t i = 0; i < c.guards_count; ++i) {
            Term r = eval(m_ms.m_kids[c.guards_first + i]);
            if (r != atoms::true_) {
                if (r == THE_NON_VALUE) clear_exception();
                return false;
            }
        }
        return true;
    }

    Term fail() { return m_p->badarg(); }

    // In a body, a call that fails gives 'EXIT' in its place (the rest is still built).
    Term eval(std::uint32_t i) {
        Term r = eval_node(i);
        if (r == THE_NON_VALUE && m_in_body) {
            clear_exception();
            return atoms::EXIT;
        }
        return r;
    }

    Term eval_node(std::uint32_t i) {
        const Node& n = node(i);
        switch (n.kind) {
        case Kind::EConst: return n.term;
        case Kind::EVar: return m_vars[n.slot];
        case Kind::EWhole: return whole();
        case Kind::EAllVars: {
            Term l = NIL;
            for (std::uint32_t k = m_clause->vars_count; k-- > 0;)
                l = make_cons_on(m_p->alloc(2), m_vars[m_ms.m_kids[m_clause->vars_first + k]], l);
            return l;
        }
        case Kind::ETuple: {
            Term elems[16];
            std::vector<Term> big;
            Term* e = n.n <= 16 ? elems : (big.resize(n.n), big.data());
            for (std::uint32_t k = 0; k < n.n; ++k)
                if ((e[k] = eval(kid(n, k))) == THE_NON_VALUE) return THE_NON_VALUE;
            Term* hp = m_p->alloc(n.n + 1);
            hp[0] = make_arityval(n.n);
            std::copy(e, e + n.n, hp + 1);
            return make_boxed(hp);
        }
        case Kind::ECons: {
            Term h = eval(kid(n, 0));
            if (h == THE_NON_VALUE) return h;
            Term t = eval(kid(n, 1));
            if (t == THE_NON_VALUE) return t;
            return make_cons_on(m_p->alloc(2), h, t);
        }
        case Kind::EMap: {
            std::vector<std::pair<Term, Term>> pairs;
            for (std::uint32_t k = 0; k < n.n; ++k) {
                Term key = eval(kid(n, 2 * k)), value = eval(kid(n, 2 * k + 1));
                if (key == THE_NON_VALUE || value == THE_NON_VALUE) return THE_NON_VALUE;
                pairs.emplace_back(key, value);
            }
            return map_from_pairs(m_p, std::move(pairs));
        }
        case Kind::EBif: {
            Term a[3];
            for (std::uint32_t k = 0; k < n.n; ++k)
                if ((a[k] = eval(kid(n, k))) == THE_NON_VALUE) return THE_NON_VALUE;
            return n.bif(m_p, a);
        }
        case Kind::EAnd:
        case Kind::EOr: {
            bool is_and = n.kind == Kind::EAnd, acc = is_and;
            for (std::uint32_t k = 0; k < n.n; ++k) {
                Term v = eval(kid(n, k));
                if (v == THE_NON_VALUE) return v;
                if (v != atoms::true_ && v != atoms::false_) return fail();
                acc = is_and ? (acc && v == atoms::true_) : (acc || v == atoms::true_);
            }
            return acc ? atoms::true_ : atoms::false_;
        }
        case Kind::EAndAlso:
        case Kind::EOrElse: {
            Term stop = n.kind == Kind::EAndAlso ? atoms::false_ : atoms::true_;
            for (std::uint32_t k = 0; k < n.n; ++k) {
                Term v = eval(kid(n, k));
                if (v == THE_NON_VALUE || v == stop || k + 1 == n.n) return v;
                if (v != atoms::true_ && v != atoms::false_) return fail();
            }
            return stop;
        }
        case Kind::EAction: return action(n);
        default: return fail();
        }
    }

    Term action(const Node& n) {
        Term a[3] = {0, 0, 0};
        for (std::uint32_t k = 0; k < n.n; ++k) {
            a[k] = eval(kid(n, k));
            if (a[k] == THE_NON_VALUE) return THE_NON_VALUE;
        }
        switch (n.action) {
        case Action::Message: m_message = a[0]; return atoms::true_;
        case Action::ReturnTrace: m_flags |= MS_RETURN_TRACE; return atoms::true_;
        case Action::ExceptionTrace: m_flags |= MS_EXCEPTION_TRACE; return atoms::true_;
        case Action::ProcessDump: return m_actions.process_dump(m_p);
        case Action::EnableTrace:
        case Action::DisableTrace: {
            Term who = n.n == 2 ? a[0] : 0, flag = n.n == 2 ? a[1] : a[0];
            Term list = make_cons_on(m_p->alloc(2), flag, NIL);
            Term r = n.action == Action::EnableTrace ? m_actions.change_trace(m_p, who, NIL, list)
                                                     : m_actions.change_trace(m_p, who, list, NIL);
            return r == THE_NON_VALUE ? r : atoms::true_;  // true, changed or not
        }
        case Action::Trace:
            return n.n == 3 ? m_actions.change_trace(m_p, a[0], a[1], a[2]) : m_actions.change_trace(m_p, 0, a[0], a[1]);
        case Action::Caller: return m_actions.caller(m_p);
        case Action::CallerLine: return m_actions.caller_line(m_p);
        case Action::Display: {
            BifFn display = m_p->vm.find_bif(atoms::erlang, atom("display"), 1);
            return display ? display(m_p, a) : atoms::true_;
        }
        case Action::Silent:
            if (a[0] == atoms::true_ || a[0] == atoms::false_) m_actions.set_silent(m_p, a[0] == atoms::true_);
            return atoms::true_;
        case Action::SetTcw: {
            if (!is_small(a[0]) || small_value(a[0]) < 0 || small_value(a[0]) > 0xFFFFFFFF) return fail();
            auto value = std::uint32_t(small_value(a[0]));
            std::uint32_t old = m_actions.live() ? g_trace_control_word.exchange(value) : g_trace_control_word.load();
            return make_small(SWord(old));
        }
        case Action::GetTcw: return make_small(SWord(g_trace_control_word.load()));
        case Action::IsSeqTrace: return make_bool(m_p && current_seq_token(m_p) != NIL);
        case Action::GetSeqToken: return m_p ? seq_token_copy(m_p) : NIL;
        case Action::SetSeqToken:
            // As seq_trace:set_token/2, but true or 'EXIT'; only when tracing for real.
            if (!m_p || !m_actions.live()) return atoms::true_;
            return seq_trace_set(m_p, a[0], a[1]) ? atoms::true_ : atoms::EXIT;
        case Action::Self: return m_p->id;
        case Action::None: break;
        }
        return fail();
    }

    const MatchSpec& m_ms;
    Process* m_p;
    const Term* m_args;
    Word m_n;
    MatchSpecActions& m_actions;
    Term* m_vars;
    const MatchSpec::Clause* m_clause = nullptr;
    Term m_whole = 0;
    Term m_message = 0;
    std::uint32_t m_flags = 0;
    bool m_in_body = false;
};

bool MatchSpec::may_match(const Term* args, Word n) const {
    if (m_table) return true;
    for (const Clause& c : m_clauses) {
        if (c.arity >= 0 && Word(c.arity) != n) continue;
        bool ok = true;
        for (std::uint8_t i = 0; i < c.immediate_count && ok; ++i) ok = args[c.immediate_arg[i]] == c.immediate[i];
        if (ok) return true;
    }
    return false;
}

MatchSpec::Result MatchSpec::run(Process* p, const Term* args, Word n, MatchSpecActions& actions) const {
    // Most calls match no clause of a selective spec: reject them on arity and immediates
    // before setting up a full run.
    if (!may_match(args, n)) return Result{};
    Term small_vars[16];
    std::vector<Term> big_vars;
    Term* vars = small_vars;
    if (m_max_slots > 16) {
        big_vars.resize(m_max_slots);
        vars = big_vars.data();
    }
    return MatchSpecRunner(*this, p, args, n, actions, vars).run();
}

// ---- match_spec_test and process_dump ----------------------------------------------------------

namespace {

// No trace actions take effect in a test run.
class TestActions : public MatchSpecActions {
public:
    Term process_dump(Process* p) override { return process_dump_binary(p); }
    bool live() const override { return false; }
};

Term copy_to_heap(Process* p, Term t) {
    Word size = term_size_words(t);
    if (!size) return t;
    Term* hp = p->alloc(size);
    return copy_term(t, &hp, &p->off_heap_first);
}

Term tuple_of(Process* p, std::initializer_list<Term> elems) {
    Term* hp = p->alloc(elems.size() + 1);
    hp[0] = make_arityval(elems.size());
    std::copy(elems.begin(), elems.end(), hp + 1);
    return make_boxed(hp);
}

}  // namespace

Term match_spec_test(Process* p, Term args, Term spec, bool table, MatchSpecActions* actions) {
    std::vector<Term> argv;
    if (table) {
        argv.push_back(args);  // any term: the head matches it as a whole
    } else {
        // The elements of a list (an improper tail is ignored, as OTP does).
        if (!is_list(args) && !is_nil(args)) return p->badarg();
        for (Term l = args; is_list(l); l = cdr(l)) argv.push_back(car(l));
    }
    std::vector<std::string> errors;
    MatchSpec* ms = nullptr;
    if (is_nil(spec)) errors.push_back("Match programs are not in a list.");
    else ms = table ? MatchSpec::compile_table(p->vm, spec, &errors) : MatchSpec::compile(p->vm, spec, &errors);
    if (!ms) {
        Term list = NIL;
        for (auto it = errors.rbegin(); it != errors.rend(); ++it) {
            Term text = NIL;
            for (auto c = it->rbegin(); c != it->rend(); ++c)
                text = make_cons_on(p->alloc(2), make_small(static_cast<unsigned char>(*c)), text);
            list = make_cons_on(p->alloc(2), tuple_of(p, {atoms::error, text}), list);
        }
        return tuple_of(p, {atoms::error, list});
    }
    TestActions test_actions;
    MatchSpec::Result r = ms->run(p, argv.data(), argv.size(), actions ? *actions : test_actions);
    Term result = r.matched ? copy_to_heap(p, r.message) : atoms::false_;
    delete ms;
    Term flags = NIL;
    if (r.flags & MS_EXCEPTION_TRACE) flags = make_cons_on(p->alloc(2), atom("exception_trace"), flags);
    if (r.flags & MS_RETURN_TRACE) flags = make_cons_on(p->alloc(2), atom("return_trace"), flags);
    return tuple_of(p, {atom("ok"), result, flags, NIL});
}

// OTP's process dump, in part: the process's state and its stack dump, a line per return
// address naming the function it is in ("Return addr 0x... (m:f/a + Offset)").
Term process_dump_binary(Process* p) {
    auto hex = [](const void* a) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "0x%016" PRIxPTR, reinterpret_cast<std::uintptr_t>(a));
        return std::string(buf);
    };
    auto where = [&](const Word* at) {
        const Module* m = p->vm.module_containing(at);
        const FunctionInfo* f = m ? m->function_at(at) : nullptr;
        if (!f) return std::string("unknown function");
        std::size_t offset = std::size_t(at - (m->code.get() + f->header_offset)) * sizeof(Word);
        return atom_text(m->name) + ":" + atom_text(f->name) + "/" + std::to_string(f->arity) + " + " +
               std::to_string(offset);
    };
    std::string s = "=proc:" + show_term(p->vm, p->id) + "\nState: Running\n";
    if (p->initial_call[0])
        s += "Spawned as: " + atom_text(p->initial_call[0]) + ":" + atom_text(p->initial_call[1]) + "/" +
             show_term(p->vm, p->initial_call[2]) + "\n";
    s += "Message queue length: " + std::to_string(p->inbox.size()) + "\n";
    s += "Reductions: " + std::to_string(p->reductions) + "\n";
    s += "Stack+heap: " + std::to_string(p->heap_used_words() + p->stack_used_words()) + "\n";
    // At a trace point, as on OTP, the program counter is in no Erlang function.
    s += "Stack dump:\nProgram counter: " + hex(nullptr) + " (unknown function)\n";
    constexpr std::size_t MAX_FRAMES = 64;
    for (const Word* at : return_addresses(p, MAX_FRAMES))
        if (p->vm.module_containing(at)) s += "\n" + hex(p->stop) + " Return addr " + hex(at) + " (" + where(at) + ")\n";
    return make_binary(p, s);
}

std::uint32_t trace_control_word() { return g_trace_control_word.load(); }

std::uint32_t exchange_trace_control_word(std::uint32_t value) { return g_trace_control_word.exchange(value); }

}  // namespace beamlet::matchspec
