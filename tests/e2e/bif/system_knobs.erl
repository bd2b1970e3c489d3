%% system_info items, statistics(io), atomics and counters limits, error/3's error_info,
%% the backtrace_depth flag, time offsets, local time limits, module_info(nifs), compiled
%% binary patterns, and a monitor or a collection asked for after a kill signal: each as erl 25
%% answers.
-module(system_knobs).
-export([main/0, d1/0, d2/0, d3/0, d4/0, d5/0, d6/0, d7/0, d8/0, d9/0, d10/0]).

main() ->
    system_info_items(),
    array_limits(),
    error_info_option(),
    backtrace_depth(),
    time_api(),
    module_info_items(),
    binary_patterns(),
    monitor_after_kill(),
    ok.

show(Label, Value) -> io:format("~s: ~w~n", [Label, Value]).

outcome(F) ->
    try F() of
        V -> {ok, V}
    catch
        C:R -> {C, R}
    end.

system_info_items() ->
    Sizes = erlang:system_info(heap_sizes),
    show("heap sizes", {length(Sizes), lists:sublist(Sizes, 6), lists:last(Sizes)}),
    show("heap sizes increase", Sizes =:= lists:usort(Sizes)),
    EI = erlang:system_info(ethread_info),
    show("warning_map", error_logger:warning_map()),
    show("64-bit native atomics", lists:keymember("64-bit native atomics", 1, EI)),
    show("text items", [is_binary(erlang:system_info(I)) || I <- [info, procs, loaded, dist]]),
    show("procs mentions self", binary:match(erlang:system_info(procs), list_to_binary(pid_to_list(self()))) =/= nomatch),
    {{input, In}, {output, Out}} = statistics(io),
    show("io counts", {is_integer(In), is_integer(Out)}),
    {Wall, _} = statistics(wall_clock),
    Up = erlang:convert_time_unit(erlang:monotonic_time() - erlang:system_info(start_time), native, millisecond),
    show("start_time", Wall =< Up andalso Up - 100 =< Wall).

array_limits() ->
    show("atomics:new(0)", outcome(fun() -> atomics:new(0, []) end) =:= {error, badarg}),
    show("atomics:new(-1)", element(2, outcome(fun() -> atomics:new(-1, []) end))),
    show("atomics:new(2^64)", element(2, outcome(fun() -> atomics:new(1 bsl 64, []) end))),
    show("atomics:new(2^61)", element(2, outcome(fun() -> atomics:new(1 bsl 61, []) end))),
    show("atomics:new(a)", element(2, outcome(fun() -> atomics:new(a, []) end))),
    show("counters:new(2^64)", element(2, outcome(fun() -> counters:new(1 bsl 64, []) end))),
    show("counters:new(2^64, wc)", element(2, outcome(fun() -> counters:new(1 bsl 64, [write_concurrency]) end))),
    show("atomics:new(3)", atomics:info(atomics:new(3, []))),
    C = counters:new(3, [write_concurrency]),
    Self = self(),
    Adders = [spawn(fun() -> [counters:add(C, I rem 3 + 1, 2) || I <- lists:seq(1, 30000)], Self ! done end)
              || _ <- lists:seq(1, 4)],
    [receive done -> ok end || _ <- Adders],
    show("write_concurrency sums", [counters:get(C, I) || I <- [1, 2, 3]]),
    ok = counters:put(C, 2, -5),
    ok = counters:sub(C, 2, 1),
    show("put then sub", counters:get(C, 2)),
    show("get out of range", element(2, outcome(fun() -> counters:get(C, 4) end))),
    show("put 2^63", element(2, outcome(fun() -> counters:put(C, 1, 1 bsl 63) end))),
    #{size := 3, memory := Memory} = counters:info(C),
    show("memory covers a copy per scheduler", Memory > (erlang:system_info(schedulers) + 1) * 3 * 8).

