-module(ts_receive_trace).
-export([main/0]).

%% Port of trace_SUITE:receive_trace, steps 1, 2, 4, 5, 6 (step 3 needs a remote node).
%% Receiver (the suite's receiver: consumes everything; {set_timeout, N} makes its next
%% receive use `after N`) is traced with ['receive'] (tracer = main).
%% 1. {hello, world} and {hello, again, world} give {trace, R, 'receive', Msg}.
%% 2. Receive match specs (head [Node, Sender, Msg]) decide whether Hello is traced:
%%    no/[node(),main,'_']/guard '$1' =:= node()/true -> traced; [node(),undefined,...],
%%    a guard Sender =/= main, false -> not traced.
%% 4. {set_timeout, 10} gives the receive of that message and then {'receive', timeout}. With
%%    the spec [{[clock_service, undefined, timeout], [], []}], {set_timeout, 7} gives ONLY the
%%    timeout event (the timeout pseudo-message has head [clock_service, undefined, timeout]).
%% 5. Another process may not trace Receiver (badarg). After trace(R, false, ['receive'])
%%    (returns 1) nothing is traced.
%% 6. badarg for receive specs with process-bound actions: {message,{process_dump}},
%%    is_seq_trace, set/get_seq_token, enable/disable_trace, trace, caller, silent.
%% node() is printed as 'NODE'. To know that Receiver has handled a message, main sends {sync, main, Ref} afterwards and
%% waits for the reply; the 'receive' events of these sync messages are left out.

main() ->
    quiet_logger(),
    Main = self(),
    Receiver = spawn(fun() -> receiver(infinity) end),
    put(names, [{Main, main}, {Receiver, receiver}]),
    io:format("trace receiver: ~p~n", [erlang:trace(Receiver, true, ['receive'])]),
    Hello = {hello, world},
    Receiver ! Hello,
    show("1 hello", Receiver),
    Receiver ! {hello, again, world},
    show("  hello again", Receiver),
    %% 2. match specs
    Node = node(),
    io:format("2 match specs:~n"),
    lists:foreach(
      fun(Pat) ->
              Set = set_pattern(Pat),
              Receiver ! Hello,
              show(io_lib:format("  ~p: ~p", [norm(Pat), Set]), Receiver)
      end,
      [no, [{[Node, undefined, "Unexpected"], [], []}], [{[Node, Main, '_'], [], []}],
       [{[Node, '$1', '_'], [{'=/=', '$1', Main}], []}],
       [{['$1', '_', '_'], [{'=:=', '$1', Node}], []}], false, true]),
    %% 4. timeout
    Receiver ! {set_timeout, 10},
    show_until_timeout("4 set_timeout 10", Receiver),
    io:format("  clock_service pattern: ~p~n",
              [set_pattern([{[clock_service, undefined, timeout], [], []}])]),
    Receiver ! {set_timeout, 7},
    show_until_timeout("  set_timeout 7", Receiver),
    io:format("  pattern true: ~p~n", [set_pattern(true)]),
    %% 5. intruder, untrace
    process_flag(trap_exit, true),
    Intruder = spawn_link(fun() -> erlang:trace(Receiver, true, ['receive']) end),
    receive {'EXIT', Intruder, IR} -> io:format("5 intruder exit: ~p~n", [reason(IR)]) end,
    io:format("  trace receiver off: ~p~n", [erlang:trace(Receiver, false, ['receive'])]),
    Receiver ! {hello, there},
    Receiver ! any_garbage,
    show("  after off", Receiver),
    %% 6. restrictions
    io:format("6 receive spec badargs:~n"),
    WC = ['_', '_', '_'],
    [io:format("  ~p: ~p~n", [norm({G, B}), catch_tp([{WC, G, B}])])
     || {G, B} <- [{[], [{message, {process_dump}}]}, {[{is_seq_trace}], []},
                   {[], [{set_seq_token, label, 4711}]}, {[], [{get_seq_token}]},
                   {[], [{enable_trace, call}]}, {[], [{enable_trace, Main, call}]},
                   {[], [{disable_trace, call}]}, {[], [{disable_trace, Main, call}]},
                   {[], [{trace, [call], []}]}, {[], [{trace, Main, [], [call]}]},
                   {[], [{caller}]}, {[], [{silent, true}]}]],
    io:format("  pattern still: ~p~n", [erlang:trace_info('receive', match_spec)]),
    Left = receive M -> norm(M) after 100 -> nothing end,
    io:format("left in queue: ~p~n", [Left]),
    ok.

receiver(Timeout) ->
    receiver(receive
                 {set_timeout, NewTimeout} -> NewTimeout;
                 {sync, From, Ref} -> From ! {synced, Ref}, Timeout;
                 _Any -> Timeout
             after Timeout -> infinity
             end).

sync(R) ->
    Ref = make_ref(),
    R ! {sync, self(), Ref},
    receive {synced, Ref} -> ok end.

show(Label, R) ->
    sync(R),
    io:format("~s~n", [Label]),
    evs([E || E <- events(R), not is_sync(E)]).

%% The expected timeout event comes after the step's message; wait for it (up to 1 s)
%% before sending the sync message (which would re-arm the receiver's `after`).
show_until_timeout(Label, R) ->
    receive {trace, R, 'receive', timeout} = T -> self() ! T after 1000 -> ok end,
    show(Label, R).

is_sync({trace, _, 'receive', {sync, _, _}}) -> true;
is_sync(_) -> false.

set_pattern(no) -> no;
set_pattern(Pat) ->
    R = erlang:trace_pattern('receive', Pat, []),
    {R, erlang:trace_info('receive', match_spec) =:= {match_spec, Pat}}.

catch_tp(MS) ->
    try erlang:trace_pattern('receive', MS, []) catch C:R -> {C, R} end.

reason({R, _}) when is_atom(R) -> R;
reason(R) -> R.

evs([]) -> io:format("    (none)~n");
evs(Evs) -> [io:format("    ~p~n", [norm(E)]) || E <- Evs], ok.

events(P) ->
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    take(P).

take(P) ->
    receive
        M when element(1, M) =:= trace, element(2, M) =:= P -> [M | take(P)]
    after 0 -> []
    end.

norm(P) when is_pid(P) ->
    case lists:keyfind(P, 1, get(names)) of {P, N} -> N; false -> other_pid end;
norm(R) when is_reference(R) -> ref;
norm(N) when N =:= node() -> 'NODE';
norm(T) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T)));
norm([H | T]) -> [norm(H) | norm(T)];
norm(X) -> X.

quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.
