-module(trace_badarg).
-export([main/0, f/1]).

%% Invalid arguments to erlang:trace/3, trace_pattern/2,3 and trace_info/2: the exception class
%% and reason (error:badarg; nothing is changed), and what a valid but empty request returns.
%% An arity that matches no function (even -1) is not an error: trace_pattern returns 0.
f(X) -> X.

main() ->
    W = spawn(fun() -> receive stop -> ok end end),
    Dead = spawn(fun() -> ok end),
    wait_dead(Dead),
    Foo = list_to_atom("foo"),
    Maybe = list_to_atom("maybe"),
    Call = list_to_atom("call"),
    io:format("-- trace/3~n"),
    t("PidSpec atom foo", fun() -> erlang:trace(Foo, true, [call]) end),
    t("PidSpec tuple", fun() -> erlang:trace({W}, true, [call]) end),
    t("PidSpec dead pid", fun() -> erlang:trace(Dead, true, [call]) end),
    t("How maybe", fun() -> erlang:trace(W, Maybe, [call]) end),
    t("How 1", fun() -> erlang:trace(W, id(1), [call]) end),
    t("flag bogus", fun() -> erlang:trace(W, true, [call, Foo]) end),
    t("flags not a list", fun() -> erlang:trace(W, true, Call) end),
    t("improper flag list", fun() -> erlang:trace(W, true, [call | Call]) end),
    t("tracer not a pid", fun() -> erlang:trace(W, true, [call, {tracer, Foo}]) end),
    io:format("flags after errors: ~p~n", [erlang:trace_info(W, flags)]),
    t("empty flag list", fun() -> erlang:trace(W, true, []) end),
    t("empty flag list off", fun() -> erlang:trace(W, false, []) end),
    io:format("flags: ~p~n", [erlang:trace_info(W, flags)]),
    io:format("-- trace_pattern/2,3~n"),
    t("{m,'_',1}", fun() -> erlang:trace_pattern({?MODULE, '_', 1}, true) end),
    t("{'_',f,1}", fun() -> erlang:trace_pattern({'_', f, 1}, true) end),
    t("{'_','_',1}", fun() -> erlang:trace_pattern({'_', '_', 1}, true) end),
    t("{m,f}", fun() -> erlang:trace_pattern({?MODULE, f}, true) end),
    t("atom", fun() -> erlang:trace_pattern(Foo, true) end),
    t("module not atom", fun() -> erlang:trace_pattern({"m", f, 1}, true) end),
    t("function not atom", fun() -> erlang:trace_pattern({?MODULE, "f", 1}, true) end),
    t("arity negative", fun() -> erlang:trace_pattern({?MODULE, f, -1}, true) end),
    t("arity not integer", fun() -> erlang:trace_pattern({?MODULE, f, Foo}, true) end),
    t("match spec atom", fun() -> erlang:trace_pattern({?MODULE, f, 1}, Foo) end),
    t("flag bogus", fun() -> erlang:trace_pattern({?MODULE, f, 1}, true, [Foo]) end),
    t("flags global+local", fun() -> erlang:trace_pattern({?MODULE, f, 1}, true, [global, local]) end),
    t("flags not a list", fun() -> erlang:trace_pattern({?MODULE, f, 1}, true, id(global)) end),
    io:format("f/1 after errors: ~p~n", [erlang:trace_info({?MODULE, f, 1}, traced)]),
    io:format("-- trace_info/2~n"),
    t("pid, bogus item", fun() -> erlang:trace_info(W, Foo) end),
    t("atom foo", fun() -> erlang:trace_info(Foo, flags) end),
    t("{m,f}", fun() -> erlang:trace_info({?MODULE, f}, traced) end),
    t("pid, traced item", fun() -> erlang:trace_info(W, traced) end),
    W ! stop,
    wait_dead(W),
    ok.

id(X) -> X.

t(Label, F) ->
    R = try F() of V -> {returned, V} catch C:E -> {C, E} end,
    io:format("~s: ~p~n", [Label, R]).

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
