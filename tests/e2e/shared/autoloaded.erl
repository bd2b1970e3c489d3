%% tests/e2e/shared/autoloaded.erl — a module no program loads before calling it: the first call
%% goes through error_handler:undefined_function/3 (tests/e2e/exc/stack_after_autoload).
-module(autoloaded).
-export([fail/0, stacktrace/0]).

fail() -> erlang:error(from_autoloaded).

stacktrace() ->
    {current_stacktrace, Frames} = process_info(self(), current_stacktrace),
    Frames.
