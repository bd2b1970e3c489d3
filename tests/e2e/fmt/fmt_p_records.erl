-module(fmt_p_records).
-export([main/0]).

-record(address, {street = "Main Street 1", city = "Springfield", zip = 12345, country = usa}).
-record(person, {name, age, address = #address{}, tags = [], meta = #{}}).
-record(company, {name, employees = [], founded, hq = #address{}}).

%% ~p of nested records (printed as tuples since io:format has no record info).
main() ->
    P1 = #person{name = "Alice Anderson", age = 34, tags = [admin, developer, reviewer]},
    P2 = #person{name = "Bob", age = 27, address = #address{street = "Elm Road 22", city = "Shelbyville"},
                 meta = #{team => backend, level => senior}},
    io:format("~p~n", [P1]),
    io:format("~p~n", [P2]),
    C = #company{name = <<"ACME Corporation">>, employees = [P1, P2], founded = {1999, 12, 31}},
    io:format("~p~n", [C]),
    io:format("~w~n", [P1]),
    io:format("~p~n", [[#address{zip = Z} || Z <- [1, 22, 333]]]),
    io:format("~p~n", [{ok, {reply, P2, {state, [C], 0}}}]),
    io:format("~p~n", [{person, undefined, undefined, undefined, [], #{}}]),
    io:format("short ~p~n", [#address{}]),
    ok.
