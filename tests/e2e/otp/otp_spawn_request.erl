-module(otp_spawn_request).
-export([main/0, w/1]).

%% erlang:spawn_request/1..5 on the local node (and a node that is not connected), the
%% replies and monitors it sets up, and OTP's rpc/erpc built on it.
w(X) -> exit({done, X}).

strip({Tag, Ref, ok, Pid}) when is_reference(Ref), is_pid(Pid) -> {Tag, ref, ok, pid};
strip({Tag, Ref, error, Why}) when is_reference(Ref) -> {Tag, ref, error, Why};
strip({Tag, Ref, process, Pid, Why}) when is_reference(Ref), is_pid(Pid) -> {Tag, ref, process, pid, Why};
strip(Other) -> Other.

next() -> receive M -> strip(M) after 1000 -> timeout end.

%% The exception and the frame that raised it (the frames below depend on how main/0 was called).
top(F) ->
    try F() catch C:R:St -> {C, R, hd(St)} end.

main() ->
    process_flag(trap_exit, true),
    R1 = erlang:spawn_request(?MODULE, w, [1], [monitor]),
    {spawn_reply, R1, ok, P1} = receive {spawn_reply, _, _, _} = M1 -> M1 end,
    io:format("reply ~p~n", [is_pid(P1)]),
    receive {'DOWN', R1, process, P1, D1} -> io:format("down ~p~n", [D1]) end,
    R2 = erlang:spawn_request(?MODULE, w, [2], [{reply, error_only}, {monitor, [{tag, {my, tag}}]}]),
    receive {{my, tag}, R2, process, _, D2} -> io:format("tagged down ~p~n", [D2]) end,
    R3 = erlang:spawn_request(foo@bar, ?MODULE, w, [3], [{reply_tag, rt}]),
    receive {rt, R3, error, E3} -> io:format("other node ~p~n", [E3]) end,
    R4 = erlang:spawn_request(fun() -> ok end),
    receive {spawn_reply, R4, ok, P4} when is_pid(P4) -> io:format("fun ok~n") end,
    io:format("abandon ~p~n", [erlang:spawn_request_abandon(R4)]),
    io:format("~p~n", [top(fun() -> erlang:spawn_request_abandon(foo) end)]),
    R5 = erlang:spawn_request(?MODULE, w, [5], [bad]),
    receive {spawn_reply, R5, error, E5} -> io:format("bad option ~p~n", [E5]) end,
    R6 = erlang:spawn_request(?MODULE, w, [6], [{reply, maybe}]),
    io:format("bad reply ~p~n", [next()]),
    _ = R6,
    io:format("~p~n", [top(fun() -> erlang:spawn_request(?MODULE, w, [1 | 2], []) end)]),
    io:format("~p~n", [top(fun() -> erlang:spawn_request(1, w, [], []) end)]),
    io:format("~p~n", [top(fun() -> erlang:spawn_request(fun(_) -> ok end) end)]),
    io:format("~p~n", [top(fun() -> erlang:spawn_request(?MODULE, w, [], [{reply, yes} | x]) end)]),
    R7 = erlang:spawn_request(nosuchmod, f, [], [{reply, yes}]),
    receive {spawn_reply, R7, ok, P7} -> io:format("undefined function still spawns ~p~n", [is_pid(P7)]) end,
    R8 = erlang:spawn_request(node(), ?MODULE, w, [8], [link, {reply, success_only}]),
    receive {spawn_reply, R8, ok, P8} ->
        io:format("linked ~p~n", [lists:member(P8, element(2, process_info(self(), links)))
                                  orelse receive {'EXIT', P8, _} -> true after 0 -> false end])
    end,
    flush(),
    erlang:spawn_request(?MODULE, w, [9], [{reply, no}]),
    io:format("no reply ~p~n", [next()]),
    %% OTP's erpc and rpc on this node
    io:format("erpc ~p~n", [erpc:call(node(), lists, seq, [1, 5])]),
    io:format("erpc error ~p~n", [top(fun() -> erpc:call(node(), erlang, error, [oops]) end)]),
    io:format("erpc exit ~p~n", [top(fun() -> erpc:call(node(), erlang, exit, [bye]) end)]),
    io:format("rpc ~p~n", [rpc:call(node(), lists, reverse, [[a, b, c]])]),
    io:format("pmap ~p~n", [rpc:pmap({lists, duplicate}, [x], [1, 2, 3])]),
    io:format("multicall ~p~n", [rpc:multicall([node()], erlang, length, [[a, b]])]),
    ok.

flush() -> receive _ -> flush() after 100 -> ok end.
