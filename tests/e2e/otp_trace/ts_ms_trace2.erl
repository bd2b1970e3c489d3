-module(ts_ms_trace2).
-export([main/0, runner/2, f1/1, f2/2, f3/2, fn/1, fn/2, fn/3, id/1]).

%% Port of match_spec_SUITE:ms_trace2: the {trace, Disable, Enable} action in a META match
%% spec controls the calling process's own trace flags. A runner process (untraced:
%% 1 = trace(Runner, false, [all])) gets patterns f1/1 global, f2/2 local,
%% erlang:integer_to_list/1 global (each returns 1), and a meta pattern on fn/'_' (returns 3:
%% fn/1,2,3; the head ['$1','$2'] only matches fn/2) with body
%% [{trace,'$1','$2'}, {message, ms_trace2}]; the meta tracer is main (the caller).
%% Calls before fn([all], [call, return_to, {tracer, Main}]) give nothing. That call gives
%% the meta message {trace_ts, R, call, {M, fn, [...]}, ms_trace2, Ts} and turns on call +
%% return_to: ?MODULE:f1(f) -> call; local f2(g, h) -> call + return_to the runner's fun;
%% local f1(i) -> nothing (global pattern only); integer_to_list(2) -> call (global: no
%% return_to); ?MODULE:f3(j, k) -> call f2 [j,k] + return_to {M, f3, 2}. Then
%% fn([call, return_to], []) gives the meta message and tracing stops: runner's flags are []
%% and its tracer [] afterwards. All messages come from one tracee (per-tracee order holds
%% between meta and ordinary trace messages). Timestamps are printed as {ts_now, 3}.

main() ->
    process_flag(trap_exit, true),
    Main = self(),
    Run = fun() ->
                  ?MODULE:f1(a),
                  ?MODULE:f2(b, c),
                  _ = erlang:integer_to_list(id(1)),
                  ?MODULE:f3(d, e),
                  fn([all], [call, return_to, {tracer, Main}]),
                  ?MODULE:f1(f),
                  f2(g, h),
                  f1(i),
                  _ = erlang:integer_to_list(id(2)),
                  ?MODULE:f3(j, k),
                  fn([call, return_to], []),
                  ?MODULE:f1(l),
                  ?MODULE:f2(m, n),
                  _ = erlang:integer_to_list(id(3)),
                  ?MODULE:f3(o, p)
          end,
    R = spawn_link(?MODULE, runner, [Main, Run]),
    Names = [{Main, main}, {R, runner}],
    io:format("trace runner off: ~p~n", [erlang:trace(R, false, [all])]),
    io:format("f1 global: ~p~n", [erlang:trace_pattern({?MODULE, f1, 1}, [], [global])]),
    io:format("f2 local: ~p~n", [erlang:trace_pattern({?MODULE, f2, 2}, [], [local])]),
    io:format("integer_to_list global: ~p~n",
              [erlang:trace_pattern({erlang, integer_to_list, 1}, [], [global])]),
    io:format("fn meta: ~p~n",
              [erlang:trace_pattern({?MODULE, fn, '_'},
                                    [{['$1', '$2'], [], [{trace, '$1', '$2'}, {message, ms_trace2}]}],
                                    [meta])]),
    R ! {go, Main},
    receive {ran, R} -> ok end,
    io:format("runner info after: ~p~n", [norm({erlang:trace_info(R, flags), erlang:trace_info(R, tracer)}, Names)]),
    Ref = erlang:trace_delivered(R),
    receive {trace_delivered, R, Ref} -> ok end,
    io:format("runner events:~n"),
    [io:format("  ~p~n", [norm(E, Names)]) || E <- take(R)],
    R ! {done, Main},
    receive {gone, R} -> ok end,
    receive {'EXIT', R, normal} -> ok end,
    erlang:trace_pattern({?MODULE, fn, '_'}, false, [meta]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [global]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    erlang:trace_pattern({erlang, integer_to_list, 1}, false, [global]),
    Left = receive M -> norm(M, Names) after 100 -> nothing end,
    io:format("left in queue: ~p~n", [Left]),
    ok.

runner(Collector, Fun) ->
    receive {go, Collector} -> go end,
    Fun(),
    Collector ! {ran, self()},
    receive {done, Collector} -> Collector ! {gone, self()} end.

f1(X) -> {X}.
f2(X, Y) -> {X, Y}.
f3(X, Y) -> ?MODULE:f2(X, Y), ok.
fn(X) -> [X].
fn(X, Y) -> [X, Y].
fn(X, Y, Z) -> [X, Y, Z].
id(X) -> X.

take(P) ->
    receive
        M when element(1, M) =:= trace, element(2, M) =:= P -> [M | take(P)];
        M when element(1, M) =:= trace_ts, element(2, M) =:= P -> [M | take(P)]
    after 0 -> []
    end.

norm({A, B, C}, _) when is_integer(A), is_integer(B), is_integer(C) -> {ts_now, 3};
norm(P, Names) when is_pid(P) ->
    case lists:keyfind(P, 1, Names) of {P, N} -> N; false -> other_pid end;
norm(R, _) when is_reference(R) -> ref;
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(X, _) -> X.
