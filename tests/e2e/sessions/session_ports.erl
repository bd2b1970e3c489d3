%% tests/e2e/sessions/session_ports.erl — ports in trace sessions (OTP 27 trace module):
%% trace:port/4 with a port id (returns 1), new (0), all and existing (the number of
%% existing ports: printed as nports); {tracer, T} is badarg in a session; a process flag
%% alone (procs) matches no port (0), as erlang:trace(ports, true, [procs]) on OTP 25;
%% trace:info/3 on a port, new_ports and a closed port (undefined); trace:session_info/1 on a
%% port ([] when untraced, undefined when closed) and new_ports; two sessions on one port,
%% each tracer getting its own events once with the legacy message shapes; trace:delivered/2
%% with all (a port is badarg, as erlang:trace_delivered/1's); session_destroy/1 takes a
%% session's flags off the port, the other session goes on.
-module(session_ports).
-export([main/0]).
-import(e2e_trace, [collector/0, messages/1, stop_wait/2, name/2]).

main() ->
    T1 = collector(),
    T2 = collector(),
    S1 = trace:session_create(one, T1, []),
    S2 = trace:session_create(two, T2, []),
    W = spawn(fun() -> process_flag(trap_exit, true), worker() end),
    P = run(W, fun() -> open_port({spawn, "cat"}, []) end),
    Names = [{P, p}, {W, w}, {T1, t1}, {T2, t2}, {self(), main}],
    %% A port id.
    io:format("session_info p: ~p~n", [names(trace:session_info(P))]),
    io:format("port s1: ~p~n", [trace:port(S1, P, true, [ports, send, 'receive'])]),
    io:format("port s2: ~p~n", [trace:port(S2, P, true, [ports, 'receive'])]),
    io:format("tracer option in a session: ~p~n",
              [catch_error(fun() -> trace:port(S1, P, true, [send, {tracer, T2}]) end)]),
    info("s1 p", S1, P, Names),
    info("s2 p", S2, P, Names),
    io:format("session_info p: ~p~n", [names(trace:session_info(P))]),
    D = run(W, fun() -> true = port_command(P, "x\n"), receive {P, {data, D0}} -> D0 end end),
    io:format("w got: ~p~n", [D]),
    sync([S1, S2]),
    show(T1, t1, [P], Names),
    show(T2, t2, [P], Names),
    io:format("delivered with a port: ~p~n",
              [catch_error(fun() -> trace:delivered(S1, P) end)]),
    %% New ports.
    io:format("port s1 new: ~p~n", [trace:port(S1, new, true, [ports])]),
    info("s1 new_ports", S1, new_ports, Names),
    info("s2 new_ports", S2, new_ports, Names),
    io:format("session_info new_ports: ~p~n", [names(trace:session_info(new_ports))]),
    P2 = run(W, fun() -> open_port({spawn, "cat"}, []) end),
    Names2 = [{P2, p2} | Names],
    info("s1 p2", S1, P2, Names2),
    info("s2 p2", S2, P2, Names2),
    io:format("session_info p2: ~p~n", [names(trace:session_info(P2))]),
    io:format("port s1 new off: ~p~n", [trace:port(S1, new, false, [ports])]),
    io:format("session_info new_ports: ~p~n", [names(trace:session_info(new_ports))]),
    sync([S1, S2]),
    show(T1, t1, [P, P2], Names2),
    show(T2, t2, [P, P2], Names2),
    %% all and existing.
    count("port s2 all", fun() -> trace:port(S2, all, true, [ports]) end),
    info("s2 p2", S2, P2, Names2),
    info("s2 new_ports", S2, new_ports, Names2),
    io:format("session_info new_ports: ~p~n", [names(trace:session_info(new_ports))]),
    count("port s2 all off", fun() -> trace:port(S2, all, false, [ports]) end),
    info("s2 p", S2, P, Names2),
    info("s2 p2", S2, P2, Names2),
    info("s2 new_ports", S2, new_ports, Names2),
    count("port s2 existing", fun() -> trace:port(S2, existing, true, [ports]) end),
    info("s2 p", S2, P, Names2),
    info("s2 p2", S2, P2, Names2),
    info("s2 new_ports", S2, new_ports, Names2),
    count("port s1 all, procs", fun() -> trace:port(S1, all, true, [procs]) end),
    count("port s1 existing, no flags", fun() -> trace:port(S1, existing, true, []) end),
    info("s1 p", S1, P, Names2),
    io:format("session_info p2: ~p~n", [names(trace:session_info(P2))]),
    %% Both sessions trace p2 with ports: each tracer gets closed once.
    Inbox2 = run(W, fun() -> true = port_close(P2), receive {'EXIT', P2, R} -> R end end),
    io:format("w got exit: ~p~n", [Inbox2]),
    sync([S1, S2]),
    show(T1, t1, [P, P2], Names2),
    show(T2, t2, [P, P2], Names2),
    io:format("closed p2: ~p ~p~n", [trace:info(S1, P2, flags), trace:session_info(P2)]),
    %% Destroy one session: the other goes on.
    io:format("destroy s1: ~p~n", [trace:session_destroy(S1)]),
    io:format("session_info p: ~p~n", [names(trace:session_info(P))]),
    io:format("info after destroy: ~p~n", [catch_error(fun() -> trace:info(S1, P, flags) end)]),
    Inbox = run(W, fun() ->
                           P ! {self(), close},
                           receive {P, closed} -> ok end,
                           receive {'EXIT', P, R} -> R end
                   end),
    io:format("w got exit: ~p~n", [Inbox]),
    sync([S2]),
    show(T1, t1, [P, P2], Names2),
    show(T2, t2, [P, P2], Names2),
    io:format("session_info closed p: ~p~n", [trace:session_info(P)]),
    io:format("destroy: ~p ~p~n", [trace:session_destroy(S1), trace:session_destroy(S2)]),
    [stop_wait(X, stop) || X <- [W, T1, T2]],
    ok.

%% ---- helpers ----

worker() ->
    receive
        {run, F, From} -> From ! {done, self(), F()}, worker();
        stop -> ok
    end.

run(W, F) ->
    W ! {run, F, self()},
    receive {done, W, R} -> R end.

%% Every event of the sessions' tracees is in their tracers' queues.
sync(Sessions) ->
    [begin
         Ref = trace:delivered(S, all),
         receive {trace_delivered, all, Ref} -> ok end
     end || S <- Sessions],
    ok.

%% The events of the test's ports that T got, in order (ports of the runtime itself, traced
%% by all/existing, are left out).
show(T, Name, Ports, Names) ->
    io:format("~p got:~n", [Name]),
    [io:format("  ~p~n", [name(M, Names)]) || M <- messages(T), lists:member(element(2, M), Ports)].

info(Label, S, Tracee, Names) ->
    F = case trace:info(S, Tracee, flags) of
            {flags, Fl} -> {flags, lists:sort(Fl)};
            Other -> Other
        end,
    io:format("~s: ~p ~p~n", [Label, F, name(trace:info(S, Tracee, tracer), Names)]).

%% A count of ports, printed as nports when it is the number of ports that exist.
count(Label, F) ->
    N = length(erlang:ports()),
    R = F(),
    io:format("~s: ~p~n", [Label, if R =:= N -> nports; true -> R end]).

%% Session names from session_info/1's weak handles {Name, Id}.
names(L) when is_list(L) -> lists:sort([N || {N, _} <- L]);
names(X) -> X.

catch_error(F) ->
    try F() catch error:R -> {error, R} end.
