-module(lang_recv_marker).
-export([main/0]).

%% Receives of a reply to a fresh reference (the compiler's recv_marker instructions): the
%% reply is found past a long queue, and the queue around the marker stays intact when the
%% messages before the marker are removed in between.
echo() ->
    receive
        {From, Ref, Msg} -> From ! {Ref, Msg}, echo();
        stop -> ok
    end.

call(Echo, Msg) ->
    Ref = make_ref(),
    Echo ! {self(), Ref, Msg},
    receive {Ref, Reply} -> Reply end.

%% The last message before the marker is taken by another receive before the reply's.
call_taking(Echo, Msg) ->
    Ref = make_ref(),
    Echo ! {self(), Ref, Msg},
    receive {other, X} -> io:format("took ~p~n", [X]) end,
    receive {Ref, Reply} -> Reply end.

%% Replies to two references made one after the other, received in the opposite order.
call_two(Echo) ->
    R1 = make_ref(),
    Echo ! {self(), R1, one},
    R2 = make_ref(),
    Echo ! {self(), R2, two},
    B = receive {R2, Y} -> Y end,
    A = receive {R1, X} -> X end,
    {A, B}.

queue() -> element(2, process_info(self(), messages)).

main() ->
    Echo = spawn(fun echo/0),
    [self() ! {junk, N} || N <- lists:seq(1, 20000)],
    Replies = [call(Echo, N) || N <- lists:seq(1, 2000)],
    io:format("~p replies, sum ~p, queue ~p~n", [length(Replies), lists:sum(Replies), length(queue())]),
    [receive {junk, N} -> ok end || N <- lists:seq(1, 20000)],
    self() ! first,
    self() ! {other, 1},
    io:format("~p~n", [call_taking(Echo, hello)]),
    io:format("~p~n", [queue()]),
    self() ! {other, 2},
    self() ! last,
    io:format("~p~n", [call_taking(Echo, again)]),
    io:format("~p~n", [queue()]),
    io:format("~p~n", [call_two(Echo)]),
    receive first -> ok end,
    receive last -> ok end,
    self() ! {other, 3},
    io:format("~p~n", [call_taking(Echo, empty_before)]),
    io:format("~p~n", [queue()]),
    Echo ! stop,
    ok.
