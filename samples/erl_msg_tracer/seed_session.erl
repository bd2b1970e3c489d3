%% samples/erl_msg_tracer/seed_session.erl — the erl_tracer documentation's example session,
%% step by step as it is typed into the shell there (beamlet has no shell: each step's value is
%% printed as the shell would print it). erl_msg_tracer.c and erl_msg_tracer.erl are the
%% seed's files, unchanged; run.sh builds them exactly as the documentation does.
-module(seed_session).
-export([main/0]).

main() ->
    %% 1> c(erl_msg_tracer), erl_msg_tracer:load().
    shell(erl_msg_tracer:load()),
    %% 2> Tracer = spawn(fun F() -> receive M -> io:format("~p~n",[M]), F() end end).
    Tracer = spawn(fun F() -> receive M -> io:format("~p~n",[M]), F() end end),
    shell(Tracer),
    %% 3> erlang:trace(new, true, [send,{tracer, erl_msg_tracer, Tracer}]).
    shell(erlang:trace(new, true, [send,{tracer, erl_msg_tracer, Tracer}])),
    %% 4> {ok, D} = file:open("/tmp/tmp.data",[write]).
    {ok, D} = file:open("/tmp/tmp.data",[write]),
    shell({ok, D}),
    %% Beyond the transcript: the new processes' sends keep coming while they run.
    Echo = spawn(fun() -> receive {From, X} -> From ! {echo, X} end end),
    Echo ! {self(), hello},
    receive {echo, hello} -> ok end,
    ok = file:close(D),
    shell(erlang:trace_info(new, tracer)),
    timer:sleep(100).

%% What the shell prints for a value (the tracer's lines interleave, as in the transcript).
shell(Value) ->
    io:format("~p~n", [Value]),
    timer:sleep(50).
