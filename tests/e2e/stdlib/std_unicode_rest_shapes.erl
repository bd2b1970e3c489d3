%% unicode:characters_to_list/binary on bad or unfinished UTF-8: whether an unfinished
%% sequence at the end is `incomplete` or an `error`, and the exact shape of the rest
%% (sub-binary from the bad byte, kept-aside bytes from an earlier binary first, each
%% enclosing list's tail wrapped around), as erts builds them; uri_string relies on it.
-module(std_unicode_rest_shapes).
-export([main/0]).

main() ->
    Inputs =
        [<<16#E0,16#41>>, <<16#F6>>, <<16#F8>>, <<16#C0>>, <<16#E0,16#80>>, <<16#ED,16#A0>>,
         <<16#F4,16#90>>, <<16#F5,16#80,16#80>>, <<"ab", 16#C3>>, [<<16#C3>>], [[<<16#C3>>]],
         [<<16#E0>>, <<16#41,16#42>>], [<<16#F6>>, <<16#80,16#80,16#80>>], [<<"a",16#F6>>, 66],
         [<<"a",16#C3>>, <<16#80>>, 67], [<<"x">>, [<<16#E0,16#41>>, 67], 68],
         [<<"ab">>, <<16#E0,16#A0>>, <<16#41>>], [<<"a",255,"b">>, 67],
         [[<<"a",255,"b">>, 67], 68], [<<"a",255>>], [[<<255>>]], [65, 16#110000, 66],
         [[65, 16#110000], 66], [<<"a">>|<<255>>], [<<"a", 16#C3>>, [<<16#41>>]],
         [[<<"a", 16#C3>>], 66], [<<16#C3>>, 16#110000], [[[<<"a",255,"b">>]], 69],
         [[<<"a",255,"b">>], [], 69], [<<"a", 16#C3>>, [<<16#41>>, 70], 71],
         [[<<"a", 16#C3>>], [<<16#A9, 16#41>>, 70], 71], [<<16#C3>>, [[<<16#41>>]]],
         [<<"a", 16#E0>>, <<16#A0>>, <<16#41>>, 72], [[<<16#E0>>, <<16#A0>>], 73],
         [<<16#C3>> | <<16#41>>], [1,2|<<255>>], [1 bsl 70], [-1], [16#D800],
         [<<16#EF,16#BF,16#BF>>], [<<"foo+bar=1&amp;">>,<<"%C3%B6=2", 16#F6>>],
         [16#110000, foo], <<1:7>>, [<<"a">>, <<1:7>>], [<<"a">>|foo]],
    lists:foreach(
      fun(X) ->
              io:format("~w~n  ~w~n  ~w~n",
                        [result(fun() -> unicode:characters_to_list(X) end),
                         result(fun() -> unicode:characters_to_binary(X) end),
                         result(fun() -> unicode:characters_to_list(X, latin1) end)])
      end, Inputs),
    io:format("~p~n", [uri_string:dissect_query([<<"foo+bar=1&amp;">>,<<"%C3%B6=2ö">>])]).

result(F) ->
    try F() catch error:Reason -> {error, Reason} end.
