%% Tracing across nodes as OTP's trace_SUITE, match_spec_SUITE and seq_trace_SUITE check it
%% with a peer: a seq_trace token through spawn_request (both nodes' events: the request and
%% its argument list as two sends, the reply, the child's first message) and through a
%% refused one (badopt), 'receive' match specs on a remote sender ([Node, Pid, Msg]), and the
%% procs events of links made and removed by a process on the other node.
%% dist_trace_peer_same runs it with a peer of the VM that runs it.
-module(dist_trace_peer).
-export([main/0, run/2, tracer/0, process/1]).

main() -> run("dist_trace_peer", erl).

run(Tag, Kind) ->
    ok = e2e_dist:start(Tag),
    {_, N} = Peer = e2e_dist:peer(Tag ++ "_peer", Kind),
    %% Loaded there before any token travels (its loading would be traced).
    {module, ?MODULE} = erpc:call(N, code, ensure_loaded, [?MODULE]),
    Names = [{node(), here}, {N, there}, {self(), self}],
    seq_spawn(N, Names),
    seq_spawn_refused(N, Names),
    receive_patterns(N, Names),
    links(N, Names),
    e2e_dist:stop_peer(Peer),
    ok.

%% ---- seq_trace through spawn_request ----

seq_spawn(N, Names) ->
    {Here, There} = tracers(N),
    Ref = make_ref(),
    seq_trace:set_token(label, Ref),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    Self = self(),
    Tag = make_ref(),
    ReqId = spawn_request(N, fun() -> Self ! {gurka, Ref}, receive after infinity -> ok end end,
                          [{reply_tag, Tag}, link]),
    Child = receive {Tag, ReqId, ok, P} -> P end,
    receive {gurka, Ref} -> ok end,
    seq_trace:set_token([]),
    Names1 = [{Ref, label}, {ReqId, req}, {Tag, reply_tag}, {Child, child} | Names],
    show("spawn_request, here", events(Here, 4), Names1),
    show("spawn_request, there", events(There, 4), Names1),
    unlink(Child),
    exit(Child, kill).

seq_spawn_refused(N, Names) ->
    {Here, There} = tracers(N),
    Ref = make_ref(),
    seq_trace:set_token(label, Ref),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    Tag = make_ref(),
    ReqId = spawn_request(N, fun() -> ok end, [lunk, {reply_tag, Tag}, link]),
    Reply = receive {Tag, ReqId, R1, R2} -> {R1, R2} end,
    seq_trace:set_token([]),
    io:format("refused: ~p~n", [Reply]),
    Names1 = [{Ref, label}, {ReqId, req}, {Tag, reply_tag} | Names],
    show("refused, here", events(Here, 3), Names1),
    show("refused, there", events(There, 2), Names1).

%% A system tracer on each node, collecting seq_trace events.
tracers(N) ->
    seq_trace:reset_trace(),
    true = erpc:call(N, seq_trace, reset_trace, []),
    Here = spawn(?MODULE, tracer, []),
    There = spawn(N, ?MODULE, tracer, []),
    seq_trace:set_system_tracer(Here),
    _ = erpc:call(N, seq_trace, set_system_tracer, [There]),
    {Here, There}.

tracer() -> tracer([]).
tracer(Events) ->
    receive
        {seq_trace, Label, Info} -> tracer([{Label, Info} | Events]);
        {events, N, From} when length(Events) >= N -> From ! {events, self(), lists:reverse(Events)}
    end.

events(Tracer, N) ->
    Tracer ! {events, N, self()},
    receive {events, Tracer, Events} -> lists:keysort(1, [{Serial, Label, Kind, From, To, Msg} || {Label, {Kind, Serial, From, To, Msg}} <- Events])
    after 5000 -> timeout
    end.

%% ---- 'receive' match specs on another node's sender ----

receive_patterns(N, Names) ->
    %% The receiver tells this process of each message it took, so that its trace event, if
    %% any, is known to be out (trace_delivered/1) before looking for it.
    Self = self(),
    Receiver = spawn(fun Loop() -> receive M -> Self ! {got, M}, Loop() end end),
    1 = erlang:trace(Receiver, true, ['receive']),
    Remote = spawn_link(N, ?MODULE, process, [self()]),
    Here = node(),
    Patterns = [{"all, shown", [{['$1', '$2', '$3'], [], [{message, {{'$1', '$2', '$3'}}}]}]},
                {"node and sender", [{[N, Remote, '_'], [], []}]},
                {"another sender", [{[N, undefined, '_'], [], []}]},
                {"this node", [{[Here, '_', '_'], [], []}]},
                {"node guard", [{['$1', '_', '_'], [{'=:=', '$1', N}], []}]},
                {"remote pid guard", [{[N, '$1', '_'], [{'=/=', {node, '$1'}, {node}}], []}]}],
    Names1 = [{Receiver, receiver}, {Remote, remote} | Names],
    Send = fun(To, Msg) ->
                   Remote ! {send_please, To, Msg},
                   receive {got, Msg} -> ok end,
                   rename(traced(Receiver), Names1)
           end,
    lists:foreach(
      fun({What, Pattern}) ->
              erlang:trace_pattern('receive', Pattern, []),
              io:format("~s: ~p~n", [What, Send(Receiver, hello)])
      end, Patterns),
    erlang:trace_pattern('receive', true, []),
    register(dist_trace_peer_receiver, Receiver),
    io:format("to a name: ~p~n", [Send({dist_trace_peer_receiver, Here}, by_name)]),
    unlink(Remote),
    exit(Remote, kill),
    exit(Receiver, kill).

%% ---- procs events of links with the other node ----

links(N, Names) ->
    process_flag(trap_exit, true),
    Self = self(),
    Local = spawn_link(?MODULE, process, [Self]),
    Remote = spawn(N, ?MODULE, process, [Self]),
    1 = erlang:trace(Local, true, [procs]),
    Local ! {spawn_link_please, Self, N},
    Spawned = receive {spawned, Local, P} -> P end,
    Names1 = [{Local, local}, {Remote, remote}, {Spawned, spawned} | Names],
    io:format("spawn_link there: ~p~n", [rename(traced(Local), Names1)]),
    %% Each request ends with the one who linked or unlinked sending the other a sync message,
    %% which comes after the link signal and is answered to this process.
    Step = fun(What, Op, From, To) ->
                   From ! {Op, To},
                   receive synced -> ok end,
                   io:format("~s: ~p~n", [What, rename(traced(Local), Names1)])
           end,
    Step("link there", link_please, Local, Remote),
    Step("unlink there", unlink_please, Local, Remote),
    Step("linked from there", link_please, Remote, Local),
    Step("unlinked from there", unlink_please, Remote, Local),
    Local ! {unlink_please, Spawned},
    receive synced -> ok end,
    exit(Spawned, kill),
    exit(Remote, kill),
    unlink(Local),
    exit(Local, kill),
    process_flag(trap_exit, false).

%% The trace messages about [Pid] so far.
traced(Pid) ->
    Ref = erlang:trace_delivered(Pid),
    receive {trace_delivered, Pid, Ref} -> ok end,
    flush_traces().

flush_traces() ->
    receive T when element(1, T) =:= trace -> [T | flush_traces()] after 0 -> [] end.

process(Parent) ->
    receive
        {send_please, To, What} -> To ! What;
        {spawn_link_please, ReplyTo, Node} ->
            ReplyTo ! {spawned, self(), spawn_link(Node, ?MODULE, process, [Parent])};
        {link_please, Pid} -> link(Pid), Pid ! sync;
        {unlink_please, Pid} -> unlink(Pid), Pid ! sync;
        sync -> Parent ! synced
    end,
    process(Parent).

%% ---- output with names for pids, refs and nodes ----

show(Title, Events, Names) ->
    io:format("~s:~n", [Title]),
    [io:format("  ~p~n", [rename(E, Names)]) || E <- Events],
    ok.

rename(T, Names) ->
    case lists:keyfind(T, 1, Names) of
        {_, Name} -> Name;
        false when is_tuple(T) -> list_to_tuple([rename(E, Names) || E <- tuple_to_list(T)]);
        false when is_list(T) -> [rename(E, Names) || E <- T];
        false when is_pid(T); is_reference(T) -> other;
        false when is_function(T) -> 'fun';
        false -> T
    end.
