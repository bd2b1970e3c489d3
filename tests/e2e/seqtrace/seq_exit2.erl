-module(seq_exit2).
-export([main/0]).

%% exit/2 from a process with a seq_trace token: unlike the exit signals of a dying linked
%% process, OTP 25's exit/2 signal carries no token: no events, and the trapping receiver's
%% 'EXIT' message leaves it without one.
main() ->
    Tracer = spawn(fun() -> collect([]) end),
    seq_trace:set_system_tracer(Tracer),
    Self = self(),
    Trapper = spawn(fun() ->
                        process_flag(trap_exit, true),
                        Self ! ready,
                        receive {'EXIT', _, R} -> T = seq_trace:get_token(label), Self ! {got, R, T} end
                    end),
    receive ready -> ok end,
    seq_trace:set_token(label, ex2),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    exit(Trapper, because),
    seq_trace:set_token([]),
    receive {got, R, T} -> io:format("trapper got ~p with token label ~p~n", [R, T]) end,
    Tracer ! {dump, self()},
    receive {events, Es} ->
        Names = [{Self, main}, {Trapper, trapper}],
        N = fun(P) -> proplists:get_value(P, Names, P) end,
        [io:format("~p~n", [{K, S, N(F), N(To), case M of {'EXIT', P, X} -> {'EXIT', N(P), X}; _ -> M end}])
         || {seq_trace, ex2, {K, S, F, To, M}} <- Es]
    end,
    ok.

collect(Acc) ->
    receive
        {dump, From} -> From ! {events, lists:reverse(Acc)};
        E -> collect([E | Acc])
    end.
