%% open_port({fd, In, Out}, Options): the fd driver on standard input and output. Lines read
%% from stdin (port_fd.input) in line mode, end of input (the port exits normal: main traps
%% exits, as erl's -eval process does), a second port at end of file with eof, output next
%% to io:format's, packet framing, port_info, and the bad arguments.
-module(port_fd).
-export([main/0]).

main() ->
    In = open_port({fd, 0, 1}, [in, binary, {line, 8}]),
    io:format("name ~p~n", [erlang:port_info(In, name)]),
    lines(In),
    io:format("input ~p~n", [erlang:port_info(In, input)]),
    Eof = open_port({fd, 0, 1}, [in, eof]),
    receive {Eof, eof} -> io:format("eof~n") after 2000 -> io:format("no eof~n") end,
    io:format("still open ~p~n", [is_list(erlang:port_info(Eof))]),
    port_close(Eof),
    %% (erl writes an fd port's output a little later than io's: the sleeps keep the
    %% expected order independent of that.)
    Out = open_port({fd, 0, 1}, [out, binary]),
    io:format("writing~n"),
    timer:sleep(50),
    true = port_command(Out, <<"through the port\n">>),
    true = port_command(Out, ["an ", <<"iolist">>, $\n]),
    Packet = open_port({fd, 0, 1}, [out, {packet, 1}]),
    port_command(Packet, "xy\n"),
    timer:sleep(50),
    io:format("~noutput ~p~n", [erlang:port_info(Out, output)]),
    true = port_close(Out),
    port_close(Packet),
    Err = open_port({fd, 0, 2}, [out]),
    io:format("to fd 2 ~p~n", [port_command(Err, "")]),
    port_close(Err),
    [bad(Name, Opts) || {Name, Opts} <- [{{fd, 0, 1}, [exit_status]},
                                         {{fd, 0, 1}, [{args, ["x"]}]},
                                         {{fd, 0, 1}, [{arg0, "x"}]},
                                         {{fd, 0, 1}, [bogus]},
                                         {{fd, a, 1}, []},
                                         {{fd, 0, 1.0}, []},
                                         {{fd, 0, 1 bsl 80}, []},
                                         {{fd, -1, 1}, []},
                                         {{fd, 0, 1 bsl 40}, []},
                                         {{fd, 0, 1, 2}, []},
                                         {{fd, 0}, []}]],
    [ok([out | Opts]) || Opts <- [[{cd, "/tmp"}], [{env, []}], [nouse_stdio], [stream], [binary]]],
    ok.

lines(Port) ->
    receive
        {Port, {data, Data}} -> io:format("~p~n", [Data]), lines(Port);
        {'EXIT', Port, Reason} -> io:format("exit ~p~n", [Reason])
    after 2000 -> io:format("timeout~n")
    end.

bad(Name, Opts) ->
    R = try open_port(Name, Opts) of P -> port_close(P), opened catch C:E -> {C, E} end,
    io:format("~p ~p: ~p~n", [Name, Opts, R]).

ok(Opts) ->
    P = open_port({fd, 0, 1}, Opts),
    {name, Name} = erlang:port_info(P, name),
    port_close(P),
    io:format("~p: ~s~n", [Opts, Name]).
