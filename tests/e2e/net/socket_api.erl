%% The socket module (OTP's socket.erl over the prim_socket NIFs) on loopback, as erl answers:
%% open, bind, listen, accept, connect, send and recv, their nowait variants and the select
%% messages that follow (the handles compared with the ones returned, not printed), a partial
%% recv ({select, {SelectInfo, Bin}}), recv with timeout 0, recv after the peer's shutdown and
%% close, info/1 (without the counters and the owner), sockname and peername (port numbers
%% masked), getopt and setopt of common options at the socket, tcp, ip and otp levels with
%% their error forms, UDP sendto/recvfrom and sendmsg/recvmsg, local (AF_UNIX) stream and
%% datagram sockets on a /tmp path and an abstract address, and IPv6 on ::1.
-module(socket_api).
-export([main/0]).

main() ->
    tcp(),
    options(),
    udp(),
    local_stream(),
    local_dgram(),
    ipv6(),
    ok.

%% ---- TCP over 127.0.0.1 ----

tcp() ->
    {ok, L} = socket:open(inet, stream, tcp),
    io:format("socket term: ~p~n", [case L of {'$socket', R} -> is_reference(R); _ -> L end]),
    io:format("to_list: ~p~n", [lists:prefix("#Socket<", socket:to_list(L))]),
    info("fresh", L),
    io:format("owner is self: ~p~n", [maps:get(owner, socket:info(L)) =:= self()]),
    io:format("unbound sockname: ~p~n", [mask(socket:sockname(L))]),
    io:format("bind: ~p~n", [socket:bind(L, #{family => inet, addr => loopback, port => 0})]),
    {ok, LAddr} = socket:sockname(L),
    io:format("sockname: ~p~n", [mask(LAddr)]),
    io:format("listen: ~p~n", [socket:listen(L)]),
    info("listening", L),

    %% accept nowait, connect nowait: both answer select, then a select message each.
    {select, {select_info, accept, AH} = ASI} = AccRes = socket:accept(L, nowait),
    io:format("accept nowait: ~p~n", [shape(AccRes, [{AH, accept_handle}])]),
    info("accepting", L),
    {ok, C} = socket:open(inet, stream, tcp),
    CRes = socket:connect(C, LAddr, nowait),
    io:format("connect nowait: ~p~n", [shape(CRes, [])]),
    case CRes of
        {select, {select_info, connect, CH}} ->
            io:format("connect select message: ~p~n",
                      [shape(wait_msg(C, CH), [{C, client}, {CH, connect_handle}])]),
            info("connecting (message seen)", C),
            io:format("connect/1: ~p~n", [socket:connect(C)]);
        ok -> ok
    end,
    info("connected", C),
    io:format("accept select message: ~p~n", [shape(wait_msg(L, AH), [{L, listener}, {AH, accept_handle}])]),
    {ok, A} = socket:accept(L, nowait),
    io:format("accepted is a socket: ~p~n", [is_socket(A)]),
    info("accepted", A),
    info("listener after accept", L),
    io:format("select info kept: ~p~n", [element(1, ASI)]),
    {ok, CName} = socket:sockname(C),
    {ok, APeer} = socket:peername(A),
    {ok, AName} = socket:sockname(A),
    {ok, CPeer} = socket:peername(C),
    io:format("client sockname: ~p~n", [mask(CName)]),
    io:format("names agree: ~p ~p~n", [CName =:= APeer, AName =:= CPeer andalso AName =:= LAddr]),
    io:format("listener peername: ~p~n", [socket:peername(L)]),

    %% recv nowait, then send, then the select message, then recv again.
    {select, {select_info, recv, RH}} = RRes = socket:recv(A, 0, nowait),
    io:format("recv nowait: ~p~n", [shape(RRes, [{RH, recv_handle}])]),
    info("reading", A),
    io:format("send: ~p~n", [socket:send(C, <<"abc">>)]),
    io:format("recv select message: ~p~n", [shape(wait_msg(A, RH), [{A, accepted}, {RH, recv_handle}])]),
    io:format("recv nowait again: ~p~n", [socket:recv(A, 0, nowait)]),

    %% a partial recv: 5 of 10 bytes, {select, {SelectInfo, Bin}}, then the rest.
    ok = socket:send(C, <<"12345">>),
    timer:sleep(50),
    {select, {{select_info, recv, PH}, _}} = PRes = socket:recv(A, 10, nowait),
    io:format("partial recv: ~p~n", [shape(PRes, [{PH, recv_handle}])]),
    ok = socket:send(C, <<"67890">>),
    io:format("partial select message: ~p~n", [shape(wait_msg(A, PH), [{A, accepted}, {PH, recv_handle}])]),
    io:format("rest: ~p~n", [socket:recv(A, 5, nowait)]),

    %% timeouts
    io:format("recv timeout 0: ~p~n", [socket:recv(A, 0, 0)]),
    io:format("recv timeout 50: ~p~n", [socket:recv(A, 0, 50)]),
    io:format("recv 4 timeout 50, 2 there: ~p~n",
              [begin ok = socket:send(C, <<"xy">>), timer:sleep(20), socket:recv(A, 4, 50) end]),
    ok = socket:send(C, <<"xyzw">>),
    io:format("recv 3: ~p~n", [socket:recv(A, 3, 1000)]),
    io:format("recv rest: ~p~n", [socket:recv(A, 0, 1000)]),
    io:format("recv infinity: ~p~n", [begin ok = socket:send(C, "list data"), socket:recv(A, 9, infinity) end]),
    io:format("send iolist: ~p~n", [socket:send(C, [<<"io">>, "list", [$!]])]),
    io:format("recv it: ~p~n", [socket:recv(A, 7, 1000)]),
    io:format("send nowait: ~p~n", [socket:send(C, <<"nw">>, nowait)]),
    io:format("recv it: ~p~n", [socket:recv(A, 2, 1000)]),
    io:format("peek: ~p~n", [begin ok = socket:send(C, <<"peeked">>), timer:sleep(20), socket:recv(A, 0, [peek], 1000) end]),
    io:format("after peek: ~p~n", [socket:recv(A, 0, [], 1000)]),
    io:format("recv/1: ~p~n", [begin ok = socket:send(C, <<"r1">>), socket:recv(A) end]),
    io:format("send/recv counters: ~p~n", [counters(A, [read_byte, read_pkg]) =/= []]),

    %% shutdown(write) by the client: the accepted side reads closed, can still send.
    io:format("shutdown write: ~p~n", [socket:shutdown(C, write)]),
    io:format("recv after peer shutdown: ~p~n", [socket:recv(A, 0, 1000)]),
    io:format("and again: ~p~n", [socket:recv(A, 0, 1000)]),
    io:format("send back: ~p~n", [socket:send(A, <<"still open">>)]),
    io:format("client recv: ~p~n", [socket:recv(C, 0, 1000)]),
    io:format("shutdown read: ~p~n", [socket:shutdown(C, read)]),
    io:format("shutdown bad: ~p~n", [c(fun() -> socket:shutdown(C, sideways) end)]),

    %% close: the peer reads closed.
    io:format("close client: ~p~n", [socket:close(C)]),
    io:format("recv after peer close: ~p~n", [socket:recv(A, 0, 1000)]),
    info("client closed", C),
    io:format("closed owner: ~p~n", [maps:get(owner, socket:info(C))]),
    io:format("recv on closed: ~p~n", [socket:recv(C, 0, 100)]),
    io:format("close accepted: ~p~n", [socket:close(A)]),
    io:format("close listener: ~p~n", [socket:close(L)]),
    io:format("no messages left: ~p~n", [flush()]).

%% ---- options ----

options() ->
    {ok, S} = socket:open(inet, stream, tcp),
    {ok, U} = socket:open(inet, dgram, udp),
    Gets = [{socket, type}, {socket, protocol}, {socket, domain}, {socket, acceptconn},
            {socket, reuseaddr}, {socket, keepalive}, {socket, broadcast}, {socket, dontroute},
            {socket, oobinline}, {socket, linger}, {socket, debug}, {socket, priority},
            {socket, rcvlowat}, {tcp, nodelay}, {tcp, cork}, {ip, tos}, {ip, ttl}, {ip, recvtos},
            {ip, multicast_loop}, {ip, multicast_ttl},
            {otp, iow}, {otp, rcvbuf}, {otp, rcvctrlbuf}, {otp, sndctrlbuf}, {otp, meta},
            {otp, use_registry}, {otp, domain}, {otp, debug}],
    [io:format("getopt ~p: ~p~n", [O, socket:getopt(S, O)]) || O <- Gets],
    io:format("getopt controlling_process is self: ~p~n", [socket:getopt(S, {otp, controlling_process}) =:= {ok, self()}]),
    io:format("getopt fd is an integer: ~p~n", [case socket:getopt(S, {otp, fd}) of {ok, Fd} -> is_integer(Fd); E -> E end]),
    Sets = [{{socket, reuseaddr}, true}, {{socket, keepalive}, true}, {{socket, broadcast}, true},
            {{socket, linger}, #{onoff => true, linger => 3}}, {{socket, linger}, abort},
            {{socket, rcvbuf}, 16384}, {{socket, sndbuf}, 16384}, {{socket, priority}, 3},
            {{socket, rcvlowat}, 2}, {{tcp, nodelay}, true}, {{tcp, cork}, true}, {{tcp, cork}, false},
            {{ip, tos}, lowdelay}, {{ip, tos}, 32}, {{ip, ttl}, 17}, {{ip, recvtos}, true},
            {{otp, rcvbuf}, 4096}, {{otp, rcvbuf}, {3, 2048}}, {{otp, rcvbuf}, default},
            {{otp, rcvctrlbuf}, 2048}, {{otp, sndctrlbuf}, default}, {{otp, iow}, true},
            {{otp, meta}, {any, "term", #{1 => 2}}}, {{otp, use_registry}, true}],
    [io:format("setopt ~p ~p: ~p, then ~p~n", [O, V, socket:setopt(S, O, V), socket:getopt(S, O)]) || {O, V} <- Sets],
    io:format("setopt controlling_process self: ~p ~p~n",
              [socket:setopt(S, {otp, controlling_process}, self()), socket:getopt(S, {otp, controlling_process}) =:= {ok, self()}]),
    io:format("rcvbuf doubled: ~p~n", [socket:getopt(S, {socket, rcvbuf}) =:= {ok, 32768}]),
    Bad = [{{socket, reuseaddr}, 1}, {{socket, linger}, {true, 5}}, {{socket, type}, dgram},
           {{socket, protocol}, udp}, {{socket, error}, 0}, {{socket, rcvtimeo}, 5},
           {{socket, nosuchopt}, 1}, {{nosuchlevel, reuseaddr}, true},
           {{otp, rcvbuf}, 0}, {{otp, rcvbuf}, {0, 10}}, {{otp, rcvbuf}, -5},
           {{otp, iow}, 1}, {{otp, use_registry}, false}, {{otp, nosuchopt}, 1},
           {{tcp, nodelay}, yes}, {{ip, ttl}, big}],
    [io:format("bad setopt ~p ~p: ~p~n", [O, V, c(fun() -> socket:setopt(S, O, V) end)]) || {O, V} <- Bad],
    io:format("bad setopt otp fd: ~p~n", [c(fun() -> socket:setopt(S, {otp, fd}, 3) end)]),
    io:format("bad setopt otp domain: ~p~n", [c(fun() -> socket:setopt(S, {otp, domain}, inet6) end)]),
    io:format("bad setopt not a tuple: ~p~n", [c(fun() -> socket:setopt(S, bad_opt, 1) end)]),
    io:format("bad getopt socket error: ~p~n", [c(fun() -> socket:getopt(S, {socket, error}) end)]),
    io:format("bad getopt not a tuple: ~p~n", [c(fun() -> socket:getopt(S, bad_opt) end)]),
    io:format("udp getopt tcp nodelay: ~p~n", [socket:getopt(U, {tcp, nodelay})]),
    io:format("udp setopt tcp nodelay: ~p~n", [socket:setopt(U, {tcp, nodelay}, true)]),
    io:format("udp getopt type/protocol: ~p ~p~n", [socket:getopt(U, {socket, type}), socket:getopt(U, {socket, protocol})]),
    io:format("udp setopt udp cork: ~p ~p~n", [socket:setopt(U, {udp, cork}, true), socket:getopt(U, {udp, cork})]),
    io:format("native set reuseaddr: ~p ~p~n", [socket:setopt_native(U, {socket, 2}, 1), socket:getopt_native(U, {socket, 2}, integer)]),
    io:format("native boolean: ~p~n", [socket:getopt_native(U, {socket, 2}, boolean)]),
    io:format("native 4 bytes: ~p~n", [socket:getopt_native(U, {socket, 2}, 4)]),
    io:format("native set binary: ~p ~p~n", [socket:setopt_native(U, {socket, 2}, <<0:32/native>>),
                                              socket:getopt(U, {socket, reuseaddr})]),
    ok = socket:close(U),
    ok = socket:close(S),
    io:format("getopt on closed: ~p~n", [socket:getopt(S, {socket, reuseaddr})]),
    io:format("setopt on closed: ~p~n", [socket:setopt(S, {socket, reuseaddr}, true)]).

%% ---- UDP ----

udp() ->
    {ok, U1} = socket:open(inet, dgram, udp),
    {ok, U2} = socket:open(inet, dgram),
    info("udp fresh", U1),
    ok = socket:bind(U1, #{family => inet, addr => {127,0,0,1}, port => 0}),
    ok = socket:bind(U2, loopback),
    {ok, A1} = socket:sockname(U1),
    {ok, A2} = socket:sockname(U2),
    io:format("udp sockname: ~p~n", [mask(A2)]),
    io:format("sendto: ~p~n", [socket:sendto(U1, <<"ping">>, A2)]),
    {ok, {From, Data}} = socket:recvfrom(U2, 0, 1000),
    io:format("recvfrom: ~p from the sender: ~p~n", [Data, From =:= A1]),
    io:format("recvfrom timeout 0: ~p~n", [socket:recvfrom(U2, 0, 0)]),
    io:format("recvfrom timeout 30: ~p~n", [socket:recvfrom(U2, 0, 30)]),
    ok = socket:sendto(U1, <<"0123456789">>, A2),
    io:format("recvfrom 4 of 10: ~p~n", [mask(socket:recvfrom(U2, 4, 1000))]),
    io:format("the rest is gone: ~p~n", [socket:recvfrom(U2, 0, 30)]),
    {select, {select_info, recvfrom, H}} = R = socket:recvfrom(U2, 0, nowait),
    io:format("recvfrom nowait: ~p~n", [shape(R, [{H, handle}])]),
    ok = socket:sendto(U1, [<<"po">>, "ng"], A2),
    io:format("select message: ~p~n", [shape(wait_msg(U2, H), [{U2, u2}, {H, handle}])]),
    io:format("recvfrom again: ~p~n", [mask(socket:recvfrom(U2, 0, nowait))]),
    io:format("empty datagram: ~p ~p~n", [socket:sendto(U1, <<>>, A2), mask(socket:recvfrom(U2, 0, 1000))]),
    io:format("recv on udp: ~p~n", [begin ok = socket:sendto(U1, <<"r">>, A2), socket:recv(U2, 0, 1000) end]),

    %% sendmsg / recvmsg
    io:format("sendmsg: ~p~n", [socket:sendmsg(U1, #{addr => A2, iov => [<<"a">>, <<"bc">>, <<"def">>]})]),
    {ok, Msg} = socket:recvmsg(U2, 1000),
    io:format("recvmsg: ~p, addr is the sender: ~p~n", [maps:without([addr], Msg), maps:get(addr, Msg) =:= A1]),
    ok = socket:sendmsg(U1, #{addr => A2, iov => [<<"truncated">>]}),
    {ok, Msg2} = socket:recvmsg(U2, 4, 0, [], 1000),
    io:format("recvmsg 4 of 9: ~p~n", [maps:without([addr], Msg2)]),
    {select, {select_info, recvmsg, MH}} = MR = socket:recvmsg(U2, nowait),
    io:format("recvmsg nowait: ~p~n", [shape(MR, [{MH, handle}])]),
    ok = socket:sendmsg(U1, #{addr => A2, iov => [<<"late">>]}),
    io:format("recvmsg select message: ~p~n", [shape(wait_msg(U2, MH), [{U2, u2}, {MH, handle}])]),
    io:format("recvmsg again: ~p~n", [maps:without([addr], element(2, socket:recvmsg(U2, nowait)))]),
    io:format("recvmsg timeout 0: ~p~n", [socket:recvmsg(U2, 0)]),

    %% connected UDP
    io:format("connect: ~p~n", [socket:connect(U1, A2)]),
    io:format("peername: ~p~n", [socket:peername(U1) =:= {ok, A2}]),
    io:format("send connected: ~p~n", [socket:send(U1, <<"conn">>)]),
    io:format("recv: ~p~n", [socket:recv(U2, 0, 1000)]),
    io:format("sendmsg connected: ~p ~p~n", [socket:sendmsg(U1, #{iov => [<<"m">>]}), socket:recv(U2, 0, 1000)]),
    io:format("disconnect: ~p ~p~n", [socket:connect(U1, #{family => unspec}), mask(socket:peername(U1))]),
    info("udp used", U1),
    ok = socket:close(U1),
    ok = socket:close(U2),
    io:format("udp closed: ~p~n", [socket:recvfrom(U2, 0, 0)]).

%% ---- local (AF_UNIX) ----

local_stream() ->
    Path = "/tmp/beamlet_socket_api_" ++ os:getpid() ++ ".sock",
    _ = file:delete(Path),
    PathBin = list_to_binary(Path),
    {ok, L} = socket:open(local, stream, default),
    info("local fresh", L),
    io:format("local protocol: ~p~n", [socket:getopt(L, {socket, protocol})]),
    io:format("local bind: ~p~n", [socket:bind(L, #{family => local, path => Path})]),
    io:format("file type: ~p~n", [case file:read_file_info(Path) of {ok, FI} -> element(3, FI); E -> E end]),
    io:format("local sockname is the path: ~p~n", [socket:sockname(L) =:= {ok, #{family => local, path => PathBin}}]),
    ok = socket:listen(L),
    {ok, C} = socket:open(local, stream),
    io:format("local connect: ~p~n", [socket:connect(C, #{family => local, path => PathBin}, 1000)]),
    {ok, A} = socket:accept(L, 1000),
    io:format("client sockname: ~p~n", [socket:sockname(C)]),
    io:format("client peername is the path: ~p~n", [socket:peername(C) =:= {ok, #{family => local, path => PathBin}}]),
    io:format("accepted peername: ~p~n", [socket:peername(A)]),
    ok = socket:send(C, <<"over unix">>),
    io:format("recv: ~p~n", [socket:recv(A, 9, 1000)]),
    ok = socket:send(A, <<"back">>),
    io:format("recv back: ~p~n", [socket:recv(C, 0, 1000)]),
    info("local accepted", A),
    ok = socket:close(C),
    io:format("recv after close: ~p~n", [socket:recv(A, 0, 1000)]),
    ok = socket:close(A),
    ok = socket:close(L),
    io:format("delete: ~p~n", [file:delete(Path)]),

    %% an abstract address (Linux): a leading NUL, no file.
    Abstract = <<0, (list_to_binary("beamlet_socket_api_" ++ os:getpid()))/binary>>,
    {ok, L2} = socket:open(local, stream),
    io:format("abstract bind: ~p~n", [socket:bind(L2, #{family => local, path => Abstract})]),
    io:format("abstract sockname: ~p~n", [socket:sockname(L2) =:= {ok, #{family => local, path => Abstract}}]),
    ok = socket:listen(L2),
    {ok, C2} = socket:open(local, stream),
    io:format("abstract connect: ~p~n", [socket:connect(C2, #{family => local, path => Abstract})]),
    {ok, A2} = socket:accept(L2, 1000),
    ok = socket:send(A2, <<"abstract">>),
    io:format("recv: ~p~n", [socket:recv(C2, 0, 1000)]),
    io:format("abstract peername: ~p~n", [socket:peername(C2) =:= {ok, #{family => local, path => Abstract}}]),
    [ok = socket:close(S) || S <- [C2, A2, L2]],
    ok.

local_dgram() ->
    Path = "/tmp/beamlet_socket_api_dg_" ++ os:getpid() ++ ".sock",
    _ = file:delete(Path),
    PathBin = list_to_binary(Path),
    {ok, R} = socket:open(local, dgram),
    {ok, W} = socket:open(local, dgram),
    ok = socket:bind(R, #{family => local, path => Path}),
    io:format("local dgram sendto: ~p~n", [socket:sendto(W, <<"unix datagram">>, #{family => local, path => PathBin})]),
    io:format("from an unbound sender: ~p~n", [socket:recvfrom(R, 0, 1000)]),
    io:format("sendmsg: ~p~n", [socket:sendmsg(W, #{addr => #{family => local, path => PathBin}, iov => [<<"m">>, <<"sg">>]})]),
    {ok, M} = socket:recvmsg(R, 1000),
    io:format("recvmsg: ~p~n", [M]),
    ok = socket:close(W),
    ok = socket:close(R),
    io:format("delete: ~p~n", [file:delete(Path)]).

%% ---- IPv6 ----

ipv6() ->
    {ok, L} = socket:open(inet6, stream, tcp),
    info("inet6 fresh", L),
    io:format("v6only: ~p~n", [socket:getopt(L, {ipv6, v6only})]),
    io:format("bind ::1: ~p~n", [socket:bind(L, #{family => inet6, addr => {0,0,0,0,0,0,0,1}, port => 0})]),
    {ok, LA} = socket:sockname(L),
    io:format("inet6 sockname: ~p~n", [mask(LA)]),
    ok = socket:listen(L, 3),
    {ok, C} = socket:open(inet6, stream),
    io:format("connect: ~p~n", [socket:connect(C, LA#{addr := loopback}, 1000)]),
    {ok, A} = socket:accept(L, 1000),
    {ok, CA} = socket:sockname(C),
    io:format("client sockname: ~p, peer agrees: ~p~n", [mask(CA), socket:peername(A) =:= {ok, CA}]),
    ok = socket:send(C, <<"six">>),
    io:format("recv: ~p~n", [socket:recv(A, 3, 1000)]),
    io:format("connect again: ~p~n", [socket:connect(C, LA)]),
    {ok, C6} = socket:open(inet6, stream),
    io:format("inet addr on inet6 socket: ~p~n", [socket:connect(C6, #{family => inet, addr => {127,0,0,1}, port => 1})]),
    io:format("broadcast on inet6: ~p~n", [socket:connect(C6, #{family => inet6, addr => broadcast, port => 1})]),
    [ok = socket:close(S) || S <- [C6, C, A, L]],
    {ok, U} = socket:open(inet6, dgram, udp),
    ok = socket:bind(U, #{family => inet6, addr => loopback}),
    {ok, UA} = socket:sockname(U),
    io:format("inet6 udp sockname: ~p~n", [mask(UA)]),
    ok = socket:sendto(U, <<"self">>, UA),
    {ok, {From, D}} = socket:recvfrom(U, 0, 1000),
    io:format("to itself: ~p ~p~n", [D, From =:= UA]),
    io:format("sendto an inet addr: ~p~n", [socket:sendto(U, <<"x">>, #{family => inet, addr => {127,0,0,1}, port => 9})]),
    ok = socket:close(U),
    ok.

%% ---- helpers ----

%% The result of F, or the class and reason of what it raised (no stack: it holds refs).
c(F) ->
    try F() catch C:R -> {C, R} end.

is_socket({'$socket', R}) -> is_reference(R);
is_socket(_) -> false.

%% socket:info/1 without what varies (counters) and what has its own line (owner).
info(Label, S) ->
    io:format("info ~s: ~p~n", [Label, maps:without([counters, owner], socket:info(S))]).

counters(S, Keys) ->
    maps:to_list(maps:with(Keys, maps:get(counters, socket:info(S)))).

%% The select message for handle H on socket S.
wait_msg(S, H) ->
    receive
        {'$socket', S, _, H} = M -> M;
        {'$socket', S, abort, {H, _}} = M -> M
    after 2000 -> timeout
    end.

flush() ->
    receive M -> [shape(M, []) | flush()] after 50 -> [] end.

%% T with the terms of Names replaced by their names, and other refs and pids masked.
shape(T, Names) ->
    case lists:keyfind(T, 1, Names) of
        {_, Name} -> Name;
        false -> shape1(T, Names)
    end.

shape1(T, Names) when is_tuple(T) -> list_to_tuple([shape(E, Names) || E <- tuple_to_list(T)]);
shape1(T, Names) when is_list(T) -> [shape(E, Names) || E <- T];
shape1(T, _) when is_reference(T) -> ref;
shape1(T, _) when is_pid(T) -> pid;
shape1(T, Names) when is_map(T) -> mask(maps:map(fun(_, V) -> shape(V, Names) end, T));
shape1(T, _) -> T.

%% Port numbers in socket addresses masked (0 kept).
mask(#{family := F, port := P} = M) when F =:= inet; F =:= inet6 ->
    M#{port := if P =:= 0 -> 0; is_integer(P) -> port; true -> P end};
mask(T) when is_tuple(T) -> list_to_tuple([mask(E) || E <- tuple_to_list(T)]);
mask(T) when is_list(T) -> [mask(E) || E <- T];
mask(T) -> T.
