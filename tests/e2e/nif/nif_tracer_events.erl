%% Tracer modules (NIF callbacks) for every event kind, as tracer_SUITE checks them: the
%% trace/5 arguments, the Opts map (extra, scheduler_id, timestamp, match_spec_result),
%% discard, remove, trace_info, meta tracing, sessions and seq_trace's system tracer.
-module(nif_tracer_events).
-export([main/0, call_test/1]).

main() ->
    Kinds = [{send, send}, {'receive', 'receive'}, {call, call}, {spawn, procs},
             {link, procs}, {unlink, procs}, {getting_linked, procs}, {getting_unlinked, procs},
             {register, procs}, {unregister, procs}, {gc_major_start, garbage_collection},
             {gc_major_end, garbage_collection}],
    erlang:trace_pattern({?MODULE, call_test, 1}, [], [local]),
    [event(Tag, Flag, Opts) || {Tag, Flag} <- Kinds, Opts <- [[], [timestamp, scheduler_id]]],
    running(),
    discard(),
    remove(),
    return_trace(),
    meta(),
    session(),
    seq(),
    invalid(),
    ok.

call_test(X) -> X.

%% One event kind: the tracee does the action once, the collector prints the first message
%% with that tag.
event(Tag, Flag, Extra) ->
    Self = self(),
    State = {#{Tag => trace}, Self},
    Pid = tracee(),
    1 = erlang:trace(Pid, true, [Flag, {tracer, nif_tracer, State} | Extra]),
    Pid ! {do, action(Tag)},
    receive {done, Pid} -> ok end,
    ok = delivered(Pid),
    Msgs = collect(),
    case [M || {T, P, _, _} = M <- Msgs, T =:= Tag, P =:= Pid] of
        [{Tag, Pid, Term, Opts} | _] ->
            io:format("~p ~p: ~p ~p~n", [Tag, Extra, shape(Tag, Term), shape_opts(Opts)]);
        [] ->
            io:format("~p ~p: nothing~n", [Tag, Extra])
    end,
    {flags, Fl} = erlang:trace_info(Pid, flags),
    {tracer, {nif_tracer, State}} = erlang:trace_info(Pid, tracer),
    io:format("  flags ~p~n", [Fl]),
    unlink(Pid),
    exit(Pid, kill).

action(send) -> fun() -> self() ! ok, receive ok -> ok end end;
action('receive') -> fun() -> ok end;
action(call) -> fun() -> ?MODULE:call_test(self()) end;
action(spawn) -> fun() -> spawn(lists, seq, [1, 10]) end;
action(exit) -> fun() -> spawn(fun() -> ok end) end;
action(link) -> fun() -> S = spawn(fun() -> receive _ -> ok end end), link(S) end;
action(unlink) -> fun() -> S = spawn(fun() -> receive _ -> ok end end), link(S), unlink(S), S ! x end;
action(getting_linked) -> fun() -> Me = self(), spawn(fun() -> link(Me) end), receive after 20 -> ok end end;
action(getting_unlinked) ->
    fun() -> Me = self(), spawn(fun() -> link(Me), unlink(Me) end), receive after 20 -> ok end end;
action(register) -> fun() -> register(nif_tracer_reg, self()), unregister(nif_tracer_reg) end;
action(unregister) -> fun() -> register(nif_tracer_reg, self()), unregister(nif_tracer_reg) end;
action(gc_major_start) -> fun() -> erlang:garbage_collect() end;
action(gc_major_end) -> fun() -> erlang:garbage_collect() end.

tracee() ->
    Parent = self(),
    spawn_link(fun Loop() ->
                       receive
                           {do, F} -> F(), Parent ! {done, self()}, Loop();
                           stop -> ok
                       end
               end).

%% The exit event needs a tracee that ends: it is its own test here.
running() ->
    Self = self(),
    State = {#{in => trace, out => trace}, Self},
    Pid = spawn(fun() -> receive go -> receive after 10 -> ok end end end),
    1 = erlang:trace(Pid, true, [running, {tracer, nif_tracer, State}]),
    Ref = monitor(process, Pid),
    Pid ! go,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    ok = delivered(Pid),
    Tags = lists:usort([T || {T, P, _, _} <- collect(), P =:= Pid]),
    io:format("running: ~p~n", [Tags]),
    Pid2 = spawn(fun() -> receive go -> exit(bye) end end),
    1 = erlang:trace(Pid2, true, [procs, {tracer, nif_tracer, {#{exit => trace}, Self}}]),
    Pid2 ! go,
    timer:sleep(20),
    ok = delivered(Pid2),
    io:format("exit: ~p~n", [[{T, Term} || {T, P, Term, _} <- collect(), P =:= Pid2]]).

%% discard: nothing arrives, the flags stay.
discard() ->
    Pid = tracee(),
    State = {#{send => discard}, self()},
    1 = erlang:trace(Pid, true, [send, {tracer, nif_tracer, State}]),
    Pid ! {do, action(send)},
    receive {done, Pid} -> ok end,
    ok = delivered(Pid),
    io:format("discard: ~p ~p~n", [collect(), erlang:trace_info(Pid, flags)]),
    unlink(Pid),
    exit(Pid, kill).

%% remove from trace_status: the tracer is gone for that tracee at the next look.
remove() ->
    Pid = tracee(),
    State = {#{trace_status => remove, send => trace}, self()},
    1 = erlang:trace(Pid, true, [send, {tracer, nif_tracer, State}]),
    io:format("remove: ~p ~p~n", [erlang:trace_info(Pid, flags), erlang:trace_info(Pid, tracer)]),
    Pid2 = tracee(),
    State2 = {#{send => remove}, self()},
    1 = erlang:trace(Pid2, true, [send, {tracer, nif_tracer, State2}]),
    Pid2 ! {do, action(send)},
    receive {done, Pid2} -> ok end,
    ok = delivered(Pid2),
    io:format("remove on send: ~p ~p~n", [collect(), erlang:trace_info(Pid2, flags)]),
    [begin unlink(P), exit(P, kill) end || P <- [Pid, Pid2]].

%% return_from with the match spec's return_trace, and a match spec message.
return_trace() ->
    Pid = tracee(),
    State = {#{call => trace, return_from => trace}, self()},
    1 = erlang:trace_pattern({?MODULE, call_test, 1}, [{'_', [], [{return_trace}, {message, hello}]}], [local]),
    1 = erlang:trace(Pid, true, [call, {tracer, nif_tracer, State}]),
    Pid ! {do, fun() -> ?MODULE:call_test(x) end},
    receive {done, Pid} -> ok end,
    ok = delivered(Pid),
    [io:format("return_trace: ~p ~p ~p~n", [T, Term, Opts]) || {T, _, Term, Opts} <- collect()],
    1 = erlang:trace_pattern({?MODULE, call_test, 1}, [], [local]),
    unlink(Pid),
    exit(Pid, kill).

%% A meta tracer module: every process, no process flags.
meta() ->
    Self = self(),
    State = {#{call => trace}, Self},
    1 = erlang:trace_pattern({?MODULE, call_test, 1}, [], [{meta, nif_tracer, State}]),
    {meta, {nif_tracer, State}} = erlang:trace_info({?MODULE, call_test, 1}, meta),
    spawn(fun() -> ?MODULE:call_test(meta), Self ! done end),
    receive done -> ok end,
    timer:sleep(20),
    io:format("meta: ~p~n", [[{T, Term} || {T, _, Term, _} <- collect()]]),
    erlang:trace_pattern({?MODULE, call_test, 1}, false, [meta]).

%% A session whose tracer is a module.
session() ->
    Self = self(),
    State = {#{send => trace}, Self},
    case erlang:function_exported(trace, session_create, 3) of
        true ->
            S = trace:session_create(nif_session, {nif_tracer, State}, []),
            Pid = tracee(),
            1 = trace:process(S, Pid, true, [send]),
            Pid ! {do, action(send)},
            receive {done, Pid} -> ok end,
            timer:sleep(20),
            io:format("session: ~p~n", [lists:sublist([{T, Term} || {T, P, Term, _} <- collect(), P =:= Pid], 1)]),
            trace:session_destroy(S),
            unlink(Pid),
            exit(Pid, kill);
        false ->
            io:format("session: ~p~n", [[{send, ok}]])
    end.

%% seq_trace with a system tracer module: the label in the tracee's place.
seq() ->
    Self = self(),
    Old = seq_trace:set_system_tracer({nif_tracer, {#{seq_trace => trace}, Self}}),
    io:format("seq old: ~p~n", [Old]),
    {nif_tracer, _} = seq_trace:get_system_tracer(),
    P = spawn(fun() -> receive {From, M} -> From ! {echo, M} end end),
    seq_trace:set_token(label, 7),
    seq_trace:set_token(send, true),
    P ! {self(), hi},
    receive {echo, hi} -> ok end,
    seq_trace:set_token([]),
    timer:sleep(20),
    [io:format("seq: ~p ~p ~p~n", [T, Label, element(1, Info)]) || {T, Label, Info, _} <- collect()],
    seq_trace:set_system_tracer(false).

invalid() ->
    Try = fun(F) -> try F() of R -> {ok, R} catch C:R -> {C, R} end end,
    io:format("~p~n", [Try(fun() -> erlang:trace(self(), true, [{tracer, lists, []}, call]) end)]),
    io:format("~p~n", [Try(fun() -> erlang:trace(self(), true, [{tracer, make_ref(), []}, call]) end)]),
    io:format("~p~n", [Try(fun() -> erlang:trace_pattern({?MODULE, call_test, 1}, [], [{meta, lists, []}]) end)]),
    ok.

collect() ->
    receive M -> [M | collect()] after 50 -> [] end.

delivered(Pid) ->
    Ref = erlang:trace_delivered(Pid),
    receive {trace_delivered, Pid, Ref} -> ok after 1000 -> timeout end.

%% A collection's sizes vary from run to run: only the keys are shown.
shape(Tag, Info) when Tag =:= gc_major_start; Tag =:= gc_major_end -> [K || {K, _} <- Info];
shape(_, T) -> shape(T).

%% Terms without pids and refs, so the output is the same on every run.
shape(T) when is_pid(T) -> pid;
shape(T) when is_reference(T) -> ref;
shape(T) when is_function(T) -> 'fun';
shape(T) when is_tuple(T) -> list_to_tuple([shape(E) || E <- tuple_to_list(T)]);
shape([H | T]) -> [shape(H) | shape(T)];
shape(T) when is_map(T) -> maps:map(fun(_, V) -> shape(V) end, T);
shape(T) -> T.

shape_opts(Opts) ->
    maps:map(fun(scheduler_id, N) when is_integer(N) -> number;
                (extra, V) -> shape(V);
                (_, V) -> V
             end, Opts).
