-module(port_leaks).
-export([main/0]).

%% Nothing outlives a port: after many ports opened and closed every way (port_close,
%% {Pid, close}, the owner's death, exit/2, the program's end of output, a failed write),
%% erlang:ports/0 is back to what it was, the VM holds the same file descriptors, and no
%% child process is left (running or unreaped) below the VM's OS process.
main() ->
    process_flag(trap_exit, true),
    %% One port first: the VM's own I/O descriptors (a poller, once) are not a port's. Its
    %% program is gone (reaped) before the counts are taken.
    Warm = cat(),
    {os_pid, WarmPid} = erlang:port_info(Warm, os_pid),
    port_close(Warm),
    true = wait_until(fun() -> element(1, file:read_file_info("/proc/" ++ integer_to_list(WarmPid))) =:= error end),
    Ports0 = erlang:ports(),
    Fds0 = fd_count(),
    Kids0 = descendants(),
    Self = self(),
    Closers = [
        fun() -> P = cat(), port_close(P) end,
        fun() -> P = cat(), P ! {self(), close}, receive {P, closed} -> ok end end,
        fun() -> P = cat(), exit(P, kill) end,
        fun() -> P = cat(), port_command(P, "x"), receive {P, {data, _}} -> ok end, port_close(P) end,
        fun() -> P = open_port({spawn, "echo bye"}, []), wait_exit(P) end,
        fun() -> P = open_port({spawn, "sh -c 'exit 3'"}, [exit_status]), wait_exit(P) end,
        fun() -> P = open_port({spawn, "head -c 1"}, [exit_status]),
                 port_command(P, "ab"), wait_exit(P) end,
        fun() -> P = open_port({spawn, "echo hi"}, [eof]),
                 receive {P, eof} -> port_close(P) end end,
        fun() -> P = open_port({spawn_executable, "/bin/cat"}, [{line, 4}, binary]),
                 port_command(P, "abcdefgh\n"),
                 receive {P, {data, {eol, <<"efgh">>}}} -> port_close(P) end end,
        fun() -> P = open_port({spawn, "cat"}, [{packet, 2}]),
                 port_command(P, "xy"), receive {P, {data, "xy"}} -> port_close(P) end end,
        fun() -> Owner = spawn(fun() -> open_port({spawn, "cat"}, []), Self ! opened,
                                        receive stop -> exit(shutdown) end end),
                 receive opened -> Owner ! stop end end,
        fun() -> P = open_port({spawn_executable, "/"}, []), wait_exit(P) end,
        fun() -> P = open_port({spawn, "sleep 0.05"}, [in]), wait_exit(P) end
    ],
    [F() || _ <- lists:seq(1, 5), F <- Closers],
    show(ports_back, wait_until(fun() -> erlang:ports() -- Ports0 =:= [] end)),
    show(fds_back, wait_until(fun() -> fd_count() =:= Fds0 end)),
    show(children_back, wait_until(fun() -> descendants() =:= Kids0 end)),
    show(no_messages_left, flush_exits() =:= []),
    ok.

cat() -> open_port({spawn, "cat"}, []).

wait_exit(P) ->
    receive {'EXIT', P, _} -> ok after 5000 -> timeout end.

flush_exits() ->
    receive
        {'EXIT', P, _} when is_port(P) -> flush_exits();
        {'EXIT', _, _} -> flush_exits();
        {P, _} = M when is_port(P) -> [M | flush_exits()]
    after 100 -> []
    end.

wait_until(Pred) -> wait_until(Pred, 100).
wait_until(Pred, 0) -> Pred();
wait_until(Pred, N) ->
    case Pred() of
        true -> true;
        false -> timer:sleep(30), wait_until(Pred, N - 1)
    end.

fd_count() ->
    {ok, Fds} = file:list_dir("/proc/self/fd"),
    length(Fds).

%% The processes below this OS process (children, grandchildren, ... zombies included).
descendants() ->
    Me = list_to_integer(os:getpid()),
    {ok, Entries} = file:list_dir("/proc"),
    Parents = lists:foldl(fun(E, Acc) ->
        case string:to_integer(E) of
            {Pid, []} -> case ppid(Pid) of
                             undefined -> Acc;
                             PPid -> [{Pid, PPid} | Acc]
                         end;
            _ -> Acc
        end
    end, [], Entries),
    length(below(Me, Parents)).

below(Pid, Parents) ->
    Kids = [K || {K, P} <- Parents, P =:= Pid],
    Kids ++ lists:append([below(K, Parents) || K <- Kids]).

ppid(Pid) ->
    case file:read_file("/proc/" ++ integer_to_list(Pid) ++ "/stat") of
        {ok, Stat} ->
            %% "pid (comm) state ppid ...": the comm may hold spaces, so split after ")".
            [_, After] = string:split(Stat, ") ", trailing),
            [_State, PPid | _] = string:split(After, " ", all),
            binary_to_integer(PPid);
        _ -> undefined
    end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).
