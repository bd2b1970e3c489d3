%% process_info(self(), current_function) from a traced BIF (return_trace): the caller, as on erl
%% (OTP's call_trace_SUITE:return_trace and exception_trace).
-module(trace_bif_current_function).
-export([main/0]).
main() ->
    Self = self(),
    process_flag(trap_exit, false),
    Tracer = spawn(fun Loop() -> receive stop -> Self ! stopped; M -> Self ! {t, M}, Loop() end end),
    erlang:trace(self(), true, [call, {tracer, Tracer}]),
    erlang:trace_pattern({erlang, process_info, 2}, [{'_', [], [{return_trace}]}], []),
    R = erlang:process_info(self(), current_function),
    erlang:trace_pattern({erlang, process_info, 2}, [{'_', [], [{exception_trace}]}], [local]),
    R2 = erlang:process_info(self(), current_function),
    erlang:trace(self(), false, [call]),
    erlang:trace_pattern({erlang, process_info, 2}, false, [local]),
    io:format("~p~n~p~n", [R, R2]),
    Tracer ! stop,
    [io:format("~p~n", [strip(erlang:delete_element(2, M))]) || {t, M} <- collect()],
    ok.
strip({T, call, {M, F, [_ | A]}}) -> {T, call, {M, F, A}};
strip(T) -> T.
collect() -> receive stopped -> []; M -> [M | collect()] end.
