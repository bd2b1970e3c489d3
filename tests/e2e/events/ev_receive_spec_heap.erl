%% ev_receive_spec_heap: a 'receive' match spec that builds terms ({message, {{Node, Sender}}})
%% runs while the receiving process is in the middle of building data of its own: the receiver
%% conses a list element per message and checks it at the end; the tracer counts what it got.
%% Every message is traced once with the {Node, Sender} extra, and the receiver's own data is
%% intact.
-module(ev_receive_spec_heap).
-export([main/0]).

-define(N, 20000).

main() ->
    Self = self(),
    T = spawn(fun() -> tracer(0, 0) end),
    R = spawn(fun() -> receiver(Self, []) end),
    1 = erlang:trace_pattern('receive', [{['$1', '$2', {item, '_'}], [], [{message, {{'$1', '$2'}}}]}], []),
    1 = erlang:trace(R, true, ['receive', {tracer, T}]),
    [R ! {item, I} || I <- lists:seq(1, ?N)],
    R ! done,
    receive {result, Len, Sum, Ok} -> io:format("receiver: ~p items, sum ~p, intact ~p~n", [Len, Sum, Ok]) end,
    Ref = erlang:trace_delivered(R),
    receive {trace_delivered, R, Ref} -> ok end,
    T ! {report, self()},
    receive {traced, N, Good} -> io:format("tracer: ~p events, ~p with {Node, Sender}~n", [N, Good]) end,
    1 = erlang:trace_pattern('receive', true, []),
    ok.

receiver(Main, Acc) ->
    receive
        {item, I} -> receiver(Main, [{I, [I, I + 1]} | Acc]);
        done ->
            Ok = lists:all(fun({I, [A, B]}) -> A =:= I andalso B =:= I + 1; (_) -> false end, Acc),
            Main ! {result, length(Acc), lists:sum([I || {I, _} <- Acc]), Ok}
    end.

tracer(N, Good) ->
    receive
        {report, From} -> From ! {traced, N, Good};
        {trace, _, 'receive', {item, _}, {nonode@nohost, P}} when is_pid(P) -> tracer(N + 1, Good + 1);
        {trace, _, 'receive', _} -> tracer(N + 1, Good)
    end.
