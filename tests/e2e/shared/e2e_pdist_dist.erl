%% tests/e2e/shared/e2e_pdist_dist.erl — an alternative carrier for the distribution
%% (`-proto_dist e2e_pdist`) whose connections are controlled by processes, through
%% erlang:dist_ctrl_* (OTP's "alternative carrier" protocol, alt_dist in erts' documentation).
%% TCP underneath; listening, accepting and addresses are inet_tcp_dist's. Each connection is a
%% controller process that owns the socket: during the handshake it sends and receives for
%% dist_util; once the connection is up it writes what the runtime has for the other node
%% (dist_ctrl_get_data when told dist_data) and an input process of its own reads the socket
%% and hands each packet to the runtime (dist_ctrl_put_data). Not a test itself.
-module(e2e_pdist_dist).
-export([listen/1, listen/2, accept/1, accept_connection/5, setup/5, close/1, select/1, address/0,
         is_node_name/1]).
-export([accept_loop/2, do_accept/6, do_setup/6, controller/1, input/3]).

-include_lib("kernel/include/net_address.hrl").
-include_lib("kernel/include/dist_util.hrl").

select(Node) -> inet_tcp_dist:select(Node).
address() -> inet_tcp_dist:address().
listen(Name) -> inet_tcp_dist:listen(Name).
listen(Name, Host) -> inet_tcp_dist:listen(Name, Host).
is_node_name(Node) -> inet_tcp_dist:is_node_name(Node).
close(Listen) -> inet_tcp:close(Listen).

%% ---- accepting ----

accept(Listen) ->
    spawn_opt(?MODULE, accept_loop, [self(), Listen], [link, {priority, max}]).

accept_loop(Kernel, Listen) ->
    {ok, Socket} = inet_tcp:accept(Listen),
    Ctrl = new_controller(Socket),
    Kernel ! {accept, self(), Ctrl, inet, tcp},
    receive
        {Kernel, controller, HandshakePid} ->
            Ctrl ! {handshaker, HandshakePid},
            HandshakePid ! {self(), controller};
        {Kernel, unsupported_protocol} ->
            exit(unsupported_protocol)
    end,
    accept_loop(Kernel, Listen).

accept_connection(AcceptPid, Ctrl, MyNode, Allowed, SetupTime) ->
    spawn_opt(?MODULE, do_accept, [self(), AcceptPid, Ctrl, MyNode, Allowed, SetupTime],
              dist_util:net_ticker_spawn_options()).

do_accept(Kernel, AcceptPid, Ctrl, MyNode, Allowed, SetupTime) ->
    receive
        {AcceptPid, controller} ->
            Timer = dist_util:start_timer(SetupTime),
            HSData = (hs_data(Kernel, Ctrl, MyNode, Timer))#hs_data{
                       allowed = Allowed,
                       f_address = fun(C, Node) -> remote_address(C, Node) end},
            dist_util:handshake_other_started(HSData)
    end.

%% ---- connecting ----

setup(Node, Type, MyNode, LongOrShortNames, SetupTime) ->
    spawn_opt(?MODULE, do_setup, [self(), Node, Type, MyNode, LongOrShortNames, SetupTime],
              dist_util:net_ticker_spawn_options()).

do_setup(Kernel, Node, Type, MyNode, _LongOrShortNames, SetupTime) ->
    Timer = dist_util:start_timer(SetupTime),
    [Name, Host] = string:split(atom_to_list(Node), "@"),
    {ok, Ip} = case inet:getaddr(Host, inet) of
                   {ok, _} = Found -> Found;
                   _ -> ?shutdown(Node)
               end,
    {TcpPort, Version} = case erl_epmd:port_please(Name, Ip) of
                             {port, P, V} -> {P, V};
                             _ -> ?shutdown(Node)
                         end,
    dist_util:reset_timer(Timer),
    case inet_tcp:connect(Ip, TcpPort, [{active, false}, {packet, 2}]) of
        {ok, Socket} ->
            Ctrl = new_controller(Socket),
            Ctrl ! {handshaker, self()},
            HSData = (hs_data(Kernel, Ctrl, MyNode, Timer))#hs_data{
                       other_node = Node,
                       other_version = Version,
                       request_type = Type,
                       f_address = fun(_, _) ->
                                           #net_address{address = {Ip, TcpPort}, host = Host,
                                                        protocol = tcp, family = inet}
                                   end},
            dist_util:handshake_we_started(HSData);
        _ ->
            ?shutdown(Node)
    end.

