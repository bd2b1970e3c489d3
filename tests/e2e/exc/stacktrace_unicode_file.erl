%% Stack-trace locations name the source file in characters, also outside Latin-1 (the Line
%% chunk keeps it as UTF-8), as code_SUITE:erl_544 checks.
-module(stacktrace_unicode_file).
-export([main/0]).

main() ->
    File = "/tmp/" ++ [16#2620, 16#2620] ++ "/e5.erl",
    Forms = [{attribute, 1, file, {File, 1}},
             {attribute, 1, module, e5},
             {attribute, 2, export, [{err, 0}, {wait, 1}]},
             {function, 3, err, 0, [{clause, 3, [], [], [{call, 3, {remote, 3, {atom, 3, erlang}, {atom, 3, error}}, [{atom, 3, err}]}]}]},
             {function, 4, wait, 1, [{clause, 4, [{var, 4, 'P'}], [],
                 [{op, 5, '!', {var, 5, 'P'}, {atom, 5, go}},
                  {'receive', 6, [{clause, 6, [{atom, 6, stop}], [], [{atom, 6, ok}]}]}]}]}],
    {ok, e5, Bin} = compile:forms(Forms, [binary]),
    {module, e5} = code:load_binary(e5, File, Bin),
    {'EXIT', {err, [{e5, err, 0, Info} | _]}} = (catch e5:err()),
    io:format("~w~n", [proplists:get_value(file, Info)]),
    io:format("~ts~n", [proplists:get_value(file, Info)]),
    Self = self(),
    Pid = spawn(fun() -> e5:wait(Self) end),
    receive go -> ok end,
    {current_stacktrace, [{e5, wait, 1, Info2} | _]} = process_info(Pid, current_stacktrace),
    io:format("~w~n", [proplists:get_value(file, Info2) =:= File]),
    Pid ! stop,
    ok.
