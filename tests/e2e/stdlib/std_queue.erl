-module(std_queue).
-export([main/0]).
-compile(nowarn_deprecated_function).  % queue:lait/1

%% queue: original API (new, in, in_r, out, out_r, from_list, to_list, len, is_empty,
%% member, reverse, join, split, filter, filtermap, fold, any, all, delete, delete_r,
%% delete_with, get, get_r, peek, peek_r, drop, drop_r), the Okasaki API (cons, head, tail,
%% snoc, daeh, last, liat, init, lait), error cases on empty queues and non-queues.
main() ->
    Q0 = queue:new(),
    Q1 = queue:from_list([1, 2, 3, 4, 5]),
    t(internal_repr, fun() -> {Q1, queue:in(6, Q1), queue:in_r(0, Q1)} end),
    t(new, fun() -> {queue:is_empty(Q0), queue:len(Q0), queue:to_list(Q0), queue:is_queue(Q0)} end),
    t(is_queue_bad, fun() -> [queue:is_queue(X) || X <- [{[], []}, {[1], []}, {a, b}, [], foo]] end),
    t(in_out, fun() ->
        Q = queue:in(c, queue:in(b, queue:in(a, Q0))),
        {{value, A}, Q2} = queue:out(Q),
        {{value, C}, Q3} = queue:out_r(Q2),
        {A, C, queue:to_list(Q3), queue:out(queue:new()), queue:out_r(queue:new())} end),
    t(in_r, fun() -> queue:to_list(queue:in_r(z, queue:in_r(y, Q1))) end),
    t(len_member, fun() -> {queue:len(Q1), queue:member(3, Q1), queue:member(9, Q1)} end),
    t(reverse, fun() -> queue:to_list(queue:reverse(Q1)) end),
    t(join, fun() -> queue:to_list(queue:join(Q1, queue:from_list([a, b]))) end),
    t(split, fun() -> {A, B} = queue:split(2, Q1), {queue:to_list(A), queue:to_list(B)} end),
    t(split0, fun() -> {A, B} = queue:split(0, Q1), {queue:to_list(A), queue:to_list(B)} end),
    t(split_all, fun() -> {A, B} = queue:split(5, Q1), {queue:to_list(A), queue:to_list(B)} end),
    t(split_bad, fun() -> queue:split(6, Q1) end),
    t(filter, fun() -> queue:to_list(queue:filter(fun(X) -> X rem 2 =:= 1 end, Q1)) end),
    t(filter_expand, fun() -> queue:to_list(queue:filter(fun(X) when X < 3 -> [X, X]; (_) -> false end, Q1)) end),
    t(filtermap, fun() -> queue:to_list(queue:filtermap(fun(X) when X > 3 -> {true, X * 10}; (X) -> X =:= 1 end, Q1)) end),
    t(fold, fun() -> queue:fold(fun(X, Acc) -> [X | Acc] end, [], Q1) end),
    t(any_all, fun() -> {queue:any(fun(X) -> X > 4 end, Q1), queue:all(fun(X) -> X > 4 end, Q1), queue:all(fun(_) -> false end, Q0)} end),
    t(delete, fun() -> queue:to_list(queue:delete(3, queue:from_list([1, 3, 2, 3]))) end),
    t(delete_r, fun() -> queue:to_list(queue:delete_r(3, queue:from_list([1, 3, 2, 3]))) end),
    t(delete_none, fun() -> queue:to_list(queue:delete(9, Q1)) end),
    t(delete_with, fun() -> queue:to_list(queue:delete_with(fun(X) -> X > 2 end, Q1)) end),
    t(delete_with_r, fun() -> queue:to_list(queue:delete_with_r(fun(X) -> X > 2 end, Q1)) end),
    t(get, fun() -> {queue:get(Q1), queue:get_r(Q1)} end),
    t(peek, fun() -> {queue:peek(Q1), queue:peek_r(Q1), queue:peek(Q0), queue:peek_r(Q0)} end),
    t(drop, fun() -> {queue:to_list(queue:drop(Q1)), queue:to_list(queue:drop_r(Q1))} end),
    t(get_empty, fun() -> queue:get(Q0) end),
    t(get_r_empty, fun() -> queue:get_r(Q0) end),
    t(drop_empty, fun() -> queue:drop(Q0) end),
    t(drop_r_empty, fun() -> queue:drop_r(Q0) end),
    t(cons_head_tail, fun() -> Q = queue:cons(0, Q1), {queue:head(Q), queue:to_list(queue:tail(Q))} end),
    t(snoc_daeh_liat, fun() -> Q = queue:snoc(Q1, 6), {queue:daeh(Q), queue:last(Q), queue:to_list(queue:liat(Q)), queue:to_list(queue:init(Q)), queue:to_list(queue:lait(Q))} end),
    t(head_empty, fun() -> queue:head(Q0) end),
    t(tail_empty, fun() -> queue:tail(Q0) end),
    t(last_empty, fun() -> queue:last(Q0) end),
    t(liat_empty, fun() -> queue:liat(Q0) end),
    t(bad_queue, fun() -> queue:len(not_a_queue) end),
    t(bad_in, fun() -> queue:in(x, {a}) end),
    t(bad_from_list, fun() -> queue:from_list(notalist) end),
    t(long_sequence, fun() ->
        Q = lists:foldl(fun(X, Acc) when X rem 3 =:= 0 -> queue:in_r(X, Acc);
                           (X, Acc) -> queue:in(X, Acc) end, Q0, lists:seq(1, 30)),
        {Out, Rest} = lists:foldl(fun(_, {Os, Qa}) -> {{value, V}, Qb} = queue:out(Qa), {[V | Os], Qb} end, {[], Q}, lists:seq(1, 7)),
        {lists:reverse(Out), queue:to_list(Rest), queue:len(Rest)} end),
    ok.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, E} end,
    io:format("~s: ~p~n", [Label, R]).
