-module(type_tests).
-export([main/0]).

-record(a, {x}).
-record(b, {x, y}).

%% Type-test BIFs called as functions (not in guards) over many term kinds.
main() ->
    Terms = [{int, 42}, {big, 1 bsl 80}, {neg, -7}, {float, 3.5}, {atom, hello}, {bool, true},
             {nil, []}, {list, [1, 2]}, {improper, [1 | 2]}, {tuple, {a, b}}, {empty_tuple, {}},
             {map, #{a => 1}}, {binary, <<"ab">>}, {bitstring, <<1:3>>}, {fun0, fun() -> ok end},
             {fun2, fun(_, _) -> ok end}, {ext_fun, fun lists:map/2}, {ref, make_ref()}],
    io:format("~-12s ~s~n", ["name", "int flt num atm bool list tup map bin bits fun f/2 ref rec"]),
    lists:foreach(fun({Name, T}) ->
        Bs = [is_integer(T), is_float(T), is_number(T), is_atom(T), is_boolean(T), is_list(T),
              is_tuple(T), is_map(T), is_binary(T), is_bitstring(T), is_function(T),
              is_function(T, 2), is_reference(T), is_record(T, a, 2)],
        io:format("~-12s ~s~n", [atom_to_list(Name), [flag(B) || B <- Bs]])
    end, Terms),
    io:format("pid/port ~w ~w ~w~n", [is_pid(self()), is_pid(a), is_port(a)]),
    io:format("record ~w ~w ~w~n", [is_record(id({a, 1}), a), is_record(id({a, 1}), b), is_record(id({a}), a, 1)]),
    ok.

flag(true) -> "   X";
flag(false) -> "   .".

id(X) -> X.
