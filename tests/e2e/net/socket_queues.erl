%% The socket module's requestor queues and ownership, as erl answers: several processes
%% accepting on one listen socket (each gets its own connection, in the order they asked), a
%% queued acceptor or reader hears nothing until its turn, two readers on one socket,
%% cancel/2 (ok, then {error, {invalid, SelectInfo}}), prim_socket:cancel/3's select_sent once
%% the select message went, close while other processes wait (they get
%% {'$socket', Socket, abort, {Handle, closed}}), the owner's death closing the socket and
%% aborting the waiters, owner-only options from another process ({error, {invalid,
%% not_owner}}), a controlling_process handover after which the old owner dies (the socket
%% stays open), and socket:number_of/0 and which_sockets/1 before and after close.
-module(socket_queues).
-export([main/0]).

main() ->
    acceptors(),
    queued_acceptor_waits(),
    readers(),
    queued_reader_waits(),
    cancel(),
    close_while_waiting(),
    owner_death(),
    not_owner(),
    handover(),
    registry(),
    io:format("no messages left: ~p~n", [flush()]),
    ok.

%% ---- several acceptors: one connection each, in the order they asked ----

acceptors() ->
    {L, Addr} = listener(),
    Self = self(),
    Ps = [begin
              P = spawn(fun() ->
                                R = socket:accept(L, 3000),
                                Got = case R of
                                          {ok, A} -> {ok, socket:recv(A, 1, 2000), owner_is_self(A)};
                                          E -> E
                                      end,
                                Self ! {accepted, N, Got},
                                receive done -> ok after 3000 -> ok end
                        end),
              wait_until(fun() -> num(L, num_acceptors) =:= N end),
              P
          end || N <- [1, 2, 3]],
    info("three acceptors", L),
    Cs = [begin
              {ok, C} = socket:open(inet, stream, tcp),
              ok = socket:connect(C, Addr, 1000),
              ok = socket:send(C, <<N>>),
              io:format("connection ~p: ~p~n", [N, receive {accepted, Who, Got} -> {acceptor, Who, Got} after 2000 -> timeout end]),
              C
          end || N <- [1, 2, 3]],
    info("after three accepts", L),
    [P ! done || P <- Ps],
    [ok = socket:close(C) || C <- Cs],
    ok = socket:close(L).

%% accept nowait in two processes: the second is queued; one connection wakes the first only.
queued_acceptor_waits() ->
    {L, Addr} = listener(),
    Self = self(),
    Second = spawn(fun() ->
                           receive go -> ok after 2000 -> ok end,
                           R = socket:accept(L, nowait),
                           Self ! {second_asked, shape(R)},
                           M = receive Msg -> Msg after 300 -> nothing end,
                           Self ! {second_heard, shape(M, [{L, listener}, {handle(R), its_handle}])},
                           M2 = receive Msg2 -> Msg2 after 1000 -> nothing end,
                           Self ! {second_heard, shape(M2, [{L, listener}, {handle(R), its_handle}])},
                           R2 = socket:accept(L, nowait),
                           Self ! {second_accept, element(1, R2)},
                           receive done -> ok after 3000 -> ok end
                   end),
    %% The first asks first.
    {select, {select_info, accept, H1}} = R1 = socket:accept(L, nowait),
    io:format("first accept nowait: ~p~n", [shape(R1)]),
    Second ! go,
    io:format("second accept nowait: ~p~n", [receive {second_asked, X} -> X after 2000 -> timeout end]),
    info("two acceptors", L),
    {ok, C1} = socket:open(inet, stream, tcp),
    ok = socket:connect(C1, Addr, 1000),
    io:format("first hears: ~p~n", [shape(wait_msg(L, H1), [{L, listener}, {H1, its_handle}])]),
    {ok, A1} = socket:accept(L, nowait),
    io:format("the second, before a second connection: ~p~n", [receive {second_heard, Y} -> Y after 2000 -> timeout end]),
    {ok, C2} = socket:open(inet, stream, tcp),
    ok = socket:connect(C2, Addr, 1000),
    io:format("the second, after it: ~p~n", [receive {second_heard, Z} -> Z after 3000 -> timeout end]),
    io:format("second accepts: ~p~n", [receive {second_accept, W} -> W after 2000 -> timeout end]),
    Second ! done,
    [ok = socket:close(S) || S <- [C1, C2, A1, L]].

