%% tests/e2e/mspec/ms_ts_shapes.erl — the shape of call-trace messages when match spec results
%% meet process flags: the {message, X} value sits before the timestamp in trace_ts messages,
%% 'arity' replaces the argument list by the arity (the message value is kept), return_from /
%% exception_from / return_to with timestamps, and the three timestamp kinds (timestamp ->
%% {Mega, Sec, Micro}, monotonic_timestamp -> integer, strict_monotonic_timestamp -> {Mono, Unique}).
-module(ms_ts_shapes).
-export([main/0, drive/0, f/1, boom/1]).

f(X) -> {f, X}.
boom(X) -> error({boom, X}).
drive() -> _ = f(1), _ = (catch boom(2)), ok.

main() ->
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{['$1'], [], [{message, {{arg, '$1'}}}, {return_trace}]}], [local]),
    1 = erlang:trace_pattern({?MODULE, boom, 1}, [{'_', [], [{exception_trace}]}], [local]),
    t([call]),
    t([call, arity]),
    t([call, timestamp]),
    t([call, arity, timestamp]),
    t([call, monotonic_timestamp]),
    t([call, strict_monotonic_timestamp]),
    t([call, return_to, timestamp]),
    t([call, return_to, arity]),
    %% {message, false}: no call message, but return_from still comes (with its timestamp).
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{message, false}, {return_trace}]}], [local]),
    t([call, timestamp]),
    ok.

t(Flags) ->
    W = spawn(fun() -> receive go -> ?MODULE:drive() end end),
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, Flags),
    W ! go,
    receive {'DOWN', Ref, process, W, _} -> ok end,
    io:format("~w:~n", [Flags]),
    lists:foreach(fun(M) -> io:format("  ~w~n", [M]) end, collect(W)).

collect(W) ->
    receive
        M when element(1, M) =:= trace; element(1, M) =:= trace_ts ->
            [norm(M, W) | collect(W)]
    after 50 -> []
    end.

%% Pid -> worker; in trace_ts messages the last element is replaced by its kind.
norm(M, W) ->
    [Tag, W | Rest] = tuple_to_list(M),
    case Tag of
        trace -> list_to_tuple([Tag, worker | Rest]);
        trace_ts ->
            [TS | RevRest] = lists:reverse(Rest),
            list_to_tuple([Tag, worker | lists:reverse([kind(TS) | RevRest])])
    end.

kind({A, B, C}) when is_integer(A), is_integer(B), is_integer(C) -> now_ts;
kind({A, B}) when is_integer(A), is_integer(B) -> strict_ts;
kind(A) when is_integer(A) -> mono_ts;
kind(X) -> {unexpected, X}.
