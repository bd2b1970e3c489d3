%% tests/stress/port_stress.erl — 200 ports stream data through cat while they are traced and
%% their tracing changes under them: 20 workers each own 10 cat ports and push 128 chunks of
%% 4 KB through each (the pipes fill, so ports turn busy and suspend their writers), checking
%% that every byte comes back once and in order; a session traces all ports for send,
%% 'receive', ports and running_ports; a chaos process switches the legacy tracing of random
%% ports on and off and creates and destroys a second session tracing them. At the end every
%% port is closed and none is left. Prints "all ok" when every check held.
-module(port_stress).
-export([main/0, main/1]).

main() -> main({20, 10, 128, 4096}).

main({Workers, PortsEach, Chunks, ChunkBytes}) ->
    process_flag(trap_exit, true),
    Ports0 = erlang:ports(),
    Tracer = spawn_link(fun() -> counter(0) end),
    Session = trace:session_create(port_stress, Tracer, []),
    0 = trace:port(Session, new, true, [send, 'receive', ports, running_ports]),
    Legacy = spawn_link(fun() -> counter(0) end),
    Self = self(),
    Pids = [spawn_link(fun() -> worker(Self, PortsEach, Chunks, ChunkBytes) end) || _ <- lists:seq(1, Workers)],
    Ports = lists:append([receive {ports, W, Ps} -> Ps end || W <- Pids]),
    Chaos = spawn_link(fun() -> chaos(Ports, Legacy, 0) end),
    [W ! go || W <- Pids],
    Results = [receive {done, W, R} -> R after 120000 -> timeout end || W <- Pids],
    Chaos ! {stop, self()},
    ChaosRounds = receive {chaos_rounds, N} -> N end,
    Bad = [R || R <- Results, R =/= ok],
    check(workers_ok, Bad =:= []),
    check(chaos_ran, ChaosRounds > 0),
    [W ! close || W <- Pids],
    [receive {closed, W} -> ok end || W <- Pids],
    check(ports_closed, wait_until(fun() -> erlang:ports() -- Ports0 =:= [] end)),
    erlang:trace_delivered(all),
    receive {trace_delivered, all, _} -> ok end,
    Events = count_of(Tracer),
    check(session_events, Events > Workers * PortsEach * Chunks),
    true = trace:session_destroy(Session),
    io:format("ports ~w, chunks ~w per port, session events ~w, chaos rounds ~w~n",
              [length(Ports), Chunks, Events, ChaosRounds]),
    io:format("all ok~n").

worker(Parent, PortsEach, Chunks, ChunkBytes) ->
    Ps = [open_port({spawn, "cat"}, [binary]) || _ <- lists:seq(1, PortsEach)],
    Parent ! {ports, self(), Ps},
    receive go -> ok end,
    Expected = maps:from_list([{P, payload(P, Chunks, ChunkBytes)} || P <- Ps]),
    %% Interleave the writes over the ports; check whatever has come back as we go (each
    %% port's offset of verified bytes, or an error).
    Got0 = maps:from_list([{P, 0} || P <- Ps]),
    Got1 = push(Ps, Expected, 0, Chunks, ChunkBytes, Got0),
    Got = collect(Expected, Got1),
    Result = case [P || P <- Ps, maps:get(P, Got) =/= byte_size(maps:get(P, Expected))] of
                 [] -> ok;
                 Wrong -> {mismatch, [maps:get(P, Got) || P <- Wrong]}
             end,
    Parent ! {done, self(), Result},
    receive close -> ok end,
    [port_close(P) || P <- Ps],
    Parent ! {closed, self()}.

%% [D] came from port [P]: it must be the next bytes of what was sent.
verified(P, D, Expected, Got) ->
    case maps:get(P, Got) of
        Off when is_integer(Off) ->
            Want = maps:get(P, Expected),
            Size = byte_size(D),
            case Off + Size =< byte_size(Want) andalso binary:part(Want, Off, Size) =:= D of
                true -> Got#{P := Off + Size};
                false -> Got#{P := {bad_data_at, Off}}
            end;
        Bad -> Got#{P := Bad}
    end.

payload(P, Chunks, ChunkBytes) ->
    Tag = list_to_binary(erlang:port_to_list(P)),
    Seed = binary:copy(<<Tag/binary, "-">>, ChunkBytes div (byte_size(Tag) + 1) + 1),
    iolist_to_binary([binary:part(<<(integer_to_binary(I))/binary, Seed/binary>>, 0, ChunkBytes)
                      || I <- lists:seq(1, Chunks)]).

push(_Ps, _Expected, N, N, _ChunkBytes, Got) -> Got;
push(Ps, Expected, I, N, ChunkBytes, Got) ->
    [port_command(P, binary:part(maps:get(P, Expected), I * ChunkBytes, ChunkBytes)) || P <- Ps],
    push(Ps, Expected, I + 1, N, ChunkBytes, take(Expected, Got)).

take(Expected, Got) ->
    receive {P, {data, D}} -> take(Expected, verified(P, D, Expected, Got)) after 0 -> Got end.

collect(Expected, Got) ->
    Missing = [P || {P, Want} <- maps:to_list(Expected), maps:get(P, Got) =/= byte_size(Want),
                    is_integer(maps:get(P, Got))],
    case Missing of
        [] -> Got;
        _ -> receive {P, {data, D}} -> collect(Expected, verified(P, D, Expected, Got))
             after 30000 -> Got
             end
    end.

%% Switches legacy tracing on random ports on and off, and a second session over all ports.
chaos(Ports, Tracer, Round) ->
    receive
        {stop, From} ->
            catch erlang:trace(ports, false, [all]),
            From ! {chaos_rounds, Round}
    after 0 ->
        P = lists:nth(rand:uniform(length(Ports)), Ports),
        catch erlang:trace(P, rand:uniform(2) =:= 1, [send, 'receive', running_ports, {tracer, Tracer}]),
        case Round rem 25 of
            0 -> S = trace:session_create(chaos, Tracer, []),
                 catch trace:port(S, all, true, [ports, send]),
                 timer:sleep(1),
                 trace:session_destroy(S);
            _ -> ok
        end,
        timer:sleep(1),
        chaos(Ports, Tracer, Round + 1)
    end.

counter(N) ->
    receive
        {count, From} -> From ! {count, N}, counter(N);
        _ -> counter(N + 1)
    end.

count_of(Pid) ->
    Pid ! {count, self()},
    receive {count, N} -> N end.

wait_until(Pred) -> wait_until(Pred, 200).
wait_until(Pred, 0) -> Pred();
wait_until(Pred, K) ->
    case Pred() of
        true -> true;
        false -> timer:sleep(25), wait_until(Pred, K - 1)
    end.

check(_Name, true) -> ok;
check(Name, false) -> io:format("FAILED ~p~n", [Name]), halt(1).
