%% Faulty tracer modules in Erlang: each is removed from its tracee at its first failure, the
%% tracee and the VM go on, and a well-behaved tracer on another tracee is not disturbed.
-module(erl_tracer_faulty).
-export([main/0, enabled/3, trace/5]).

%% This module is itself the tracer module; State says how it misbehaves.
enabled(trace_status, _, _) -> trace;
enabled(_, {loop_enabled, _}, _) -> spin(0);
enabled(_, {bad_answer, _}, _) -> maybe;
enabled(_, {raise_enabled, _}, _) -> error(boom);
enabled(_, _, _) -> trace.

trace(_, {raise_trace, _}, _, _, _) -> error(boom);
trace(_, {receive_trace, _}, _, _, _) -> receive Any -> Any end;
trace(_, {exit_trace, _}, _, _, _) -> exit(bye);
trace(Tag, {good, Collector}, Tracee, Term, _) -> Collector ! {good, Tag, Tracee, Term}, ok.

spin(N) -> spin(N + 1).

main() ->
    Good = tracee(),
    1 = erlang:trace(Good, true, [send, {tracer, ?MODULE, {good, self()}}]),
    [faulty(Kind) || Kind <- [loop_enabled, bad_answer, raise_enabled, raise_trace, receive_trace, exit_trace]],
    Good ! {do, fun() -> self() ! still_traced, receive still_traced -> ok end end},
    receive {done, Good} -> ok end,
    timer:sleep(20),
    [io:format("good tracer: ~p ~p~n", [Tag, Term]) || {good, Tag, P, Term} <- collect(), P =:= Good],
    io:format("good flags: ~p~n", [erlang:trace_info(Good, flags)]),
    ok.

faulty(Kind) ->
    Pid = tracee(),
    1 = erlang:trace(Pid, true, [send, {tracer, ?MODULE, {Kind, self()}}]),
    Pid ! {do, fun() -> self() ! one, receive one -> ok end end},
    receive {done, Pid} -> ok end,
    io:format("~p: flags after the first event ~p, tracer ~p~n",
              [Kind, erlang:trace_info(Pid, flags), erlang:trace_info(Pid, tracer)]),
    Pid ! {do, fun() -> self() ! two, receive two -> ok end end},
    receive {done, Pid} -> io:format("~p: the tracee goes on~n", [Kind]) end,
    unlink(Pid),
    exit(Pid, kill).

tracee() ->
    Parent = self(),
    spawn_link(fun Loop() ->
                       receive
                           {do, F} -> F(), Parent ! {done, self()}, Loop()
                       end
               end).

collect() ->
    receive M -> [M | collect()] after 50 -> [] end.
