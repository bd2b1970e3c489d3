-module(trace_counts).
-export([main/0, f/0, f/1, f/2, g/1]).

%% Return values of trace_pattern/2,3: the number of functions matched.
%%  - {M,F,A}: 1 if the function exists (and, for global, is exported), else 0;
%%  - {M,F,'_'}: every arity of F (global: exported arities only);
%%  - {M,'_','_'} global: the exported functions including module_info/0 and module_info/1;
%%  - {M,'_','_'} local: every function in the loaded code, including non-exported ones and the
%%    functions the compiler generates for funs and list comprehensions (here 10 named functions
%%    + 2 funs + 1 list comprehension = 13);
%%  - the same counts for true, [] and false, whether or not anything changed.
f() -> 0.
f(X) -> X.
f(X, Y) -> {X, Y}.
g(X) -> k(k(X), X).

k(X) -> X.
k(X, Y) -> [X, Y].

helpers() ->
    F = fun(X) -> X + 1 end,
    [F(X) || X <- [1, 2]].

main() ->
    Cases =
        [{{?MODULE, f, 0}, true, []},
         {{?MODULE, f, 1}, [], [global]},
         {{?MODULE, f, 3}, true, [global]},
         {{?MODULE, f, '_'}, true, [global]},
         {{?MODULE, f, '_'}, false, [global]},
         {{?MODULE, f, '_'}, true, [local]},
         {{?MODULE, f, '_'}, false, [local]},
         {{?MODULE, k, 1}, true, [global]},
         {{?MODULE, k, 1}, true, [local]},
         {{?MODULE, k, '_'}, true, [global]},
         {{?MODULE, k, '_'}, [], [local]},
         {{?MODULE, k, '_'}, false, [local]},
         {{?MODULE, nosuch, 1}, true, [global]},
         {{?MODULE, nosuch, '_'}, true, [local]},
         {{?MODULE, module_info, '_'}, true, [global]},
         {{?MODULE, module_info, '_'}, false, [global]},
         {{?MODULE, '_', '_'}, true, [global]},
         {{?MODULE, '_', '_'}, [], []},
         {{?MODULE, '_', '_'}, false, [global]},
         {{?MODULE, '_', '_'}, false, [global]},
         {{?MODULE, '_', '_'}, true, [local]},
         {{?MODULE, '_', '_'}, false, [local]},
         {{?MODULE, '_', '_'}, false, [local]}],
    lists:foreach(
      fun({MFA, MS, Flags}) ->
              io:format("trace_pattern(~p, ~p, ~p) -> ~p~n",
                        [MFA, MS, Flags, erlang:trace_pattern(MFA, MS, Flags)])
      end, Cases),
    io:format("trace_pattern/2 {M,'_','_'} true -> ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, true)]),
    io:format("trace_pattern/2 {M,'_','_'} false -> ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false)]),
    io:format("helpers: ~p~n", [helpers()]),
    ok.
