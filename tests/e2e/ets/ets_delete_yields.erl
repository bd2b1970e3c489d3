%% ets:delete/1 and delete_all_objects/1 of a large table free it a slice at a time: the
%% caller is scheduled out meanwhile (running trace names the BIF), the table is gone (or
%% empty) at once for everyone else, and other processes run in between.
-module(ets_delete_yields).
-export([main/0]).

main() ->
    Big = 300000,
    T = ets:new(t, [set, public]),
    ets:insert(T, [{I, I} || I <- lists:seq(1, Big)]),
    Self = self(),
    Tracer = spawn(fun() -> collect(Self, []) end),
    erlang:trace(self(), true, [running, {tracer, Tracer}]),
    true = ets:delete(T),
    erlang:trace(self(), false, [running]),
    Tracer ! {done, self()},
    Outs = receive {events, E} -> [MFA || {trace, _, out, MFA} <- E] end,
    io:format("delete: switched out ~p, in ~p~n",
              [length(Outs) >= 5, lists:usort(Outs) -- [{ets_delete_yields, main, 0}]]),
    io:format("info after delete ~p~n", [ets:info(T)]),
    T2 = ets:new(t2, [bag, public]),
    ets:insert(T2, [{I rem 1000, I} || I <- lists:seq(1, Big)]),
    Tracer2 = spawn(fun() -> collect(Self, []) end),
    erlang:trace(self(), true, [running, {tracer, Tracer2}]),
    true = ets:delete_all_objects(T2),
    erlang:trace(self(), false, [running]),
    Tracer2 ! {done, self()},
    Outs2 = receive {events, E2} -> [MFA || {trace, _, out, MFA} <- E2] end,
    io:format("delete_all_objects: switched out ~p, in ~p~n",
              [length(Outs2) >= 5, lists:usort(Outs2) -- [{ets_delete_yields, main, 0}]]),
    io:format("size after ~p~n", [ets:info(T2, size)]),
    ets:insert(T2, {a, b}),
    io:format("usable ~p~n", [ets:lookup(T2, a)]).

collect(Parent, Acc) ->
    receive
        {done, Parent} -> Parent ! {events, lists:reverse(Acc)};
        Event -> collect(Parent, [Event | Acc])
    end.
