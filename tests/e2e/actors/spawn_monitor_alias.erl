%% spawn_opt's and spawn_request's {monitor, [{alias, Mode}]}: the monitor's reference is an
%% alias of the spawning process as well, as monitor/3 makes it (and demonitoring a reference
%% that is an alias but not a monitor does nothing, OTP's gh-5225).
-module(spawn_monitor_alias).
-export([main/0]).

main() ->
    Alias = alias(),
    io:format("demonitor an alias: ~p ~p~n", [erlang:demonitor(Alias), erlang:demonitor(Alias, [flush])]),
    {Pid, MonAlias1} = spawn_opt(fun() -> ok end, [{monitor, [{alias, explicit_unalias}]}]),
    receive {'DOWN', MonAlias1, process, Pid, R1} -> io:format("down: ~p~n", [R1]) end,
    io:format("demonitor after down: ~p ~p~n", [erlang:demonitor(MonAlias1), erlang:demonitor(MonAlias1, [flush])]),
    io:format("still an alias: ~p~n", [unalias(MonAlias1)]),
    Me = self(),
    {Q, MonAlias2} = spawn_opt(fun() -> receive {go, A} -> A ! via_alias, Me ! done end end,
                               [{monitor, [{alias, demonitor}, {tag, my_down}]}]),
    Q ! {go, MonAlias2},
    receive done -> ok end,
    receive via_alias -> io:format("message through the alias~n") after 1000 -> io:format("no message~n") end,
    receive {my_down, MonAlias2, process, Q, R2} -> io:format("tagged down: ~p~n", [R2]) end,
    io:format("bad alias mode: ~p~n", [badarg_of(fun() -> spawn_opt(fun() -> ok end, [{monitor, [{alias, bad}]}]) end)]),
    ReqId = spawn_request(fun() -> ok end, [{monitor, [{alias, reply_demonitor}]}]),
    P3 = receive {spawn_reply, ReqId, ok, P} -> P end,
    receive {'DOWN', ReqId, process, P3, R3} -> io:format("request down: ~p~n", [R3]) end,
    MonAlias4 = monitor(process, P3, [{alias, explicit_unalias}]),
    receive {'DOWN', MonAlias4, process, P3, R4} -> io:format("monitor/3 of the dead: ~p~n", [R4]) end,
    io:format("demonitor it: ~p~n", [erlang:demonitor(MonAlias4)]).

badarg_of(F) ->
    try F() catch error:badarg -> badarg end.
