%% tests/e2e/mspec/ms_display.erl — the {display, T} match spec body action: the emulator prints
%% T to stdout like erlang:display/1 (on OTP 25 each line ends in "\r\n", also when stdout is
%% not a terminal) when the traced call happens, and {display, T} evaluates to true (used as a
%% {message, ...} value it gives a plain call message). Also {display, T} in match_spec_test/3.
%% erl writes io:format output asynchronously and erlang:display output directly, so the
%% program sleeps between the two kinds of output to keep the order stable.
-module(ms_display).
-export([main/0, f/1]).

f(X) -> X.

main() ->
    1 = erlang:trace_pattern({?MODULE, f, 1},
                             [{['$1'], [], [{display, {{shown, '$1'}}}, {message, {display, '$1'}}]}],
                             [local]),
    io:format("before~n"),
    timer:sleep(20),
    Msgs = run(fun() -> f(10), f([a, "str", <<"bin">>]) end),
    timer:sleep(20),
    io:format("messages: ~w~n", [Msgs]),
    timer:sleep(20),
    R = erlang:match_spec_test([x], [{['$1'], [], [{display, {{tested, '$1'}}}]}], trace),
    timer:sleep(20),
    io:format("match_spec_test: ~w~n", [R]),
    ok.

run(Fun) ->
    W = spawn(fun() -> receive go -> Fun() end end),
    Ref = monitor(process, W),
    1 = erlang:trace(W, true, [call]),
    W ! go,
    receive {'DOWN', Ref, process, W, _} -> ok end,
    collect(W).

collect(W) ->
    receive
        {trace, W, call, MFA} -> [{call, MFA} | collect(W)];
        {trace, W, call, MFA, Extra} -> [{call, MFA, Extra} | collect(W)]
    after 50 -> []
    end.
