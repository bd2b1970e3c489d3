-module(port_cat).
-export([main/0]).

%% Round trips through `cat` in stream mode: list vs binary data, iolists, binaries,
%% Port ! {self(), {command, D}}, port_command/2,3 and their return values, byte counters,
%% port_close/1 and erlang:ports/0 relative to a snapshot.
main() ->
    process_flag(trap_exit, true),
    Before = erlang:ports(),
    P = open_port({spawn, "cat"}, []),
    show(is_port, is_port(P)),
    show(ports_after_open, length(erlang:ports() -- Before)),
    show(new_port_listed, lists:member(P, erlang:ports())),
    %% list mode (the default): data comes back as a list
    show(cmd_msg_return, norm(P, P ! {self(), {command, "hello"}})),
    show(list_reply, norm(P, recv_exact(P, 5))),
    show(port_command_2, port_command(P, "abc")),
    show(list_reply2, norm(P, recv_exact(P, 3))),
    show(iolist, begin port_command(P, [$a, "bc", <<"de">>, [[<<"f">>], $g]]), recv_all(P, 7) end),
    show(binary_cmd, begin port_command(P, <<"xyz">>), recv_all(P, 3) end),
    show(msg_iolist, begin P ! {self(), {command, [<<"12">>, "34", [$5]]}}, recv_all(P, 5) end),
    show(bytes_0_255, begin port_command(P, lists:seq(0, 255)), recv_all(P, 256) =:= lists:seq(0, 255) end),
    show(port_command_3_empty_opts, port_command(P, "q", [])),
    show(reply_3, recv_all(P, 1)),
    show(port_command_3_nosuspend, port_command(P, "n", [nosuspend])),
    show(reply_nosuspend, recv_all(P, 1)),
    show(port_command_3_force, try_(fun() -> port_command(P, "f", [force]) end)),
    show(port_command_3_force_nosuspend, try_(fun() -> port_command(P, "f", [force, nosuspend]) end)),
    show(empty_list_cmd, port_command(P, [])),
    show(empty_bin_cmd, port_command(P, <<>>)),
    show(empty_nested_cmd, port_command(P, [[], <<>>, [[]]])),
    show(after_empty, begin port_command(P, "z"), recv_all(P, 1) end),
    %% a large transfer, reassembled (the chunking of {data, _} messages is not fixed)
    Big = [X rem 251 || X <- lists:seq(1, 100000)],
    show(big_roundtrip, begin port_command(P, Big), recv_all(P, 100000) =:= Big end),
    show(input_counter, erlang:port_info(P, input)),
    show(output_counter, erlang:port_info(P, output)),
    show(port_close, port_close(P)),
    show(after_close, norm(P, receive {'EXIT', P, _} = E -> E after 3000 -> timeout end)),
    show(nothing_else, flush()),
    show(ports_after_close, length(erlang:ports() -- Before)),
    show(info_after_close, erlang:port_info(P)),
    show(is_port_closed, is_port(P)),
    %% binary mode: data comes back as binaries, whatever was sent
    B = open_port({spawn, "cat"}, [binary]),
    show(bin_port_list_in, begin port_command(B, "abc"), recv_all(B, 3) end),
    show(bin_port_first_msg, begin port_command(B, "hi"), norm(B, receive {B, _} = M -> M end) end),
    show(bin_port_iolist, begin B ! {self(), {command, [<<"a">>, "b", [<<"c">>]]}}, recv_all(B, 3) end),
    show(bin_port_close_msg, begin B ! {self(), close}, norm(B, [receive M1 -> M1 end, receive M2 -> M2 end]) end),
    show(bin_after_close, norm(B, flush())),
    %% several ports at once, each keeping its own data
    Ps = [open_port({spawn, "cat"}, [binary]) || _ <- lists:seq(1, 5)],
    show(five_ports, length(erlang:ports() -- Before)),
    [port_command(Q, integer_to_list(I)) || {I, Q} <- lists:zip(lists:seq(1, 5), Ps)],
    show(five_replies, [recv_all(Q, 1) || Q <- Ps]),
    show(five_closed, [port_close(Q) || Q <- Ps]),
    show(exits, lists:sort([receive {'EXIT', Q, R} -> R end || Q <- Ps])),
    show(ports_at_end, length(erlang:ports() -- Before)),
    ok.

%% Receive exactly N bytes of data from port P as one value (list or binary, as sent).
recv_all(P, N) -> recv_all(P, N, []).
recv_all(_P, N, Acc) when N =< 0 ->
    case Acc of
        [B | _] when is_binary(B) -> iolist_to_binary(lists:reverse(Acc));
        _ -> lists:append(lists:reverse(Acc))
    end;
recv_all(P, N, Acc) ->
    receive
        {P, {data, D}} when is_binary(D) -> recv_all(P, N - byte_size(D), [D | Acc]);
        {P, {data, D}} -> recv_all(P, N - length(D), [D | Acc])
    after 3000 -> {timeout, lists:reverse(Acc)}
    end.

%% The first data message must hold all N bytes (small writes to cat come back whole).
recv_exact(P, N) ->
    receive
        {P, {data, D}} = M when length(D) =:= N -> M;
        {P, {data, D}} -> {short, D, recv_all(P, N - length(D))}
    after 3000 -> timeout
    end.

flush() -> receive M -> [M | flush()] after 50 -> [] end.

try_(F) -> try F() catch C:R -> {C, R} end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).

norm(P, L) when is_list(L) -> [norm(P, X) || X <- L];
norm(P, T) when is_tuple(T) -> list_to_tuple([norm(P, X) || X <- tuple_to_list(T)]);
norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_pid(X) -> pid;
norm(_, X) when is_port(X) -> other_port;
norm(_, X) when is_reference(X) -> ref;
norm(_, X) -> X.
