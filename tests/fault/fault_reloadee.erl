%% tests/fault/fault_reloadee.erl — the module fault_reload reloads while its servers run it
%% traced. The build compiles it twice: as it is into the fault directory, and with -DV2 into
%% its v2/ subdirectory.
-module(fault_reloadee).
-export([loop/1, work/1, version/0]).

-ifdef(V2).
version() -> 2.
work(X) -> X * 2.
-else.
version() -> 1.
work(X) -> X + 1.
-endif.

%% A server: each request runs work/1 (a local call: the code the server is in) and answers
%% with the result and the version it ran; the external call then moves it to the newest code.
loop(N) ->
    receive
        {work, From} ->
            From ! {done, self(), work(N), version()},
            ?MODULE:loop(N + 1);
        {stop, From} ->
            From ! {stopped, self(), N}
    end.
