%% tests/e2e/mspec/ms_guard_exprs.erl — guard expressions in trace match specs: comparisons
%% (== vs =:=, term order across types), arithmetic and bit operators, element/hd/tl/length/
%% size/byte_size/map_get/map_size/is_map_key/abs/trunc/float. A guard that raises (badarith,
%% badarg, badmap) just makes the clause fail. Each line lists the arguments whose call was
%% traced; the last part computes values in a {message, {{...}}} body.
-module(ms_guard_exprs).
-export([main/0, f/1, g/2]).

f(X) -> X.
g(X, Y) -> {X, Y}.

main() ->
    Nums = [1, 1.0, 9.5, 10, 11, a, "x"],
    [which(G, Nums) || G <- [{'>', '$1', 10}, {'>=', '$1', 10}, {'<', '$1', 10}, {'=<', '$1', 10},
                             {'==', '$1', 1}, {'=:=', '$1', 1}, {'/=', '$1', 1}, {'=/=', '$1', 1},
                             {'<', '$1', {const, b}}]],
    which({'==', {'+', '$1', 1}, 3}, [2, 2.0, a, 3]),
    which({'==', {'-', '$1'}, -3}, [3, 3.0, -3]),
    which({'==', {'*', '$1', '$1'}, 16}, [4, -4, 4.0, 5]),
    which({'==', {'div', '$1', 2}, 3}, [6, 7, 8, 6.0]),
    which({'==', {'rem', '$1', 2}, 0}, [1, 2, 3, 4, 2.0]),
    which({'==', {'/', '$1', 2}, 1.5}, [3, 3.0, 4]),
    which({'==', {'band', '$1', 3}, 1}, [1, 5, 6, 7, 1.0]),
    which({'==', {'bor', '$1', 1}, 3}, [2, 3, 1]),
    which({'==', {'bsl', 1, '$1'}, 8}, [3, 4, -1]),
    which({'==', {abs, '$1'}, 5}, [5, -5, 4, -5.0]),
    which({'==', {trunc, '$1'}, 2}, [2.7, 2, 3.1, -2.5]),
    which({'=:=', {float, '$1'}, 2.0}, [2, 2.0, 3]),
    which({'==', {element, 2, '$1'}, x}, [{a, x}, {x}, x, {a, x, c}]),
    which({'==', {hd, '$1'}, a}, [[a], [a, b], [b], a, []]),
    which({'==', {tl, '$1'}, [b]}, [[a, b], [b], [x, b], [a, b, c]]),
    which({'>', {length, '$1'}, 1}, [[], [1], [1, 2], a, [1 | 2]]),
    which({'==', {size, '$1'}, 2}, [{a, b}, <<1, 2>>, [1, 2], {a}]),
    which({'==', {byte_size, '$1'}, 2}, [<<1, 2>>, <<1>>, {a, b}]),
    which({'==', {map_get, k, '$1'}, 1}, [#{k => 1}, #{k => 2}, #{}, a]),
    which({is_map_key, k, '$1'}, [#{k => 1}, #{}, a]),
    which({'==', {map_size, '$1'}, 1}, [#{k => 1}, #{}, #{a => 1, b => 2}]),
    which({'==', {element, '$1', {const, {p, q, r}}}, q}, [1, 2, 3, 4, 0]),
    %% Computed values in the body.
    Ops = [{'+', '$1', '$2'}, {'-', '$1', '$2'}, {'*', '$1', '$2'}, {'div', '$1', '$2'},
           {'rem', '$1', '$2'}, {'band', '$1', '$2'}, {'bor', '$1', '$2'}, {'bxor', '$1', '$2'},
           {'bsl', '$1', '$2'}, {'bsr', '$1', '$2'}, {'bnot', '$1'}, {abs, {'-', '$2', '$1'}},
           {'/', '$1', '$2'}, {'>', '$1', '$2'}, {'==', '$1', '$2'}],
    1 = erlang:trace_pattern({?MODULE, g, 2}, [{['$1', '$2'], [], [{message, Ops}]}], [local]),
    io:format("ops 7,3: ~w~n", [run(fun() -> g(7, 3), g(-8, 2) end)]),
    ok.

%% Trace f/1 with the single guard G and call it with each of Values; print the traced ones.
which(G, Values) ->
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{['$1'], [G], []}], [local]),
    Msgs = run(fun() -> lists:foreach(fun f/1, Values) end),
    io:format("~w: ~w~n", [G, Msgs]).

run(Fun) ->
    W = spawn(fun() -> receive go -> Fun() end end),
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, [call]),
    W ! go,
    receive {'DOWN', Ref, process, W, _} -> ok end,
    collect(W).

collect(W) ->
    receive
        {trace, W, call, {_, f, [A]}} -> [A | collect(W)];
        {trace, W, call, {_, g, Args}, Extra} -> [{Args, Extra} | collect(W)]
    after 50 -> []
    end.