%% ---- two readers on one socket ----

readers() ->
    {L, C, A} = pair(),
    Self = self(),
    Rs = [begin
              P = spawn(fun() -> Self ! {read, N, socket:recv(A, 3, 3000)} end),
              wait_until(fun() -> num(A, num_readers) =:= N end),
              P
          end || N <- [1, 2]],
    info("two readers", A),
    %% A third process with timeout 0 does not queue: it tries and finds nothing.
    Self2 = self(),
    spawn(fun() -> Self2 ! {zero, socket:recv(A, 0, 0)} end),
    io:format("third, timeout 0: ~p~n", [receive {zero, Z} -> Z after 2000 -> timeout end]),
    ok = socket:send(C, <<"aaa">>),
    io:format("first data: ~p~n", [receive {read, N1, D1} -> {reader, N1, D1} after 2000 -> timeout end]),
    ok = socket:send(C, <<"bbb">>),
    io:format("second data: ~p~n", [receive {read, N2, D2} -> {reader, N2, D2} after 2000 -> timeout end]),
    info("readers done", A),
    _ = Rs,
    [ok = socket:close(S) || S <- [C, A, L]].

%% recv nowait in two processes: the second is queued and hears nothing until its turn.
queued_reader_waits() ->
    {L, C, A} = pair(),
    Self = self(),
    {select, {select_info, recv, H1}} = R1 = socket:recv(A, 0, nowait),
    io:format("first recv nowait: ~p~n", [shape(R1)]),
    Second = spawn(fun() ->
                           R = socket:recv(A, 0, nowait),
                           Self ! {second_asked, shape(R)},
                           M = receive Msg -> Msg after 300 -> nothing end,
                           Self ! {second_heard, shape(M, [{A, accepted}, {handle(R), its_handle}])},
                           M2 = receive Msg2 -> Msg2 after 1000 -> nothing end,
                           Self ! {second_heard, shape(M2, [{A, accepted}, {handle(R), its_handle}])},
                           Self ! {second_recv, socket:recv(A, 0, nowait)}
                   end),
    io:format("second recv nowait: ~p~n", [receive {second_asked, X} -> X after 2000 -> timeout end]),
    info("two readers", A),
    ok = socket:send(C, <<"one">>),
    io:format("first hears: ~p~n", [shape(wait_msg(A, H1), [{A, accepted}, {H1, its_handle}])]),
    io:format("first reads: ~p~n", [socket:recv(A, 0, nowait)]),
    io:format("the second, before more data: ~p~n", [receive {second_heard, Y} -> Y after 2000 -> timeout end]),
    ok = socket:send(C, <<"two">>),
    io:format("the second, after it: ~p~n", [receive {second_heard, Z} -> Z after 3000 -> timeout end]),
    io:format("second reads: ~p~n", [receive {second_recv, W} -> W after 2000 -> timeout end]),
    _ = Second,
    [ok = socket:close(S) || S <- [C, A, L]].

%% ---- cancel ----

