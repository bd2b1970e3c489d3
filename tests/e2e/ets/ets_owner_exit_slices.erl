%% tests/e2e/ets/ets_owner_exit_slices.erl — a process that exits owning large ETS tables (or
%% very many) deletes them a slice at a time, scheduled out in between as OTP's: traced with
%% `exiting`, it shows out_exiting, then in_exiting/out_exiting pairs, then out_exited (a small
%% exit only out_exited).
-module(ets_owner_exit_slices).
-export([main/0]).

main() ->
    [run(What) || What <- [small, {objects, 200000}, {tables, 2000}]],
    ok.

run(What) ->
    Me = self(),
    P = spawn(fun() -> fill(What), Me ! ready, receive after infinity -> ok end end),
    receive ready -> ok end,
    erlang:trace(P, true, [exiting]),
    Tables = length(ets:all()),
    exit(P, bang),
    Events = collect(P, []),
    Pairs = length([E || E <- Events, E =:= in_exiting]),
    io:format("~p: first ~p, last ~p, at least 3 rounds ~p, alternating ~p, tables left ~p~n",
              [What, hd(Events), lists:last(Events), Pairs >= 3, alternating(Events), Tables - length(ets:all())]).

fill(small) -> ets:new(t, []);
fill({objects, N}) -> T = ets:new(t, []), [ets:insert(T, {I}) || I <- lists:seq(1, N)];
fill({tables, N}) -> [ets:new(t, []) || _ <- lists:seq(1, N)].

collect(P, Acc) ->
    receive
        {trace, P, out_exited, 0} -> lists:reverse([out_exited | Acc]);
        {trace, P, E, 0} -> collect(P, [E | Acc])
    after 5000 -> lists:reverse([timeout | Acc])
    end.

alternating([out_exited]) -> true;
alternating([out_exiting, in_exiting | Rest]) -> alternating(Rest);
alternating(_) -> false.
