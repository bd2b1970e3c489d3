%% What the socket module and the prim_socket NIFs answer to bad input and failing calls, as
%% erl answers: badarg for what is not a socket, the {error, {invalid, ...}} forms for a bad
%% domain, type, protocol, socket address, option or message flag, econnrefused, eaddrinuse,
%% einval for accept on a socket that does not listen, epipe, enotconn, edestaddrreq and
%% emsgsize, econnreset after a reset, the state errors ({invalid, state}, already), every
%% operation after close ({error, closed}), close and finalize_close twice, and a negative
%% recv length. (erl's NIF prints a timestamped warning for a bad controlling process:
%% socket_errors.filter removes it.)
-module(socket_errors).
-export([main/0]).

main() ->
    not_sockets(),
    open_errors(),
    address_errors(),
    option_errors(),
    flag_errors(),
    connect_errors(),
    io_errors(),
    state_errors(),
    after_close(),
    io:format("no messages left: ~p~n", [flush()]),
    ok.

%% ---- not a socket ----

not_sockets() ->
    R = make_ref(),
    Calls = [{"socket:recv atom", fun() -> socket:recv(foo, 0) end},
             {"socket:send ref", fun() -> socket:send({'$socket', make_ref()}, <<"x">>) end},
             {"socket:close tuple", fun() -> socket:close({socket, 1}) end},
             {"socket:info atom", fun() -> socket:info(foo) end},
             {"socket:sockname plain ref socket", fun() -> socket:sockname({'$socket', make_ref()}) end},
             {"socket:getopt plain ref socket", fun() -> socket:getopt({'$socket', make_ref()}, {socket, type}) end},
             {"prim info", fun() -> prim_socket:info(R) end},
             {"prim recv", fun() -> prim_socket:recv(R, 0, [], make_ref()) end},
             {"prim recv atom", fun() -> prim_socket:recv(foo, 0, [], zero) end},
             {"prim send", fun() -> prim_socket:send(R, <<"x">>, [], make_ref()) end},
             {"prim close", fun() -> prim_socket:close(R) end},
             {"prim finalize_close", fun() -> prim_socket:finalize_close(R) end},
             {"prim sockname", fun() -> prim_socket:sockname(R) end},
             {"prim peername", fun() -> prim_socket:peername(self()) end},
             {"prim listen", fun() -> prim_socket:listen(R, 5) end},
             {"prim accept", fun() -> prim_socket:accept(R, make_ref()) end},
             {"prim shutdown", fun() -> prim_socket:shutdown(R, write) end},
             {"prim cancel", fun() -> prim_socket:cancel(R, recv, make_ref()) end}],
    [io:format("~s: ~p~n", [Label, c(F)]) || {Label, F} <- Calls],
    {ok, {'$socket', S} = Sock} = socket:open(inet, stream, tcp),
    Bad = [{"prim send a list (unconnected)", fun() -> prim_socket:send(S, "list", [], make_ref()) end},
           {"prim send handle not a ref", fun() -> prim_socket:send(S, <<"x">>, [], foo) end},
           {"prim send handle zero", fun() -> prim_socket:send(S, <<"x">>, [], zero) end},
           {"prim recv handle not a ref", fun() -> prim_socket:recv(S, 0, [], foo) end},
           {"prim recv length not an integer", fun() -> prim_socket:recv(S, foo, [], zero) end},
           {"prim connect handle not a ref", fun() -> prim_socket:connect(S, foo, #{family => inet, addr => loopback, port => 1}) end},
           {"prim listen backlog not an integer", fun() -> prim_socket:listen(S, foo) end},
           {"prim accept handle not a ref (not listening)", fun() -> prim_socket:accept(S, foo) end},
           {"prim cancel bad op", fun() -> prim_socket:cancel(S, frobnicate, make_ref()) end},
           {"prim cancel handle not a ref", fun() -> prim_socket:cancel(S, recv, foo) end},
           {"socket:recv timeout bad", fun() -> socket:recv(Sock, 0, [], -5) end},
           {"socket:recv length bad", fun() -> socket:recv(Sock, foo) end},
           {"socket:send timeout bad", fun() -> socket:send(Sock, <<"x">>, [], forever) end}],
    [io:format("~s: ~p~n", [Label, c(F)]) || {Label, F} <- Bad],
    ok = socket:bind(Sock, loopback),
    ok = socket:listen(Sock),
    io:format("prim accept handle not a ref (listening): ~p~n", [c(fun() -> prim_socket:accept(S, foo) end)]),
    ok = socket:close(Sock),
    io:format("messages after close: ~p~n", [flush()]).

%% ---- open ----

open_errors() ->
    Opens = [{bad, stream, default}, {inet, bad, default}, {inet, stream, bad}, {inet, stream, "x"},
             {99, stream, 0}, {inet, 99, 0}, {inet, stream, udp}, {inet, dgram, tcp},
             {inet6, seqpacket, tcp}, {local, stream, tcp}],
    [io:format("open ~p: ~p~n", [A, closed(c(fun() -> socket:open(D, T, P) end))]) || {D, T, P} = A <- Opens],
    io:format("open with a bogus option: ~p~n", [closed(socket:open(inet, stream, tcp, #{bogus => 1}))]),
    io:format("open with use_registry 17: ~p~n", [closed(socket:open(inet, stream, tcp, #{use_registry => 17}))]),
    io:format("open with options not a map: ~p~n", [closed(c(fun() -> socket:open(inet, stream, tcp, [x]) end))]),
    io:format("open on fd -1: ~p~n", [closed(c(fun() -> socket:open(-1) end))]),
    io:format("open on fd 9999: ~p~n", [closed(c(fun() -> socket:open(9999) end))]).

%% ---- socket addresses ----

address_errors() ->
    {ok, S} = socket:open(inet, stream, tcp),
    Addrs = [#{family => inet, bogus => 1}, #{addr => any}, #{family => inet, addr => {1,2,3}},
             #{family => inet, addr => {1,2,3,256}}, #{family => inet, addr => foo},
             #{family => inet, addr => {1,2,3,4}, port => foo}, #{family => foo},
             #{family => inet6, addr => broadcast}, #{family => inet6, addr => {1,2,3,4}},
             #{family => inet, addr => {10,1,2,3}}, #{family => inet6, addr => loopback},
             foo],
    [io:format("bind ~p: ~p~n", [A, c(fun() -> socket:bind(S, A) end)]) || A <- Addrs],
    io:format("bind not a map: ~p~n", [c(fun() -> socket:bind(S, "127.0.0.1") end)]),
    io:format("bind: ~p~n", [socket:bind(S, #{family => inet, addr => loopback})]),
    io:format("bind again: ~p~n", [socket:bind(S, #{family => inet, addr => loopback})]),
    {ok, #{port := Port}} = socket:sockname(S),
    ok = socket:listen(S),
    {ok, S2} = socket:open(inet, stream, tcp),
    io:format("port in use: ~p~n", [socket:bind(S2, #{family => inet, addr => loopback, port => Port})]),
    io:format("connect to a bad address: ~p~n", [c(fun() -> socket:connect(S2, #{family => inet, addr => {1,2,3}, port => 1}) end)]),
    {ok, L} = socket:open(local, stream),
    io:format("local bind any: ~p~n", [socket:bind(L, any)]),
    io:format("local bind inet address: ~p~n", [socket:bind(L, #{family => inet, addr => loopback})]),
    io:format("local path too long: ~p~n", [shorten(c(fun() -> socket:bind(L, #{family => local, path => lists:duplicate(300, $a)}) end))]),
    io:format("local path missing dir: ~p~n", [socket:bind(L, #{family => local, path => "/nonexistent_dir_beamlet/s"})]),
    {ok, L6} = socket:open(inet6, stream, tcp),
    io:format("inet6 bind an inet address: ~p~n", [socket:bind(L6, #{family => inet, addr => loopback})]),
    {ok, U} = socket:open(inet, dgram, udp),
    io:format("sendto a bad address: ~p~n", [socket:sendto(U, <<"x">>, #{family => inet, addr => {1,2,3}, port => 9})]),
    io:format("sendto port 70000 (not range-checked): ~p~n", [socket:sendto(U, <<"x">>, #{family => inet, addr => loopback, port => 70000})]),
    io:format("sendmsg a bad address: ~p~n", [c(fun() -> socket:sendmsg(U, #{addr => #{family => inet, addr => bad, port => 9}, iov => [<<"x">>]}) end)]),
    io:format("sendmsg no iov: ~p~n", [c(fun() -> socket:sendmsg(U, #{addr => #{family => inet, addr => loopback, port => 9}}) end)]),
    [ok = socket:close(X) || X <- [S, S2, L, L6, U]].

%% ---- options ----

option_errors() ->
    {ok, S} = socket:open(inet, stream, tcp),
    io:format("controlling_process not a pid: ~p~n", [socket:setopt(S, {otp, controlling_process}, foo)]),
    io:format("controlling_process still self: ~p~n", [socket:getopt(S, {otp, controlling_process}) =:= {ok, self()}]),
    io:format("setopt acceptconn: ~p~n", [socket:setopt(S, {socket, acceptconn}, true)]),
    io:format("setopt rcvbuf too big: ~p~n", [socket:setopt(S, {socket, rcvbuf}, 1 bsl 40)]),
    io:format("setopt debug true: ~p~n", [socket:setopt(S, {socket, debug}, true)]),
    io:format("getopt passcred on inet: ~p~n", [socket:getopt(S, {socket, passcred})]),
    io:format("getopt ipv6 v6only on inet: ~p~n", [socket:getopt(S, {ipv6, v6only})]),
    io:format("getopt otp bad: ~p~n", [socket:getopt(S, {otp, nosuchopt})]),
    io:format("getopt bad level: ~p~n", [socket:getopt(S, {nosuchlevel, type})]),
    io:format("getopt native bad spec: ~p~n", [socket:getopt_native(S, {socket, 2}, {binary, 4})]),
    io:format("setopt native bad value: ~p~n", [c(fun() -> socket:setopt_native(S, {socket, 2}, foo) end)]),
    io:format("setopt integer level: ~p~n", [c(fun() -> socket:setopt(S, {6, nodelay}, true) end)]),
    ok = socket:close(S).

%% ---- message flags ----

flag_errors() ->
    {L, C, A} = pair(),
    {ok, U} = socket:open(inet, dgram, udp),
    io:format("send bad flag: ~p~n", [socket:send(C, <<"x">>, [badflag])]),
    io:format("send flags not a list: ~p~n", [c(fun() -> socket:send(C, <<"x">>, badflag, 100) end)]),
    io:format("recv bad flag: ~p~n", [socket:recv(A, 0, [badflag], 100)]),
    io:format("sendto bad flag: ~p~n", [socket:sendto(U, <<"x">>, #{family => inet, addr => loopback, port => 9}, [badflag], 100)]),
    io:format("recvfrom bad flag: ~p~n", [socket:recvfrom(U, 0, [badflag], 100)]),
    io:format("sendmsg bad flag: ~p~n", [socket:sendmsg(C, #{iov => [<<"x">>]}, [badflag], 100)]),
    io:format("recvmsg bad flag: ~p~n", [socket:recvmsg(A, 0, 0, [badflag], 100)]),
    io:format("send good flags: ~p ~p~n", [socket:send(C, <<"ok">>, [nosignal], 100), socket:recv(A, 2, [], 1000)]),
    [ok = socket:close(X) || X <- [U, C, A, L]].

%% ---- connect ----

connect_errors() ->
    {ok, F} = socket:open(inet, stream, tcp),
    ok = socket:bind(F, loopback),
    {ok, Free} = socket:sockname(F),
    ok = socket:close(F),
    {ok, C} = socket:open(inet, stream, tcp),
    io:format("refused: ~p~n", [socket:connect(C, Free, 1000)]),
    io:format("connect again: ~p~n", [socket:connect(C, Free, 1000)]),
    {ok, C2} = socket:open(inet, stream, tcp),
    case socket:connect(C2, Free, nowait) of
        {select, {select_info, connect, H}} ->
            receive {'$socket', C2, select, H} -> ok after 2000 -> ok end,
            io:format("refused, nowait: ~p~n", [socket:connect(C2)]);
        Other ->
            io:format("refused, nowait: ~p~n", [Other])
    end,
    io:format("connect/1 again: ~p~n", [c(fun() -> socket:connect(C2) end)]),
    {ok, C3} = socket:open(inet, stream, tcp),
    io:format("connect/1 on a fresh socket: ~p~n", [c(fun() -> socket:connect(C3) end)]),
    io:format("connect timeout bad: ~p~n", [c(fun() -> socket:connect(C3, Free, -1) end)]),
    {ok, U} = socket:open(inet, dgram, udp),
    io:format("udp connect to the free port: ~p~n", [socket:connect(U, Free)]),
    {ok, C4} = socket:open(inet6, stream, tcp),
    io:format("inet6 socket to an inet address: ~p~n", [socket:connect(C4, Free)]),
    [ok = socket:close(X) || X <- [C, C2, C3, C4, U]].

%% ---- I/O errors ----

io_errors() ->
    {ok, T} = socket:open(inet, stream, tcp),
    io:format("send unconnected: ~p~n", [socket:send(T, <<"x">>)]),
    io:format("recv unconnected: ~p~n", [socket:recv(T, 0, 100)]),
    io:format("peername unconnected: ~p~n", [socket:peername(T)]),
    io:format("shutdown unconnected: ~p~n", [socket:shutdown(T, write)]),
    io:format("accept not listening: ~p~n", [socket:accept(T, 100)]),
    ok = socket:bind(T, loopback),
    io:format("accept bound, not listening: ~p~n", [socket:accept(T, 100)]),
    io:format("accept nowait, not listening: ~p~n", [socket:accept(T, nowait)]),
    ok = socket:close(T),
    {ok, U} = socket:open(inet, dgram, udp),
    io:format("udp listen: ~p~n", [socket:listen(U)]),
    io:format("udp accept: ~p~n", [socket:accept(U, 100)]),
    io:format("udp send unconnected: ~p~n", [socket:send(U, <<"x">>)]),
    io:format("udp sendto 70000 bytes: ~p~n", [socket:sendto(U, binary:copy(<<0>>, 70000), #{family => inet, addr => loopback, port => 9})]),
    io:format("udp sendto an inet6 address: ~p~n", [socket:sendto(U, <<"x">>, #{family => inet6, addr => loopback, port => 9})]),
    io:format("udp recvfrom negative: ~p~n", [c(fun() -> socket:recvfrom(U, -1, 100) end)]),
    io:format("prim recvfrom negative: ~p~n", [prim_socket:recvfrom(element(2, U), -1, [], zero)]),
    ok = socket:close(U),
    %% the peer closes: one send goes, the next is epipe
    {L, C, A} = pair(),
    ok = socket:close(A),
    timer:sleep(50),
    io:format("send to a closed peer: ~p~n", [socket:send(C, <<"first">>)]),
    timer:sleep(50),
    io:format("send again: ~p~n", [socket:send(C, <<"second">>)]),
    io:format("recv: ~p~n", [socket:recv(C, 0, 1000)]),
    io:format("recv again: ~p~n", [socket:recv(C, 0, 1000)]),
    ok = socket:close(C),
    %% the peer resets (linger 0): econnreset, then closed
    {ok, Addr} = socket:sockname(L),
    {ok, C2} = socket:open(inet, stream, tcp),
    ok = socket:connect(C2, Addr, 1000),
    {ok, A2} = socket:accept(L, 1000),
    ok = socket:setopt(A2, {socket, linger}, abort),
    ok = socket:close(A2),
    timer:sleep(50),
    io:format("recv after a reset: ~p~n", [socket:recv(C2, 0, 1000)]),
    io:format("recv again: ~p~n", [socket:recv(C2, 0, 1000)]),
    io:format("send after a reset: ~p~n", [socket:send(C2, <<"x">>)]),
    ok = socket:close(C2),
    %% negative lengths
    {ok, C3} = socket:open(inet, stream, tcp),
    ok = socket:connect(C3, Addr, 1000),
    {ok, A3} = socket:accept(L, 1000),
    io:format("socket:recv negative: ~p~n", [c(fun() -> socket:recv(A3, -1, 100) end)]),
    io:format("prim recv negative: ~p~n", [prim_socket:recv(element(2, A3), -1, [], zero)]),
    io:format("prim recv negative, ref: ~p~n", [prim_socket:recv(element(2, A3), -1, [], make_ref())]),
    io:format("prim recv big negative: ~p~n", [prim_socket:recv(element(2, A3), -(1 bsl 70), [], zero)]),
    io:format("recvmsg negative: ~p~n", [c(fun() -> socket:recvmsg(A3, -1, 0, [], 100) end)]),
    [ok = socket:close(X) || X <- [C3, A3, L]].

%% ---- state errors ----

state_errors() ->
    {L, C, A} = pair(),
    %% recv on a socket with an acceptor; accept again from the acceptor, and from a queued one
    {ok, L0} = socket:open(inet, stream, tcp),
    ok = socket:bind(L0, loopback),
    ok = socket:listen(L0),
    {'$socket', LR} = L0,
    {select, ASI} = socket:accept(L0, nowait),
    io:format("recv while accepting: ~p~n", [socket:recv(L0, 0, nowait)]),
    io:format("prim accept again, same process: ~p~n", [shape(prim_socket:accept(LR, make_ref()))]),
    Self = self(),
    spawn(fun() ->
                  H = make_ref(),
                  R1 = prim_socket:accept(LR, H),
                  R2 = c(fun() -> prim_socket:accept(LR, make_ref()) end),
                  Self ! {queued_twice, R1, R2, prim_socket:cancel(LR, accept, H)}
          end),
    io:format("queued twice: ~p~n", [receive {queued_twice, X1, X2, X3} -> {X1, X2, X3} after 2000 -> timeout end]),
    io:format("cancel with the first handle: ~p~n", [shape(socket:cancel(L0, ASI))]),
    ok = socket:close(L0),
    io:format("messages after close: ~p~n", [flush()]),
    io:format("recv on a listening socket: ~p~n", [socket:recv(L, 0, 100)]),
    {select, RSI} = socket:recv(A, 0, nowait),
    io:format("accept on a socket with a reader: ~p~n", [socket:accept(A, nowait)]),
    ok = socket:cancel(A, RSI),
    spawn(fun() ->
                  H = make_ref(),
                  R1 = prim_socket:recv(element(2, A), 0, [], H),
                  Self ! {first, R1},
                  receive go -> ok after 2000 -> ok end,
                  Self ! {cancelled, prim_socket:cancel(element(2, A), recv, H)}
          end),
    receive {first, _} -> ok after 2000 -> ok end,
    spawn(fun() ->
                  H = make_ref(),
                  R1 = prim_socket:recv(element(2, A), 0, [], H),
                  R2 = c(fun() -> prim_socket:recv(element(2, A), 0, [], make_ref()) end),
                  Self ! {queued_reader, R1, R2, prim_socket:cancel(element(2, A), recv, H)}
          end),
    io:format("queued reader twice: ~p~n", [receive {queued_reader, Y1, Y2, Y3} -> {Y1, Y2, Y3} after 2000 -> timeout end]),
    receive {cancelled, _} -> ok after 0 -> ok end,
    %% connect while another process connects; send while connecting
    {ok, Addr} = socket:sockname(L),
    {ok, C2} = socket:open(inet, stream, tcp),
    {select, {select_info, connect, CH}} = socket:connect(C2, Addr, nowait),
    spawn(fun() ->
                  Self ! {other_connect, socket:connect(C2, Addr, 100), c(fun() -> socket:connect(C2) end),
                          socket:send(C2, <<"x">>, 100)}
          end),
    io:format("another process: ~p~n", [receive {other_connect, Z1, Z2, Z3} -> {Z1, Z2, Z3} after 2000 -> timeout end]),
    io:format("send while connecting: ~p~n", [socket:send(C2, <<"x">>, 100)]),
    receive {'$socket', C2, select, CH} -> ok after 2000 -> ok end,
    io:format("connect/1: ~p~n", [socket:connect(C2)]),
    io:format("connect again: ~p~n", [socket:connect(C2, Addr, 100)]),
    io:format("and again: ~p~n", [socket:connect(C2, Addr, 100)]),
    %% finalize_close before close, and by another process
    {'$socket', CR} = C,
    io:format("finalize_close before close: ~p~n", [c(fun() -> prim_socket:finalize_close(CR) end)]),
    io:format("close: ~p~n", [prim_socket:close(CR)]),
    spawn(fun() -> Self ! {other_finalize, c(fun() -> prim_socket:finalize_close(CR) end)} end),
    io:format("finalize_close by another: ~p~n", [receive {other_finalize, F} -> F after 2000 -> timeout end]),
    io:format("finalize_close: ~p~n", [prim_socket:finalize_close(CR)]),
    io:format("close again: ~p~n", [prim_socket:close(CR)]),
    io:format("finalize_close again: ~p~n", [prim_socket:finalize_close(CR)]),
    flush(),
    [ok = socket:close(X) || X <- [C2, A, L]].

%% ---- after close ----

after_close() ->
    {L, C, A} = pair(),
    {ok, Addr} = socket:sockname(L),
    {ok, U} = socket:open(inet, dgram, udp),
    [ok = socket:close(X) || X <- [L, C, A, U]],
    Ops = [{recv, fun() -> socket:recv(A, 0, 100) end},
           {recv_nowait, fun() -> socket:recv(A, 0, nowait) end},
           {recv_zero, fun() -> socket:recv(A, 0, 0) end},
           {send, fun() -> socket:send(C, <<"x">>) end},
           {send_nowait, fun() -> socket:send(C, <<"x">>, nowait) end},
           {sendto, fun() -> socket:sendto(U, <<"x">>, Addr) end},
           {recvfrom, fun() -> socket:recvfrom(U, 0, 100) end},
           {sendmsg, fun() -> socket:sendmsg(U, #{addr => Addr, iov => [<<"x">>]}) end},
           {recvmsg, fun() -> socket:recvmsg(U, 100) end},
           {accept, fun() -> socket:accept(L, 100) end},
           {accept_nowait, fun() -> socket:accept(L, nowait) end},
           {listen, fun() -> socket:listen(L) end},
           {bind, fun() -> socket:bind(U, loopback) end},
           {connect, fun() -> socket:connect(C, Addr, 100) end},
           {connect1, fun() -> socket:connect(C) end},
           {sockname, fun() -> socket:sockname(A) end},
           {peername, fun() -> socket:peername(A) end},
           {getopt, fun() -> socket:getopt(A, {socket, type}) end},
           {getopt_otp, fun() -> socket:getopt(A, {otp, meta}) end},
           {setopt, fun() -> socket:setopt(A, {socket, reuseaddr}, true) end},
           {setopt_otp, fun() -> socket:setopt(A, {otp, meta}, x) end},
           {shutdown, fun() -> socket:shutdown(A, read_write) end},
           {cancel, fun() -> socket:cancel(A, {select_info, recv, make_ref()}) end},
           {prim_cancel_bad_op, fun() -> prim_socket:cancel(element(2, A), frobnicate, make_ref()) end},
           {close, fun() -> socket:close(A) end},
           {prim_close, fun() -> prim_socket:close(element(2, A)) end},
           {prim_finalize_close, fun() -> prim_socket:finalize_close(element(2, A)) end}],
    [io:format("~p after close: ~p~n", [Op, c(F)]) || {Op, F} <- Ops],
    io:format("info after close: ~p~n", [maps:with([rstates, wstates, owner], socket:info(A))]).

%% ---- helpers ----

pair() ->
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => {127,0,0,1}, port => 0}),
    ok = socket:listen(L),
    {ok, Addr} = socket:sockname(L),
    {ok, C} = socket:open(inet, stream, tcp),
    ok = socket:connect(C, Addr, 1000),
    {ok, A} = socket:accept(L, 1000),
    {L, C, A}.

%% The result of F, or the class and reason of what it raised (no stack: it holds refs).
c(F) ->
    try F() catch C:R -> {C, shape(R)} end.

%% An open's result with the socket closed and masked.
closed({ok, S}) -> ok = socket:close(S), {ok, socket};
closed(R) -> R.

shorten({error, {invalid, {sockaddr, _}}}) -> {error, {invalid, {sockaddr, '...'}}};
shorten(R) -> R.

flush() ->
    receive M -> [shape(M) | flush()] after 50 -> [] end.

shape(T) when is_tuple(T) -> list_to_tuple([shape(E) || E <- tuple_to_list(T)]);
shape(T) when is_list(T) -> [shape(E) || E <- T];
shape(T) when is_reference(T) -> ref;
shape(T) when is_pid(T) -> pid;
shape(T) -> T.
