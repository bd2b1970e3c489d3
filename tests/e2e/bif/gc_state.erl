%% erts_debug:set_internal_state(gc_state, Bool) (OTP's test knob): while a process has its
%% collections off, garbage_collect/1,2 of it wait, and are done and answered once it turns
%% them back on; a process that exits with requests waiting answers them false.
-module(gc_state).
-export([main/0]).

main() ->
    logger:set_primary_config(level, error),  % (erl logs a warning for the knob)
    false = erts_debug:set_internal_state(available_internal_state, true),
    Master = self(),
    P = spawn(fun() ->
                      Was = erts_debug:set_internal_state(gc_state, false),
                      Master ! {self(), off, Was},
                      receive go -> ok end,
                      Master ! {self(), on, erts_debug:set_internal_state(gc_state, true)},
                      receive stop -> ok end
              end),
    receive {P, off, Was} -> io:format("was on: ~p~n", [Was]) end,
    async = erlang:garbage_collect(P, [{async, req1}]),
    Self = self(),
    spawn(fun() -> Self ! {sync, erlang:garbage_collect(P)} end),
    Early = receive {garbage_collect, req1, R} -> {answered, R}; {sync, R2} -> {answered, R2}
            after 300 -> waiting end,
    io:format("while off: ~p~n", [Early]),
    P ! go,
    receive {P, on, Off} -> io:format("was on when turned back: ~p~n", [Off]) end,
    A1 = receive {garbage_collect, req1, R3} -> R3 after 5000 -> timeout end,
    A2 = receive {sync, R4} -> R4 after 5000 -> timeout end,
    io:format("after: ~p ~p~n", [A1, A2]),
    P ! stop,
    %% A process that exits with its collections off: the waiting request answers false.
    Q = spawn(fun() ->
                      true = erts_debug:set_internal_state(gc_state, false),
                      Master ! {self(), off},
                      receive stop -> ok end
              end),
    receive {Q, off} -> ok end,
    async = erlang:garbage_collect(Q, [{async, req2}]),
    Q ! stop,
    io:format("exited: ~p~n", [receive {garbage_collect, req2, R5} -> R5 after 5000 -> timeout end]),
    io:format("bad: ~p~n", [try erts_debug:set_internal_state(gc_state, maybe) catch error:E -> E end]),
    erts_debug:set_internal_state(available_internal_state, false).
