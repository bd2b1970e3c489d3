-module(selective_receive).
-export([main/0]).

%% Selective receive: out-of-order matching, messages that do not match stay in the mailbox in
%% their original order, guards in patterns, and a match against a ref with many messages ahead.
main() ->
    Self = self(),
    [Self ! M || M <- [{b, 1}, {a, 1}, {b, 2}, {c, 1}, {a, 2}, {c, 2}]],
    A1 = receive {a, X1} -> X1 end,
    A2 = receive {a, X2} -> X2 end,
    io:format("a's: ~p ~p~n", [A1, A2]),
    C = receive {c, Y} when Y > 1 -> Y end,
    io:format("c with guard > 1: ~p~n", [C]),
    io:format("left: ~p~n", [flush()]),
    %% Many non-matching messages ahead of the one we want; the receive must find it and
    %% leave the rest untouched and in order.
    [Self ! {noise, N} || N <- lists:seq(1, 1000)],
    Self ! {target, 42},
    [Self ! {noise, N} || N <- lists:seq(1001, 2000)],
    T = receive {target, V} -> V end,
    io:format("target: ~p~n", [T]),
    Left = flush(),
    io:format("noise kept in order: ~p (~p msgs)~n", [Left =:= [{noise, N} || N <- lists:seq(1, 2000)], length(Left)]),
    %% The wanted message arrives later, from another process, while non-matching ones pile up.
    P = spawn(fun() ->
                      [Self ! {junk, N} || N <- lists:seq(1, 500)],
                      timer:sleep(20),
                      [Self ! {junk, N} || N <- lists:seq(501, 1000)],
                      Self ! {late, ok},
                      [Self ! {junk, N} || N <- lists:seq(1001, 1500)]
              end),
    Late = receive {late, L} -> L end,
    io:format("late: ~p~n", [Late]),
    wait_dead(P),
    Junk = flush(),
    io:format("junk kept in order: ~p (~p msgs)~n", [Junk =:= [{junk, N} || N <- lists:seq(1, 1500)], length(Junk)]),
    %% Reference matching (the make_ref/receive optimisation pattern) with a full mailbox.
    [Self ! {reply, make_ref(), N} || N <- lists:seq(1, 300)],
    Ref = make_ref(),
    Srv = spawn(fun() -> Self ! {reply, Ref, the_answer} end),
    Ans = receive {reply, Ref, A} -> A end,
    io:format("matched by ref: ~p~n", [Ans]),
    wait_dead(Srv),
    io:format("other replies left: ~p~n", [length(flush())]),
    %% Priority receive: take all {high, _} first, then {low, _}.
    [Self ! M || M <- [{low, 1}, {high, 1}, {low, 2}, {high, 2}, {low, 3}, {high, 3}]],
    io:format("priority order: ~p~n", [priority([])]),
    %% A receive that times out leaves the mailbox intact.
    [Self ! {keep, N} || N <- [1, 2, 3]],
    R = receive {nomatch, _} -> matched after 0 -> timeout end,
    io:format("after 0 with non-matching msgs: ~p, kept: ~p~n", [R, flush()]),
    %% Nested receives: inner receive consumes a later message, outer one continues where it should.
    [Self ! M || M <- [x, y, z]],
    Nested = receive
                 y -> receive Any -> {y_then, Any} end
             end,
    io:format("nested: ~p, left: ~p~n", [Nested, flush()]),
    ok.

priority(Acc) ->
    receive
        {high, N} -> priority([{high, N} | Acc])
    after 0 ->
        receive
            {low, N} -> priority([{low, N} | Acc])
        after 0 -> lists:reverse(Acc)
        end
    end.

flush() ->
    receive M -> [M | flush()] after 0 -> [] end.

wait_dead(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.
