%% mnesia_disc's child VM: a disc_copies table in $MNESIA_DISC_DIR, written one transaction
%% after another, each reported on stdout once committed and its log synced (mnesia:sync_log/0:
%% mnesia's log is disk_log's, which buffers), until the parent kills it (kill -9).
-module(mnesia_disc_child).
-export([main/0]).

main() ->
    ok = application:set_env(mnesia, dir, os:getenv("MNESIA_DISC_DIR")),
    ok = mnesia:create_schema([node()]),
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(item, [{disc_copies, [node()]}]),
    io:format("ready~n"),
    write(1).

%% Never for long on its own: a parent that failed before its kill leaves no writer behind.
write(N) when N > 20000 -> erlang:halt();
write(N) ->
    {atomic, ok} = mnesia:transaction(fun() -> mnesia:write({item, N, {value, N}}) end),
    ok = mnesia:sync_log(),
    io:format("committed ~p~n", [N]),
    write(N + 1).
