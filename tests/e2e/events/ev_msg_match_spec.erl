-module(ev_msg_match_spec).
-export([main/0]).
-import(e2e_trace, [collector/0, events/2, worker/0, run/2, stop_wait/2, norm/2]).

%% Legacy message match specs (OTP 25): erlang:trace_pattern(send, MS, []) filters `send` and
%% send_to_non_existing_process events, head [To, Msg]; erlang:trace_pattern('receive', MS, [])
%% filters 'receive' events, head [Node, Sender, Msg] (Node is nonode@nohost, Sender the sending
%% pid). Every accepted call returns 1. {message, X} adds X as an extra last element; '$_' is
%% the head list. A receive timeout is matched as [clock_service, undefined, timeout]. A head
%% of the wrong length is accepted and never matches. MS [] is accepted and reported by
%% trace_info as true (everything traced); false means nothing of that kind is traced even with
%% the process flag set; trace_info(send|'receive', match_spec) returns the spec, true or false.
%% {message, {self}} in a receive spec gives the receiving process. {enable_trace, procs} in a
%% send spec adds procs to the sender. Rejected with badarg: {caller} in either; in a receive
%% spec also {process_dump}, {silent,_}, {enable_trace,_}, {disable_trace,_}, {trace,_,_},
%% {get_seq_token}, guard {is_seq_trace} (all accepted in a send spec); {return_trace} is
%% accepted in both and has no effect. Any flag list other than [] is badarg, so are restart
%% and pause; trace_info(send, flags) is badarg. A failed call leaves the old spec in place.

