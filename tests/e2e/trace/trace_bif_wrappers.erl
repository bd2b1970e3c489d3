%% erlang:trace/3 and trace_pattern/2,3 are OTP's Erlang functions in erlang.erl, over
%% erts_internal's BIFs: traced, they show the call of ensure_tracer_module_loaded/2 as on
%% erl, and a bad argument is reported with the caller's arguments and erl_erts_errors.
-module(trace_bif_wrappers).
-export([main/0]).

main() ->
    Self = self(),
    Tracer = spawn(fun() -> collect([]) end),
    erlang:trace(Self, true, [call, {tracer, Tracer}]),
    RT = [{'_', [], [{return_trace}]}],
    1 = erlang:trace_pattern({erlang, ensure_tracer_module_loaded, 2}, RT, [local]),
    1 = erlang:trace_pattern({erlang, trace_pattern, 3}, RT, [local]),
    1 = erlang:trace_pattern({erlang, trace, 3}, RT, [local]),
    1 = erlang:trace_pattern({lists, reverse, 1}, true, [local]),
    1 = erlang:trace(Tracer, false, [procs]),
    1 = erlang:trace_pattern({lists, reverse, 1}, false, [local]),
    _ = erlang:trace_pattern({erlang, '_', '_'}, false, [local]),
    erlang:trace(Self, false, [call]),
    show(catch erlang:trace_pattern({a, b, c, d}, true, [local])),
    show(catch erlang:trace_pattern({a, b, c}, true)),
    show(catch erlang:trace(Self, true, [no_such_flag])),
    show(catch erlang:trace(not_a_pid, true, [call])),
    Tracer ! {done, self()},
    receive {msgs, Ms} -> [io:format("~p~n", [mask(Msg, Self, Tracer)]) || Msg <- Ms] end,
    ok.

show({'EXIT', {Reason, [{M, F, Args, Info} | _]}}) -> io:format("EXIT ~p ~p:~p ~p ~p~n", [Reason, M, F, length(Args), Info]);
show(X) -> io:format("~p~n", [X]).

collect(Acc) ->
    receive
        {done, From} -> From ! {msgs, lists:reverse(Acc)};
        M -> collect([M | Acc])
    end.

mask({trace, S, return_from, {erlang, trace_pattern, 3}, N}, Self, Tracer) when N > 100 ->
    %% every function of the erlang module: how many there are differs between builds
    {trace, mask(S, Self, Tracer), return_from, {erlang, trace_pattern, 3}, many};
mask(T, Self, Tracer) when is_tuple(T) -> list_to_tuple([mask(E, Self, Tracer) || E <- tuple_to_list(T)]);
mask(L, Self, Tracer) when is_list(L) -> [mask(E, Self, Tracer) || E <- L];
mask(Self, Self, _) -> self;
mask(Tracer, _, Tracer) -> tracer;
mask(X, _, _) -> X.
