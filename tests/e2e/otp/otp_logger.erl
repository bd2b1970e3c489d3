-module(otp_logger).
-export([main/0]).
-include_lib("kernel/include/logger.hrl").

%% What the default logger configuration of erl -noshell prints to stdout, in the legacy
%% format ("=LEVEL REPORT==== date ===" then the message): the primary level is notice, so
%% emergency/alert/critical/error/warning/notice are printed and info/debug are not;
%% error_logger:error_msg/warning_msg/info_msg (info_msg is printed: it logs at notice level,
%% with an INFO REPORT header) and error_report/warning_report/info_report with a term and
%% with a list of tags; logger:log/3 and the ?LOG_* macros (their metadata is not printed);
%% report maps and key-value lists; messages with and without a trailing newline; raising the
%% primary level to info prints info but not debug; level none prints nothing; a handler
%% level. The printing is asynchronous: sync_logger/0 waits before each print of main's.
%% otp_logger.filter masks the dates.
main() ->
    io:format("primary level: ~p~n", [maps:get(level, logger:get_primary_config())]),
    step("error_logger"),
    error_logger:error_msg("error_msg ~p~n", [1]),
    error_logger:warning_msg("warning_msg ~p~n", [2]),
    error_logger:info_msg("info_msg ~p~n", [3]),
    error_logger:error_msg("no newline at the end"),
    error_logger:error_report({some, report}),
    error_logger:error_report([{tag, value}, {other, "a string"}, plain_item]),
    error_logger:warning_report([{warning, 1}]),
    error_logger:info_report([{info, 2}]),
    step("logger levels"),
    logger:emergency("emergency ~p", [1]),
    logger:alert("alert ~p", [2]),
    logger:critical("critical ~p", [3]),
    logger:error("error ~p", [4]),
    logger:warning("warning ~p", [5]),
    logger:notice("notice ~p", [6]),
    logger:info("info ~p (not printed)", [7]),
    logger:debug("debug ~p (not printed)", [8]),
    logger:error("a format string~nwith two lines~n"),
    logger:error("~ts", ["unicode: \x{3bb}"]),
    step("reports"),
    logger:error(#{what => report_map, count => 3, list => [a, b]}),
    logger:warning([{key, value}, {another, [1, 2]}]),
    logger:log(notice, "logger:log/3 ~s", ["notice"]),
    ?LOG_ERROR("macro ~p", [error]),
    ?LOG_NOTICE(#{macro => notice}),
    ?LOG_INFO("macro info (not printed)"),
    step("primary level info"),
    ok = logger:set_primary_config(level, info),
    logger:info("info is printed now"),
    logger:debug("debug is not"),
    error_logger:info_msg("info_msg still~n"),
    step("primary level none"),
    ok = logger:set_primary_config(level, none),
    logger:emergency("not even emergency"),
    error_logger:error_msg("nor error_msg~n"),
    step("handler level error"),
    ok = logger:set_primary_config(level, notice),
    ok = logger:set_handler_config(default, level, error),
    logger:warning("a warning is dropped by the handler"),
    logger:error("an error passes"),
    step("end"),
    ok.

step(Name) ->
    sync_logger(),
    io:format("-- ~s~n", [Name]).

%% The default logger handler prints the reports that a process logs asynchronously, from its
%% own process: wait until it has written everything logged so far (harmless where the
%% logger prints synchronously).
sync_logger() ->
    _ = (catch logger_std_h:filesync(default)),
    ok.
