%% Turning erts_debug's internal state on logs erts's warning through the system logger, as a
%% {log, warning, Format, Args, Meta} event with the warning_msg tag for error_logger.
-module(erts_debug_warning).
-export([main/0]).

main() ->
    Logger = erlang:system_flag(system_logger, self()),
    erts_debug:set_internal_state(available_internal_state, true),
    receive
        {log, Level, Format, Args, Meta} ->
            Text = lists:flatten(io_lib:format(Format, Args)),
            io:format("~p~n~s", [Level, string:replace(Text, pid_to_list(self()), "PID")]),
            io:format("~p~n", [maps:get(error_logger, Meta)]),
            io:format("~p~n", [maps:get(pid, Meta) =:= self()])
    after 5000 -> io:format("no event~n")
    end,
    erlang:system_flag(system_logger, Logger),
    erts_debug:set_internal_state(available_internal_state, false).
