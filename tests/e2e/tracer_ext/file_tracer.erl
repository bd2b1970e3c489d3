%% beamlet's native tracer module beamlet_file_tracer: events appended to a file as compact
%% binary records (no Erlang term or message per event), read back here after
%% trace_delivered/1 has flushed them.
-module(file_tracer).
-export([main/0, work/1]).

main() ->
    Path = "/tmp/beamlet_file_tracer_" ++ os:getpid() ++ ".trace",
    file:delete(Path),
    Pid = spawn(fun() -> receive go -> ok end, ?MODULE:work(3), receive stop -> ok end end),
    1 = erlang:trace(Pid, true, [send, 'receive', call, procs, {tracer, beamlet_file_tracer, Path}]),
    1 = erlang:trace_pattern({?MODULE, work, 1}, [{'_', [], [{return_trace}]}], [local]),
    {tracer, {beamlet_file_tracer, Path}} = erlang:trace_info(Pid, tracer),
    Pid ! go,
    timer:sleep(50),
    Ref = erlang:trace_delivered(Pid),
    receive {trace_delivered, Pid, Ref} -> ok end,
    {ok, Bin} = file:read_file(Path),
    Records = records(Bin),
    [io:format("~s ~p ~p~n", [Tag, shape(Term), shape(Extra)]) || {_Ts, Tracee, Tag, Term, Extra} <- Records,
                                                              Tracee =:= pid_number(Pid)],
    io:format("timestamps increase: ~p~n", [increasing([Ts || {Ts, _, _, _, _} <- Records])]),
    Pid ! stop,
    file:delete(Path),
    ok.

work(0) -> self() ! done, receive done -> ok end;
work(N) -> work(N - 1).

%% u32 length, u64 ns, u64 tracee number, u8 tag length, tag, term, extra (little endian).
records(<<Len:32/little, Rec:Len/binary, Rest/binary>>) ->
    <<Ts:64/little, Tracee:64/little, TagLen:8, Tag:TagLen/binary, Terms/binary>> = Rec,
    {Term, Used} = binary_to_term(Terms, [used]),
    <<_:Used/binary, ExtraBin/binary>> = Terms,
    [{Ts, Tracee, Tag, Term, binary_to_term(ExtraBin)} | records(Rest)];
records(<<>>) -> [].

pid_number(Pid) ->
    [_, N, _] = string:lexemes(pid_to_list(Pid), "<.>"),
    list_to_integer(N).

increasing([A, B | T]) -> A =< B andalso increasing([B | T]);
increasing(_) -> true.

shape(T) when is_pid(T) -> pid;
shape(T) when is_tuple(T) -> list_to_tuple([shape(E) || E <- tuple_to_list(T)]);
shape([H | T]) -> [shape(H) | shape(T)];
shape(T) -> T.
