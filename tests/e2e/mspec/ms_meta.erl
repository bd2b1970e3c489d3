%% tests/e2e/mspec/ms_meta.erl — meta tracing: trace_pattern(MFA, MS, [{meta, Tracer}]) traces
%% calls from every process (no process flags needed, local calls included) and sends
%% {trace_ts, Pid, call, {M,F,Args}, Timestamp} (plus the {message,...} value before the
%% timestamp) to the meta tracer; {return_trace}/{exception_trace} give return_from /
%% exception_from as trace_ts too. trace_info(MFA, meta / meta_match_spec / all), switching meta
%% off, and meta together with ordinary call trace on the same function.
-module(ms_meta).
-export([main/0, f/1, g/1, boom/1]).

f(X) -> g(X) + 1.
g(X) -> X * 2.
boom(X) -> error({boom, X}).

main() ->
    Me = self(),
    T = spawn(fun() -> collector([]) end),
    Names = [{Me, main}, {T, meta_tracer}],
    1 = erlang:trace_pattern({?MODULE, f, 1}, true, [{meta, T}]),
    show("f(1) in main, f(2) in a worker", T, Names, fun() -> f(1), in_worker(fun() -> f(2) end) end),
    info("f", {?MODULE, f, 1}, Names),
    1 = erlang:trace_pattern({?MODULE, g, 1},
                             [{['$1'], [{'>', '$1', 2}], [{message, {{big, '$1'}}}, {return_trace}]}],
                             [{meta, T}]),
    show("f(1), f(3): g has a match spec", T, Names, fun() -> f(1), f(3) end),
    info("g", {?MODULE, g, 1}, Names),
    1 = erlang:trace_pattern({?MODULE, boom, 1}, [{'_', [], [{exception_trace}]}], [{meta, T}]),
    show("catch boom(4)", T, Names, fun() -> catch boom(4) end),
    %% Ordinary call trace of main on g as well: its messages go to a different tracer.
    C = spawn(fun() -> collector([]) end),
    1 = erlang:trace(Me, true, [call, {tracer, C}]),
    1 = erlang:trace_pattern({?MODULE, g, 1}, [{'_', [], [{message, local}]}], [local]),
    info("g with local + meta", {?MODULE, g, 1}, [{C, call_tracer} | Names]),
    f(5),
    1 = erlang:trace(Me, false, [call]),
    show("call tracer got", C, Names, fun() -> ok end),
    show("meta tracer got", T, Names, fun() -> ok end),
    %% Meta off.
    1 = erlang:trace_pattern({?MODULE, f, 1}, false, [{meta, T}]),
    1 = erlang:trace_pattern({?MODULE, g, 1}, false, [meta]),
    info("f off", {?MODULE, f, 1}, Names),
    info("g off", {?MODULE, g, 1}, Names),
    show("f(6) with meta off", T, Names, fun() -> f(6) end),
    ok.

info(Label, MFA, Names) ->
    [io:format("~s ~w: ~w~n", [Label, Item, lab(erlang:trace_info(MFA, Item), Names)])
     || Item <- [meta, meta_match_spec, traced, match_spec, all]].

in_worker(Fun) ->
    {W, Ref} = spawn_monitor(Fun),
    receive {'DOWN', Ref, process, W, _} -> W end.

%% Run Fun in main, then fetch the meta tracer's messages (any pid not in Names is 'worker').
show(Label, T, Names, Fun) ->
    Fun(),
    timer:sleep(50),
    T ! {get, self()},
    Msgs = receive {msgs, L} -> L end,
    io:format("~s:~n", [Label]),
    lists:foreach(fun(M) -> io:format("  ~w~n", [lab(ts(M), Names)]) end, Msgs).

%% The timestamp is the last element of a trace_ts message: check its shape only.
ts(M) when element(1, M) =:= trace_ts ->
    case element(tuple_size(M), M) of
        {A, B, C} when is_integer(A), is_integer(B), is_integer(C), A >= 0, B >= 0, C >= 0 ->
            setelement(tuple_size(M), M, now_ts);
        _ -> M
    end;
ts(M) -> M.

collector(Acc) ->
    receive
        {get, From} -> From ! {msgs, lists:reverse(Acc)}, collector([]);
        M -> collector([M | Acc])
    end.

lab(P, Names) when is_pid(P) ->
    case lists:keyfind(P, 1, Names) of {P, N} -> N; false -> worker end;
lab(T, Names) when is_tuple(T) -> list_to_tuple(lab(tuple_to_list(T), Names));
lab([H | T], Names) -> [lab(H, Names) | lab(T, Names)];
lab(X, _) -> X.
