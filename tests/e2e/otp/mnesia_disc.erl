%% Mnesia on disc, unmodified: a disc_copies schema in a fresh directory, a disc_copies and a
%% disc_only_copies (dets) table, transactions from many processes at once (some aborted),
%% dirty operations, indexes and select, then mnesia:stop/0 and a restart that finds every
%% committed record and none of the aborted ones; the log underneath is disk_log's. Then a
%% child VM (the same VM: beamlet under beamlet, erl under erl) commits transactions until it
%% is killed with kill -9, and a restart here finds every transaction it reported committed.
-module(mnesia_disc).
-export([main/0]).

-record(account, {id, owner, balance = 0}).

main() ->
    %% Mnesia's stops are notices of the application controller, written by the logger's
    %% process: left out, so that only this process prints.
    ok = logger:set_primary_config(level, warning),
    Dir = filename:join(os:getenv("TMPDIR", "/tmp"), "mnesia_disc_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    ok = application:set_env(mnesia, dir, Dir),
    ok = mnesia:create_schema([node()]),
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(account, [{disc_copies, [node()]},
                                                 {attributes, record_info(fields, account)},
                                                 {index, [owner]}]),
    {atomic, ok} = mnesia:create_table(journal, [{disc_only_copies, [node()]}, {type, bag}]),
    ok = mnesia:wait_for_tables([account, journal], 5000),
    io:format("tables: ~p~n", [lists:sort(mnesia:system_info(tables))]),
    io:format("storage: ~p ~p~n", [mnesia:table_info(account, storage_type), mnesia:table_info(journal, storage_type)]),
    %% 20 processes, 50 transactions each: a deposit to account N, journaled; every tenth aborts.
    Self = self(),
    Pids = [spawn_link(fun() -> worker(Self, W) end) || W <- lists:seq(1, 20)],
    Results = [receive {done, P, R} -> R end || P <- Pids],
    io:format("committed: ~p, aborted: ~p~n", [lists:sum([C || {C, _} <- Results]), lists:sum([A || {_, A} <- Results])]),
    report("before stop"),
    ok = mnesia:dirty_write(#account{id = dirty, owner = nobody, balance = -1}),
    stopped = mnesia:stop(),
    ok = mnesia:start(),
    ok = mnesia:wait_for_tables([account, journal], 5000),
    report("after restart"),
    io:format("dirty record: ~p~n", [mnesia:dirty_read(account, dirty)]),
    io:format("by owner (index): ~p~n", [length(mnesia:dirty_index_read(account, owner_3, #account.owner))]),
    io:format("select rich: ~p~n",
              [lists:sort(mnesia:dirty_select(account, [{#account{id = '$1', balance = '$2', _ = '_'},
                                                         [{'>', '$2', 1000}], ['$1']}]))]),
    {atomic, Sum} = mnesia:transaction(fun() -> mnesia:foldl(fun(#account{balance = B}, A) -> A + B end, 0, account) end),
    io:format("sum in a transaction: ~p~n", [Sum]),
    io:format("abort: ~p~n", [mnesia:transaction(fun() -> mnesia:write(#account{id = x}), mnesia:abort(no) end)]),
    io:format("x written: ~p~n", [mnesia:dirty_read(account, x)]),
    stopped = mnesia:stop(),
    ok = mnesia:delete_schema([node()]),
    io:format("schema deleted: ~p~n", [not filelib:is_file(filename:join(Dir, "schema.DAT"))]),
    os:cmd("rm -rf " ++ Dir),
    killed(),
    ok.

killed() ->
    Dir = filename:join(os:getenv("TMPDIR", "/tmp"), "mnesia_killed_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    Code = filename:dirname(code:which(?MODULE)),
    {Exe, Args} = case file:read_link("/proc/self/exe") of
                      {ok, Self} when Self =/= "", hd(Self) =:= $/ ->
                          case filename:basename(Self) of
                              "beamlet" -> {Self, ["run", "-pa", Code, "mnesia_disc_child"]};
                              _ -> erl(Code)
                          end;
                      _ -> erl(Code)
                  end,
    Port = open_port({spawn_executable, Exe},
                     [{args, Args}, {env, [{"MNESIA_DISC_DIR", Dir}]}, {line, 100}, exit_status, binary]),
    {os_pid, OsPid} = erlang:port_info(Port, os_pid),
    receive {Port, {data, {eol, <<"ready">>}}} -> ok after 30000 -> error(child_did_not_start) end,
    Reported = until_killed(Port, OsPid, 0),
    io:format("the child reported at least 200 commits: ~p~n", [Reported >= 200]),
    ok = application:set_env(mnesia, dir, Dir),
    ok = mnesia:start(),
    ok = mnesia:wait_for_tables([item], 10000),
    Missing = [N || N <- lists:seq(1, Reported), mnesia:dirty_read(item, N) =/= [{item, N, {value, N}}]],
    io:format("reported commits missing after kill -9: ~p~n", [Missing]),
    stopped = mnesia:stop(),
    os:cmd("rm -rf " ++ Dir).

erl(Code) -> {os:find_executable("erl"), ["-noshell", "-pa", Code, "-s", "mnesia_disc_child", "main"]}.

%% The last commit the child reported: it is killed after its 200th, and what it wrote before
%% dying is read to the end.
until_killed(Port, OsPid, Last) ->
    receive
        {Port, {data, {eol, <<"committed ", N/binary>>}}} ->
            Count = binary_to_integer(N),
            Count =:= 200 andalso os:cmd("kill -9 " ++ integer_to_list(OsPid)),
            until_killed(Port, OsPid, Count);
        {Port, {data, _}} -> until_killed(Port, OsPid, Last);
        {Port, {exit_status, _}} -> Last
    after 60000 -> error(child_hangs)
    end.

worker(Parent, W) ->
    Results = [transact(W, I) || I <- lists:seq(1, 50)],
    Parent ! {done, self(), {length([ok || ok <- Results]), length([a || {aborted, _} <- Results])}}.

transact(W, I) ->
    Id = I rem 10,
    Owner = list_to_atom("owner_" ++ integer_to_list(Id rem 4)),
    F = fun() ->
                Old = case mnesia:read(account, Id, write) of
                          [A] -> A#account.balance;
                          [] -> 0
                      end,
                ok = mnesia:write(#account{id = Id, owner = Owner, balance = Old + W}),
                ok = mnesia:write({journal, Id, {W, I}}),
                case I rem 10 of
                    0 -> mnesia:abort(tenth);
                    _ -> ok
                end
        end,
    case mnesia:transaction(F) of
        {atomic, ok} -> ok;
        {aborted, tenth} -> {aborted, tenth}
    end.

report(When) ->
    Accounts = lists:sort(mnesia:dirty_match_object(#account{_ = '_'})),
    io:format("~s: ~p accounts, balances ~p, journal ~p~n",
              [When, length(Accounts), [B || #account{balance = B} <- Accounts],
               mnesia:table_info(journal, size)]),
    io:format("~s: journal for 3: ~p entries~n", [When, length(mnesia:dirty_read(journal, 3))]).
