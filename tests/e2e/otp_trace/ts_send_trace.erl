-module(ts_send_trace).
-export([main/0]).

%% Port of trace_SUITE:send_trace. Sender (spawn_link'ed) is traced with [send] (tracer =
%% main) and told to send to_receiver; for each send match spec (head [To, Msg]) the list of
%% trace messages is printed (collected after an untraced receiver confirmed the delivery and
%% after trace_delivered). `no` = pattern left as it was. trace_info(send, match_spec) returns
%% exactly what was set. {message, X} gives a 6-tuple with X, {message, {process_dump}} a
%% binary. No message for non-matching heads/guards, `false`, {message,false} and
%% {silent,true}; the latter turns on the sender's `silent` flag, which stays (flags printed)
%% until trace(Sender, false, [silent]). Sending to a registered name: To is the ATOM, also in
%% the match spec. Sending to main works the same. A dead pid gives
%% send_to_non_existing_process (also through the match spec). Sending to an unregistered
%% name gives an ordinary send event before the sender dies with badarg. A second process may
%% not trace Sender (badarg). After trace(Sender, false, [send]) no more events. Finally the
%% badarg list for trace_pattern(send, ...): any flag list but [], restart, pause, {caller}.

main() ->
    quiet_logger(),
    process_flag(trap_exit, true),
    Main = self(),
    Sender = spawn_link(erlang, apply, [fun sender/0, []]),
    Receiver = spawn(fun() -> receiver(Main) end),
    put(names, [{Main, main}, {Sender, sender}, {Receiver, receiver}]),
    io:format("trace sender: ~p~n", [erlang:trace(Sender, true, [send])]),
    ToRecv = fun() -> Sender ! {send_please, Receiver, to_receiver},
                      receive {received, to_receiver} -> ok end end,
    Pats1 = [no, [{[Receiver, to_receiver], [], []}], [{['_', '_'], [], []}],
             [{['$1', '_'], [{is_pid, '$1'}], []}], [{['_', '$1'], [{is_atom, '$1'}], []}], true],
    table("to receiver", Sender, Pats1, ToRecv),
    table("{message, X}", Sender, [[{['_', '_'], [], [{message, 4711}]}],
                                   [{['_', '_'], [], [{message, "4711"}]}]], ToRecv),
    set_pattern([{['_', '_'], [], [{message, {process_dump}}]}]),
    ToRecv(),
    Dump = [case M of {trace, S, send, Msg, To, B} -> {trace, S, send, Msg, To, is_binary(B)};
                      _ -> M end || M <- events(Sender)],
    io:format("{message, {process_dump}}: ~p~n", [norm(Dump)]),
    Pats2 = [[{[Sender, to_receiver], [], []}], [{[Receiver, nomatch], [], []}],
             [{['$1', '_'], [{is_atom, '$1'}], []}], [{['_', '$1'], [{is_pid, '$1'}], []}],
             false, [{['_', '_'], [], [{message, false}]}], [{['_', '_'], [], [{silent, true}]}]],
    table("no match", Sender, Pats2, ToRecv),
    flags("sender flags after {silent,true}", Sender),
    io:format("pattern true: ~p, silent off: ~p~n",
              [erlang:trace_pattern(send, true, []), erlang:trace(Sender, false, [silent])]),
    flags("sender flags", Sender),
    %% Registered receiver
    true = register(?MODULE, Receiver),
    ToName = fun() -> Sender ! {send_please, ?MODULE, to_receiver},
                      receive {received, to_receiver} -> ok end end,
    table("to registered name", Sender,
          [no, [{[?MODULE, to_receiver], [], []}], [{['_', '_'], [], []}],
           [{['$1', '_'], [{is_atom, '$1'}], []}], [{['_', '$1'], [{is_atom, '$1'}], []}], true],
          ToName),
    table("to registered name, no match", Sender,
          [[{[nomatch, to_receiver], [], []}], [{[?MODULE, nomatch], [], []}],
           [{['$1', '_'], [{is_pid, '$1'}], []}], [{['_', '$1'], [{is_pid, '$1'}], []}],
           [{['_', '_'], [], [{message, false}]}], [{['_', '_'], [], [{silent, true}]}]], ToName),
    unregister(?MODULE),
    io:format("pattern true: ~p, silent off: ~p~n",
              [erlang:trace_pattern(send, true, []), erlang:trace(Sender, false, [silent])]),
    %% To main itself
    table("to main", Sender, [no, [{[Main, to_myself], [], []}], [{['_', '_'], [], []}], true],
          fun() -> Sender ! {send_please, Main, to_myself}, receive to_myself -> ok end end),
    %% To a dead pid: wait for the expected event itself (nobody can confirm this send)
    {Dead, Ref} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    put(names, [{Dead, dead} | get(names)]),
    table("to dead pid", Sender, [no, [{[Dead, to_dead], [], []}], [{['_', '_'], [], []}], true],
          fun() -> Sender ! {send_please, Dead, to_dead},
                   receive M when element(1, M) =:= trace -> self() ! M after 1000 -> timeout end
          end),
    %% To an unregistered name
    BadargSender = spawn_link(erlang, apply, [fun sender/0, []]),
    put(names, [{BadargSender, badarg_sender} | get(names)]),
    io:format("trace badarg_sender: ~p~n", [erlang:trace(BadargSender, true, [send])]),
    unlink(BadargSender),
    BMon = erlang:monitor(process, BadargSender),
    BadargSender ! {send_please, not_registered, to_unknown},
    BR = receive {'DOWN', BMon, _, _, {R, _}} -> R; {'DOWN', BMon, _, _, R} -> R end,
    io:format("badarg_sender died: ~p, events: ~p~n", [BR, norm(events(BadargSender))]),
    %% Intruder
    Intruder = spawn_link(fun() -> erlang:trace(Sender, true, [send]) end),
    receive {'EXIT', Intruder, IR} -> io:format("intruder exit: ~p~n", [reason(IR)]) end,
    %% Untrace
    io:format("trace sender off: ~p~n", [erlang:trace(Sender, false, [send])]),
    Sender ! {send_please, Receiver, to_receiver},
    Sender ! {send_please, Main, to_myself_again},
    receive {received, to_receiver} -> ok end,
    receive to_myself_again -> ok end,
    io:format("after off: ~p~n", [norm(events(Sender))]),
    [io:format("trace_pattern(send, ~p, ~p): ~p~n", [MS, norm(Fl), catch_tp(MS, Fl)])
     || {MS, Fl} <- [{true, [global]}, {true, [local]}, {true, [meta]}, {true, [{meta, Main}]},
                     {true, [call_count]}, {true, [call_time]}, {restart, []}, {pause, []},
                     {[{['_', '_'], [], [{caller}]}], []}]],
    Left = receive M -> norm(M) after 100 -> nothing end,
    io:format("left in queue: ~p~n", [Left]),
    ok.

