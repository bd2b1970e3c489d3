-module(fmt_w_vs_p).
-export([main/0]).

%% The same terms printed with ~w and ~p.
main() ->
    Terms = [42, -17, 1 bsl 66, 3.0, -0.001, 1.0e100, hello, 'Hello', 'with space', [],
             "text", [1, 2, 3], [$a, 1], {}, {a, "b", <<"c">>}, <<>>, <<1, 2, 3>>, <<"bin">>,
             <<1:5>>, #{}, #{1 => "one", two => <<"2">>}, [a | b], [[]], {[], {}, #{}},
             "tab\t", 'quote\'s'],
    lists:foreach(fun(T) -> io:format("~w~n~p~n", [T, T]) end, Terms),
    ok.
