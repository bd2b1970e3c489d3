%% A process that exits gives back its references to off-heap binaries at once: a process
%% that got sub-binaries of a shared binary from one that has exited counts only its own
%% references (binary_SUITE:gc_test).
-module(binaries_of_exited).
-export([main/0]).

main() ->
    B = list_to_binary(lists:seq(1, 192)),
    Self = self(),
    F = fun() ->
                receive go -> ok end,
                {binary, [{_, 192, 1}]} = process_info(self(), binary),
                {B1, B2} = split(B, 68),
                erlang:garbage_collect(),
                {binary, L} = process_info(self(), binary),
                io:format("after the splitter exited: ~p~n", [[{Size, Refc} || {_, Size, Refc} <- L]]),
                io:format("sizes: ~p ~p~n", [size(B1), size(B2)]),
                Self ! done
        end,
    erlang:garbage_collect(),
    run(spawn_opt(erlang, apply, [F, []], [link, {fullsweep_after, 0}])).

run(Pid) ->
    erlang:garbage_collect(),
    io:format("parent holds: ~p~n", [process_info(self(), binary)]),
    Pid ! go,
    receive done -> ok end.

split(B, Pos) ->
    Self = self(),
    Ref = make_ref(),
    Splitter = spawn(fun() -> Self ! {Ref, split_binary(B, Pos)} end),
    M = monitor(process, Splitter),
    receive {'DOWN', M, process, Splitter, _} -> ok end,
    receive {Ref, R} -> R end.
