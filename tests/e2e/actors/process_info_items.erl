-module(process_info_items).
-export([main/0]).

%% process_info/2 for message_queue_len, messages, links, trap_exit, registered_name, dictionary,
%% the list form, and process_info of a dead process.
main() ->
    Self = self(),
    P = spawn(fun() ->
                      put(colour, blue),
                      put({k, 1}, [1, 2, 3]),
                      process_flag(trap_exit, true),
                      Self ! ready,
                      receive stop -> ok end
              end),
    receive ready -> ok end,
    io:format("message_queue_len: ~p~n", [process_info(P, message_queue_len)]),
    [P ! M || M <- [one, {two, 2}, "three"]],
    io:format("message_queue_len: ~p~n", [process_info(P, message_queue_len)]),
    io:format("messages: ~p~n", [process_info(P, messages)]),
    io:format("trap_exit: ~p~n", [process_info(P, trap_exit)]),
    {dictionary, D} = process_info(P, dictionary),
    io:format("dictionary: ~p~n", [lists:sort(D)]),
    io:format("registered_name (none): ~p~n", [process_info(P, registered_name)]),
    register(pii_target, P),
    io:format("registered_name: ~p~n", [process_info(P, registered_name)]),
    io:format("links (none): ~p~n", [process_info(P, links)]),
    link(P),
    {links, L1} = process_info(P, links),
    io:format("links after link: ~p~n", [L1 =:= [Self]]),
    unlink(P),
    io:format("links after unlink: ~p~n", [process_info(P, links)]),
    io:format("list form: ~w~n", [process_info(P, [message_queue_len, trap_exit, registered_name])]),
    unregister(pii_target),
    io:format("list form, no name: ~p~n", [process_info(P, [registered_name, message_queue_len])]),
    io:format("empty list: ~p~n", [process_info(P, [])]),
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, P, _} -> ok end,
    io:format("dead: ~p ~p ~p~n", [process_info(P, messages), process_info(P, [messages]), process_info(P)]),
    %% Own process: the queue seen from inside.
    [Self ! {m, N} || N <- lists:seq(1, 5)],
    io:format("own queue len: ~p~n", [process_info(Self, message_queue_len)]),
    io:format("own messages: ~w~n", [element(2, process_info(Self, messages))]),
    flush(),
    put(pi_key, pi_value),
    io:format("own dictionary has key: ~p~n", [lists:member({pi_key, pi_value}, element(2, process_info(Self, dictionary)))]),
    io:format("bad item: ~p~n", [try process_info(Self, list_to_atom("no_such_item")) catch C:E -> {C, E} end]),
    io:format("bad pid: ~p~n", [try process_info(list_to_atom("p"), messages) catch C2:E2 -> {C2, E2} end]),
    ok.

flush() ->
    receive _ -> flush() after 0 -> ok end.
