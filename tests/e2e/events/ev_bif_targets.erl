-module(ev_bif_targets).
-export([main/0, val/0]).
-import(e2e_trace, [collector/0, messages/1, stop_wait/2, name/2]).

%% BIFs as call-trace targets (OTP 25).
%% - trace_pattern({erlang, integer_to_list, '_'}, true, [local]) returns 2 (arities 1 and 2);
%%   a process traced with [call] then gets {trace, W, call, {erlang, integer_to_list, Args}}
%%   for erlang:integer_to_list(X), for the auto-imported integer_to_list(X) and for
%%   integer_to_list(X, 16). trace_info traced is local (global with [global]), match_spec [].
%% - {return_trace} in the match spec gives {trace, W, return_from, {erlang, integer_to_list, A}, R}.
%% - [{meta, M}] on a BIF: M gets {trace_ts, W, call, {erlang, integer_to_list, Args}, {Mega,S,Us}}
%%   from every process that calls it (the io server too), traced or not: filtered here.
%% - call_count on a BIF counts the calls of all processes (exact: N=7 here).
%% - call_time only counts calls made by processes that have the `call` trace flag: with an
%%   untraced caller trace_info(..., call_time) stays {call_time, []}.
%% - call_count on {lists, reverse, '_'} returns 2; lists:reverse/1 on a list longer than 2
%%   calls lists:reverse/2 itself, so 2 calls of reverse/1 and 1 of reverse/2 count 2 and 3.
%% - trace_pattern(on_load, true, [meta | call_count | call_time | local]) returns 0;
%%   trace_info(on_load, all) then lists traced, match_spec, meta, meta_match_spec and
%%   call_count, but NOT call_time (trace_info(on_load, call_time) alone is {call_time, true}).
%%   trace_pattern(on_load, pause, [call_count]) returns 0 and call_count stays true.
val() -> 12.

