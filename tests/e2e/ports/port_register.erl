-module(port_register).
-export([main/0]).

%% Registered ports: register/unregister/whereis/registered, sending to a registered
%% port, BIFs that take a registered name, and what happens to the name when the port
%% closes. Also is_port/1, port_to_list/list_to_port and erlang:ports/0.
main() ->
    process_flag(trap_exit, true),
    Before = own_ports(),
    P = open_port({spawn, "cat"}, []),
    show(register, register(beamlet_cat, P)),
    show(whereis, whereis(beamlet_cat) =:= P),
    show(in_registered, lists:member(beamlet_cat, registered())),
    show(register_same_port_other_name, try_(fun() -> register(beamlet_cat2, P) end)),
    show(register_name_taken, try_(fun() -> Q = open_port({spawn, "cat"}, []), R = try_(fun() -> register(beamlet_cat, Q) end), port_close(Q), receive {'EXIT', Q, _} -> ok end, R end)),
    show(register_name_taken_by_process, try_(fun() -> register(beamlet_cat, self()) end)),
    %% sending by name
    show(send_by_name, norm(P, beamlet_cat ! {self(), {command, "by name"}})),
    show(reply_by_name, norm(P, recv(P))),
    show(send_by_name_node, norm(P, {beamlet_cat, node()} ! {self(), {command, "by name node"}})),
    show(reply_by_name_node, norm(P, recv(P))),
    show(port_command_by_name, port_command(beamlet_cat, "pc name")),
    show(reply_port_command_by_name, norm(P, recv(P))),
    show(port_command3_by_name, port_command(beamlet_cat, "pc3", [])),
    show(reply_port_command3_by_name, norm(P, recv(P))),
    show(port_info_by_name, erlang:port_info(beamlet_cat, registered_name)),
    %% BIFs that do not take a name
    show(port_connect_by_name, try_(fun() -> port_connect(beamlet_cat, self()) end)),
    show(link_by_name, try_(fun() -> link(beamlet_cat) end)),
    show(unlink_by_name, try_(fun() -> unlink(beamlet_cat) end)),
    show(exit_by_name, try_(fun() -> exit(beamlet_cat, kill) end)),
    show(still_open, is_list(erlang:port_info(P))),
    %% unregister
    show(unregister, unregister(beamlet_cat)),
    show(unregister_again, try_(fun() -> unregister(beamlet_cat) end)),
    show(whereis_after_unregister, whereis(beamlet_cat)),
    show(registered_name_after_unregister, erlang:port_info(P, registered_name)),
    show(send_to_unregistered_name, try_(fun() -> beamlet_cat ! hello end)),
    show(port_command_unregistered_name, try_(fun() -> port_command(beamlet_cat, "x") end)),
    show(port_close_unregistered_name, try_(fun() -> port_close(beamlet_cat) end)),
    %% port_close by name; the name goes away with the port
    show(register_again, register(beamlet_cat, P)),
    show(port_close_by_name, port_close(beamlet_cat)),
    show(close_msgs, norm(P, until_exit(P))),
    show(whereis_after_close, whereis(beamlet_cat)),
    show(registered_after_close, lists:member(beamlet_cat, registered())),
    show(register_closed_port, try_(fun() -> register(beamlet_cat, P) end)),
    %% killing a registered port also frees the name
    P2 = open_port({spawn, "cat"}, []),
    register(beamlet_cat2, P2),
    exit(P2, kill),
    show(kill_registered, norm(P2, until_exit(P2))),
    show(whereis_after_kill, whereis(beamlet_cat2)),
    %% {Name, close} via a name: {Port, closed} comes back
    P3 = open_port({spawn, "cat"}, []),
    register(beamlet_cat3, P3),
    beamlet_cat3 ! {self(), close},
    show(close_msg_by_name, norm(P3, [recv(), recv()])),
    %% is_port, port_to_list, list_to_port
    P4 = open_port({spawn, "cat"}, []),
    show(is_port, [is_port(P4), is_port(self()), is_port(beamlet_cat), is_port(make_ref()), is_port("#Port<0.1>")]),
    L = erlang:port_to_list(P4),
    show(port_to_list_prefix, lists:prefix("#Port<", L) andalso lists:last(L) =:= $>),
    show(list_to_port_roundtrip, list_to_port(L) =:= P4),
    show(format_is_port_to_list, lists:flatten(io_lib:format("~p", [P4])) =:= L),
    show(term_to_binary_roundtrip, binary_to_term(term_to_binary(P4)) =:= P4),
    show(list_to_port_bad, [try_(fun() -> list_to_port(S) end) || S <- ["foo", "#Port<0.x>", "#Port<0>", "<0.1.0>", ""]]),
    show(list_to_port_never_opened, erlang:port_info(list_to_port("#Port<0.99999999>"))),
    show(port_to_list_pid, try_(fun() -> erlang:port_to_list(self()) end)),
    show(term_order, [P4 > make_ref(), P4 > fun() -> ok end, P4 < self(), P4 < {}, P4 > 1, P4 > foo]),
    show(ports_delta, length(own_ports() -- Before)),
    show(ports_member, lists:member(P4, erlang:ports())),
    port_close(P4),
    receive {'EXIT', P4, _} -> ok end,
    show(ports_after_close, length(own_ports() -- Before)),
    show(is_port_closed, is_port(P4)),
    show(flush, flush()),
    ok.

recv() -> receive X -> X after 3000 -> timeout end.
recv(P) -> receive {P, _} = M -> M after 3000 -> timeout end.

until_exit(P) ->
    receive
        {'EXIT', P, _} = E -> [E];
        {P, _} = M -> [M | until_exit(P)]
    after 3000 -> [timeout]
    end.

flush() -> receive M -> [M | flush()] after 20 -> [] end.

try_(F) -> try F() catch C:R -> {C, R} end.

show(Name, Value) -> io:format("~p ~p~n", [Name, Value]).

norm(P, L) when is_list(L) -> [norm(P, X) || X <- L];
norm(P, T) when is_tuple(T) -> list_to_tuple([norm(P, X) || X <- tuple_to_list(T)]);
norm(P, P) -> port;
norm(_, S) when S =:= self() -> self;
norm(_, X) when is_pid(X) -> pid;
norm(_, X) when is_port(X) -> other_port;
norm(_, X) when is_reference(X) -> ref;
norm(_, X) -> X.

%% The ports this process opened: kernel's standard_error opens its port from a process of its
%% own that may run after main/0 has started (OTP's standard_error:start_port/1 spawns it).
own_ports() ->
    Self = self(),
    [P || P <- erlang:ports(), erlang:port_info(P, connected) =:= {connected, Self}].
