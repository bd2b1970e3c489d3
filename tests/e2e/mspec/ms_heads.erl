%% tests/e2e/mspec/ms_heads.erl — match spec heads for call trace: literal arguments, '$N'
%% variables bound once and compared on reuse (exact match: 1 does not match 1.0), '_',
%% nested tuples/lists/maps in heads, a head that is a single '_' or '$1' (the argument list),
%% a head of the wrong length, and several clauses tried in order (first match wins).
-module(ms_heads).
-export([main/0, f1/1, f2/2, f3/3]).

f1(X) -> X.
f2(X, Y) -> {X, Y}.
f3(X, Y, Z) -> {X, Y, Z}.

main() ->
    t("literal args", f2, 2, [{[a, 1], [], []}],
      fun() -> f2(a, 1), f2(a, 2), f2(b, 1), f2(a, 1.0) end),
    t("'$1' reused", f2, 2, [{['$1', '$1'], [], []}],
      fun() -> f2(1, 1), f2(1, 2), f2(x, x), f2(1, 1.0), f2([a], [a]) end),
    t("'_' and literal", f2, 2, [{['_', b], [], []}],
      fun() -> f2(a, b), f2(b, a), f2({x}, b) end),
    t("nested tuple", f1, 1, [{[{point, '$1', '$1'}], [], [{message, '$1'}]}],
      fun() -> f1({point, 1, 1}), f1({point, 1, 2}), f1({point, 3, 3, 3}), f1(point) end),
    t("nested list", f1, 1, [{[[a, '$1' | '_']], [], [{message, '$1'}]}],
      fun() -> f1([a, b]), f1([a, c, d]), f1([a]), f1([b, c]), f1(a) end),
    t("proper list", f1, 1, [{[['_', '_']], [], []}],
      fun() -> f1([1, 2]), f1([1, 2, 3]), f1([1]), f1({1, 2}) end),
    t("map head", f1, 1, [{[#{k => '$1'}], [], [{message, '$1'}]}],
      fun() -> f1(#{k => 1}), f1(#{k => 2, j => 3}), f1(#{j => 3}), f1(k) end),
    t("binary literal", f1, 1, [{[<<"ab">>], [], []}],
      fun() -> f1(<<"ab">>), f1(<<"abc">>), f1("ab") end),
    t("var across args", f3, 3, [{[{k, '$1'}, '$2', '$1'], [], [{message, '$2'}]}],
      fun() -> f3({k, 1}, x, 1), f3({k, 1}, y, 2), f3({k, z}, w, z) end),
    t("head '_'", f2, 2, [{'_', [], [{message, any}]}],
      fun() -> f2(1, 2), f2(a, b) end),
    t("head '$1'", f3, 3, [{'$1', [], [{message, '$1'}]}],
      fun() -> f3(1, 2, 3), f3(a, [b], {c}) end),
    t("head too short", f2, 2, [{['_'], [], []}],
      fun() -> f2(1, 2) end),
    t("head too long", f1, 1, [{['_', '_'], [], []}],
      fun() -> f1(1) end),
    t("empty head list", f1, 1, [{[], [], []}],
      fun() -> f1(1) end),
    t("clauses in order", f2, 2,
      [{[a, '_'], [], [{message, first}]},
       {['_', b], [], [{message, second}]},
       {['$1', '$1'], [], [{message, third}]}],
      fun() -> f2(a, b), f2(x, b), f2(c, c), f2(a, a), f2(x, y) end),
    t("empty spec", f1, 1, [],
      fun() -> f1(1) end),
    ok.

t(Label, F, A, MS, Fun) ->
    N = erlang:trace_pattern({?MODULE, F, A}, MS, [local]),
    Msgs = run(Fun),
    _ = erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    io:format("~s (~w):~n", [Label, N]),
    lists:foreach(fun(M) -> io:format("  ~w~n", [M]) end, Msgs).

%% Run Fun in a new process traced with [call] (tracer = main); return its trace messages.
run(Fun) ->
    W = spawn(fun() -> receive go -> Fun() end end),
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, [call]),
    W ! go,
    receive {'DOWN', Ref, process, W, _} -> ok end,
    collect(W).

collect(W) ->
    receive
        {trace, W, call, MFA} -> [{call, MFA} | collect(W)];
        {trace, W, call, MFA, Extra} -> [{call, MFA, Extra} | collect(W)]
    after 50 -> []
    end.
