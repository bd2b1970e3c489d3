-module(ts_ms_trace3).
-export([main/0, runner/2, f1/1, f2/2, f3/2, fn/1, fn/2, fn/3, id/1]).

%% Port of match_spec_SUITE:ms_trace3: the {trace, Pid, Disable, Enable} action in a META
%% match spec, run by an UNTRACED Controller process on the runner (Tracee). Patterns: f1/1
%% global, f2/2 local, erlang:integer_to_list/1 global, meta on fn/'_' (3) with head
%% ['$1','$2','$3'] and body [{trace,'$1','$2','$3'}, {message, Tag}]; meta tracer = main.
%% The Controller calls fn(TraceeName, [all], [call,return_to,send,'receive',{tracer,Main}])
%% (the registered name works), then fn(Tracee, [call,return_to], []), then
%% fn(Tracee, [all], []). Controller: three meta messages. Tracee: receive of
%% {Controller,Tag,started}, call f1 [f], call f2 [g,h] + return_to the runner's fun, call
%% integer_to_list [2], call f2 [j,k] + return_to {M,f3,2}, send {Tracee,Tag,stop_1} to
%% Controller, and NOTHING more (no receive of stopped_1): on OTP 25 the {trace, Tracee,
%% [call,return_to], []} run by the untraced Controller clears ALL of Tracee's flags and its
%% tracer (the target gets the caller's tracer, i.e. none): {flags,[]}, {tracer,[]} (printed
%% after stopped_1 and at the end). Events are grouped per tracee; Tag is printed as `ref`,
%% timestamps as {ts_now, 3}.

-define(NAME, 'ts_ms_trace3:tracee').

main() ->
    process_flag(trap_exit, true),
    Main = self(),
    Tag = make_ref(),
    Controller = spawn_link(fun() -> controller(Main, Tag) end),
    Run = fun() ->
                  register(?NAME, self()),
                  ?MODULE:f1(a),
                  ?MODULE:f2(b, c),
                  _ = erlang:integer_to_list(id(1)),
                  ?MODULE:f3(d, e),
                  Controller ! {self(), Tag, start},
                  receive {Controller, Tag, started} -> ok end,
                  ?MODULE:f1(f),
                  f2(g, h),
                  f1(i),
                  _ = erlang:integer_to_list(id(2)),
                  ?MODULE:f3(j, k),
                  Controller ! {self(), Tag, stop_1},
                  receive {Controller, Tag, stopped_1} -> ok end,
                  Main ! {info, erlang:trace_info(self(), flags), erlang:trace_info(self(), tracer)},
                  ?MODULE:f1(l),
                  ?MODULE:f2(m, n),
                  _ = erlang:integer_to_list(id(3)),
                  ?MODULE:f3(o, p),
                  Controller ! {self(), Tag, stop_2},
                  receive {Controller, Tag, stopped_2} -> ok end,
                  ?MODULE:f1(q),
                  ?MODULE:f2(r, s),
                  _ = erlang:integer_to_list(id(4)),
                  ?MODULE:f3(t, u)
          end,
    R = spawn_link(?MODULE, runner, [Main, Run]),
    Names = [{Main, main}, {R, tracee}, {Controller, controller}],
    io:format("trace tracee off: ~p~n", [erlang:trace(R, false, [all])]),
    io:format("f1 global: ~p~n", [erlang:trace_pattern({?MODULE, f1, 1}, [], [global])]),
    io:format("f2 local: ~p~n", [erlang:trace_pattern({?MODULE, f2, 2}, [], [local])]),
    io:format("integer_to_list global: ~p~n",
              [erlang:trace_pattern({erlang, integer_to_list, 1}, [], [global])]),
    io:format("fn meta: ~p~n",
              [erlang:trace_pattern({?MODULE, fn, '_'},
                                    [{['$1', '$2', '$3'], [], [{trace, '$1', '$2', '$3'}, {message, Tag}]}],
                                    [meta])]),
    R ! {go, Main},
    receive {info, F1, T1} -> io:format("tracee info after stopped_1: ~p ~p~n", [F1, norm(T1, Names)]) end,
    receive {ran, R} -> ok end,
    io:format("tracee info at the end: ~p~n",
              [norm({erlang:trace_info(R, flags), erlang:trace_info(R, tracer)}, Names)]),
    receive {'EXIT', Controller, normal} -> ok end,
    [begin
         Ref = erlang:trace_delivered(P),
         receive {trace_delivered, P, Ref} -> ok end,
         io:format("~p events:~n", [norm(P, Names)]),
         [io:format("  ~p~n", [norm(E, Names)]) || E <- take(P)]
     end || P <- [Controller, R]],
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

controller(Main, Tag) ->
    receive
        {Tracee, Tag, start} ->
            fn(?NAME, [all], [call, return_to, send, 'receive', {tracer, Main}]),
            Tracee ! {self(), Tag, started},
            receive {Tracee, Tag, stop_1} -> ok end,
            fn(Tracee, [call, return_to], []),
            Tracee ! {self(), Tag, stopped_1},
            receive {Tracee, Tag, stop_2} -> ok end,
            fn(Tracee, [all], []),
            Tracee ! {self(), Tag, stopped_2}
    end.

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
