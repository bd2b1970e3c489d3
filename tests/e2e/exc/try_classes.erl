-module(try_classes).
-export([main/0]).

%% try/catch with the three classes: throw, error, exit.
main() ->
    Actions = [fun() -> throw(ball) end,
               fun() -> erlang:error(oops) end,
               fun() -> exit(bye) end,
               fun() -> throw({complex, [1, 2], "s"}) end,
               fun() -> erlang:error({custom, 42}) end,
               fun() -> exit({shutdown, reason}) end,
               fun() -> normal_value end,
               fun() -> erlang:error(with_args, [a, b]) end,
               fun() -> exit(normal) end,
               fun() -> throw(1.5) end],
    lists:foreach(fun(F) ->
        R = try F() of
                V -> {returned, V}
            catch
                throw:T -> {caught_throw, T};
                error:E -> {caught_error, E};
                exit:X -> {caught_exit, X}
            end,
        io:format("~p~n", [R])
    end, Actions),
    lists:foreach(fun(F) ->
        R = try F() catch C:Rsn -> {C, Rsn} end,
        io:format("generic ~p~n", [R])
    end, Actions),
    R1 = try throw(x) catch error:_ -> no; throw:x -> yes end,
    io:format("order ~w~n", [R1]),
    R2 = try throw(x) catch _:_ -> any end,
    io:format("wild ~w~n", [R2]),
    R3 = try exit(e) catch Class:_ when Class =:= exit -> guarded end,
    io:format("guard ~w~n", [R3]),
    R4 = try throw(7) catch 7 -> seven end,
    io:format("implicit throw class ~w~n", [R4]),
    ok.