cancel() ->
    {L, C, A} = pair(),
    {select, RSI} = socket:recv(A, 0, nowait),
    io:format("cancel recv: ~p~n", [socket:cancel(A, RSI)]),
    io:format("cancel recv again: ~p~n", [shape(socket:cancel(A, RSI), [{RSI, the_select_info}])]),
    info("after cancel", A),
    {select, ASI} = socket:accept(L, nowait),
    io:format("cancel accept: ~p~n", [socket:cancel(L, ASI)]),
    io:format("cancel accept again: ~p~n", [shape(socket:cancel(L, ASI), [{ASI, the_select_info}])]),
    info("listener after cancel", L),
    %% A queued reader's cancel: the current one stays.
    {select, {select_info, recv, H1}} = socket:recv(A, 0, nowait),
    Self = self(),
    spawn(fun() ->
                  {select, SI} = socket:recv(A, 0, nowait),
                  Self ! {queued_cancel, socket:cancel(A, SI), num(A, num_readers)}
          end),
    io:format("queued reader cancels: ~p~n", [receive {queued_cancel, R, N} -> {R, N} after 2000 -> timeout end]),
    %% The select message sent already: prim_socket:cancel/3 says select_sent.
    ok = socket:send(C, <<"x">>),
    Msg = wait_msg(A, H1),
    io:format("message: ~p~n", [shape(Msg, [{A, accepted}, {H1, handle}])]),
    {'$socket', ARef} = A,
    io:format("prim cancel after the message: ~p~n", [prim_socket:cancel(ARef, recv, H1)]),
    io:format("prim cancel again: ~p~n", [prim_socket:cancel(ARef, recv, H1)]),
    io:format("prim cancel unknown ref: ~p~n", [prim_socket:cancel(ARef, recv, make_ref())]),
    io:format("prim cancel no acceptor: ~p~n", [prim_socket:cancel(element(2, L), accept, make_ref())]),
    io:format("data still there: ~p~n", [socket:recv(A, 0, 1000)]),
    %% Via socket:cancel/2, select_sent is ok (the message flushed).
    {select, RSI2 = {select_info, recv, H2}} = socket:recv(A, 0, nowait),
    ok = socket:send(C, <<"y">>),
    timer:sleep(50),
    io:format("socket cancel after the message: ~p, message flushed: ~p~n",
              [socket:cancel(A, RSI2), receive {'$socket', A, select, H2} -> false after 0 -> true end]),
    %% connect: the select message seen, then the cancel.
    {ok, L2} = socket:open(inet, stream, tcp),
    ok = socket:bind(L2, loopback),
    ok = socket:listen(L2),
    {ok, Addr2} = socket:sockname(L2),
    {ok, C2} = socket:open(inet, stream, tcp),
    case socket:connect(C2, Addr2, nowait) of
        {select, {select_info, connect, CH}} ->
            io:format("connect message: ~p~n", [shape(wait_msg(C2, CH), [{C2, client}, {CH, handle}])]),
            io:format("prim cancel connect: ~p~n", [prim_socket:cancel(element(2, C2), connect, CH)]),
            io:format("prim cancel connect again: ~p~n", [prim_socket:cancel(element(2, C2), connect, CH)]);
        Other ->
            io:format("connect nowait: ~p~n", [Other])
    end,
    {ok, C3} = socket:open(inet, stream, tcp),
    {select, CSI} = socket:connect(C3, Addr2, nowait),
    io:format("socket cancel connect: ~p~n", [socket:cancel(C3, CSI)]),
    io:format("prim cancel bad op: ~p~n", [try prim_socket:cancel(ARef, frobnicate, make_ref()) catch Cl:Re -> {Cl, Re} end]),
    [ok = socket:close(S) || S <- [C3, C2, L2, C, A, L]],
    io:format("cancel on closed: ~p~n", [shape(socket:cancel(A, RSI), [{RSI, the_select_info}])]).

%% ---- close while others wait ----

close_while_waiting() ->
    {L, C, A} = pair(),
    Self = self(),
    %% two waiting acceptors (nowait: they report the message they get)
    _ = [spawn(fun() -> waiter(Self, N, L, fun() -> socket:accept(L, nowait) end) end) || N <- [1, 2]],
    [receive {waiting, N} -> ok after 2000 -> io:format("acceptor ~p not waiting~n", [N]) end || N <- [1, 2]],
    io:format("close listener: ~p~n", [socket:close(L)]),
    [io:format("acceptor ~p got: ~p~n", [N, receive {got, N, M} -> M after 2000 -> timeout end]) || N <- [1, 2]],
    %% two waiting readers, one blocked in recv with a timeout
    spawn(fun() -> waiter(Self, 3, A, fun() -> socket:recv(A, 0, nowait) end) end),
    receive {waiting, 3} -> ok after 2000 -> ok end,
    spawn(fun() -> Self ! {blocked_recv, socket:recv(A, 0, 5000)} end),
    wait_until(fun() -> num(A, num_readers) =:= 2 end),
    info("two readers before close", A),
    io:format("close accepted: ~p~n", [socket:close(A)]),
    io:format("reader 3 got: ~p~n", [receive {got, 3, M3} -> M3 after 2000 -> timeout end]),
    io:format("blocked recv: ~p~n", [receive {blocked_recv, R} -> R after 2000 -> timeout end]),
    io:format("peer recv: ~p~n", [socket:recv(C, 0, 1000)]),
    %% a writer held by a full buffer, closed from another process
    {L2, C2, A2} = pair(),
    ok = socket:setopt(C2, {socket, sndbuf}, 4096),
    Big = binary:copy(<<"0123456789abcdef">>, 1 bsl 17),
    W = spawn(fun() -> Self ! {blocked_send, socket:send(C2, Big, 5000)} end),
    wait_until(fun() -> num(C2, num_writers) =:= 1 end),
    io:format("writer waiting: ~p~n", [num(C2, num_writers)]),
    spawn(fun() -> Self ! {closed_by_other, socket:close(C2)} end),
    io:format("closed by another process: ~p~n", [receive {closed_by_other, CR} -> CR after 2000 -> timeout end]),
    io:format("blocked send: ~p~n",
              [receive {blocked_send, {error, {Reason, Rest}}} when is_binary(Rest) -> {error, {Reason, rest}};
                       {blocked_send, SR} -> SR
               after 2000 -> timeout end]),
    _ = W,
    info("closed by another", C2),
    [ok = socket:close(S) || S <- [A2, L2, C]].

