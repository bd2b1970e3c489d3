-module(ev_spec_misc).
-export([main/0, f/1, g/1, h/1]).
-import(e2e_trace, [collector/0, messages/1, worker/0, run/2, stop_wait/2, name/2]).

%% Odd corners of match specs (OTP 25).
%% 1. erlang:match_spec_test(Term, MS, table) accepts terms that are not tuples (atoms, lists,
%%    integers, binaries, []) and match heads that are not tuples: the head is simply matched
%%    against the term ({ok, Result, [], []}, false when no clause matches). With type trace a
%%    non-list term is badarg.
%% 2. Deep nesting given to trace_pattern: a body term (tuple construction {{...}}) 100000 levels
%%    deep, a {message, Deep} action, or a guard of 100000 nested andalso: error:system_limit
%%    (10 levels are fine). But {const, Deep} and a 100000-level head pattern are accepted (1).
%%    match_spec_test on the deep guard returns {error, [{error, "Excessive nesting; system limit
%%    reached near: ..."}, ...]} (only the prefix and the count are printed here).
%% 3. Trace-flag actions in a meta pattern's body run in the calling process:
%%    - {trace, [], [send]} / {enable_trace, F} change nothing in a process without a tracer
%%      (the meta tracer is NOT used as its tracer): flags stay [].
%%    - in a process traced (e.g. [procs]) by T, they add/remove flags, tracer stays T.
%%    - {trace, [], [send, {tracer, T}]} is badarg: {tracer, T} is a call of the unknown match
%%      spec function tracer/1 ("Function tracer/1 does_not_exist."); written as tuple
%%      construction {{tracer, T}} it works and makes an untraced caller traced by T.
%%    - erlang:match_spec_test(Args, MS, trace) runs such actions for real, in the caller.
f(X) -> X.
g(X) -> X.
h(X) -> X.

main() ->
    %% 1.
    Terms = [foo, [1, 2], 42, [], <<"x">>, {a, b}],
    Specs = [[{'_', [], ['$_']}], [{'$1', [{is_atom, '$1'}], [{{'$1'}}]}], [{{'$1', '_'}, [], ['$1']}],
             [{foo, [], [yes]}], [{[1, '$1'], [], ['$1']}], [{42, [], [yes]}]],
    [io:format("table ~w ~w: ~w~n", [T, MS, t(fun() -> erlang:match_spec_test(T, MS, table) end)])
     || T <- Terms, MS <- Specs],
    io:format("trace foo: ~p~n", [t(fun() -> erlang:match_spec_test(foo, [{'_', [], [true]}], trace) end)]),
    io:format("trace [foo]: ~p~n", [t(fun() -> erlang:match_spec_test([foo], [{'_', [], [true]}], trace) end)]),
    %% 2.
    [begin
         Deep = nest(D div 2, x),
         io:format("depth ~p~n", [D]),
         tp("  body", [{'_', [], [Deep]}]),
         tp("  message", [{'_', [], [{message, Deep}]}]),
         tp("  const", [{'_', [], [{const, Deep}]}]),
         tp("  guard", [{'_', [guard(D, true)], []}]),
         tp("  head", [{[wrap(D, '$1')], [], []}]),
         io:format("  test guard: ~p~n", [mst(erlang:match_spec_test([1], [{'_', [guard(D, true)], [ok]}], trace))])
     end || D <- [10, 100000]],
    io:format("pattern f off: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, false, [local])]),
    %% 3.
    M = collector(),
    T = collector(),
    W = worker(),
    Names = [{M, m}, {T, t}, {W, w}, {self(), main}],
    io:format("meta f: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{trace, [], [send]}]}], [{meta, M}])]),
    io:format("meta g: ~p~n", [erlang:trace_pattern({?MODULE, g, 1}, [{'_', [], [{enable_trace, 'receive'}, {disable_trace, send}]}], [{meta, M}])]),
    info("w before", W, Names),
    run(W, fun() -> ?MODULE:f(1) end),
    info("w after f (untraced)", W, Names),
    run(W, fun() -> ?MODULE:g(1) end),
    info("w after g (untraced)", W, Names),
    io:format("trace w procs by t: ~p~n", [erlang:trace(W, true, [procs, {tracer, T}])]),
    run(W, fun() -> ?MODULE:f(1) end),
    info("w after f (traced)", W, Names),
    run(W, fun() -> ?MODULE:g(1) end),
    info("w after g (traced)", W, Names),
    io:format("untrace w: ~p~n", [erlang:trace(W, false, [procs, 'receive'])]),
    info("w", W, Names),
    Bad = [{'_', [], [{trace, [], [send, {tracer, T}]}]}],
    io:format("meta h with {tracer, T}: ~p~n", [t(fun() -> erlang:trace_pattern({?MODULE, h, 1}, Bad, [{meta, M}]) end)]),
    io:format("  test: ~p~n", [t(fun() -> erlang:match_spec_test([a], Bad, trace) end)]),
    Good = [{'_', [], [{trace, [], [send, {{tracer, T}}]}]}],
    io:format("meta h with {{tracer, T}}: ~p~n", [erlang:trace_pattern({?MODULE, h, 1}, Good, [{meta, M}])]),
    run(W, fun() -> ?MODULE:h(1) end),
    info("w after h", W, Names),
    io:format("untrace w: ~p~n", [erlang:trace(W, false, [send])]),
    Main = self(),
    H = spawn(fun() ->
                  {flags, F0} = erlang:trace_info(self(), flags),
                  R = erlang:match_spec_test([a], Good, trace),
                  {flags, F1} = erlang:trace_info(self(), flags),
                  {tracer, Tr} = erlang:trace_info(self(), tracer),
                  erlang:trace(self(), false, [send]),
                  Main ! {mst, self(), F0, R, F1, Tr =:= T}
              end),
    receive {mst, H, F0, R, F1, IsT} ->
            io:format("match_spec_test in h: ~p, flags before ~p, after ~p, tracer is t ~p~n", [R, F0, F1, IsT])
    end,
    io:format("patterns off: ~p~n", [[erlang:trace_pattern({?MODULE, F, 1}, false, [meta]) || F <- [f, g, h]]]),
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    io:format("meta tracer got:~n"),
    [io:format("  ~w~n", [shape(X, Names)]) || X <- messages(M)],
    io:format("t got:~n"),
    [io:format("  ~w~n", [shape(X, Names)]) || X <- messages(T)],
    [stop_wait(X, stop) || X <- [W, M, T]],
    ok.

nest(0, Acc) -> Acc;
nest(N, Acc) -> nest(N - 1, {{Acc}}).

wrap(0, Acc) -> Acc;
wrap(N, Acc) -> wrap(N - 1, {Acc}).

guard(0, Acc) -> Acc;
guard(N, Acc) -> guard(N - 1, {'andalso', Acc, true}).

tp(Label, MS) ->
    io:format("~s: ~p~n", [Label, t(fun() -> erlang:trace_pattern({?MODULE, f, 1}, MS, [local]) end)]).

mst({error, Errs}) ->
    Prefix = "Excessive nesting; system limit reached near: ",
    {error, length(Errs), [lists:prefix(Prefix, S) || {error, S} <- Errs]};
mst(Other) -> Other.

info(Label, P, Names) ->
    {flags, Fl} = erlang:trace_info(P, flags),
    {tracer, Tr} = erlang:trace_info(P, tracer),
    io:format("~s: flags ~p, tracer ~p~n", [Label, lists:sort(Fl), name(Tr, Names)]).

shape({trace_ts, P, call, MFA, {A, B, C}}, Names) when is_integer(A), is_integer(B), is_integer(C) ->
    {trace_ts, name(P, Names), call, MFA, ts_now};
shape({trace, P, send, {run, F, _}, To}, Names) when is_function(F) ->
    {trace, name(P, Names), send, run, name(To, Names)};
shape({trace, P, 'receive', {run, F, From}}, Names) when is_function(F) ->
    {trace, name(P, Names), 'receive', {run, 'fun', name(From, Names)}};
shape(X, Names) -> name(X, Names).

t(F) -> try F() catch C:R -> {C, R} end.
