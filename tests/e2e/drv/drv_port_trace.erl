%% A loaded driver's port, traced: commands to a driver that takes I/O vectors ('receive'
%% shows the vector's pieces: big binaries are pieces of their own, the rest is copied, and a
%% long vector packs), port_call/3 (received and answered, refused before it is received by a
%% driver without call), the driver's timer ('receive' timeout), driver_send_term to a process
%% that is gone (send_to_non_existing_process), a driver's own thread sending (not traced),
%% and port_connect/2 (the new owner's getting_linked), as port_trace_SUITE checks them.
-module(drv_port_trace).
-export([main/0]).

dir() -> filename:dirname(code:which(?MODULE)).

main() ->
    D = dir(),
    ok = erl_ddll:load_driver(D, drv_vec),
    ok = erl_ddll:load_driver(D, drv_echo),
    vectors(),
    calls(),
    timer(),
    send_term(),
    thread(),
    connect(),
    ok.

vectors() ->
    P = open_port({spawn, drv_vec}, [binary]),
    erlang:trace(P, true, ['receive']),
    Big = binary:copy(<<1>>, 512),
    Mid = binary:copy(<<2>>, 256),
    Small = binary:copy(<<3>>, 100),
    Data = [[<<0>>, Big, Mid, <<0>>],
            [1, 2, <<"abc">>, Big, [4 | <<5>>]],
            <<"flat">>,
            [],
            [Small, Small, Big],
            binary:part(Big, 1, 300),
            lists:duplicate(10, [Big, 7]),
            lists:duplicate(6, [Small, Big, 9])],
    lists:foreach(fun(Cmd) -> command(P, Cmd) end, Data),
    P ! {self(), {command, [Big, <<"x">>]}},
    io:format("~s~n", [reply(P)]),
    show(P, flush(P)),
    port_close(P),
    flush(P).

command(P, Cmd) ->
    true = erlang:port_command(P, Cmd),
    io:format("~s~n", [reply(P)]),
    show(P, flush(P)).

reply(P) ->
    receive {P, {data, Text}} -> Text after 2000 -> no_reply end.

calls() ->
    P = open_port({spawn, drv_vec}, [binary]),
    erlang:trace(P, true, [send, 'receive']),
    Ref = make_ref(),
    show(P, [{call, erlang:port_call(P, 0, {hello, [1, 2.5, "x"], Ref} =:= {hello, [1, 2.5, "x"], Ref})}]),
    show(P, flush(P)),
    show(P, [{call, erlang:port_call(P, 0, lists:seq(1, 300))}]),
    [Received, Sent] = flush(P),
    show(P, [shape(Received), shape(Sent)]),
    show(P, [{call, erlang:port_call(P, 2, ignored)}]),
    show(P, flush(P)),
    show(P, [{call, call_port(P, 1, x)}]),
    show(P, flush(P)),
    show(P, [{call, call_port(P, 9, x)}]),
    show(P, flush(P)),
    show(P, [{call, call_port(P, -1, x)}]),
    show(P, flush(P)),
    port_close(P),
    flush(P),
    E = open_port({spawn, drv_echo}, [binary]),
    erlang:trace(E, true, [send, 'receive']),
    show(E, [{call, call_port(E, 0, x)}]),
    show(E, flush(E)),
    port_close(E),
    flush(E),
    show(P, [{closed_call, call_port(P, 0, x)}]).

call_port(P, Op, Arg) ->
    try erlang:port_call(P, Op, Arg) catch error:Reason -> {error, Reason} end.

%% A big call trace shown by the sizes of its binaries.
shape({trace, P, 'receive', {From, {call, {Op, Bin}}}}) ->
    {trace, P, 'receive', {From, {call, {Op, byte_size(Bin), binary_to_term(Bin) =:= lists:seq(1, 300)}}}};
shape({trace, P, send, {P, {call, Bin}}, To}) ->
    {trace, P, send, {P, {call, byte_size(Bin)}}, To}.

timer() ->
    E = open_port({spawn, drv_echo}, [binary]),
    erlang:trace(E, true, ['receive']),
    "armed" = erlang:port_control(E, $t, "20"),
    receive {E, {data, <<"timeout">>}} -> ok after 2000 -> io:format("no timeout~n") end,
    show(E, flush(E)),
    port_close(E),
    flush(E).

send_term() ->
    P = open_port({spawn, drv_vec}, [binary]),
    erlang:trace(P, true, [send]),
    "sent" = erlang:port_control(P, $D, "one"),
    receive {vec, P, <<"one">>} -> ok after 2000 -> io:format("nothing sent~n") end,
    show(P, flush(P)),
    {Pid, Ref} = spawn_monitor(fun() -> "saved" = erlang:port_control(P, $S, "") end),
    receive {'DOWN', Ref, process, Pid, normal} -> ok end,
    "sent" = erlang:port_control(P, $D, "two"),
    show(P, Pid, flush(P)),
    port_close(P),
    flush(P).

thread() ->
    E = open_port({spawn, drv_echo}, [binary]),
    erlang:trace(E, true, [send]),
    "joined" = erlang:port_control(E, $T, "hi"),
    receive {from_thread, E, B} -> io:format("thread sent ~p~n", [B]) after 2000 -> ok end,
    show(E, flush(E)),
    port_close(E),
    flush(E).

connect() ->
    E = open_port({spawn, drv_echo}, [binary]),
    erlang:trace(E, true, [send, 'receive', ports]),
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() ->
                                       receive go -> ok end,
                                       E ! {self(), {connect, Self}},
                                       receive {E, connected} -> unlink(E) end
                               end),
    erlang:trace(Pid, true, [send, 'receive', procs]),
    true = erlang:port_connect(E, Pid),
    unlink(E),
    show(E, Pid, flush(E)),
    show(E, Pid, flush(Pid)),
    Pid ! go,
    receive {'DOWN', Ref, process, Pid, normal} -> ok end,
    show(E, Pid, flush(E)),
    show(E, Pid, flush(Pid)),
    erlang:port_close(E),
    show(E, Pid, flush(E)).

%% The trace messages about [Who] so far.
flush(Who) ->
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    collect(Who).

collect(Who) ->
    receive
        M when element(1, M) =:= trace, element(2, M) =:= Who -> [M | collect(Who)]
    after 0 -> []
    end.

show(P, Items) -> show(P, none, Items).

show(P, Pid, Items) ->
    Self = self(),
    Name = fun(T) when T =:= P -> port;
              (T) when T =:= Self -> self;
              (T) when T =:= Pid -> pid;
              (T) -> T
           end,
    [io:format("  ~p~n", [rename(I, Name)]) || I <- Items],
    ok.

rename(T, Name) when is_tuple(T) -> list_to_tuple([rename(E, Name) || E <- tuple_to_list(T)]);
rename([H | T], Name) -> [rename(H, Name) | rename(T, Name)];
rename(T, _Name) when is_binary(T), byte_size(T) > 16 -> {bytes, byte_size(T)};
rename(T, Name) -> Name(T).
