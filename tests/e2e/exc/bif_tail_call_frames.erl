%% A BIF reached by a tail call leaves its caller in the stack trace (OTP's loader calls it
%% from a frame); apply in tail position does not, except for the frame an error raised
%% through it names; a function that OTP writes in Erlang stays a real tail call.
-module(bif_tail_call_frames).
-export([main/0, tail_bif/1, tail_apply/3, body_apply/3, tail_erlang_fun/1, id/1]).

id(X) -> X.
tail_bif(X) -> atom_to_list(X).
tail_apply(M, F, A) -> erlang:apply(M, F, id(A)).
body_apply(M, F, A) -> R = erlang:apply(M, F, id(A)), {R}.
tail_erlang_fun(X) -> erlang:binary_to_atom(X).

stack(F) ->
    Parent = self(),
    spawn(fun() ->
                  R = try F() of V -> {value, V} catch C:E:S -> {C, E, [{M, Fn, A} || {M, Fn, A, _} <- S]} end,
                  Parent ! {self(), R}
          end),
    receive {_, R} -> R end.

main() ->
    Cases = [{tail_bif, fun() -> tail_bif(1) end},
             {tail_apply_error2, fun() -> tail_apply(erlang, error, [foo, []]) end},
             {tail_apply_error1, fun() -> tail_apply(erlang, error, [foo]) end},
             {tail_apply_throw, fun() -> tail_apply(erlang, throw, [foo]) end},
             {tail_apply_bif, fun() -> tail_apply(erlang, atom_to_list, [1]) end},
             {body_apply_bif, fun() -> body_apply(erlang, atom_to_list, [1]) end},
             {body_apply_error2, fun() -> body_apply(erlang, error, [foo, [a]]) end},
             {tail_erlang_fun, fun() -> tail_erlang_fun(an_argument) end},
             {tail_lists_reverse, fun() -> lists:reverse(id(x), []) end},
             {ok_apply, fun() -> tail_apply(lists, reverse, [[1, 2]]) end}],
    [io:format("~p: ~p~n", [Name, stack(F)]) || {Name, F} <- Cases],
    ok.
