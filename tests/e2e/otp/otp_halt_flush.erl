-module(otp_halt_flush).
-export([main/0]).

%% erlang:halt/0 called by another process while main waits: all the output written before
%% it (10000 lines, then a last line without a newline) reaches stdout before the VM exits,
%% and nothing runs after it (main's last line is never printed). halt/0 exits with status 0,
%% so the test harnesses accept it (another status, as halt(3), would fail them).
main() ->
    Self = self(),
    spawn(fun() ->
                  [io:format("line ~p~n", [N]) || N <- lists:seq(1, 10000)],
                  io:put_chars("the end, no newline"),
                  Self ! printed,
                  erlang:halt()
          end),
    receive printed -> ok end,
    receive never_sent -> io:format("not printed~n") end.