main() ->
    X = ?MODULE:val(),
    Self = self(),
    W = spawn(fun worker/0),
    U = spawn(fun worker/0),
    Names = [{W, w}, {U, u}, {Self, main}],
    MFA1 = {erlang, integer_to_list, 1},
    Calls = fun() -> _ = erlang:integer_to_list(X), _ = integer_to_list(X), _ = integer_to_list(X, 16), ok end,
    io:format("trace w: ~p~n", [erlang:trace(W, true, [call])]),
    io:format("local: ~p~n", [erlang:trace_pattern({erlang, integer_to_list, '_'}, true, [local])]),
    io:format("traced: ~p, match_spec: ~p~n", [erlang:trace_info(MFA1, traced), erlang:trace_info(MFA1, match_spec)]),
    show("local calls", run(W, Calls), Names),
    show("untraced process", run(U, Calls), Names),
    io:format("global: ~p~n", [erlang:trace_pattern({erlang, integer_to_list, '_'}, true, [global])]),
    io:format("traced: ~p, match_spec: ~p~n", [erlang:trace_info(MFA1, traced), erlang:trace_info(MFA1, match_spec)]),
    show("global calls", run(W, Calls), Names),
    RT = [{'_', [], [{return_trace}]}],
    io:format("return_trace: ~p~n", [erlang:trace_pattern({erlang, integer_to_list, '_'}, RT, [local])]),
    io:format("match_spec: ~p~n", [erlang:trace_info(MFA1, match_spec)]),
    show("return_trace calls", run(W, Calls), Names),
    io:format("off: ~p~n", [erlang:trace_pattern({erlang, integer_to_list, '_'}, false, [local])]),
    show("after off", run(W, Calls), Names),
    %% meta
    M = collector(),
    io:format("meta: ~p~n", [erlang:trace_pattern({erlang, integer_to_list, '_'}, true, [{meta, M}])]),
    io:format("meta info: ~p ~p~n", [name(erlang:trace_info(MFA1, meta), [{M, m}]), erlang:trace_info(MFA1, meta_match_spec)]),
    run(U, Calls),
    io:format("meta off: ~p~n", [erlang:trace_pattern({erlang, integer_to_list, '_'}, false, [meta])]),
    Metas = [shape(Msg, Names) || Msg <- give(M), element(2, Msg) =:= U],
    [io:format("  meta ~w~n", [Msg]) || Msg <- Metas],
    %% call_count (no output between setting it and reading it: io also calls integer_to_list).
    CCOn = erlang:trace_pattern({erlang, integer_to_list, '_'}, true, [call_count]),
    run(U, fun() -> _ = [erlang:integer_to_list(X) || _ <- lists:seq(1, 7)], ok end),
    CC1 = erlang:trace_info(MFA1, call_count),
    CC2 = erlang:trace_info({erlang, integer_to_list, 2}, call_count),
    CCOff = erlang:trace_pattern({erlang, integer_to_list, '_'}, false, [call_count]),
    io:format("call_count: ~p, off: ~p~n", [CCOn, CCOff]),
    io:format("  counts: ~p ~p~n", [CC1, CC2]),
    %% call_time
    CTOn = erlang:trace_pattern({erlang, integer_to_list, '_'}, true, [call_time]),
    run(U, fun() -> _ = [erlang:integer_to_list(X) || _ <- lists:seq(1, 4)], ok end),
    {call_time, CT0} = erlang:trace_info(MFA1, call_time),
    run(W, fun() -> _ = [erlang:integer_to_list(X) || _ <- lists:seq(1, 5)], ok end),
    {call_time, CT} = erlang:trace_info(MFA1, call_time),
    CTOff = erlang:trace_pattern({erlang, integer_to_list, '_'}, false, [call_time]),
    io:format("call_time: ~p, off: ~p~n", [CTOn, CTOff]),
    io:format("  entries after untraced u: ~p~n", [lists:sort([{name(P, Names), N} || {P, N, _, _} <- CT0])]),
    io:format("  entries after traced w: ~p~n", [lists:sort([{name(P, Names), N} || {P, N, _, _} <- CT])]),
    %% lists:reverse
    L = lists:seq(1, X),
    ROn = erlang:trace_pattern({lists, reverse, '_'}, true, [call_count]),
    run(U, fun() -> _ = lists:reverse(L), _ = lists:reverse(L, [a]), _ = lists:reverse(L), ok end),
    R1 = erlang:trace_info({lists, reverse, 1}, call_count),
    R2 = erlang:trace_info({lists, reverse, 2}, call_count),
    ROff = erlang:trace_pattern({lists, reverse, '_'}, false, [call_count]),
    io:format("reverse call_count: ~p, off: ~p~n", [ROn, ROff]),
    io:format("  reverse/1 ~p, reverse/2 ~p~n", [R1, R2]),
    %% on_load
    io:format("on_load before: ~p~n", [erlang:trace_info(on_load, all)]),
    [io:format("on_load ~p: ~p, info ~p~n",
               [F, erlang:trace_pattern(on_load, true, [F]), name(erlang:trace_info(on_load, F), Names)])
     || F <- [meta, call_count, call_time]],
    io:format("on_load local: ~p~n", [erlang:trace_pattern(on_load, true, [local])]),
    io:format("on_load all: ~p~n", [name(erlang:trace_info(on_load, all), Names)]),
    io:format("on_load pause: ~p, ~p~n", [erlang:trace_pattern(on_load, pause, [call_count]), erlang:trace_info(on_load, call_count)]),
    io:format("on_load off: ~p~n", [erlang:trace_pattern(on_load, false, [local, meta, call_count, call_time])]),
    io:format("on_load after: ~p~n", [erlang:trace_info(on_load, all)]),
    io:format("all off: ~p~n", [erlang:trace_pattern({erlang, integer_to_list, '_'}, false, [local, meta, call_count, call_time])]),
    io:format("final: ~p~n", [erlang:trace_info(MFA1, all)]),
    io:format("untrace w: ~p~n", [erlang:trace(W, false, [call])]),
    [stop_wait(P, stop) || P <- [W, U, M]],
    ok.

shape({trace_ts, P, call, MFA, {A, B, C}}, Names) when is_integer(A), is_integer(B), is_integer(C) ->
    {trace_ts, name(P, Names), call, MFA, ts_now};
shape(Other, _) -> {unexpected, Other}.

show(Label, Msgs, Names) ->
    io:format("~s:~n", [Label]),
    [io:format("  ~w~n", [name(Msg, Names)]) || Msg <- Msgs].

worker() ->
    receive
        {run, F, From} -> F(), From ! {done, self()}, worker();
        stop -> ok
    end.

%% Run F in W; main is W's tracer: return W's trace messages.
run(W, F) ->
    W ! {run, F, self()},
    receive {done, W} -> ok end,
    Ref = erlang:trace_delivered(W),
    receive {trace_delivered, W, Ref} -> ok end,
    flush().

flush() -> receive M -> [M | flush()] after 0 -> [] end.

give(C) ->
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    messages(C).
