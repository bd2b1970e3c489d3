%% erlang:system_flag/system_info(trace_control_word) and {get_tcw}/{set_tcw, N} in match
%% specs share one word (OTP's match_spec_SUITE:trace_control_word).
-module(trace_control_word).
-export([main/0, f1/1]).
f1(X) -> X.
main() ->
    io:format("~p~n", [erlang:system_info(trace_control_word)]),
    io:format("~p~n", [erlang:system_flag(trace_control_word, 17)]),
    io:format("~p~n", [erlang:system_info(trace_control_word)]),
    High = 1 bsl 31,
    io:format("~p~n", [erlang:system_flag(trace_control_word, High)]),
    io:format("~p~n", [try_flag(1 bsl 32)]),
    io:format("~p~n", [try_flag(-1)]),
    io:format("~p~n", [try_flag(a)]),
    io:format("~p~n", [erlang:system_flag(trace_control_word, 0)]),
    Self = self(),
    Tracer = spawn(fun Loop() -> receive {trace, _, call, MFA, Msg} -> Self ! {got, MFA, Msg}, Loop();
                                         {trace, _, call, MFA} -> Self ! {got, MFA}, Loop() end end),
    erlang:trace(self(), true, [call, {tracer, Tracer}]),
    erlang:trace_pattern({?MODULE, f1, 1},
                         [{[start], [], [{message, {set_tcw, 17}}]},
                          {[stop], [], [{message, {set_tcw, 0}}]},
                          {['_'], [{'>', {get_tcw}, 0}], [{set_tcw, {'+', 1, {get_tcw}}}, {message, {get_tcw}}]}],
                         [local]),
    [?MODULE:f1(X) || X <- [a, start, b, c, stop, d]],
    erlang:trace(self(), false, [call]),
    io:format("~p~n", [flush()]),
    io:format("~p~n", [erlang:system_info(trace_control_word)]),
    io:format("~p~n", [erlang:match_spec_test([a], [{'_', [], [{set_tcw, 5}]}], trace)]),
    io:format("~p~n", [erlang:system_info(trace_control_word)]),
    ok.
try_flag(V) -> try erlang:system_flag(trace_control_word, V) catch C:R -> {C, R} end.
flush() -> receive M -> [M | flush()] after 100 -> [] end.
