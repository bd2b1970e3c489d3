%% OTP's EUnit, unmodified, on a test module of its own: plain tests, a failing one, generators,
%% setup and foreach fixtures, a timeout that cancels, ?assertCmdOutput (a port to /bin/sh),
%% io output captured, the verbose report, then the same run with the surefire XML report
%% (times and host masked). Expected output from erl 25 (with Debian's erlang-eunit).
-module(eunit_fixtures).
-include_lib("eunit/include/eunit.hrl").
-export([main/0]).

add(A, B) -> A + B.

add_test() -> ?assertEqual(3, add(1, 2)).
fail_test() -> ?assertEqual(4, add(1, 2)).
raise_test_() -> ?_assertError(badarith, add(a, 1)).
gen_test_() -> [?_assert(add(N, 0) =:= N) || N <- lists:seq(1, 3)].
setup_test_() ->
    {setup, fun() -> ets:new(eunit_fixtures_t, [named_table, public]) end,
     fun(_) -> ets:delete(eunit_fixtures_t) end,
     fun(_) -> [?_assertEqual(true, ets:insert(eunit_fixtures_t, {a, 1})),
                ?_assertEqual([{a, 1}], ets:lookup(eunit_fixtures_t, a))] end}.
foreach_test_() ->
    {foreach, fun() -> put(k, 1) end, fun(_) -> erase(k) end,
     [fun() -> ?assertEqual(1, get(k)) end, fun() -> ?assertEqual(2, get(k)) end]}.
timeout_test_() -> {timeout, 1, fun() -> timer:sleep(2000) end}.
output_test() -> io:format("captured output~n"), ok.
cmd_test() -> ?assertCmdOutput("hi\n", "echo hi").

main() ->
    io:format("result: ~p~n", [eunit:test(?MODULE, [verbose])]),
    %% A directory of this run's own: the engines' runs of this program may go in parallel.
    Dir = filename:join(os:getenv("TMPDIR", "/tmp"), "eunit_fixtures_surefire_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    Report = {report, {eunit_surefire, [{dir, Dir}]}},
    io:format("result: ~p~n", [eunit:test(?MODULE, [Report, {no_tty, true}])]),
    {ok, Xml} = file:read_file(filename:join(Dir, "TEST-eunit_fixtures.xml")),
    [ok = file:delete(F) || F <- filelib:wildcard(filename:join(Dir, "*"))],
    ok = file:del_dir(Dir),
    io:format("~s~n", [re:replace(Xml, "(time|timestamp|hostname)=\"[^\"]*\"", "\\1=\"_\"", [global])]).
