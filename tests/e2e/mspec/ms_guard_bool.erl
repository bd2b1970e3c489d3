%% tests/e2e/mspec/ms_guard_bool.erl — boolean guards in trace match specs: and/or/xor/not
%% (strict: both sides evaluated, a raising side fails the clause), andalso/orelse (short
%% circuit), a guard result that is not exactly 'true' fails, a raising guard makes the next
%% clause be tried, {self}, {node}, {node, Pid}, {const, T} (no '$N' substitution inside) and
%% literal tuples written as {{...}}.
-module(ms_guard_bool).
-export([main/0, f/1]).

f(X) -> X.

main() ->
    Vals = [a, [a], [b], [], 1],
    which({'and', {is_list, '$1'}, {'==', {hd, '$1'}, a}}, Vals),
    which({'andalso', {is_list, '$1'}, {'==', {hd, '$1'}, a}}, Vals),
    which({'or', {is_atom, '$1'}, {'==', {hd, '$1'}, a}}, Vals),
    which({'orelse', {is_atom, '$1'}, {'==', {hd, '$1'}, a}}, Vals),
    which({'xor', {is_list, '$1'}, {'==', '$1', []}}, Vals),
    which({'not', {is_list, '$1'}}, Vals),
    which({'and', true, '$1'}, [true, false, 1, yes]),
    which({'or', false, '$1'}, [true, false, 1, yes]),
    which({'andalso', true, '$1'}, [true, false, 1, yes]),
    which({'orelse', false, '$1'}, [true, false, 1, yes]),
    which({'not', '$1'}, [true, false, 1]),
    %% The guard must evaluate to exactly true.
    which('$1', [true, false, 1, yes, "true"]),
    which({element, 1, '$1'}, [{true}, {false}, {1}]),
    which(true, [x]),
    which(false, [x]),
    %% {self} is the traced process, {node} this node.
    which({'=:=', {self}, '$1'}, [worker, other]),
    which({'=:=', {node}, '$1'}, [node, other_node]),
    which({'=:=', {node, '$1'}, {node}}, [worker, other]),
    %% {const, T} is literal; {{...}} builds a tuple from expressions.
    which({'=:=', '$1', {const, {a, '$1'}}}, [{a, '$1'}, {a, {a, '$1'}}, {a, b}]),
    which({'=:=', '$1', {{a, {'+', 1, 1}}}}, [{a, 2}, {a, {'+', 1, 1}}]),
    which({'=:=', '$1', [a, {const, '$1'}]}, [[a, '$1'], [a, a]]),
    %% A raising guard fails its clause only; the next clause is tried.
    1 = erlang:trace_pattern({?MODULE, f, 1},
                             [{['$1'], [{'==', {hd, '$1'}, a}], [{message, head_a}]},
                              {['$1'], [{'>', {'+', '$1', 0}, 5}], [{message, big}]},
                              {['$1'], [], [{message, fallback}]}], [local]),
    io:format("clauses: ~w~n", [run(fun() -> [f(V) || V <- [[a], a, 7, 3, [b]]] end)]),
    ok.

which(G, Values) ->
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{['$1'], [G], []}], [local]),
    Me = self(),
    Msgs = run(fun() -> [f(subst(V, Me)) || V <- Values] end),
    io:format("~w: ~w~n", [G, Msgs]).

%% Inside the worker: the atoms worker/other(main)/node stand for real values.
subst(worker, _) -> self();
subst(other, Main) -> Main;
subst(node, _) -> node();
subst(V, _) -> V.

%% Runs in main.
label(P) when is_pid(P) -> case P =:= self() of true -> other; false -> worker end;
label(A) -> case A =:= node() of true -> node; false -> A end.

run(Fun) ->
    W = spawn(fun() -> receive go -> Fun() end end),
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, [call]),
    W ! go,
    receive {'DOWN', Ref, process, W, _} -> ok end,
    collect(W).

collect(W) ->
    receive
        {trace, W, call, {_, f, [A]}} -> [label(A) | collect(W)];
        {trace, W, call, {_, f, [A]}, Extra} -> [{label(A), Extra} | collect(W)]
    after 50 -> []
    end.