waiter(Parent, N, S, F) ->
    R = F(),
    H = handle(R),
    Parent ! {waiting, N},
    M = receive Msg -> Msg after 3000 -> nothing end,
    Parent ! {got, N, shape(M, [{S, the_socket}, {H, its_handle}])}.

%% ---- the owner's death ----

owner_death() ->
    {L, Addr} = listener(),
    Self = self(),
    Owner = spawn(fun() ->
                          {ok, C} = socket:open(inet, stream, tcp),
                          ok = socket:connect(C, Addr, 1000),
                          Self ! {sock, C},
                          receive die -> exit(die) after 5000 -> ok end
                  end),
    C = receive {sock, S} -> S after 2000 -> exit(no_socket) end,
    {ok, A} = socket:accept(L, 1000),
    io:format("owner is the opener: ~p~n", [maps:get(owner, socket:info(C)) =:= Owner]),
    spawn(fun() -> waiter(Self, 1, C, fun() -> socket:recv(C, 0, nowait) end) end),
    receive {waiting, 1} -> ok after 2000 -> ok end,
    MRef = monitor(process, Owner),
    Owner ! die,
    receive {'DOWN', MRef, _, _, _} -> ok after 2000 -> ok end,
    io:format("waiter got: ~p~n", [receive {got, 1, M} -> M after 2000 -> timeout end]),
    wait_until(fun() -> maps:get(owner, socket:info(C)) =:= undefined end),
    info("after the owner died", C),
    io:format("owner: ~p~n", [maps:get(owner, socket:info(C))]),
    io:format("recv: ~p~n", [socket:recv(C, 0, 100)]),
    io:format("close: ~p~n", [socket:close(C)]),
    io:format("peer recv: ~p~n", [socket:recv(A, 0, 1000)]),
    %% an accepted socket's owner is the process that accepted
    Acceptor = spawn(fun() ->
                             {ok, AS} = socket:accept(L, 2000),
                             Self ! {accepted, AS, maps:get(owner, socket:info(AS)) =:= self()},
                             receive die -> ok after 5000 -> ok end
                     end),
    {ok, C2} = socket:open(inet, stream, tcp),
    ok = socket:connect(C2, Addr, 1000),
    {AS, Mine} = receive {accepted, X, Y} -> {X, Y} after 2000 -> exit(no_accept) end,
    io:format("accepted socket owned by its acceptor: ~p~n", [Mine]),
    MRef2 = monitor(process, Acceptor),
    Acceptor ! die,
    receive {'DOWN', MRef2, _, _, _} -> ok after 2000 -> ok end,
    io:format("client reads closed: ~p~n", [socket:recv(C2, 0, 2000)]),
    wait_until(fun() -> maps:get(owner, socket:info(AS)) =:= undefined end),
    io:format("accepted socket closed: ~p~n", [socket:send(AS, <<"x">>)]),
    [ok = socket:close(S) || S <- [C2, A, L]].

%% ---- owner-only options ----

