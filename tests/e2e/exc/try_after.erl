-module(try_after).
-export([main/0]).

%% `after` clauses: ordering, running on normal and exceptional exits.
main() ->
    R1 = try log(body), value after log(after1) end,
    log({result, R1}),
    R2 = try
             try log(inner_body), throw(boom) after log(inner_after) end
         catch throw:boom -> log(outer_catch), caught
         after log(outer_after)
         end,
    log({result, R2}),
    R3 = try log(of_body), 5 of
             5 -> log(of_clause), five
         catch _:_ -> log(not_here)
         after log(after3)
         end,
    log({result, R3}),
    R4 = try
             try erlang:error(e1)
             catch error:e1 -> log(catch_e1), throw(from_catch)
             after log(after_inner4)
             end
         catch throw:T -> log({outer_got, T}), T
         end,
    log({result, R4}),
    R5 = (catch try exit(x) after log(after5) end),
    log({result5, R5}),
    R6 = try loop_with_after(3) catch throw:N -> {thrown, N} end,
    log({result6, R6}),
    R7 = (catch try try throw(a) after log(a7) end
                catch throw:a -> try throw(b) after log(b7) end
                end),
    log({result7, R7}),
    ok.

loop_with_after(0) -> throw(bottom);
loop_with_after(N) ->
    try loop_with_after(N - 1) after log({unwind, N}) end.

log(X) -> io:format("~p~n", [X]).
