%% tests/e2e/port_trace/pt_port_tracer.erl — a port as tracer ({tracer, Port}): each trace
%% message is given to the port as a command, term_to_binary(Msg), so a `cat` port opened with
%% {packet, 4} hands each one back as a packet that binary_to_term/1 decodes. Processes and
%% ports (new_ports) can be traced to it; trace_info names it as the tracer. When the tracer
%% port closes, its tracees' flags are gone at once; a closed port as tracer makes
%% erlang:trace/3 return 1 (0 for new_ports) and set nothing.
-module(pt_port_tracer).
-export([main/0]).
-import(e2e_trace, [name/2]).

main() ->
    TP = open_port({spawn, "cat"}, [binary, {packet, 4}]),
    Main = self(),
    W = spawn(fun() -> worker() end),
    Names = [{TP, tp}, {W, w}, {Main, main}],
    io:format("trace w: ~p~n", [erlang:trace(W, true, [send, {tracer, TP}])]),
    io:format("trace new_ports: ~p~n", [erlang:trace(new_ports, true, [ports, {tracer, TP}])]),
    info("w", W, Names),
    info("new_ports", new_ports, Names),
    info("tp", TP, Names),
    run(W, fun() -> Main ! hello, Main ! {x, [1, 2.5, <<"bin">>]} end),
    receive hello -> ok end,
    receive {x, _} -> ok end,
    P = open_port({spawn, "cat"}, []),
    Names1 = [{P, p} | Names],
    info("p", P, Names1),
    true = port_close(P),
    0 = erlang:trace(new_ports, false, [all]),
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    Got = packets(TP, 6),
    %% Only the order of each tracee's events is defined.
    [begin
         io:format("tp got from ~p:~n", [Name]),
         [io:format("  ~p~n", [name(M, Names1)]) || M <- Got, element(2, M) =:= X]
     end || {X, Name} <- [{W, w}, {P, p}]],
    io:format("others: ~p~n", [[M || M <- Got, element(2, M) =/= W, element(2, M) =/= P]]),
    true = port_close(TP),
    io:format("tp closed~n"),
    info("w", W, Names1),
    io:format("trace w, closed tp: ~p~n", [erlang:trace(W, true, [send, {tracer, TP}])]),
    info("w", W, Names1),
    io:format("trace new_ports, closed tp: ~p~n", [erlang:trace(new_ports, true, [ports, {tracer, TP}])]),
    info("new_ports", new_ports, Names1),
    W ! stop,
    ok.

worker() ->
    receive
        {run, F, From} -> F(), From ! {done, self()}, worker();
        stop -> ok
    end.

run(W, F) ->
    W ! {run, F, self()},
    receive {done, W} -> ok end.

%% N packets from the tracer port, decoded; then anything more within 50 ms.
packets(TP, 0) ->
    receive {TP, {data, B}} -> [{unexpected, binary_to_term(B)} | packets(TP, 0)]
    after 50 -> []
    end;
packets(TP, N) ->
    receive {TP, {data, B}} -> [binary_to_term(B) | packets(TP, N - 1)]
    after 5000 -> [timeout]
    end.

info(Label, Tracee, Names) ->
    {flags, Fl} = erlang:trace_info(Tracee, flags),
    io:format("  ~s: flags ~p, ~p~n",
              [Label, lists:sort(Fl), name(erlang:trace_info(Tracee, tracer), Names)]).
