%% tests/e2e/mspec/ms_body_message.erl — {message, Expr} in trace match spec bodies: the value
%% becomes a 5th element of the call message ({trace, Pid, call, MFA, Extra}). Covers '$_'
%% (the argument list), '$$' (bound variables in order), '$N', tuple/list/map construction,
%% {const, T}, message true/false, several message actions (the last wins), plain expressions
%% in a body, and a raising body expression (its value becomes 'EXIT', the call is still traced).
-module(ms_body_message).
-export([main/0, f/2]).

f(X, Y) -> {X, Y}.

main() ->
    t(['$1', '$2'], '$_'),
    t(['$1', '_'], '$_'),
    t('_', '$_'),
    t(['$2', '$1'], '$$'),
    t(['_', '_'], '$$'),
    t(['$3', '$1'], '$$'),
    t(['$1', '$2'], '$2'),
    t(['$1', '$2'], {{'$2', '$1', x}}),
    t(['$1', '$2'], ['$1', {'+', '$2', 1}, {{'$1'}}]),
    t(['$1', '$2'], [{'+', '$2', 1} | '$1']),
    t(['$1', '$2'], #{k => '$1', '$2' => v}),
    t(['$1', '$2'], {const, {'$1', '$$'}}),
    t(['$1', '$2'], {{}}),
    t(['$1', '$2'], []),
    t(['$1', '$2'], 42),
    t(['$1', '$2'], "str"),
    t(['$1', '$2'], <<"bin">>),
    t(['$1', '$2'], true),
    t(['$1', '$2'], false),
    t(['$1', '$2'], {hd, '$1'}),
    t(['$1', '$2'], {{ok, {hd, '$1'}}}),
    t(['$1', '$2'], [ok, {'+', '$1', 1}]),
    t(['$1', '$2'], {'div', '$2', 0}),
    t(['$1', '$2'], {element, 3, {{a, b}}}),
    multi([{message, first}, {message, second}]),
    multi([{message, first}, {message, false}]),
    multi([{message, false}, {message, first}]),
    multi([{message, false}, {message, true}]),
    multi(['$1', {'+', '$2', 100}, ok]),
    multi([{hd, '$1'}, {message, after_exit}]),
    multi([]),
    ok.

%% f/2 traced with one clause Head -> [{message, Msg}], called as f(1, 2) and f(a, b).
t(Head, Msg) ->
    show(Msg, [{Head, [], [{message, Msg}]}]).

%% Body Actions with head ['$1', '$2'].
multi(Actions) ->
    show(Actions, [{['$1', '$2'], [], Actions}]).

show(What, MS) ->
    1 = erlang:trace_pattern({?MODULE, f, 2}, MS, [local]),
    Msgs = run(fun() -> f(1, 2), f([a], b) end),
    io:format("~w -> ~w~n", [What, Msgs]).

run(Fun) ->
    W = spawn(fun() -> receive go -> Fun() end end),
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, [call]),
    W ! go,
    receive {'DOWN', Ref, process, W, _} -> ok end,
    collect(W).

collect(W) ->
    receive
        {trace, W, call, {_, f, _}} -> [plain | collect(W)];
        {trace, W, call, {_, f, _}, Extra} -> [{extra, Extra} | collect(W)]
    after 50 -> []
    end.
