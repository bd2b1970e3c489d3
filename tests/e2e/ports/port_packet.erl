-module(port_packet).
-export([main/0]).

%% {packet, N}: how output is framed (seen by a program that echoes the raw bytes back as
%% the payload of one packet), how input is split, round trips through cat, empty packets,
%% oversized packets, a truncated packet at EOF, and the last-option-wins rules.
main() ->
    process_flag(trap_exit, true),
    %% the program reads the framed bytes (header + payload) and sends them back wrapped
    %% in a packet of its own, so the reply's payload is exactly what the port wrote
    show(out_frame_1, raw_frame(1, "ab")),
    show(out_frame_2, raw_frame(2, "abcde")),
    show(out_frame_4, raw_frame(4, "ab")),
    show(out_frame_2_iolist, raw_frame(2, [$a, <<"b">>, ["c"]])),
    show(out_frame_2_empty, raw_frame(2, "")),
    show(out_frame_4_binary_mode, raw_frame(4, <<"xy">>, [binary])),
    %% input: each packet is one message; several packets in one write are split
    show(in_packets_1, sh("printf '\\003abc\\000\\001z'", [{packet, 1}])),
    show(in_packets_2, sh("printf '\\000\\003abc\\000\\002de'", [{packet, 2}])),
    show(in_packets_4, sh("printf '\\000\\000\\000\\002hi'", [{packet, 4}])),
    show(in_packets_binary, sh("printf '\\000\\003abc\\000\\000'", [{packet, 2}, binary])),
    show(in_truncated_at_eof, sh("printf '\\000\\000\\000\\005hi'", [{packet, 4}])),
    show(in_truncated_with_status, sh("printf '\\000\\005hi'", [{packet, 2}, exit_status])),
    show(in_truncated_header, sh("printf '\\000'", [{packet, 2}, exit_status])),
    show(in_truncated_with_eof, eof_sh("printf '\\000\\000\\000\\005hi'", [{packet, 4}, eof])),
    %% round trips through cat keep packet boundaries
    [show(list_to_atom("cat_roundtrip_" ++ integer_to_list(N)), cat_roundtrip(N)) || N <- [1, 2, 4]],
    show(counters_exclude_headers, begin
        Q = open_port({spawn, "cat"}, [{packet, 2}]),
        port_command(Q, "abc"),
        receive {Q, {data, _}} -> ok after 3000 -> timeout end,
        C = {erlang:port_info(Q, input), erlang:port_info(Q, output)},
        port_close(Q),
        receive {'EXIT', Q, _} -> ok end,
        C
    end),
    show(cat_max_packet_1, cat_size(1, 255)),
    show(cat_max_packet_2, cat_size(2, 65535)),
    show(cat_big_packet_4, cat_size(4, 200000)),
    %% oversized: port_command returns true, then the port exits with einval
    show(oversize_packet_1, oversize(1, 256)),
    show(oversize_packet_2, oversize(2, 65536)),
    show(oversize_packet_1_msg, oversize_msg(1, 300)),
    %% option order: the last of {packet, N} / stream wins; {line, N} ignores stream
    show(last_packet_wins, sh("printf '\\000\\002ab'", [{packet, 1}, {packet, 2}])),
    show(stream_after_packet, sh("printf '\\000\\002ab'", [{packet, 2}, stream])),
    show(packet_after_stream, sh("printf '\\000\\002ab'", [stream, {packet, 2}])),
    ok.

raw_frame(N, Data) -> raw_frame(N, Data, []).
raw_frame(N, Data, Extra) ->
    Len = N + iolist_size(Data),
    Header = [io_lib:format("\\~3.8.0b", [B]) || <<B>> <= <<Len:N/unit:8>>],
    Script = "printf '" ++ lists:flatten(Header) ++ "'; head -c " ++ integer_to_list(Len),
    P = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", Script]}, {packet, N} | Extra]),
    port_command(P, Data),
    norm(P, until_exit(P)).

cat_roundtrip(N) ->
    P = open_port({spawn, "cat"}, [{packet, N}]),
    port_command(P, "one"),
    port_command(P, [<<"tw">>, "o"]),
    port_command(P, ""),
    P ! {self(), {command, <<"three">>}},
    Replies = [recv(P) || _ <- lists:seq(1, 4)],
    port_close(P),
    norm(P, Replies ++ until_exit(P)).

cat_size(N, Size) ->
    P = open_port({spawn, "cat"}, [{packet, N}, binary]),
    Data = binary:copy(<<"x">>, Size),
    port_command(P, Data),
    R = receive {P, {data, D}} -> {byte_size(D), D =:= Data} after 3000 -> timeout end,
    port_close(P),
    {R, norm(P, until_exit(P))}.

oversize(N, Size) ->
    P = open_port({spawn, "cat"}, [{packet, N}]),
    R = port_command(P, lists:duplicate(Size, $a)),
    {R, norm(P, until_exit(P)), erlang:port_info(P)}.

oversize_msg(N, Size) ->
    P = open_port({spawn, "cat"}, [{packet, N}]),
    P ! {self(), {command, lists:duplicate(Size, $a)}},
    norm(P, until_exit(P)).

sh(Script, Opts) ->
    P = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", Script]} | Opts]),
    norm(P, until_exit(P)).

eof_sh(Script, Opts) ->
    P = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", Script]} | Opts]),
    Msgs = until_eof(P),
    Closed = port_close(P),
    norm(P, Msgs ++ [{port_close, Closed} | until_exit(P)]).

recv(P) -> receive {P, _} = M -> M after 3000 -> timeout end.

until_exit(P) ->
    receive
        {'EXIT', P, _} = E -> [E];
        {P, _} = M -> [M | until_exit(P)]
    after 3000 -> [timeout]
    end.

until_eof(P) ->
    receive
        {P, eof} = E -> [E];
        {P, _} = M -> [M | until_eof(P)]
    after 3000 -> [timeout]
    end.

show(Name, Value) -> io:format("~p ~w~n", [Name, Value]).

norm(P, L) when is_list(L) -> [norm(P, X) || X <- L];
norm(P, T) when is_tuple(T) -> list_to_tuple([norm(P, X) || X <- tuple_to_list(T)]);
norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_pid(X) -> pid;
norm(_, X) when is_port(X) -> other_port;
norm(_, X) when is_reference(X) -> ref;
norm(_, X) -> X.
