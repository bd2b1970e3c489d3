-module(stack_first_frame).
%% id/1 is exported so that erlc cannot infer its result type: with a known non-number operand
%% OTP 25's JIT raises badarith from '+' without an erlang:'+' frame, a JIT-specific quirk.
-export([main/0, id/1]).

%% Only the FIRST stack frame is inspected, and only {M, F, Arity}.
main() ->
    show(fun() -> needs_int(id(atom)) end),
    show(fun() -> add_one(id(atom)) end),
    show(fun() -> two_args(id(1), id(x)) end),
    show(fun() -> raise_plain() end),
    show(fun() -> raise_args(id(1)) end),
    ok.

show(F) ->
    try F() of
        V -> io:format("value ~p~n", [V])
    catch
        C:R:Stack ->
            io:format("~p ~p stack_is_list=~w first=~p~n", [C, R, is_list(Stack), frame(Stack)])
    end.

frame([{M, F, Args, _} | _]) when is_list(Args) -> {M, F, length(Args)};
frame([{M, F, Arity, _} | _]) -> {M, F, Arity};
frame(_) -> none.

needs_int(N) when is_integer(N) -> N.

add_one(X) -> X + 1.

raise_plain() -> erlang:error(plain), unreachable.

raise_args(X) -> erlang:error(with_args, [X, extra]).

two_args(A, B) when A > 0, is_integer(B) -> ok.

id(X) -> X.
