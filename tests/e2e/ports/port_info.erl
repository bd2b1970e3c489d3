-module(port_info).
-export([main/0]).

%% erlang:port_info/1,2: the item list and its order, each item's value (non-deterministic
%% values only by type), unknown items, closed ports, registered names and non-ports.
main() ->
    process_flag(trap_exit, true),
    P = open_port({spawn, "cat"}, []),
    Info = erlang:port_info(P),
    show(info_keys, [K || {K, _} <- Info]),
    show(info_normalised, [item(P, I) || I <- Info]),
    Items = [name, links, id, connected, input, output, os_pid, registered_name,
             memory, queue_size, monitors, monitored_by, parallelism, locking],
    [show(Item, item(P, erlang:port_info(P, Item))) || Item <- Items],
    show(info2_matches_info1, [erlang:port_info(P, K) =:= {K, V} || {K, V} <- Info]),
    %% counters
    port_command(P, "12345"),
    recv_n(P, 5),
    P ! {self(), {command, [<<"ab">>, "c"]}},
    recv_n(P, 3),
    show(input_after, erlang:port_info(P, input)),
    show(output_after, erlang:port_info(P, output)),
    show(queue_size_idle, erlang:port_info(P, queue_size)),
    %% unknown / bad items on an open port
    show(unknown_item, try_(fun() -> erlang:port_info(P, bogus) end)),
    show(lock_item, try_(fun() -> erlang:port_info(P, lock) end)),
    show(integer_item, try_(fun() -> erlang:port_info(P, 1) end)),
    show(list_item, try_(fun() -> erlang:port_info(P, [name]) end)),
    %% options that show in port_info
    P2 = open_port({spawn, "cat"}, [{parallelism, true}]),
    show(parallelism_true, erlang:port_info(P2, parallelism)),
    port_close(P2),
    P3 = open_port({spawn_executable, "/bin/cat"}, [{arg0, "kitty"}, {args, ["-"]}]),
    show(exe_name, erlang:port_info(P3, name)),
    port_close(P3),
    %% registered
    true = register(beamlet_info_port, P),
    show(registered_name, erlang:port_info(P, registered_name)),
    show(registered_info_keys, [K || {K, _} <- erlang:port_info(P)]),
    show(by_name_item, erlang:port_info(beamlet_info_port, name)),
    show(by_name_all, erlang:port_info(beamlet_info_port) =:= erlang:port_info(P)),
    true = unregister(beamlet_info_port),
    show(unregistered_name, erlang:port_info(P, registered_name)),
    show(unknown_name, erlang:port_info(beamlet_no_such_port)),
    show(unknown_name_item, erlang:port_info(beamlet_no_such_port, name)),
    %% closed port
    port_close(P),
    receive {'EXIT', P, _} -> ok end,
    show(closed_info1, erlang:port_info(P)),
    [show(list_to_atom("closed_" ++ atom_to_list(I)), erlang:port_info(P, I)) || I <- Items],
    show(closed_unknown_item, erlang:port_info(P, bogus)),
    %% non-ports
    show(pid_info1, try_(fun() -> erlang:port_info(self()) end)),
    show(pid_info2, try_(fun() -> erlang:port_info(self(), name) end)),
    show(int_info1, try_(fun() -> erlang:port_info(42) end)),
    show(tuple_info2, try_(fun() -> erlang:port_info({a, b}, name) end)),
    ok.

item(P, {links, L}) -> {links, [norm(P, X) || X <- L]};
item(P, {connected, C}) -> {connected, norm(P, C)};
item(_, {id, I}) -> {id, is_integer(I)};
item(_, {os_pid, I}) -> {os_pid, is_integer(I) andalso I > 0};
item(_, {memory, M}) -> {memory, is_integer(M) andalso M > 0};
item(P, {monitored_by, L}) -> {monitored_by, [norm(P, X) || X <- L]};
item(_, X) -> X.

recv_n(_P, N) when N =< 0 -> ok;
recv_n(P, N) -> receive {P, {data, D}} -> recv_n(P, N - length(D)) after 3000 -> timeout end.

try_(F) -> try F() catch C:R -> {C, R} end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).

norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_pid(X) -> pid;
norm(_, X) -> X.