not_owner() ->
    {ok, S} = socket:open(inet, stream, tcp),
    Self = self(),
    spawn(fun() ->
                  Self ! {results,
                          [{controlling_process, socket:setopt(S, {otp, controlling_process}, self())},
                           {meta, socket:setopt(S, {otp, meta}, mine)},
                           {get_meta, socket:getopt(S, {otp, meta})},
                           {reuseaddr, socket:setopt(S, {socket, reuseaddr}, true)},
                           {get_reuseaddr, socket:getopt(S, {socket, reuseaddr})},
                           {iow, socket:setopt(S, {otp, iow}, true)},
                           {sockname, element(1, socket:sockname(S))}]}
          end),
    io:format("from another process: ~p~n", [receive {results, R} -> R after 2000 -> timeout end]),
    io:format("owner unchanged: ~p~n", [socket:getopt(S, {otp, controlling_process}) =:= {ok, self()}]),
    io:format("owner sets meta: ~p ~p~n", [socket:setopt(S, {otp, meta}, ours), socket:getopt(S, {otp, meta})]),
    %% any process may close
    spawn(fun() -> Self ! {close, socket:close(S)} end),
    io:format("close by another process: ~p~n", [receive {close, C} -> C after 2000 -> timeout end]),
    io:format("then: ~p~n", [socket:getopt(S, {otp, meta})]).

%% ---- controlling_process handover ----

handover() ->
    {L, Addr} = listener(),
    Self = self(),
    Old = spawn(fun() ->
                        {ok, C} = socket:open(inet, stream, tcp),
                        ok = socket:connect(C, Addr, 1000),
                        R = socket:setopt(C, {otp, controlling_process}, Self),
                        Self ! {handed, C, R, socket:setopt(C, {otp, meta}, old)},
                        receive die -> exit(die) after 5000 -> ok end
                end),
    {C, R, R2} = receive {handed, X, Y, Z} -> {X, Y, Z} after 2000 -> exit(no_handover) end,
    io:format("handover: ~p, old owner then: ~p~n", [R, R2]),
    io:format("new owner is self: ~p~n", [socket:getopt(C, {otp, controlling_process}) =:= {ok, self()}]),
    {ok, A} = socket:accept(L, 1000),
    MRef = monitor(process, Old),
    Old ! die,
    receive {'DOWN', MRef, _, _, _} -> ok after 2000 -> ok end,
    timer:sleep(50),
    io:format("open after the old owner died: ~p~n", [socket:send(C, <<"alive">>)]),
    io:format("peer: ~p~n", [socket:recv(A, 5, 1000)]),
    info("after handover", C),
    %% hand it to a process that dies: the socket closes then
    New = spawn(fun() -> receive die -> ok after 5000 -> ok end end),
    io:format("hand to another: ~p~n", [socket:setopt(C, {otp, controlling_process}, New)]),
    io:format("old owner now: ~p~n", [socket:setopt(C, {otp, meta}, x)]),
    MRef2 = monitor(process, New),
    New ! die,
    receive {'DOWN', MRef2, _, _, _} -> ok after 2000 -> ok end,
    io:format("peer sees the close: ~p~n", [socket:recv(A, 0, 2000)]),
    wait_until(fun() -> maps:get(owner, socket:info(C)) =:= undefined end),
    io:format("closed: ~p~n", [socket:send(C, <<"x">>)]),
    %% hand it to a dead process: ok, and it closes
    {ok, C2} = socket:open(inet, stream, tcp),
    Dead = spawn(fun() -> ok end),
    MRef3 = monitor(process, Dead),
    receive {'DOWN', MRef3, _, _, _} -> ok after 2000 -> ok end,
    io:format("hand to a dead process: ~p~n", [socket:setopt(C2, {otp, controlling_process}, Dead)]),
    wait_until(fun() -> maps:get(owner, socket:info(C2)) =:= undefined end),
    io:format("then: ~p~n", [socket:getopt(C2, {otp, meta})]),
    [ok = socket:close(S) || S <- [A, L]].

%% ---- the registry ----