table(Label, Sender, Pats, Do) ->
    io:format("~s:~n", [Label]),
    lists:foreach(fun(Pat) ->
                          Set = set_pattern(Pat),
                          Do(),
                          io:format("  ~p: ~p~n", [norm(Pat), Set]),
                          evs(events(Sender))
                  end, Pats).

%% Returns the trace_pattern result and whether trace_info gives back the same spec.
set_pattern(no) -> no;
set_pattern(Pat) ->
    R = erlang:trace_pattern(send, Pat, []),
    {R, erlang:trace_info(send, match_spec) =:= {match_spec, Pat}}.

evs([]) -> io:format("    (none)~n");
evs(Evs) -> [io:format("    ~p~n", [norm(E)]) || E <- Evs], ok.

catch_tp(MS, Fl) ->
    try erlang:trace_pattern(send, MS, Fl) catch C:R -> {C, R} end.

reason({R, _}) when is_atom(R) -> R;
reason(R) -> R.

flags(Label, P) ->
    {flags, F} = erlang:trace_info(P, flags),
    io:format("~s: ~p~n", [Label, lists:sort(F)]).

sender() ->
    receive {send_please, To, What} -> To ! What, sender() end.

%% Untraced; tells main what it got.
receiver(Main) ->
    receive M -> Main ! {received, M}, receiver(Main) end.

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
norm(T) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T)));
norm([H | T]) -> [norm(H) | norm(T)];
norm(X) -> X.

quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.
