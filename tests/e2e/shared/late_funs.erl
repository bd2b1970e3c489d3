%% tests/e2e/shared/late_funs.erl — funs of a module that a test unloads and reloads
%% (tests/e2e/lang/unloaded_fun).
-module(late_funs).
-export([adder/1, greeter/0]).

adder(N) -> fun(X) -> X + N end.
greeter() -> fun() -> hello end.