error_info_option() ->
    Info = fun(Options) ->
                   {'EXIT', {_, [{_, _, _, Location} | _]}} = (catch error(r, [a], Options)),
                   lists:keyfind(error_info, 1, Location)
           end,
    show("error_info map", Info([{error_info, #{cause => c}}])),
    show("error_info not_map", Info([{error_info, not_map}])),
    show("error_info last wins", Info([{error_info, #{a => 1}}, {error_info, #{b => 2}}])),
    show("error_info last not a map", Info([{error_info, #{a => 1}}, {error_info, x}])),
    show("other options", Info([{bad, tuple}, bad])).

%% Ten frames at distinct call sites (a stacktrace shows a recursive call site once), through
%% remote calls (the compiler cannot see that they never return).
d1() -> [?MODULE:d2()].
d2() -> [?MODULE:d3()].
d3() -> [?MODULE:d4()].
d4() -> [?MODULE:d5()].
d5() -> [?MODULE:d6()].
d6() -> [?MODULE:d7()].
d7() -> [?MODULE:d8()].
d8() -> [?MODULE:d9()].
d9() -> [?MODULE:d10()].
d10() -> {'EXIT', {deep, Stk}} = (catch error(deep)),
         {current_stacktrace, Cur} = process_info(self(), current_stacktrace),
         {Stk, Cur}.

backtrace_depth() ->
    Old = erlang:system_flag(backtrace_depth, 2),
    Lengths = [begin
                   erlang:system_flag(backtrace_depth, D),
                   [[[[[[[[[{Stk, Cur}]]]]]]]]] = d1(),
                   {D, length(Stk), length(Cur)}
               end || D <- [0, 1, 3, 8]],
    erlang:system_flag(backtrace_depth, Old),
    show("old depth", Old),
    show("depths", Lengths),
    show("bad depth", element(2, outcome(fun() -> erlang:system_flag(backtrace_depth, -1) end))).

time_api() ->
    show("time_offset constant", erlang:time_offset() - erlang:time_offset(native)),
    Diff = erlang:system_time() - (erlang:monotonic_time() + erlang:time_offset()),
    show("system time is monotonic + offset", abs(Diff) < 1000000),
    {M, S, U} = erlang:timestamp(),
    TsUs = (M * 1000000 + S) * 1000000 + U,
    show("timestamp is system time", abs(TsUs - erlang:system_time(microsecond)) < 100000),
    show("os time near", abs(os:system_time(millisecond) - erlang:system_time(millisecond)) < 1000),
    Bad = fun(F, D) -> element(2, outcome(fun() -> erlang:F(D) end)) end,
    show("1901 to local", Bad(universaltime_to_localtime, {{1901, 12, 31}, {23, 59, 59}})),
    show("1901 to universal", Bad(localtime_to_universaltime, {{1901, 12, 31}, {23, 59, 59}})),
    {{Y, _, _}, _} = erlang:universaltime_to_localtime({{1902, 6, 1}, {12, 0, 0}}),
    show("1902 to local", Y),
    show("1900 posix", erlang:universaltime_to_posixtime({{1900, 1, 1}, {0, 0, 0}})).

module_info_items() ->
    show("erl_tracer nifs", lists:sort(erl_tracer:module_info(nifs))),
    show("own nifs", ?MODULE:module_info(nifs)),
    show("native", ?MODULE:module_info(native)),
    show("bad item", element(2, outcome(fun() -> erlang:get_module_info(?MODULE, nope) end))).

binary_patterns() ->
    {bm, BM} = binary:compile_pattern(<<"ab">>),
    {ac, AC} = binary:compile_pattern([<<"ab">>, <<"cd">>]),
    {bm, _} = binary:compile_pattern([<<"ab">>]),
    show("compiled refs", {is_reference(BM), is_reference(AC)}),
    show("match bm", binary:match(<<"xxcdab">>, {bm, BM})),
    show("matches ac", binary:matches(<<"xxcdab">>, {ac, AC})),
    show("split ac", binary:split(<<"1ab2cd3">>, {ac, AC}, [global])),
    Bad = fun(P) -> element(2, outcome(fun() -> binary:match(<<"ab">>, P) end)) end,
    show("swapped kinds", {Bad({bm, AC}), Bad({ac, BM})}),
    show("uncompiled tuple", Bad({bm, <<"ab">>})),
    show("empty pattern", element(2, outcome(fun() -> binary:compile_pattern(<<>>) end))),
    show("list_to_bin of a binary", element(2, outcome(fun() -> binary:list_to_bin(<<"apa">>) end))),
    show("list_to_bin", binary:list_to_bin([<<"a">>, $b, [<<"c">>]])).

monitor_after_kill() ->
    Results = [begin
                   P = spawn(fun() -> receive never -> ok end end),
                   exit(P, kill),
                   Ref = monitor(process, P),
                   receive {'DOWN', Ref, process, P, Reason} -> Reason end
               end || _ <- lists:seq(1, 20)],
    show("monitor after kill", lists:usort(Results)),
    Q = spawn(fun() -> receive never -> ok end end),
    Ref = monitor(process, Q),
    exit(Q, kill),
    show("monitor before kill", receive {'DOWN', Ref, process, Q, R} -> R end),
    GcResults = [begin
                     P = spawn(fun() -> receive never -> ok end end),
                     exit(P, kill),
                     GcRef = make_ref(),
                     async = erlang:garbage_collect(P, [{async, GcRef}]),
                     receive {garbage_collect, GcRef, Done} -> Done end
                 end || _ <- lists:seq(1, 20)],
    show("garbage_collect after kill", lists:usort(GcResults)),
    Named = spawn(fun() -> register(jeeves, self()), receive stop -> ok end end),
    wait_registered(jeeves),
    NamedRef = monitor(process, jeeves),
    show("monitors by name", process_info(self(), monitors)),
    Named ! stop,
    show("down by name", receive {'DOWN', NamedRef, process, Who, Why} -> {Who, Why} end),
    show("no monitors left", process_info(self(), monitors)).

wait_registered(Name) ->
    case whereis(Name) of
        undefined -> timer:sleep(5), wait_registered(Name);
        _ -> ok
    end.
