%% A function that receives its binary argument as a match context (the compiler's delayed
%% sub-binary creation: each recursive call passes the context of the clause that matched)
%% is traced as OTP traces it: the argument is the rest of the binary, a sub-binary, both in
%% the call message and for the match spec (OTP's trace_local_SUITE:bit_syntax; it ended the
%% VM on beamlet). Local and global call tracing, and a match spec with guards and a message.
-module(trace_bs_match_context).
-export([main/0, bs_sum_a/2]).

main() ->
    Self = self(),
    Tracer = spawn(fun() -> collect([]) end),
    erlang:trace(Self, true, [call, {tracer, Tracer}]),
    erlang:trace_pattern({?MODULE, '_', '_'}, true, [local]),
    6 = bs_sum_a(<<1, 2, 3>>, 0),
    10 = bs_sum_b(0, <<1, 2, 3, 4>>),
    26 = bs_sum_c(<<3:4, 5:4, 7:4, 11:4>>, 0),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    %% A match spec that looks at the binary: its size and a guard on it.
    MS = [{['$1', '$2'], [{is_binary, '$1'}, {'>', {byte_size, '$1'}, 1}],
           [{message, {{{byte_size, '$1'}, '$2'}}}]}],
    erlang:trace_pattern({?MODULE, bs_sum_a, 2}, MS, [local]),
    10 = bs_sum_a(<<1, 2, 3, 4>>, 0),
    erlang:trace_pattern({?MODULE, bs_sum_a, 2}, [{'_', [], [{return_trace}]}], [global]),
    3 = ?MODULE:bs_sum_a(<<1, 2>>, 0),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    erlang:trace(Self, false, [call]),
    %% A function clause error in a function given a match context names the rest of the binary.
    {'EXIT', {Reason, [{M, F, Args, _} | _]}} = (catch bs_sum_d(<<1, 2, 3:3>>, 0)),
    io:format("~p ~p:~p ~p~n", [Reason, M, F, Args]),
    Tracer ! {done, self()},
    receive {msgs, Ms} -> [io:format("~p~n", [mask(Msg, Self)]) || Msg <- Ms] end,
    ok.

collect(Acc) ->
    receive
        {done, From} -> From ! {msgs, lists:reverse(Acc)};
        M -> collect([M | Acc])
    end.

mask(T, Self) when is_tuple(T) -> list_to_tuple([mask(E, Self) || E <- tuple_to_list(T)]);
mask(Self, Self) -> self;
mask(X, _) -> X.

bs_sum_a(<<H, T/binary>>, Acc) -> bs_sum_a(T, H + Acc);
bs_sum_a(<<>>, Acc) -> Acc.

bs_sum_b(Acc, <<H, T/binary>>) -> bs_sum_b(H + Acc, T);
bs_sum_b(Acc, <<>>) -> Acc.

bs_sum_c(<<H:4, T/bits>>, Acc) -> bs_sum_c(T, H + Acc);
bs_sum_c(<<>>, Acc) -> Acc.

bs_sum_d(<<H, T/bits>>, Acc) -> bs_sum_d(T, H + Acc);
bs_sum_d(<<>>, Acc) -> Acc.
