-module(port_busy).
-export([main/0]).

%% Back-pressure: a program that never reads its input makes its port busy once the pipe is
%% full and the port's queue passes its limit. Then nosuspend commands are refused (false),
%% erlang:send/3 with nosuspend answers nosuspend, and a plain port_command suspends its
%% caller (status suspended; the system monitor's busy_port names it) while it still answers
%% process_info. Closing the port lets the writer go on; the port stays listed while what it
%% was sent drains (the program is still alive and not reading).
main() ->
    process_flag(trap_exit, true),
    erlang:system_monitor(self(), [busy_port]),
    P = open_port({spawn, "sleep 3"}, [binary]),
    Chunk = binary:copy(<<"x">>, 1024),
    N = fill(P, Chunk, 0),
    show(nosuspend_refused, N > 0),
    show(nosuspend_again, port_command(P, Chunk, [nosuspend])),
    show(send_nosuspend, erlang:send(P, {self(), {command, Chunk}}, [nosuspend])),
    show(queue_size_positive, element(2, erlang:port_info(P, queue_size)) > 0),
    Self = self(),
    {W, Ref} = spawn_monitor(fun() -> R = port_command(P, Chunk), Self ! {writer_done, R} end),
    show(writer_suspended, wait_status(W, suspended)),
    show(busy_port_monitor, receive {monitor, W, busy_port, P} -> true after 2000 -> false end),
    show(writer_alive, is_process_alive(W)),
    true = port_close(P),
    %% erl drops a command still waiting for a busy port when it closes (the writer fails
    %% with badarg); beamlet had queued it: either way the writer goes on.
    show(writer_went_on, receive {writer_done, _} -> true; {'DOWN', Ref, process, W, _} -> true
                         after 2000 -> false end),
    erlang:system_monitor(undefined),
    show(closed_but_draining, is_list(erlang:port_info(P)) andalso lists:member(P, erlang:ports())),
    show(links_after_close, erlang:port_info(P, links)),
    show(command_after_close, try port_command(P, "x") catch error:E -> E end),
    ok.

%% Writes with nosuspend until the port refuses; the number of chunks taken.
fill(P, Chunk, N) when N < 100000 ->
    case port_command(P, Chunk, [nosuspend]) of
        true -> fill(P, Chunk, N + 1);
        false -> N
    end.

wait_status(Pid, Status) -> wait_status(Pid, Status, 100).
wait_status(Pid, _Status, 0) -> erlang:process_info(Pid, status);
wait_status(Pid, Status, K) ->
    case erlang:process_info(Pid, status) of
        {status, Status} -> true;
        _ -> timer:sleep(10), wait_status(Pid, Status, K - 1)
    end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).
