-module(records).
-export([main/0]).

-record(point, {x = 0, y = 0}).
-record(person, {name, age = 0, email = "none", tags = [] :: list()}).
-record(empty, {}).
-record(nested, {p = #point{}, label = <<"lbl">>}).

%% Records: defaults, update, access, index, matching, guards, printing as tuples.
main() ->
    P0 = #point{},
    P1 = #point{x = 3},
    P2 = P1#point{y = 4},
    io:format("~p ~p ~p~n", [P0, P1, P2]),
    io:format("x=~w y=~w~n", [P2#point.x, P2#point.y]),
    io:format("index ~w ~w~n", [#point.x, #person.email]),
    io:format("info ~w ~w~n", [record_info(fields, person), record_info(size, person)]),
    Bob = #person{name = "Bob", age = 42},
    io:format("~p~n", [Bob]),
    Bob2 = Bob#person{age = Bob#person.age + 1, tags = [admin]},
    io:format("~p~n", [Bob2]),
    #person{name = Name, age = Age} = Bob2,
    io:format("~s ~w~n", [Name, Age]),
    io:format("is_record ~w ~w ~w~n", [is_record(Bob, person), is_record(P0, person), is_record({person}, person)]),
    io:format("classify ~w~n", [[classify(X) || X <- [P0, P2, Bob, #empty{}, {point, 1}]]]),
    io:format("empty ~p~n", [#empty{}]),
    N = #nested{},
    io:format("nested ~p~n", [N]),
    io:format("nested access ~w~n", [(N#nested.p)#point.y]),
    N2 = N#nested{p = (N#nested.p)#point{x = 99}},
    io:format("nested upd ~p~n", [N2]),
    People = [#person{name = "Zed", age = 30}, #person{name = "Amy", age = 25}, #person{name = "Kim", age = 35}],
    Sorted = lists:keysort(#person.age, People),
    io:format("sorted ~p~n", [[P#person.name || P <- Sorted]]),
    io:format("older ~p~n", [[Nm || #person{name = Nm, age = A} <- People, A > 28]]),
    io:format("tuple ~w~n", [tuple_size(Bob)]),
    io:format("bad ~p~n", [try (id(P0))#person.name catch error:R -> R end]),
    ok.

classify(#point{x = 0, y = 0}) -> origin;
classify(#point{}) -> point;
classify(P) when is_record(P, person), P#person.age > 40 -> senior;
classify(#person{}) -> person;
classify(#empty{}) -> empty;
classify(_) -> other.

id(X) -> X.
