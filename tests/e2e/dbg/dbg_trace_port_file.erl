%% dbg's trace file port: dbg:trace_port(file, Name) as the tracer, dbg:flush_trace_port/0,
%% and dbg:trace_client(file, Name, {Fun, State}) reading the file back; then the wrapping
%% form {Name, wrap, Tail, Size, Count}: the files written, and their traces read back in order.
-module(dbg_trace_port_file).
-export([main/0, work/1]).

main() ->
    Dir = filename:join("/tmp", "dbg_trace_port_file_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    File = filename:join(Dir, "calls.trc"),
    %% ---- one file ----
    {ok, _} = dbg:tracer(port, dbg:trace_port(file, File)),
    {ok, Port} = dbg:get_tracer(),
    io:format("tracer is a port: ~p~n", [is_port(Port)]),
    {ok, _} = dbg:p(self(), [call]),
    {ok, _} = dbg:tp(?MODULE, work, 1, [{'_', [], [{return_trace}]}]),
    [?MODULE:work(N) || N <- [1, 2, 3]],
    io:format("flush: ~p~n", [dbg:flush_trace_port()]),
    dbg:stop(),
    io:format("file holds ~p bytes in trace messages: ~p~n", [filelib:file_size(File) > 0, frames(File)]),
    io:format("read back:~n"),
    [io:format("  ~p~n", [T]) || T <- read_back(File)],
    %% ---- wrapping files ----
    Wrap = filename:join(Dir, "wrap"),
    {ok, _} = dbg:tracer(port, dbg:trace_port(file, {Wrap, wrap, ".trc", 1000, 8})),
    {ok, _} = dbg:p(self(), [call]),
    {ok, _} = dbg:tp(?MODULE, work, 1, []),
    [?MODULE:work(N) || N <- lists:seq(1, 40)],
    dbg:flush_trace_port(),
    dbg:stop(),
    Files = lists:sort(filelib:wildcard(Wrap ++ "*.trc")),
    io:format("wrap files: ~p~n", [[filename:basename(F) || F <- Files]]),
    Read = read_back({Wrap, wrap, ".trc"}),
    Ns = [N || {call, {?MODULE, work, [N]}} <- Read],
    io:format("the newest calls, in order: ~p ... ~p (~p calls, consecutive: ~p)~n",
              [hd(Ns), lists:last(Ns), length(Ns), Ns =:= lists:seq(hd(Ns), lists:last(Ns))]),
    [file:delete(F) || F <- filelib:wildcard(filename:join(Dir, "*"))],
    file:del_dir(Dir),
    ok.

work(N) -> N * 2.

%% The frames of a trace file: {Count, every one tagged 0}.
frames(File) ->
    {ok, Bin} = file:read_file(File),
    frames(Bin, 0).
frames(<<0, Size:32, _:Size/binary, Rest/binary>>, N) -> frames(Rest, N + 1);
frames(<<>>, N) -> {N, whole};
frames(Other, N) -> {N, {trailing, byte_size(Other)}}.

%% What trace_client reads, the pids left out.
read_back(Source) ->
    Self = self(),
    Handler = fun(end_of_trace, Acc) -> Self ! {traces, lists:reverse(Acc)}, Acc;
                 (T, Acc) -> [strip(T) | Acc]
              end,
    Client = dbg:trace_client(file, Source, {Handler, []}),
    receive {traces, Ts} -> Ts after 10000 -> dbg:stop_trace_client(Client), timeout end.

strip({trace, _Pid, call, MFA}) -> {call, MFA};
strip({trace, _Pid, return_from, MFA, V}) -> {return_from, MFA, V};
strip(Other) -> Other.
