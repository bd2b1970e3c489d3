// tests/unit/tracing/match_spec_test.cpp — the match-spec compiler and runner on their own:
// heads and variables, guards and their failures, body terms and 'EXIT', trace action flags,
// OTP's error messages, the quick rejection of non-matching calls, and reference counting.
#include <gtest/gtest.h>

#include <memory>

#include "tools/boot.hpp"
#include "matchspec/match_spec.hpp"
#include "vm/atom_table.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"

namespace beamlet {
namespace {

using matchspec::MatchSpec;
using vm::atom;
using vm::make_small;
using vm::NIL;
using vm::Term;

class NoActions : public matchspec::MatchSpecActions {
public:
    Term process_dump(vm::Process*) override { return atom("dump"); }
    Term caller(vm::Process*) override { return atom("the_caller"); }
};

class MatchSpecs : public testing::Test {
protected:
    void SetUp() override {
        tools::BootOptions options;
        m_runtime = std::make_unique<tools::Runtime>(options);
        m_process = std::make_unique<vm::Process>(m_runtime->vm(), 1);
    }

    vm::Process* p() { return m_process.get(); }

    Term tuple(std::initializer_list<Term> elems) {
        Term* hp = p()->alloc(elems.size() + 1);
        hp[0] = vm::make_arityval(elems.size());
        std::copy(elems.begin(), elems.end(), hp + 1);
        return vm::make_boxed(hp);
    }
    Term list(std::initializer_list<Term> elems) {
        Term l = NIL;
        for (auto it = std::rbegin(elems); it != std::rend(elems); ++it) l = vm::make_cons_on(p()->alloc(2), *it, l);
        return l;
    }
    // [{Head, Guards, Body}]
    Term spec(Term head, Term guards, Term body) { return list({tuple({head, guards, body})}); }

    std::unique_ptr<MatchSpec> compile(Term source, std::vector<std::string>* errors = nullptr) {
        return std::unique_ptr<MatchSpec>(MatchSpec::compile(m_runtime->vm(), source, errors));
    }
    MatchSpec::Result run(const MatchSpec& ms, std::initializer_list<Term> args) {
        std::vector<Term> a(args);
        return ms.run(p(), a.data(), a.size(), m_actions);
    }

