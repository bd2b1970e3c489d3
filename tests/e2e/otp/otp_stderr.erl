-module(otp_stderr).
-export([main/0]).

%% Where output goes: io:format/io:put_chars to standard_error go to stderr (not in the
%% expected stdout, which has only the other lines, in order); to standard_io and to user
%% they go to stdout; io:format(standard_error, ...) from another process; io:format and
%% io:put_chars return ok in every case; standard_error and user are registered io servers.
main() ->
    io:format("stdout 1~n"),
    ok = io:format(standard_error, "stderr 1~n", []),
    io:format("stdout 2~n"),
    ok = io:put_chars(standard_error, ["stderr ", "2", $\n]),
    ok = io:format(standard_io, "stdout 3 (standard_io)~n", []),
    ok = io:format(user, "stdout 4 (user)~n", []),
    Self = self(),
    spawn(fun() -> Self ! {done, io:format(standard_error, "stderr 3 from another process~n", [])} end),
    receive {done, R} -> io:format("other process got: ~p~n", [R]) end,
    io:format("standard_error registered: ~p~n", [is_pid(whereis(standard_error))]),
    io:format("user registered: ~p~n", [is_pid(whereis(user))]),
    io:format("stdout 5 (last)~n").
