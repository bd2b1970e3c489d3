%% erts_debug:get_internal_state({link_list, P}) and ({monitor_list, P}): erts's records of a
%% process's links and monitors (erl_link_SUITE reads them); erlang:system_info(snifs) and
%% erlang:is_builtin/3 name erts's BIFs only.
-module(link_monitor_lists).
-export([main/0]).

main() ->
    logger:remove_handler(default),  % no warning about the internal state
    erts_debug:set_internal_state(available_internal_state, true),
    Self = self(),
    A = spawn(fun Loop() -> receive stop -> ok; {ping, From} -> From ! pong, Loop() end end),
    B = spawn(fun() -> receive stop -> ok end end),
    register(lml_named, B),
    link(A),
    R1 = monitor(process, A),
    R2 = monitor(process, lml_named),
    Links = erts_debug:get_internal_state({link_list, self()}),
    io:format("my links: ~p~n", [[{T, who(P, A, B, Self), S, is_integer(Id)} || {erl_link, T, P, S, Id} <- Links, ours(P, A, B)]]),
    io:format("A's links: ~p~n", [[{T, who(P, A, B, Self), S} || {erl_link, T, P, S, _} <- erts_debug:get_internal_state({link_list, A})]]),
    Mine = erts_debug:get_internal_state({monitor_list, self()}),
    io:format("my monitors: ~p~n", [lists:sort([{T, D, ref(R, R1, R2), who(P, A, B, Self), X} || {erl_monitor, T, D, R, P, X} <- Mine])]),
    OnB = erts_debug:get_internal_state({monitor_list, B}),
    io:format("monitors on B: ~p~n", [[{T, D, ref(R, R1, R2), who(P, A, B, Self), X} || {erl_monitor, T, D, R, P, X} <- OnB]]),
    unlink(A),
    demonitor(R1),
    A ! {ping, self()},  % A acknowledges the unlink before it answers
    receive pong -> ok end,
    io:format("after unlink and demonitor: ~p ~p~n",
              [[L || {erl_link, _, P, _, _} = L <- erts_debug:get_internal_state({link_list, self()}), ours(P, A, B)],
               length(erts_debug:get_internal_state({monitor_list, self()}))]),
    io:format("bad: ~p~n", [element(1, element(2, catch erts_debug:get_internal_state({link_list, foo})))]),
    A ! stop, B ! stop,

    Snifs = erlang:system_info(snifs),
    io:format("snifs are builtins: ~p~n", [lists:all(fun({M, F, Ar}) -> erlang:is_builtin(M, F, Ar) end, Snifs)]),
    io:format("in snifs: ~p~n", [[lists:member(MFA, Snifs) || MFA <- [{erlang, self, 0}, {lists, reverse, 2}, {erlang, apply, 2},
                                                                    {lists, map, 2}, {zlib, open_nif, 0}]]]),
    io:format("is_builtin: ~p~n", [[erlang:is_builtin(M, F, Ar) || {M, F, Ar} <- [{erlang, apply, 3}, {erlang, yield, 0},
                                                                              {erlang, self, 0}, {lists, map, 2},
                                                                              {erlang, binary_to_atom, 1}]]]),
    ok.

ours(P, A, B) -> lists:member(P, [A, B, self()]).

who(P, P, _, _) -> a;
who(P, _, P, _) -> b;
who(P, _, _, P) -> self;
who(P, _, _, _) -> P.

ref(R, R, _) -> r1;
ref(R, _, R) -> r2;
ref(R, _, _) -> R.