registry() ->
    N0 = socket:number_of(),
    {ok, T} = socket:open(inet, stream, tcp),
    {ok, U} = socket:open(inet, dgram, udp),
    {ok, X} = socket:open(local, stream),
    {ok, Y} = socket:open(inet6, dgram, udp, #{use_registry => false}),
    io:format("three more: ~p~n", [socket:number_of() - N0]),
    All = socket:which_sockets(),
    io:format("listed: ~p~n", [[lists:member(S, All) || S <- [T, U, X, Y]]]),
    Ours = fun(L) -> [N || {N, S} <- [{t, T}, {u, U}, {x, X}, {y, Y}], lists:member(S, L)] end,
    io:format("tcp: ~p~n", [Ours(socket:which_sockets(tcp))]),
    io:format("udp: ~p~n", [Ours(socket:which_sockets(udp))]),
    io:format("inet: ~p~n", [Ours(socket:which_sockets(inet))]),
    io:format("local: ~p~n", [Ours(socket:which_sockets(local))]),
    io:format("stream: ~p~n", [Ours(socket:which_sockets(stream))]),
    io:format("dgram: ~p~n", [Ours(socket:which_sockets(dgram))]),
    io:format("owned by self: ~p~n", [Ours(socket:which_sockets(self()))]),
    io:format("by fun: ~p~n", [Ours(socket:which_sockets(fun(#{type := Ty}) -> Ty =:= dgram end))]),
    io:format("use_registry of the unlisted: ~p~n", [socket:getopt(Y, {otp, use_registry})]),
    io:format("turn it on: ~p~n", [socket:setopt(Y, {otp, use_registry}, true)]),
    io:format("now listed: ~p ~p~n", [lists:member(Y, socket:which_sockets()), socket:number_of() - N0]),
    ok = socket:close(T),
    io:format("after one close: ~p~n", [socket:number_of() - N0]),
    [ok = socket:close(S) || S <- [U, X, Y]],
    io:format("after all closed: ~p ~p~n", [socket:number_of() - N0, Ours(socket:which_sockets())]),
    %% a socket whose owner dies leaves the registry too
    Self = self(),
    P = spawn(fun() -> {ok, S} = socket:open(inet, stream, tcp), Self ! {opened, S}, receive die -> ok end end),
    receive {opened, _} -> ok after 2000 -> ok end,
    io:format("opened by another: ~p~n", [socket:number_of() - N0]),
    P ! die,
    wait_until(fun() -> socket:number_of() =:= N0 end),
    io:format("after its owner died: ~p~n", [socket:number_of() - N0]).

%% ---- helpers ----

listener() ->
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => {127,0,0,1}, port => 0}),
    ok = socket:listen(L, 10),
    {ok, Addr} = socket:sockname(L),
    {L, Addr}.

%% A listener, a connected client and the accepted socket.
pair() ->
    {L, Addr} = listener(),
    {ok, C} = socket:open(inet, stream, tcp),
    ok = socket:connect(C, Addr, 1000),
    {ok, A} = socket:accept(L, 1000),
    {L, C, A}.

owner_is_self(S) -> maps:get(owner, socket:info(S)) =:= self().

num(S, Key) -> maps:get(Key, socket:info(S)).

info(Label, S) ->
    io:format("info ~s: ~p~n", [Label, maps:with([num_acceptors, num_readers, num_writers, rstates, wstates], socket:info(S))]).

handle({select, {select_info, _, H}}) -> H;
handle({select, {{select_info, _, H}, _}}) -> H;
handle(_) -> none.

wait_msg(S, H) ->
    receive
        {'$socket', S, _, H} = M -> M;
        {'$socket', S, abort, {H, _}} = M -> M
    after 2000 -> timeout
    end.

%% Polls F (every 10 ms, for at most 2 s).
wait_until(F) -> wait_until(F, 200).
wait_until(_, 0) -> timeout;
wait_until(F, N) ->
    case F() of
        true -> ok;
        _ -> timer:sleep(10), wait_until(F, N - 1)
    end.

flush() ->
    receive M -> [shape(M) | flush()] after 50 -> [] end.

shape(T) -> shape(T, []).
shape(T, Names) ->
    case lists:keyfind(T, 1, Names) of
        {_, Name} -> Name;
        false -> shape1(T, Names)
    end.
shape1(T, Names) when is_tuple(T) -> list_to_tuple([shape(E, Names) || E <- tuple_to_list(T)]);
shape1(T, Names) when is_list(T) -> [shape(E, Names) || E <- T];
shape1(T, _) when is_reference(T) -> ref;
shape1(T, _) when is_pid(T) -> pid;
shape1(T, _) -> T.