    std::unique_ptr<tools::Runtime> m_runtime;
    std::unique_ptr<vm::Process> m_process;
    NoActions m_actions;
};

TEST_F(MatchSpecs, HeadsBindVariablesAndRepeatedOnesMustBeEqual) {
    auto ms = compile(spec(list({atom("$1"), atom("$1")}), NIL, list({tuple({atom("message"), atom("$1")})})));
    ASSERT_TRUE(ms);
    MatchSpec::Result same = run(*ms, {make_small(7), make_small(7)});
    EXPECT_TRUE(same.matched);
    EXPECT_EQ(same.message, make_small(7));
    EXPECT_FALSE(run(*ms, {make_small(7), make_small(8)}).matched);
    EXPECT_FALSE(run(*ms, {make_small(7)}).matched);  // wrong arity
}

TEST_F(MatchSpecs, NestedPatternsAndLiterals) {
    Term head = list({tuple({atom("ok"), atom("$1")}), list({atom("_"), atom("$2")})});
    auto ms = compile(spec(head, NIL, list({tuple({atom("message"), atom("$$")})})));
    ASSERT_TRUE(ms);
    MatchSpec::Result r = run(*ms, {tuple({atom("ok"), make_small(1)}), list({atom("x"), make_small(2)})});
    ASSERT_TRUE(r.matched);
    EXPECT_TRUE(vm::terms_exact_equal(r.message, list({make_small(1), make_small(2)})));
    EXPECT_FALSE(run(*ms, {tuple({atom("error"), make_small(1)}), list({atom("x"), make_small(2)})}).matched);
}

TEST_F(MatchSpecs, GuardsThatFailOrRaiseTryTheNextClause) {
    // [{['$1'], [{hd, '$1'}], [{message, first}]}, {['$1'], [{is_integer, '$1'}], [{message, second}]}]
    Term c1 = tuple({list({atom("$1")}), list({tuple({atom("hd"), atom("$1")})}), list({tuple({atom("message"), atom("first")})})});
    Term c2 = tuple({list({atom("$1")}), list({tuple({atom("is_integer"), atom("$1")})}),
                     list({tuple({atom("message"), atom("second")})})});
    auto ms = compile(list({c1, c2}));
    ASSERT_TRUE(ms);
    MatchSpec::Result r = run(*ms, {make_small(5)});  // hd(5) raises: clause 2
    ASSERT_TRUE(r.matched);
    EXPECT_EQ(r.message, atom("second"));
    EXPECT_EQ(p()->exception.cls, Term(0));  // the guard's exception was dropped
    EXPECT_FALSE(run(*ms, {atom("a")}).matched);
}

TEST_F(MatchSpecs, BodyFailuresGiveExitInPlace) {
    // {message, {{ok, {hd, '$1'}}}} on an atom: {ok, 'EXIT'}
    Term msg = tuple({atom("message"), tuple({tuple({atom("ok"), tuple({atom("hd"), atom("$1")})})})});
    auto ms = compile(spec(list({atom("$1")}), NIL, list({msg})));
    ASSERT_TRUE(ms);
    MatchSpec::Result r = run(*ms, {atom("a")});
    ASSERT_TRUE(r.matched);
    EXPECT_TRUE(vm::terms_exact_equal(r.message, tuple({atom("ok"), atom("EXIT")})));
}

TEST_F(MatchSpecs, ReturnAndExceptionTraceSetFlags) {
    auto ms = compile(spec(atom("_"), NIL, list({tuple({atom("exception_trace")}), tuple({atom("message"), atom("false")})})));
    ASSERT_TRUE(ms);
    MatchSpec::Result r = run(*ms, {make_small(1), make_small(2)});
    ASSERT_TRUE(r.matched);
    EXPECT_EQ(r.message, atom("false"));
    EXPECT_EQ(r.flags, matchspec::MS_EXCEPTION_TRACE);
    EXPECT_EQ(run(*ms, {}).flags, matchspec::MS_EXCEPTION_TRACE);  // '_' matches any arity
}

TEST_F(MatchSpecs, ActionsGoThroughTheActionsObject) {
    auto ms = compile(spec(atom("_"), NIL, list({tuple({atom("message"), tuple({atom("caller")})})})));
    ASSERT_TRUE(ms);
    EXPECT_EQ(run(*ms, {}).message, atom("the_caller"));
}

TEST_F(MatchSpecs, ErrorsCarryOtpsMessages) {
    struct Case {
        Term source;
        const char* message;
    };
    Case cases[] = {
        {atom("bad"), "Match programs are not in a list."},
        {list({atom("bad")}), "Match program part is not a tuple of arity 3."},
        {spec(list({atom("$1")}), NIL, list({tuple({atom("message"), atom("$2")})})), "Variable $2 is unbound."},
        {spec(list({atom("$1")}), list({tuple({atom("foo"), atom("$1")})}), NIL), "Function foo/1 does_not_exist."},
        {spec(list({atom("$1")}), list({tuple({atom("message"), atom("$1")})}), NIL),
         "Special form 'message' called in guard context."},
        {spec(atom("a"), NIL, NIL), "Match head is invalid in this context."},
    };
    for (const Case& c : cases) {
        std::vector<std::string> errors;
        EXPECT_FALSE(compile(c.source, &errors));
        ASSERT_EQ(errors.size(), 1u);
        EXPECT_EQ(errors[0], c.message);
    }
}

TEST_F(MatchSpecs, KeepsItsSourceOffTheProcessHeap) {
    Term source = spec(list({make_small(-1)}), NIL, NIL);
    auto ms = compile(source);
    ASSERT_TRUE(ms);
    EXPECT_TRUE(vm::terms_exact_equal(ms->source(), source));
    EXPECT_NE(ms->source(), source);  // a copy
    EXPECT_FALSE(run(*ms, {make_small(5)}).matched);  // rejected on the immediate
    EXPECT_TRUE(run(*ms, {make_small(-1)}).matched);
}

TEST_F(MatchSpecs, ReferenceCountReportsTheLastRelease) {
    MatchSpec* ms = MatchSpec::compile(m_runtime->vm(), spec(atom("_"), NIL, NIL), nullptr);
    ASSERT_NE(ms, nullptr);
    ms->add_ref();
    ms->add_ref();
    EXPECT_FALSE(ms->release());
    EXPECT_TRUE(ms->release());
    delete ms;
}

TEST_F(MatchSpecs, HeadsMayNestAsDeepAsAnyTerm) {
    // [{[{{...{'$1'}...}}], [], [{message, '$1'}]}], 100000 levels: compiled and matched
    // without C++ recursion (OTP accepts such heads).
    Term pattern = atom("$1"), value = make_small(7);
    for (int i = 0; i < 100000; ++i) {
        pattern = tuple({pattern});
        value = tuple({value});
    }
    auto ms = compile(spec(list({pattern}), NIL, list({tuple({atom("message"), atom("$1")})})));
    ASSERT_TRUE(ms);
    MatchSpec::Result r = run(*ms, {value});
    EXPECT_TRUE(r.matched);
    EXPECT_EQ(r.message, make_small(7));
    EXPECT_FALSE(run(*ms, {make_small(7)}).matched);
}

TEST_F(MatchSpecs, DeepExpressionsAreASystemLimitNotABadSpec) {
    Term deep = atom("true");
    for (int i = 0; i < 5000; ++i) deep = tuple({atom("andalso"), deep, atom("true")});
    std::vector<std::string> errors;
    bool too_deep = false;
    MatchSpec* ms = MatchSpec::compile(m_runtime->vm(), spec(atom("_"), list({deep}), NIL), &errors,
                                       matchspec::MatchSpecKind::Call, &too_deep);
    EXPECT_EQ(ms, nullptr);
    EXPECT_TRUE(too_deep);
    ASSERT_FALSE(errors.empty());
    EXPECT_EQ(errors[0].rfind("Excessive nesting; system limit reached near: ", 0), 0u);
}

TEST_F(MatchSpecs, MessageSpecsRefuseTheActionsOfTheirContext) {
    auto kind_accepts = [&](matchspec::MatchSpecKind kind, Term action) {
        Term source = spec(atom("_"), NIL, list({action}));
        std::unique_ptr<MatchSpec> ms(MatchSpec::compile(m_runtime->vm(), source, nullptr, kind));
        return ms != nullptr;
    };
    using matchspec::MatchSpecKind;
    Term caller = tuple({atom("message"), tuple({atom("caller")})});
    Term dump = tuple({atom("message"), tuple({atom("process_dump")})});
    Term silent = tuple({atom("silent"), atom("true")});
    Term enable = tuple({atom("enable_trace"), atom("call")});
    EXPECT_TRUE(kind_accepts(MatchSpecKind::Call, caller));
    EXPECT_FALSE(kind_accepts(MatchSpecKind::Send, caller));
    EXPECT_FALSE(kind_accepts(MatchSpecKind::Receive, caller));
    for (Term action : {dump, silent, enable}) {
        EXPECT_TRUE(kind_accepts(MatchSpecKind::Send, action));
        EXPECT_FALSE(kind_accepts(MatchSpecKind::Receive, action));
    }
}

}  // namespace
}  // namespace beamlet
