%% return_to after a traced BIF that its caller reaches by a tail call names the caller, as on
%% erl (OTP calls such a BIF from a frame); the undef path through the error handler.
-module(trace_bif_return_to).
-export([main/0, lists_reverse/2, id/1, undef/1, exc/2, tail_apply/3]).

id(X) -> X.
lists_reverse(A, B) ->
    Res = lists:reverse(A, B),
    _ = (catch abs(A)),
    Res.
undef(X) -> ?MODULE:undef(X, X).
exc(F, A) -> try apply(?MODULE, F, A) catch C:R -> {C, R} end.
tail_apply(M, F, A) -> erlang:apply(M, F, id(A)).

main() ->
    Self = self(),
    T = spawn(fun() -> loop(Self) end),
    P = spawn(fun() ->
                      receive go -> ok end,
                      exc(lists_reverse, [[1, 2, 3], []]),
                      exc(undef, [x]),
                      exc(tail_apply, [erlang, error, [foo, []]]),
                      exc(tail_apply, [erlang, atom_to_list, [1]]),
                      Self ! done
              end),
    erlang:trace(P, true, [call, return_to, {tracer, T}]),
    Mprog = [{'_', [], [{exception_trace}]}],
    erlang:trace_pattern({?MODULE, '_', '_'}, Mprog, [local]),
    [erlang:trace_pattern({erlang, F, A}, Mprog, [local])
     || {F, A} <- [{exit, 1}, {error, 1}, {error, 2}, {throw, 1}, {'++', 2}, {atom_to_list, 1}]],
    erlang:trace_pattern({lists, reverse, 2}, Mprog, [local]),
    P ! go,
    receive done -> ok end,
    erlang:trace_pattern({'_', '_', '_'}, false, [local]),
    T ! stop,
    receive stopped -> ok end.

loop(Parent) ->
    receive
        stop -> Parent ! stopped;
        {trace, _, exception_from, MFA, {C, {R, S}}} when is_list(S) ->
            io:format("exception_from ~p ~p~n", [MFA, {C, R, [{M, F, A} || {M, F, A, _} <- S]}]),
            loop(Parent);
        M -> io:format("~p~n", [setelement(2, M, pid)]), loop(Parent)
    end.
