-module(io_many_lines).
-export([main/0]).

%% Many lines printed quickly: 100000 separate io:format calls of one short line each, then
%% a final count. Every line must reach stdout, in order, before the program ends (the
%% expected output is the numbers 1 to 100000, one per line, then the count).
main() ->
    Count = loop(1, 100000, 0),
    io:format("lines printed: ~w~n", [Count]).

loop(I, Max, Count) when I > Max -> Count;
loop(I, Max, Count) ->
    io:format("~w~n", [I]),
    loop(I + 1, Max, Count + 1).
