%% tests/stress/load_race_stress.erl — many processes call a module that is not loaded, at the
%% same moment, again and again.
%%
%% Each round unloads the target module (code:delete/1 and code:purge/1), then releases ?CALLERS
%% processes at once, each calling target:value(Round). Every call goes through OTP's
%% error_handler: the first one has the code server load the module, the others ask
%% erlang:module_loaded/1 and then erlang:function_exported/3 while it is being published. A
%% module must never be seen loaded without its exports (that was a spurious undef: OTP's rex
%% nodes observer died of it at boot, now and then, under load). Checks: every call of every
%% round returned its value; the rounds ran. Prints one line per check and "all ok"; halts
%% with status 1 on failure.
-module(load_race_stress).
-export([main/0]).

-define(ROUNDS, 150).
-define(CALLERS, 24).
-define(TARGET, load_race_target).

main() ->
    Dir = target_dir(),
    true = code:add_patha(Dir),
    Bad = lists:append([run_round(R) || R <- lists:seq(1, ?ROUNDS)]),
    check("every call returned its value", Bad =:= [], Bad),
    check("rounds", ?ROUNDS, ?ROUNDS),
    io:format("all ok~n").

%% The target module, compiled here into a fresh directory on the code path.
target_dir() ->
    Dir = filename:join("/tmp", "load_race_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    Forms = [{attribute, 1, module, ?TARGET},
             {attribute, 2, export, [{value, 1}]},
             {function, 3, value, 1,
              [{clause, 3, [{var, 3, 'X'}], [], [{tuple, 3, [{atom, 3, ok}, {var, 3, 'X'}]}]}]}],
    {ok, ?TARGET, Beam} = compile:forms(Forms, []),
    ok = file:write_file(filename:join(Dir, atom_to_list(?TARGET) ++ ".beam"), Beam),
    Dir.

run_round(R) ->
    unload(),
    Self = self(),
    Callers = [spawn(fun() -> receive go -> ok end, Self ! {self(), catch ?TARGET:value(R)} end)
               || _ <- lists:seq(1, ?CALLERS)],
    [C ! go || C <- Callers],
    [{R, Got} || C <- Callers, Got <- [receive {C, V} -> V end], Got =/= {ok, R}].

unload() ->
    _ = code:purge(?TARGET),
    _ = code:delete(?TARGET),
    _ = code:purge(?TARGET),
    false = erlang:module_loaded(?TARGET).

check(What, Ok, Detail) when is_boolean(Ok) ->
    case Ok of
        true -> io:format("~s: ok~n", [What]);
        false -> io:format("~s: FAILED ~p~n", [What, lists:sublist(Detail, 5)]), erlang:halt(1)
    end;
check(What, N, N) -> io:format("~s: ~p~n", [What, N]).