main() ->
    T = collector(),
    S = spawn(fun sink/0),
    D = spawn(fun() -> ok end),
    stop_wait(D, none),
    W = worker(),
    Names = [{T, tracer}, {S, sink}, {D, dead}, {W, worker}, {self(), main}],
    io:format("send spec before: ~p~n", [erlang:trace_info(send, match_spec)]),
    io:format("receive spec before: ~p~n", [erlang:trace_info('receive', match_spec)]),
    io:format("trace worker: ~p~n", [erlang:trace(W, true, [send, 'receive', {tracer, T}])]),
    io:format("trace sink: ~p~n", [erlang:trace(S, true, ['receive', {tracer, T}])]),
    Ctx = {W, S, D, T, Names},
    t("only {important, _} sent", [{['_', {important, '_'}], [], []}], true, Ctx),
    t("no match", [{['_', {never, '_'}], [], []}], true, Ctx),
    t("message action", [{['_', {important, '$1'}], [], [{message, {{got, '$1'}}}]}], true, Ctx),
    t("message '$_'", [{['$1', {other, '_'}], [], [{message, '$_'}]}], true, Ctx),
    t("guard To =:= self()", [{['$1', '_'], [{'=:=', '$1', {self}}], [{message, to_self}]}], true, Ctx),
    t("message false", [{'_', [], [{message, false}]}], true, Ctx),
    t("return_trace (no effect)", [{['_', important], [], [{return_trace}]}], true, Ctx),
    t("head of length 1", [{['_'], [], []}], true, Ctx),
    t("send []", [], true, Ctx),
    t("send false", false, true, Ctx),
    t("enable_trace procs", [{['_', {other, '_'}], [], [{enable_trace, procs}]}], true, Ctx),
    io:format("  flags afterwards: ~p~n", [lists:sort(flags(W))]),
    io:format("  procs off: ~p ~p~n", [erlang:trace(W, false, [procs]), lists:sort(flags(W))]),
    t("receive {important, _}", true, [{['_', '_', {important, '_'}], [], []}], Ctx),
    t("receive node and sender", true, [{['$1', '$2', '_'], [], [{message, {{'$1', '$2'}}}]}], Ctx),
    t("receive from self", true, [{['_', '$1', '_'], [{'=:=', '$1', {self}}], [{message, from_self}]}], Ctx),
    t("receive {self}", true, [{'_', [], [{message, {self}}]}], Ctx),
    t("receive '$_' on a timeout", true, [{['_', '_', timeout], [], [{message, '$_'}]}], Ctx),
    t("receive []", true, [], Ctx),
    t("receive false", true, false, Ctx),
    Bad = [{caller}, {message, {caller}}, {return_trace}, {process_dump}, {silent, true},
           {enable_trace, send}, {disable_trace, send}, {trace, [send], []},
           {get_seq_token}, {get_tcw}, {message, {node}}],
    [io:format("action ~w: send ~p, receive ~p~n",
               [A, try_pattern(send, [{'_', [], [A]}], []),
                try_pattern('receive', [{'_', [], [A]}], [])]) || A <- Bad],
    io:format("guard {is_seq_trace}: send ~p, receive ~p~n",
              [try_pattern(send, [{'_', [{is_seq_trace}], []}], []),
               try_pattern('receive', [{'_', [{is_seq_trace}], []}], [])]),
    Good = [{['$1', hello], [], []}],
    io:format("set send spec: ~p~n", [erlang:trace_pattern(send, Good, [])]),
    [io:format("send flags ~w: ~p~n", [Fl, try_pattern(send, true, Fl)])
     || Fl <- [[local], [global], [meta], [call_count], [bogus], [[]]]],
    io:format("receive flags [local]: ~p~n", [try_pattern('receive', true, [local])]),
    io:format("send restart: ~p, pause: ~p~n",
              [try_pattern(send, restart, []), try_pattern(send, pause, [])]),
    io:format("send spec after failed calls: ~p~n", [erlang:trace_info(send, match_spec)]),
    io:format("trace_info(send, flags): ~p~n",
              [try erlang:trace_info(send, flags) catch C:R -> {C, R} end]),
    io:format("trace_pattern(send, true) (arity 2): ~p~n", [erlang:trace_pattern(send, true)]),
    io:format("reset: ~p ~p~n", [erlang:trace_pattern(send, true, []),
                                 erlang:trace_pattern('receive', true, [])]),
    io:format("send spec: ~p, receive spec: ~p~n",
              [erlang:trace_info(send, match_spec), erlang:trace_info('receive', match_spec)]),
    io:format("trace off: ~p ~p~n", [erlang:trace(W, false, [all]), erlang:trace(S, false, [all])]),
    stop_wait(W, stop),
    stop_wait(S, stop),
    stop_wait(T, stop),
    ok.

t(Label, SendMS, RecvMS, {W, S, D, T, Names}) ->
    R1 = erlang:trace_pattern(send, SendMS, []),
    R2 = erlang:trace_pattern('receive', RecvMS, []),
    {match_spec, I1} = erlang:trace_info(send, match_spec),
    {match_spec, I2} = erlang:trace_info('receive', match_spec),
    io:format("== ~s: ~p ~p~n  info: ~p ~p~n", [Label, R1, R2, I1, I2]),
    run(W, fun() -> work(S, D) end),
    Evs = events(T, [W, S]),
    io:format("  worker:~n"),
    [io:format("    ~p~n", [norm(E, Names)]) || E <- Evs, element(2, E) =:= W],
    io:format("  sink:~n"),
    [io:format("    ~p~n", [norm(E, Names)]) || E <- Evs, element(2, E) =:= S],
    ok.

%% The workload of every case, run in the worker.
work(S, D) ->
    S ! {important, 1},
    S ! {other, 2},
    S ! important,
    S ! {important, 3, x},
    self() ! {important, self_msg},
    receive {important, self_msg} -> ok end,
    D ! {important, dead},
    D ! {other, dead},
    receive nothing -> ok after 0 -> ok end,
    done.

try_pattern(What, MS, Flags) ->
    try erlang:trace_pattern(What, MS, Flags) catch C:R -> {C, R} end.

flags(P) -> {flags, F} = erlang:trace_info(P, flags), F.

sink() -> receive stop -> ok; _ -> sink() end.
