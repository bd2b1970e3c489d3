%% tests/e2e/mspec/ms_meta_misc.erl — more meta tracing: the meta tracer tracing its own calls,
%% {message,false} + {return_trace} (return_from only), {caller} and '$_' in meta specs, a
%% process with the 'silent' flag (meta is not affected), a pattern set on all functions of the
%% module, and a meta tracer that dies (trace_info reports it until the next traced call,
%% then {meta, []}).
-module(ms_meta_misc).
-export([main/0, f/1, g/1, h/0]).

f(X) -> {f, X}.
g(X) -> f(X).
h() -> [g(1)].

main() ->
    Me = self(),
    %% main as its own meta tracer.
    1 = erlang:trace_pattern({?MODULE, f, 1}, true, [{meta, Me}]),
    f(1),
    io:format("self as meta tracer: ~w~n", [msgs()]),
    T = spawn(fun() -> collector([]) end),
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{message, false}, {return_trace}]}], [{meta, T}]),
    show("message false + return_trace", T, fun() -> f(2) end),
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{message, {caller}}]}], [{meta, T}]),
    show("caller", T, fun() -> h(), g(3) end),
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{message, '$_'}]}], [{meta, T}]),
    W = spawn(fun() -> receive go -> f(4) end end),
    1 = erlang:trace(W, true, [call, silent, {tracer, spawn(fun() -> receive stop -> ok end end)}]),
    show("silent process", T, fun() -> Ref = monitor(process, W), W ! go,
                                       receive {'DOWN', Ref, _, _, _} -> ok end end),
    %% A pattern on {M, '_', '_'} counts every function of the module.
    N = erlang:trace_pattern({?MODULE, '_', '_'}, true, [{meta, T}]),
    io:format("all functions: ~w~n", [N =:= length(?MODULE:module_info(functions))]),
    %% h() runs in a new process; main's own calls to this module's functions are dropped.
    show("h() with all functions meta traced", T,
         fun() -> {P, R} = spawn_monitor(?MODULE, h, []), receive {'DOWN', R, _, P, _} -> ok end end,
         fun(M) -> element(2, M) =/= Me end),
    N = erlang:trace_pattern({?MODULE, '_', '_'}, false, [meta]),
    %% The meta tracer dies.
    1 = erlang:trace_pattern({?MODULE, f, 1}, true, [{meta, T}]),
    Ref = monitor(process, T),
    exit(T, kill),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    io:format("dead tracer, before a call: ~w~n", [erlang:trace_info({?MODULE, f, 1}, meta) =:= {meta, T}]),
    f(5),
    io:format("dead tracer, after a call: ~w~n", [erlang:trace_info({?MODULE, f, 1}, meta)]),
    io:format("meta_match_spec: ~w~n", [erlang:trace_info({?MODULE, f, 1}, meta_match_spec)]),
    ok.

msgs() ->
    receive M when element(1, M) =:= trace_ts -> [ts(M) | msgs()] after 50 -> [] end.

show(Label, T, Fun) -> show(Label, T, Fun, fun(_) -> true end).

show(Label, T, Fun, Keep) ->
    Fun(),
    timer:sleep(50),
    T ! {get, self()},
    Msgs = lists:filter(Keep, receive {msgs, L} -> L end),
    io:format("~s:~n", [Label]),
    lists:foreach(fun(M) -> io:format("  ~w~n", [ts(M)]) end, Msgs).

%% Pids become main/other; the trailing timestamp becomes now_ts.
ts(M) ->
    L = [case is_pid(E) of true when E =:= self() -> main; true -> other; false -> E end
         || E <- tuple_to_list(M)],
    case lists:reverse(L) of
        [{A, B, C} | Rest] when is_integer(A), is_integer(B), is_integer(C) ->
            list_to_tuple(lists:reverse([now_ts | Rest]));
        _ -> list_to_tuple(L)
    end.

collector(Acc) ->
    receive
        {get, From} -> From ! {msgs, lists:reverse(Acc)}, collector([]);
        M -> collector([M | Acc])
    end.
