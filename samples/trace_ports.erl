%% samples/trace_ports.erl — an actor that talks to external programs through ports, traced in
%% a trace session: `sort`'s output read back in line mode, `tr` turned into an upper-case
%% server, a shell command's exit status, and os:cmd/1. The session traces every new port for
%% ports, send, 'receive' and running_ports; a printer shows each event with names instead of
%% ports (port1, port2, ... in the order they appear) and pids.
-module(trace_ports).
-export([main/0]).

main() ->
    Printer = spawn(fun() -> printer(#{}) end),
    Session = trace:session_create(ports_demo, Printer, []),
    0 = trace:port(Session, new, true, [ports, send, 'receive', running_ports]),
    Printer ! {name, self(), main},

    io:format("== sort, read back in line mode~n"),
    Sort = open_port({spawn, "printf 'pear\\napple\\nfig' | sort"}, [{line, 80}, exit_status]),
    io:format("messages: ~p~n", [collect(Sort)]),
    flush(Printer),

    io:format("== an upper-case server: sed through a port, one line at a time~n"),
    Upper = open_port({spawn, "sed -u 's/.*/\\U&/'"}, [binary, {line, 200}]),
    Answers = [{W, upper(Upper, W)} || W <- [<<"hello">>, <<"ports">>]],
    flush(Printer),
    [io:format("~s -> ~s~n", [W, A]) || {W, A} <- Answers],
    true = port_close(Upper),
    flush(Printer),

    io:format("== the exit status of a program~n"),
    Status = open_port({spawn, "sh -c 'echo done; exit 3'"}, [exit_status]),
    io:format("messages: ~p~n", [collect(Status)]),
    flush(Printer),

    io:format("== os:cmd/1 (a port too)~n"),
    Out = os:cmd("echo from the shell"),
    flush(Printer),
    io:format("~p~n", [Out]),
    true = trace:session_destroy(Session),
    io:format("ports left: ~p~n", [erlang:ports()]).

upper(Port, Word) ->
    true = port_command(Port, [Word, $\n]),
    receive {Port, {data, {eol, Line}}} -> Line end.

%% The messages of [Port] until it exits.
collect(Port) ->
    receive
        {Port, {exit_status, _} = S} -> [S | collect(Port)];
        {Port, {data, D}} -> [D | collect(Port)];
        {'EXIT', Port, _} -> []
    after 2000 -> []
    end.

%% Waits until the printer has printed every event delivered so far.
flush(Printer) ->
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    Printer ! {sync, self()},
    receive synced -> ok end.

printer(Names) ->
    receive
        {name, Id, Name} -> printer(Names#{Id => Name});
        {sync, From} -> From ! synced, printer(Names);
        Event when element(1, Event) =:= trace ->
            Port = element(2, Event),
            Named = case is_port(Port) andalso not maps:is_key(Port, Names) of
                        true -> N = length([K || K <- maps:keys(Names), is_port(K)]) + 1,
                                Names#{Port => list_to_atom("port" ++ integer_to_list(N))};
                        false -> Names
                    end,
            io:format("  ~P~n", [rename(Event, Named), 12]),
            printer(Named)
    end.

rename(T, Names) when is_tuple(T) -> list_to_tuple([rename(E, Names) || E <- tuple_to_list(T)]);
rename(L, Names) when is_list(L) -> [rename(E, Names) || E <- L];
rename(X, Names) when is_pid(X); is_port(X) -> maps:get(X, Names, X);
rename(X, _) -> X.
