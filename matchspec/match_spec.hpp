// matchspec/match_spec.hpp — match specifications, a component of their own serving tracing
// (call, send and receive specs with their trace actions) and ETS (select, match, ...) as OTP's
// erl_db_util does for both: a compiler from the match-spec term to a small tree program, and
// its evaluation (OTP's db_match_compile / erts_match_set_run_trace). It depends on vm/ only;
// the actions that touch tracing are behind MatchSpecActions.
//
// A compiled MatchSpec owns a copy of its source term (trace_info returns it) and is shared by
// the breakpoint generations that use it: its reference count changes only under the code
// modification permission, and the last release is deferred past a thread-progress wait.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {
struct Process;
struct Vm;
}

namespace beamlet::matchspec {

using vm::Process;
using vm::Term;
using vm::Word;

// Flags a matching body sets (OTP's MATCH_SET_RETURN_TRACE / MATCH_SET_EXCEPTION_TRACE).
enum MatchSpecFlags : std::uint32_t {
    MS_RETURN_TRACE = 1u << 0,
    MS_EXCEPTION_TRACE = 1u << 1,
};

// The trace actions of a body, performed by whoever runs the match spec: the breakpoint for a
// traced call, or nothing for erlang:match_spec_test/3.
class MatchSpecActions {
public:
    virtual ~MatchSpecActions() = default;
    // {caller}: where the traced function returns to, as {M, F, A}, or undefined.
    virtual Term caller(Process*) { return vm::atoms::undefined; }
    // {caller_line}: {M, F, A, {File, Line}} or undefined.
    virtual Term caller_line(Process*) { return vm::atoms::undefined; }
    // {process_dump}: a binary describing the process.
    virtual Term process_dump(Process* p) = 0;
    // {trace, Who, Disable, Enable} (and enable_trace/disable_trace as one-flag lists): true if
    // a flag changed, false if not, THE_NON_VALUE (with badarg raised) for bad arguments. [who]
    // is 0 for the calling process.
    virtual Term change_trace(Process*, Term, Term, Term) { return vm::atoms::true_; }
    // {silent, Bool}.
    virtual void set_silent(Process*, bool) {}
    // False for erlang:match_spec_test/3, where {set_tcw, N} only reads the word (as OTP).
    virtual bool live() const { return true; }
};

// The node's trace control word: erlang:system_info/system_flag(trace_control_word) and the
// match specs' {get_tcw} / {set_tcw, N}.
std::uint32_t trace_control_word();
// Sets it; returns the previous value.
std::uint32_t exchange_trace_control_word(std::uint32_t value);

// What a trace match spec is for: the head it matches and the actions it may use (OTP: send
// specs may not use caller; receive specs none of the actions that act on the process).
enum class MatchSpecKind : std::uint8_t { Call, Send, Receive };

class MatchSpec {
public:
    // Compiles [source], a match spec for [kind] tracing; null on an error, with OTP's messages
    // in [errors]. [too_deep] (if given) tells whether the error is excessive nesting, which
    // the BIFs raise as system_limit rather than badarg.
    static MatchSpec* compile(vm::Vm& vm, Term source, std::vector<std::string>* errors,
                              MatchSpecKind kind = MatchSpecKind::Call, bool* too_deep = nullptr);
    // An ETS-dialect spec (erlang:match_spec_test/3 with type table): the head matches one
    // object, trace actions are refused, and the result is the last body expression.
    static MatchSpec* compile_table(vm::Vm& vm, Term source, std::vector<std::string>* errors, bool* too_deep = nullptr);
    // Compiles ETS-dialect [source] into this spec, in place of what it held, reusing its
    // storage (ETS's cache of recent specs compiles a new one per select with a new key);
    // false on an error, which leaves the spec unusable.
    bool recompile_table(vm::Vm& vm, Term source, bool* too_deep);
    ~MatchSpec();
    MatchSpec(const MatchSpec&) = delete;
    MatchSpec& operator=(const MatchSpec&) = delete;

    // The source term, as given (stored off any process heap).
    Term source() const { return m_source; }

    struct Result {
        bool matched = false;   // a clause matched (OTP's pam_result != false)
        Term message = 0;       // true, or the {message, T} value (false: matched, no message)
        std::uint32_t flags = 0;
    };
    // Runs the spec on the [n] arguments [args] of a call by [p]; terms are built on [p]'s heap
    // (fragments when it is full: a running process's heap never moves here).
    Result run(Process* p, const Term* args, Word n, MatchSpecActions& actions) const;
    // False when no clause can match [n] arguments [args] (arity and immediate arguments
    // decide): run() would not match, and nothing needs setting up for it.
    bool may_match(const Term* args, Word n) const;

    // The references held by breakpoint generations and sessions.
    void add_ref() { ++m_refs; }
    // Drops one; true if it was the last (the caller frees it, after a thread-progress wait
    // when running code may still read it).
    bool release() { return --m_refs == 0; }

    struct Node;

private:
    MatchSpec() = default;
    // [m_source] becomes a copy of [source], in [m_storage] if it fits well.
    void keep_source(Term source);
    friend class MatchSpecCompiler;
    friend class MatchSpecRunner;

    Term m_source = 0;
    vm::HeapFragment* m_storage = nullptr;  // the copy of the source; literals point into it
    std::vector<Node> m_nodes;
    std::vector<std::uint32_t> m_kids;      // child node lists
    struct Clause {
        std::uint32_t head;                 // a pattern node for the argument list
        std::uint32_t guards_first, guards_count;
        std::uint32_t body_first, body_count;
        std::uint32_t vars_first, vars_count;  // the slots in the order of their '$N' ('$$')
        // A quick rejection before the full match: the argument count a list head needs (-1:
        // any), and up to 4 arguments that must be given immediates.
        int arity = -1;
        std::uint8_t immediate_count = 0;
        std::uint8_t immediate_arg[4];
        Term immediate[4];
    };
    std::vector<Clause> m_clauses;
    std::vector<std::vector<Term>> m_map_keys;  // the keys of each map pattern
    std::uint32_t m_max_slots = 0;
    bool m_table = false;
    MatchSpecKind m_kind = MatchSpecKind::Call;
    int m_refs = 0;
};

// erlang:match_spec_test(Args, Spec, trace) for [p] (or (Object, Spec, table) when [table]),
// with [actions] performing the trace actions (null: none take effect):
// {ok, Result, Flags, Warnings} or {error, Errors}; THE_NON_VALUE with badarg raised for a bad
// argument.
Term match_spec_test(Process* p, Term args, Term spec, bool table, MatchSpecActions* actions = nullptr);

// A textual dump of [p] for {process_dump} (the first lines of OTP's crash-dump format).
Term process_dump_binary(Process* p);

}  // namespace beamlet::matchspec
