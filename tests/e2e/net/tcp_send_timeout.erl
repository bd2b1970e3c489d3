%% send_timeout: a sender whose data made the socket busy waits for its reply until the queue is
%% under the low watermark; when the peer reads nothing it gets {error, timeout} after send_timeout.
%% With send_timeout_close the descriptor closes too: the port stays, the next send is enotconn.
-module(tcp_send_timeout).
-export([main/0]).
main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {send_timeout, 200}, {sndbuf, 4096}]),
    {ok, S} = gen_tcp:accept(L),
    Chunk = binary:copy(<<"x">>, 65536),
    R = send_until_error(C, Chunk, 0),
    io:format("stalled sender: ~p~n", [R]),
    io:format("socket still open: ~p~n", [erlang:port_info(C, name)]),
    {ok, C2} = gen_tcp:connect({127,0,0,1}, P, [binary, {send_timeout, 200}, {send_timeout_close, true}]),
    {ok, _S2} = gen_tcp:accept(L),
    R2 = send_until_error(C2, Chunk, 0),
    io:format("with send_timeout_close: ~p, port: ~p~n", [R2, erlang:port_info(C2, name)]),
    io:format("next send: ~p~n", [gen_tcp:send(C2, <<"x">>)]),
    io:format("messages: ~p~n", [receive M -> M after 300 -> none end]),
    gen_tcp:close(S).
send_until_error(C, Chunk, N) when N < 1000 ->
    case gen_tcp:send(C, Chunk) of
        ok -> send_until_error(C, Chunk, N + 1);
        E -> {E, N > 0}
    end;
send_until_error(_, _, N) -> {no_error, N}.