%% What both sides tell dist_util: every operation on the "socket" is a request to its
%% controller.
hs_data(Kernel, Ctrl, MyNode, Timer) ->
    #hs_data{kernel_pid = Kernel,
             this_node = MyNode,
             socket = Ctrl,
             timer = Timer,
             this_flags = 0,
             f_send = fun(C, Data) -> call(C, {send, Data}) end,
             f_recv = fun(C, Length, Timeout) -> call(C, {recv, Length, Timeout}) end,
             f_setopts_pre_nodeup = fun(C) -> call(C, {setopts, [{packet, 4}]}) end,
             f_setopts_post_nodeup = fun(_) -> ok end,
             f_getll = fun(C) -> {ok, C} end,
             f_handshake_complete = fun(C, Node, DHandle) -> call(C, {up, Node, DHandle}) end,
             mf_tick = fun(C) -> C ! tick end,
             mf_getstat = undefined,
             mf_setopts = fun(_, _) -> {error, enotsup} end,
             mf_getopts = fun(_, _) -> {error, enotsup} end}.

remote_address(Ctrl, Node) ->
    case {call(Ctrl, peername), string:split(atom_to_list(Node), "@")} of
        {{ok, Address}, [_, Host]} ->
            #net_address{address = Address, host = Host, protocol = tcp, family = inet};
        _ ->
            ?shutdown(no_node)
    end.

%% ---- the controller ----

new_controller(Socket) ->
    Ctrl = spawn_opt(?MODULE, controller, [Socket], [{priority, max}]),
    ok = inet_tcp:controlling_process(Socket, Ctrl),
    Ctrl.

call(Ctrl, Request) ->
    Ref = erlang:monitor(process, Ctrl),
    Ctrl ! {Ref, self(), Request},
    receive
        {Ref, Reply} -> erlang:demonitor(Ref, [flush]), Reply;
        {'DOWN', Ref, process, Ctrl, Reason} -> {error, Reason}
    end.

%% Until the handshake is over: its process's requests. The controller goes with it (a
%% failed handshake leaves nothing behind).
controller(Socket) ->
    receive {handshaker, Pid} -> link(Pid) end,
    handshake(Socket).

handshake(Socket) ->
    receive
        {Ref, From, {send, Data}} -> From ! {Ref, gen_tcp:send(Socket, Data)}, handshake(Socket);
        {Ref, From, {recv, Length, Timeout}} -> From ! {Ref, gen_tcp:recv(Socket, Length, Timeout)}, handshake(Socket);
        {Ref, From, {setopts, Opts}} -> From ! {Ref, inet:setopts(Socket, Opts)}, handshake(Socket);
        {Ref, From, peername} -> From ! {Ref, inet:peername(Socket)}, handshake(Socket);
        {Ref, From, {up, _Node, DHandle}} ->
            ok = inet:setopts(Socket, [binary]),  % (dist_util's handshake reads lists)
            Input = spawn_link(?MODULE, input, [self(), Socket, DHandle]),
            ok = erlang:dist_ctrl_input_handler(DHandle, Input),
            Input ! {self(), handler},  % (only the input handler may put data)
            From ! {Ref, ok},
            ok = erlang:dist_ctrl_get_data_notification(DHandle),
            output(Socket, DHandle);
        tick -> handshake(Socket)
    end.

%% The connection is up: what the runtime has for the other node goes out as it comes.
output(Socket, DHandle) ->
    receive
        dist_data ->
            write(Socket, DHandle),
            ok = erlang:dist_ctrl_get_data_notification(DHandle),
            output(Socket, DHandle);
        tick ->
            send(Socket, <<>>),
            output(Socket, DHandle)
    end.

write(Socket, DHandle) ->
    case erlang:dist_ctrl_get_data(DHandle) of
        none -> ok;
        Data -> send(Socket, Data), write(Socket, DHandle)
    end.

%% A socket the other side closed ends the controller, and with it the connection, as the
%% input process's end does (an exit, not an error: nothing for the logger).
send(Socket, Data) ->
    case gen_tcp:send(Socket, Data) of
        ok -> ok;
        {error, Reason} -> exit({output, Reason})
    end.

%% Packets in (an empty one is a tick), until the socket closes: then the controller, and
%% with it the connection, goes too.
input(Ctrl, Socket, DHandle) ->
    receive {Ctrl, handler} -> ok end,
    read(Socket, DHandle).

read(Socket, DHandle) ->
    case gen_tcp:recv(Socket, 0) of
        {ok, Packet} ->
            ok = erlang:dist_ctrl_put_data(DHandle, Packet),
            read(Socket, DHandle);
        {error, Reason} ->
            exit({input, Reason})
    end.
