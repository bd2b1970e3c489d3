%% inet's questions to the driver that are not about one connection: the interfaces
%% (getifaddrs), the host name, services, and addresses of names (OTP's inet_gethost).
-module(inet_info).
-export([main/0]).

main() ->
    {ok, Ifs} = inet:getifaddrs(),
    {_, Lo} = lists:keyfind("lo", 1, Ifs),
    io:format("lo flags: ~p~n", [proplists:get_value(flags, Lo)]),
    io:format("lo has 127.0.0.1/8: ~p~n",
              [lists:member({addr, {127,0,0,1}}, Lo) andalso lists:member({netmask, {255,0,0,0}}, Lo)]),
    io:format("every interface has flags first: ~p~n",
              [lists:all(fun({_, [{flags, _} | _]}) -> true; (_) -> false end, Ifs)]),
    {ok, Host} = inet:gethostname(),
    io:format("hostname is a non-empty string: ~p~n", [io_lib:printable_list(Host) andalso Host =/= []]),
    io:format("localhost: ~p~n", [inet:getaddr("localhost", inet)]),
    io:format("service: ~p ~p ~p~n", [inet:getservbyname(http, tcp), inet:getservbyport(80, tcp),
                                      inet:getservbyname(no_such_service, tcp)]),
    {ok, L} = gen_tcp:listen(0, [inet6, {ip, {0,0,0,0,0,0,0,1}}]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({0,0,0,0,0,0,0,1}, P, [inet6]),
    {ok, {PeerIp, _}} = inet:peername(C),
    io:format("ipv6 loopback peer: ~p~n", [PeerIp]),
    io:format("ipv6 type: ~p~n", [prim_inet:gettype(C)]).
