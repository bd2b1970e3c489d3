-module(lang_error_handler).
-export([main/0, undefined_function/3, '$handle_undefined_function'/2, known/0]).

%% Calls to undefined functions: the process's own error handler (process_flag(error_handler,
%% M)) gets undefined_function(M, F, Args); a module exporting '$handle_undefined_function'/2
%% takes the calls to functions it lacks; OTP's error_handler loads modules on demand.
undefined_function(M, F, Args) ->
    {handled, M, F, Args}.

'$handle_undefined_function'(F, Args) ->
    {dynamic, F, Args}.

known() -> known.

call(M, F, Args) -> try apply(M, F, Args) catch C:R -> {C, R} end.

main() ->
    io:format("~p~n", [call(lang_error_handler, not_there, [1, 2])]),
    io:format("~p~n", [call(lang_error_handler, known, [])]),
    io:format("~p~n", [call(no_such_module_xyz, f, [a])]),
    io:format("~p~n", [call(lists, no_such_function, [])]),
    Self = self(),
    spawn(fun() ->
        Old = process_flag(error_handler, lang_error_handler),
        R1 = call(no_such_module_xyz, f, [a, b]),
        R2 = call(lists, reverse, [[1, 2]]),
        R3 = call(lists, nope, [x]),
        Self ! {Old, R1, R2, R3, process_info(self(), error_handler)}
    end),
    receive Msg -> io:format("~p~n", [Msg]) end,
    io:format("~p~n", [call(erlang, process_flag, [error_handler, "bad"])]),
    ok.
