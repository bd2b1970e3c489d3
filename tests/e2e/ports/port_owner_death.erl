-module(port_owner_death).
-export([main/0]).

%% The owner dies: the port closes with the owner's exit reason, its program gets EOF on
%% stdin, linked processes get {'EXIT', Port, Reason}, monitors get 'DOWN', and the port
%% leaves erlang:ports(). An owner that unlinked from its port does not take it down.
main() ->
    process_flag(trap_exit, true),
    Before = erlang:ports(),
    show(owner_exits_normal, owner_dies(fun(_) -> ok end, false, Before)),
    show(owner_exits_normal_trapping, owner_dies(fun(_) -> ok end, true, Before)),
    show(owner_exits_foo, owner_dies(fun(_) -> exit(foo) end, false, Before)),
    show(owner_exits_tuple, owner_dies(fun(_) -> exit({shutdown, 1}) end, false, Before)),
    show(owner_killed, owner_killed(Before)),
    show(owner_unlinked, owner_unlinked(Before)),
    show(ports_at_end, length(erlang:ports() -- Before)),
    ok.

%% The owner opens a port whose program waits for EOF on stdin and then writes a file.
%% We link to the port and monitor it, then let the owner end with Fun.
owner_dies(Fun, Trap, Before) ->
    File = tmp_file(),
    Parent = self(),
    Owner = spawn(fun() ->
        process_flag(trap_exit, Trap),
        P = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", script(), "sh", File]}]),
        Parent ! {port, P},
        receive go -> Fun(a_term) end
    end),
    OwnerMon = erlang:monitor(process, Owner),
    P = receive {port, Port} -> Port end,
    true = link(P),
    Mon = erlang:monitor(port, P),
    Count = length(erlang:ports() -- Before),
    Owner ! go,
    OwnerWhy = receive {'DOWN', OwnerMon, process, Owner, W} -> W end,
    Exit = receive {'EXIT', P, R} -> {'EXIT', R} after 3000 -> no_exit end,
    %% (OTP 25: the 'DOWN' of a port monitor says 'process' instead of 'port' when the
    %% reason is not an immediate term)
    Down = receive {'DOWN', Mon, Type, P, R2} -> {'DOWN', Type, R2} after 3000 -> no_down end,
    Result = {{ports_before, Count}, {owner, OwnerWhy}, Exit, Down,
              {info, erlang:port_info(P)}, {ports_after, length(erlang:ports() -- Before)},
              {program_saw, wait_file(File)}},
    Result.

owner_killed(Before) ->
    File = tmp_file(),
    Parent = self(),
    Owner = spawn(fun() ->
        process_flag(trap_exit, true),
        P = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", script(), "sh", File]}]),
        Parent ! {port, P},
        receive never -> ok end
    end),
    OwnerMon = erlang:monitor(process, Owner),
    P = receive {port, Port} -> Port end,
    true = link(P),
    Mon = erlang:monitor(port, P),
    exit(Owner, kill),
    OwnerWhy = receive {'DOWN', OwnerMon, process, Owner, W} -> W end,
    Exit = receive {'EXIT', P, R} -> {'EXIT', R} after 3000 -> no_exit end,
    Down = receive {'DOWN', Mon, Type, P, R2} -> {'DOWN', Type, R2} after 3000 -> no_down end,
    {{owner, OwnerWhy}, Exit, Down, {info, erlang:port_info(P)},
     {ports_after, length(erlang:ports() -- Before)}, {program_saw, wait_file(File)}}.

%% The owner unlinks from its port and exits: the port stays open, still "connected" to
%% the dead owner; anyone may still write to it and close it.
owner_unlinked(Before) ->
    Parent = self(),
    Owner = spawn(fun() ->
        P = open_port({spawn, "cat"}, []),
        true = unlink(P),
        Parent ! {port, P},
        receive go -> ok end
    end),
    OwnerMon = erlang:monitor(process, Owner),
    P = receive {port, Port} -> Port end,
    Owner ! go,
    OwnerWhy = receive {'DOWN', OwnerMon, process, Owner, W} -> W end,
    timer:sleep(20),
    Alive = is_list(erlang:port_info(P)),
    Links = erlang:port_info(P, links),
    Connected = erlang:port_info(P, connected) =:= {connected, Owner},
    Count = length(erlang:ports() -- Before),
    Cmd = port_command(P, "dropped"),
    %% cat echoes it; the port reads it (the input counter) and delivers it to nobody
    Input = wait_input(P, 7, 300),
    Mon = erlang:monitor(port, P),
    Close = port_close(P),
    Down = receive {'DOWN', Mon, port, P, R} -> {'DOWN', R} after 3000 -> no_down end,
    {{owner, OwnerWhy}, {alive, Alive}, Links, {connected_to_dead_owner, Connected},
     {ports, Count}, {command, Cmd}, Input, {close, Close}, Down, flush()}.

wait_input(P, _N, 0) -> erlang:port_info(P, input);
wait_input(P, N, K) ->
    case erlang:port_info(P, input) of
        {input, N} = I -> I;
        _ -> timer:sleep(10), wait_input(P, N, K - 1)
    end.

script() -> "cat >/dev/null; echo got_eof > \"$1\"".

tmp_file() ->
    "/tmp/beamlet_port_owner_death_" ++ os:getpid() ++ "_" ++
        integer_to_list(erlang:unique_integer([positive])).

wait_file(File) -> wait_file(File, 300).
wait_file(_File, 0) -> no_file;
wait_file(File, N) ->
    case file:read_file(File) of
        {ok, <<"got_eof\n">> = B} -> _ = file:delete(File), B;
        _ -> timer:sleep(10), wait_file(File, N - 1)
    end.


flush() -> receive M -> [M | flush()] after 20 -> [] end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).
