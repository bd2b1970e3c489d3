-module(fmt_p_binaries).
-export([main/0]).

%% ~p of binaries: printable vs not, long binaries, binaries in containers, bitstrings.
main() ->
    io:format("~p~n", [<<"short">>]),
    io:format("~p~n", [<<"This is a rather long binary string that will certainly exceed the default line width of eighty">>]),
    io:format("~p~n", [list_to_binary(lists:seq(0, 99))]),
    io:format("~p~n", [list_to_binary(lists:duplicate(50, 0))]),
    io:format("~p~n", [[<<"one">>, <<"two">>, <<1, 2, 3>>, <<"three">>, <<>>, <<"four">>, <<"five">>, <<"six">>, <<"seven">>]]),
    io:format("~p~n", [{data, <<"payload with \"quotes\", tabs\t, and newlines\n inside">>}]),
    io:format("~p~n", [<<"line one\nline two\nline three\n">>]),
    io:format("~p~n", [<< <<I:7>> || I <- lists:seq(1, 30) >>]),
    io:format("~p~n", [<<1:1, 0:1, 1:1>>]),
    io:format("~p~n", [[<<"k", (integer_to_binary(I))/binary>> || I <- lists:seq(1, 20)]]),
    io:format("~p~n", [#{<<"content-type">> => <<"application/json">>, <<"content-length">> => <<"1234">>,
                         <<"x-request-id">> => <<"abcdef0123456789">>}]),
    io:format("~p~n", [<<"mixed", 0, "nul">>]),
    io:format("~p~n", [<<"esc \e bell \a del ", 127>>]),
    io:format("~w~n", [<<"abc", 1:4>>]),
    ok.
