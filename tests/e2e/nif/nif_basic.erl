%% NIFs through beamlet's erl_nif.h: loading from -on_load, terms both ways, exceptions,
%% enif_send, and load_nif's errors.
-module(nif_basic).
-export([main/0, add/2, describe/1, build/0, inspect/1, send_to/2, alive/1, loaded/0, compare/2]).
-on_load(init/0).

init() -> erlang:load_nif(lib(), 0).

lib() -> filename:join(filename:dirname(code:which(?MODULE)), "nif_basic").

add(_, _) -> erlang:nif_error(not_loaded).
describe(_) -> erlang:nif_error(not_loaded).
build() -> erlang:nif_error(not_loaded).
inspect(_) -> erlang:nif_error(not_loaded).
send_to(_, _) -> erlang:nif_error(not_loaded).
alive(_) -> erlang:nif_error(not_loaded).
loaded() -> erlang:nif_error(not_loaded).
compare(_, _) -> erlang:nif_error(not_loaded).

err(F) -> try F() catch C:R -> {C, R} end.

main() ->
    io:format("~p~n", [add(1, 2)]),
    io:format("~p~n", [add(1 bsl 40, -5)]),
    io:format("~p~n", [err(fun() -> add(a, 1) end)]),
    io:format("~p~n", [[describe(T) || T <- [a, <<1>>, [], [1], #{}, {}, self(), make_ref(), fun main/0, 1.5]]]),
    io:format("~p~n", [build()]),
    io:format("~p~n", [[inspect(T) || T <- [[<<"ab">>, $c, [$d]], {1, 2, 3}, #{key => v}, #{x => 1}, hello, [1, 2]]]]),
    io:format("~p~n", [err(fun() -> inspect(1.0) end)]),
    Self = self(),
    io:format("~p~n", [send_to(Self, {hi, [1, 2]})]),
    receive {from_nif, Self, M} -> io:format("got ~p~n", [M]) end,
    Dead = spawn(fun() -> ok end),
    timer:sleep(20),
    io:format("~p ~p~n", [alive(Self), alive(Dead)]),
    io:format("~p~n", [send_to(Dead, x)]),
    io:format("~p~n", [loaded()]),
    io:format("~p~n", [[compare(A, B) || {A, B} <- [{1, 1}, {1, 1.0}, {a, 1}, {{x}, {x}}]]]),
    %% Local calls reach the NIF too.
    io:format("~p~n", [lists:sum([add(I, I) || I <- lists:seq(1, 10)])]),
    io:format("~p~n", [erlang:load_nif(lib(), 0)]),
    io:format("~p~n", [erlang:load_nif("/nonexistent/dir/lib", 0)]),
    io:format("~p~n", [err(fun() -> erlang:load_nif(bad, 0) end)]),
    ok.
