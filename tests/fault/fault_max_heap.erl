%% tests/fault/fault_max_heap.erl — max_heap_size: processes that allocate without bound are
%% killed when a collection finds their heap past the limit (even when trapping exits), one
%% that asked not to be killed is only reported, the system default applies to new processes,
%% and the VM carries on. Prints one line per check and "all ok".
-module(fault_max_heap).
-export([main/0]).

main() ->
    #{size := 0} = process_flag(max_heap_size, #{size => 0}),
    check(killed, run(fun() -> grow([]) end, [{max_heap_size, #{size => 100000, error_logger => false}}]) =:= killed),
    check(killed_when_trapping_exits,
          run(fun() -> process_flag(trap_exit, true), grow([]) end,
              [{max_heap_size, #{size => 50000, error_logger => false}}]) =:= killed),
    check(process_flag_limit,
          run(fun() -> process_flag(max_heap_size, #{size => 20000, error_logger => false}), grow([]) end, []) =:= killed),
    %% kill => false: the process goes on past the limit and finishes.
    check(not_killed, run(fun() -> length(grow_to(18, [])) end,
                          [{max_heap_size, #{size => 1000, kill => false, error_logger => false}}]) =:= normal),
    Old = erlang:system_flag(max_heap_size, #{size => 30000, error_logger => false}),
    check(default_applies, run(fun() -> grow([]) end, []) =:= killed),
    erlang:system_flag(max_heap_size, Old),
    check(default_restored, erlang:system_info(max_heap_size) =:= Old),
    check(small_work_unaffected, run(fun() -> length(lists:seq(1, 1000)) end, [{max_heap_size, 100000}]) =:= normal),
    check(badarg_below_minimum, (catch process_flag(max_heap_size, 100)) =/= 0 andalso
                                    element(1, catch process_flag(max_heap_size, 100)) =:= 'EXIT'),
    io:format("all ok~n").

run(Fun, Opts) ->
    {Pid, Ref} = spawn_opt(fun() -> Fun(), exit(normal) end, [monitor | Opts]),
    receive {'DOWN', Ref, process, Pid, Why} -> Why after 60000 -> timeout end.

grow(L) -> grow([L | L]).

%% A list of 2^N conses' worth of nested pairs, then done.
grow_to(0, L) -> L;
grow_to(N, L) -> grow_to(N - 1, [N | lists:duplicate(2, L)]).

check(Name, true) -> io:format("~p: ok~n", [Name]);
check(Name, false) -> io:format("~p: FAILED~n", [Name]), halt(1).
