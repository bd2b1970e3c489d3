-module(seq_spawn).
-export([main/0, child/1]).

%% A process with a seq_trace token spawns: the child starts with the token, and the spawn
%% shows as OTP 25 reports it, a spawn_request sent to the child and a spawn_reply sent back
%% (spawn/1 of a fun, spawn/3, spawn_link, spawn_monitor). Pids and references are named.
collector(Acc) ->
    receive
        {dump, From} -> From ! {events, lists:reverse(Acc)}, collector([]);
        E -> collector([E | Acc])
    end.

child(Parent) ->
    receive go -> Parent ! {child_token, seq_trace:get_token()} end.

main() ->
    Tracer = spawn(fun() -> collector([]) end),
    seq_trace:set_system_tracer(Tracer),
    Self = self(),
    seq_trace:set_token(label, spawning),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    P1 = spawn(fun() -> child(Self) end),
    P2 = spawn(?MODULE, child, [Self]),
    P3 = spawn_link(?MODULE, child, [Self]),
    {P4, M4} = spawn_monitor(?MODULE, child, [Self]),
    seq_trace:set_token([]),
    Tokens = [begin P ! go, receive {child_token, T} -> T end end || P <- [P1, P2, P3, P4]],
    erlang:demonitor(M4, [flush]),
    Tracer ! {dump, self()},
    Events = receive {events, Es} -> Es end,
    Names = [{Self, main}, {P1, p1}, {P2, p2}, {P3, p3}, {P4, p4}, {group_leader(), gl}],
    io:format("child tokens ~p~n", [[{F, L} || {F, L, _, _, _} <- Tokens]]),
    %% Serials: OTP's jump between spawns (its own traffic moves the clocks), so each spawn's
    %% four events are checked against each other: the child receives the request's serial,
    %% its reply takes the next one from it, and the parent receives that.
    Chains = chunks(Events),
    io:format("serials consistent: ~p~n", [[consistent(C) || C <- Chains]]),
    {Renamed, _} = lists:mapfoldl(fun(E, Refs) -> rename(E, Names, Refs) end, [], [unserial(E) || E <- Events]),
    [io:format("~p~n", [E]) || E <- Renamed],
    ok.

chunks([A, B, C, D | Rest]) -> [[A, B, C, D] | chunks(Rest)];
chunks(_) -> [].

consistent([{seq_trace, _, {send, {_, S}, _, _, _}}, {seq_trace, _, {'receive', {_, S}, _, _, _}},
            {seq_trace, _, {send, {S, S1}, _, _, _}}, {seq_trace, _, {'receive', {S, S1}, _, _, _}}]) -> S1 > S;
consistent(_) -> false.

unserial({seq_trace, L, {K, _, F, T, M}}) -> {seq_trace, L, {K, F, T, M}};
unserial(E) -> E.

rename(T, Names, Refs) when is_tuple(T) ->
    {L, Refs1} = rename(tuple_to_list(T), Names, Refs),
    {list_to_tuple(L), Refs1};
rename([H | T], Names, Refs) ->
    {H1, Refs1} = rename(H, Names, Refs),
    {T1, Refs2} = rename(T, Names, Refs1),
    {[H1 | T1], Refs2};
rename(P, Names, Refs) when is_pid(P) -> {proplists:get_value(P, Names, other_pid), Refs};
rename(R, _Names, Refs) when is_reference(R) ->
    case lists:keyfind(R, 1, Refs) of
        {R, N} -> {N, Refs};
        false -> N = {ref, length(Refs) + 1}, {N, [{R, N} | Refs]}
    end;
rename(F, _Names, Refs) when is_function(F) -> {a_fun, Refs};
rename(X, _Names, Refs) -> {X, Refs}.
