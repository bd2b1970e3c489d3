%% tests/e2e/bif/erts_debug_dirty_wait.erl — erts_debug:dirty_cpu(wait, Ms) and dirty_io(wait,
%% Ms), OTP's test BIFs that keep a dirty scheduler busy: the caller is back after Ms with ok;
%% meanwhile its signals are handled (check_process_code answers, as process_SUITE:otp_16436
%% asks); anything else is badarg.
-module(erts_debug_dirty_wait).
-export([main/0]).

main() ->
    T0 = erlang:monotonic_time(millisecond),
    R = [erts_debug:dirty_io(wait, 50), erts_debug:dirty_cpu(wait, 0)],
    T1 = erlang:monotonic_time(millisecond),
    io:format("~p, waited: ~p~n", [R, T1 - T0 >= 50]),
    io:format("~p~n", [[reason(catch erts_debug:dirty_io(wait, a)), reason(catch erts_debug:dirty_cpu(foo, 1)),
                        reason(catch erts_debug:dirty_io(wait, -1))]]),
    P = spawn_opt(fun() -> erts_debug:dirty_io(wait, 1000) end, [{priority, high}, link]),
    io:format("check_process_code meanwhile: ~p~n", [erlang:check_process_code(P, non_existing)]),
    unlink(P),
    exit(P, kill),
    ok.

reason({'EXIT', {R, _}}) -> R;
reason(Other) -> Other.
