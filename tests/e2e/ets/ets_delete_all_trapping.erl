%% tests/e2e/ets/ets_delete_all_trapping.erl — ets:delete_all_objects/1 on a large table
%% yields, as OTP's (trace's out event names ets:internal_delete_all/2), for every table
%% type, fixed or not: a fixed hash table has its objects marked pseudo-deleted a slice at a
%% time; unfixing it, or the fixer exiting, or renaming the table while the caller is
%% scheduled out leaves an empty table with nothing kept (ets_SUITE:t_delete_all_objects_trap).
-module(ets_delete_all_trapping).
-export([main/0]).

main() ->
    [run(Type, Mode) || Type <- [set, ordered_set, bag, duplicate_bag], Mode <- [unfix, exit, rename, none]],
    ok.

run(Type, Mode) ->
    Opts = [Type, public | [named_table || Mode =:= rename]],
    T = ets:new(delete_all_trapping, Opts),
    Tid = case Mode of rename -> ets:whereis(delete_all_trapping); _ -> T end,
    [ets:insert(T, {I, I}) || I <- lists:seq(1, 50000)],
    Me = self(),
    Fixed = Mode =:= unfix orelse Mode =:= exit,
    {F, Mon} = spawn_monitor(fun() ->
                                     erlang:trace(Me, true, [running]),
                                     Fixed andalso ets:safe_fixtable(T, true),
                                     Me ! ready,
                                     R = receive {trace, Me, out, {ets, internal_delete_all, 2}} -> trapped; done -> no_trap end,
                                     case Mode of
                                         unfix -> ets:safe_fixtable(T, false);
                                         rename -> renamed = ets:rename(T, renamed);
                                         _ -> ok
                                     end,
                                     exit({res, R})
                             end),
    receive ready -> ok end,
    true = ets:delete_all_objects(T),
    F ! done,
    R = receive {'DOWN', Mon, process, F, {res, X}} -> X end,
    io:format("~p ~p: ~p, size ~p, kept ~p, fixed ~p~n",
              [Type, Mode, R, ets:info(Tid, size), kept(Tid), ets:info(Tid, safe_fixed)]),
    ets:delete(Tid).

kept(T) ->
    case ets:info(T, stats) of
        false -> 0;
        S -> element(7, S)
    end.
