-module(seq_match_spec).
-export([main/0, f/1]).

%% The match-spec actions of seq_trace in call tracing: {set_seq_token, Component, Value}
%% (true, or 'EXIT' for a bad one), {get_seq_token}, {is_seq_trace}; and
%% erlang:match_spec_test/3, where they do nothing.
f(X) -> X.

collect(Acc) ->
    receive
        {dump, From} -> From ! {msgs, lists:reverse(Acc)}, collect([]);
        M -> collect([M | Acc])
    end.

main() ->
    Tracer = spawn(fun() -> collect([]) end),
    Self = self(),
    Worker = spawn(fun() ->
                       receive go -> ok end,
                       f(1),
                       T1 = seq_trace:get_token(),
                       f(2),
                       T2 = seq_trace:get_token(),
                       seq_trace:set_token([]),
                       Self ! {tokens, T1, T2}
                   end),
    erlang:trace(Worker, true, [call, {tracer, Tracer}]),
    MS = [{[1], [], [{set_seq_token, label, 42}, {set_seq_token, bogus, 1}, {message, {is_seq_trace}}]},
          {[2], [], [{message, {get_seq_token}}, {set_seq_token, 'receive', true}]}],
    erlang:trace_pattern({?MODULE, f, 1}, MS, [local]),
    Worker ! go,
    receive {tokens, T1, T2} ->
        %% Flags and label (OTP's serial and sender for a token made by a match spec are its own).
        W = fun({F, L, _, _, _}) -> {F, L}; (X) -> X end,
        io:format("tokens ~p ~p~n", [W(T1), W(T2)]),
        Tracer ! {dump, self()},
        receive {msgs, Ms} ->
            [io:format("~p~n", [case M of
                                    {trace, Worker, call, MFA, Token} -> {trace, worker, call, MFA, W(Token)};
                                    {trace, Worker, call, MFA} -> {trace, worker, call, MFA};
                                    _ -> M
                                end]) || M <- Ms]
        end
    end,
    io:format("~p~n", [erlang:match_spec_test([1], [{'_', [], [{set_seq_token, label, 1}, {message, {get_seq_token}}]}], trace)]),
    io:format("~p~n", [erlang:match_spec_test([1], [{'_', [], [{message, {is_seq_trace}}]}], trace)]),
    ok.
