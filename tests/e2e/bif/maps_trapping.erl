%% maps:from_list/1, from_keys/2, keys/1 and values/1 on large inputs work a time slice at a
%% time: the caller is scheduled out in the BIF (trace's out/in events name it; erl's keys/1
%% and values/1 need larger maps than this for that), its partial state survives collections
%% in between, and the results and errors are those of one call.
-module(maps_trapping).
-export([main/0]).

main() ->
    N = 50000,
    Keys = [(I * 7919) rem N || I <- lists:seq(1, N)],
    Pairs = [{K, -K} || K <- Keys],
    Map = maps:from_list(Pairs),
    Sorted = lists:seq(0, N - 1),
    io:format("size ~p, keys as from_keys: ~p~n",
              [map_size(Map), lists:sort(maps:keys(Map)) =:= lists:sort(maps:keys(maps:from_keys(Keys, x)))]),
    io:format("keys: ~p, values: ~p~n", [lists:sort(maps:keys(Map)) =:= Sorted,
                                         lists:sum(maps:values(Map)) =:= -lists:sum(Sorted)]),
    io:format("later pairs win: ~p~n", [maps:get(5, maps:from_list(Pairs ++ [{5, last}]))]),
    [io:format("~p yields more than twice: ~p~n", [F, yields(Fun, {maps, F, A}) > 2])
     || {F, A, Fun} <- [{from_list, 1, fun() -> maps:from_list(Pairs) end},
                         {from_keys, 2, fun() -> maps:from_keys(Keys, ok) end}]],
    io:format("under collections: ~p~n", [lists:sort(collected(fun() -> maps:keys(maps:from_list(Pairs)) end))
                                          =:= Sorted]),
    Bad = Pairs ++ [oops],
    [io:format("~p: ~p~n", [What, error_frame(Fun, Args)])
     || {What, Fun, Args} <- [{from_list_late, fun maps:from_list/1, [Bad]},
                              {from_keys_improper, fun maps:from_keys/2, [Keys ++ improper, v]},
                              {from_list_early, fun maps:from_list/1, [[oops | Pairs]]},
                              {keys_badmap, fun maps:keys/1, [Pairs]}]],
    ok.

%% How often the process running Fun is scheduled out while in MFA.
yields(Fun, MFA) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> erlang:trace(self(), true, [running, {tracer, Self}]), Fun() end),
    receive {'DOWN', Ref, process, Pid, normal} -> ok end,
    TD = erlang:trace_delivered(Pid),
    receive {trace_delivered, Pid, TD} -> ok end,
    count_outs(Pid, MFA, 0).

count_outs(Pid, MFA, N) ->
    receive
        {trace, Pid, out, MFA} -> count_outs(Pid, MFA, N + 1);
        {trace, Pid, _, _} -> count_outs(Pid, MFA, N)
    after 0 -> N
    end.

%% Fun's result in a process that is asked to collect its garbage while it runs.
collected(Fun) ->
    Self = self(),
    Pid = spawn(fun() -> Self ! {self(), Fun()} end),
    nag(Pid).

nag(Pid) ->
    erlang:garbage_collect(Pid),
    receive {Pid, Result} -> Result after 1 -> nag(Pid) end.

error_frame(Fun, Args) ->
    try apply(Fun, Args) of _ -> no_error
    catch error:Reason:Stack ->
        [{M, F, FrameArgs, _} | _] = Stack,
        {reason_tag(Reason), M, F, FrameArgs =:= Args}
    end.

reason_tag({Tag, _}) -> Tag;
reason_tag(Reason) -> Reason.
