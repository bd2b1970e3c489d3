%% {packet, ssl_tls} on a gen_tcp socket, as erl's inet driver has it: one TLS record per
%% packet, delivered as {ssl_tls, S, ContentType, {Major, Minor}, Body} (a binary body in
%% list mode too), and as {ok, {ssl_tls, ...}} to a passive recv; records split across
%% sends and several in one send; an SSL 2 client hello framed as a handshake message; a
%% record longer than packet_size refused.
-module(tcp_ssl_tls).
-export([main/0]).

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, [binary, {nodelay, true}]),
    {ok, A} = gen_tcp:accept(L),
    ok = inet:setopts(A, [{packet, ssl_tls}]),
    io:format("packet option: ~p~n", [inet:getopts(A, [packet])]),
    Rec = <<22, 3, 3, 0, 4, "abcd">>,
    ok = gen_tcp:send(C, Rec),
    io:format("passive: ~p~n", [mask(A, gen_tcp:recv(A, 0, 1000))]),
    %% A record in two sends, the second after a pause.
    ok = gen_tcp:send(C, <<23, 3, 3, 0, 6, "spl">>),
    timer:sleep(50),
    ok = gen_tcp:send(C, <<"it!">>),
    io:format("split: ~p~n", [mask(A, gen_tcp:recv(A, 0, 1000))]),
    ok = gen_tcp:send(C, <<23, 3, 1, 0, 2, "xy", 21, 3, 3, 0, 1, "z">>),
    ok = inet:setopts(A, [{active, true}]),
    show(A, "active"),
    show(A, "active"),
    ok = inet:setopts(A, [list]),
    ok = gen_tcp:send(C, Rec),
    show(A, "list mode"),
    ok = gen_tcp:send(C, <<128, 20, 1, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>>),
    show(A, "ssl 2 hello"),
    ok = gen_tcp:send(C, <<99, 1, 2, 0, 1, "q">>),
    show(A, "any content type"),
    ok = gen_tcp:send(C, <<23, 3, 3, 0, 0>>),
    show(A, "empty record"),
    ok = inet:setopts(A, [{active, false}, binary, {packet_size, 10}]),
    ok = gen_tcp:send(C, <<23, 3, 3, 0, 20, (binary:copy(<<"x">>, 20))/binary>>),
    io:format("over packet_size: ~p~n", [mask(A, gen_tcp:recv(A, 0, 1000))]),
    gen_tcp:close(C),
    gen_tcp:close(A),
    gen_tcp:close(L),
    ok.

show(A, What) ->
    receive
        M -> io:format("~s: ~p~n", [What, mask(A, M)])
    after 1000 -> io:format("~s: nothing~n", [What])
    end.

mask(S, T) when T =:= S -> socket;
mask(S, T) when is_tuple(T) -> list_to_tuple([mask(S, E) || E <- tuple_to_list(T)]);
mask(_, T) -> T.
