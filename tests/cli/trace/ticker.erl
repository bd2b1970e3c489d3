%% tests/cli/trace/ticker.erl — a program that runs for a while (TICKS ticks 50 ms apart; 30
%% by default, or the count in the environment variable TICKS): limits, interruptions,
%% progress.
-module(ticker).
-export([main/0, tick/1]).

main() ->
    Ticks = case os:getenv("TICKS") of
                false -> 30;
                Text -> list_to_integer(Text)
            end,
    ok = lists:foreach(fun(I) -> tick(I), timer:sleep(50) end, lists:seq(1, Ticks)),
    io:format("ticked ~p~n", [Ticks]).

tick(I) -> {tick, I}.
