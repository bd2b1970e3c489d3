-module(uncaught_error).
-export([main/0]).

%% Deliberately crashes: main/0 calls a function that does 1 div 0 on a runtime value.
%% No .expected file: the harness checks the uncaught-error behaviour separately.
main() ->
    io:format("before crash~n"),
    Result = divide(1, zero()),
    io:format("never printed ~p~n", [Result]).

divide(A, B) -> A div B.

zero() -> list_to_integer("0").
