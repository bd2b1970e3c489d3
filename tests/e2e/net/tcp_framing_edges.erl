%% Framing at its edges, as OTP 25's inet_drv: a line longer than the socket's buffer (1460) comes in
%% buffer-sized pieces, and a send too long for a {packet, 1 | 2} header is not refused.
-module(tcp_framing_edges).
-export([main/0]).
main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, P} = inet:port(L),
    spawn(fun() -> {ok, C} = gen_tcp:connect({127,0,0,1}, P, []), gen_tcp:send(C, [lists:duplicate(3000, $a), "\nshort\n", lists:duplicate(100, $b)]), timer:sleep(300), gen_tcp:close(C) end),
    {ok, S} = gen_tcp:accept(L),
    ok = inet:setopts(S, [{packet, line}]),
    timer:sleep(100),
    R = [case gen_tcp:recv(S, 0, 1000) of {ok, B} -> {ok, byte_size(B), binary:last(B)}; E -> E end || _ <- lists:seq(1, 5)],
    io:format("~p~n", [R]),
    {ok, S2} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}, {packet, 2}]),
    io:format("~p~n", [gen_tcp:send(S2, binary:copy(<<"x">>, 70000))]),
    {ok, S3} = gen_tcp:connect({127,0,0,1}, P, [binary, {active, false}, {packet, 1}]),
    io:format("~p~n", [gen_tcp:send(S3, binary:copy(<<"x">>, 300))]).
