%% A peer that speaks the handshake correctly and then sends garbage: this program plays a
%% node itself (OTP's handshake over gen_tcp, then {packet, 4}), connects to its own node and
%% sends packets no node should: no pass-through byte, a truncated control message, a control
%% message that is not one, a message without its payload, a truncated payload; then, as a
%% node that agreed on distribution headers (the atom cache, fragments), headers that lie.
%% Each time the connection is dropped and nothing else is affected: the node keeps serving a
%% real erl peer.
-module(dist_garbage).
-export([main/0]).

-define(COOKIE, e2e_dist_cookie).
%% The fake node's flags: OTP 25's without the atom cache and fragments (pass-through), then
%% with them (distribution headers).
-define(PLAIN, (16#1 bor 16#4 bor 16#8 bor 16#10 bor 16#20 bor 16#80 bor 16#100 bor 16#200 bor 16#400
                bor 16#800 bor 16#1000 bor 16#4000 bor 16#10000 bor 16#20000 bor 16#40000 bor 16#80000
                bor 16#100000 bor 16#400000 bor 16#1000000 bor 16#2000000 bor (1 bsl 32) bor (8 bsl 32))).
-define(HEADERS, (?PLAIN bor 16#2000 bor 16#800000)).

main() ->
    ok = e2e_dist:start("dist_garbage"),
    {_, N} = Peer = e2e_dist:peer("dist_garbage_peer"),
    %% (The node logs each bad packet, with bytes and names of its own: not compared here.)
    logger:set_primary_config(level, none),
    Cases = [{"no pass-through byte", <<"garbage">>},
             {"a truncated control message", <<$p, 131, 104, 5, 97>>},
             {"a control message that is not one", <<$p, (term_to_binary({99, x}))/binary>>},
             {"a control message that is not a tuple", <<$p, (term_to_binary(hello))/binary>>},
             {"a send without its message", <<$p, (term_to_binary({2, '', self()}))/binary>>},
             {"a send with a truncated message", <<$p, (term_to_binary({2, '', self()}))/binary, 131, 108, 0, 0, 0, 9>>},
             {"a link from something that is not a pid", <<$p, (term_to_binary({1, not_a_pid, self()}))/binary>>}],
    lists:foreach(fun({What, Packet}) -> garbage(What, Packet, ?PLAIN) end, Cases),
    Send = t2b_body({22, self(), self()}),
    HeaderCases =
        [{"pass-through where headers were agreed", [<<$p>>, term_to_binary({2, '', self()}), term_to_binary(x)]},
         {"a header that is cut", <<131, $D, 2>>},
         {"a reference to an atom never cached", [<<131, $D, 1, 0, 5>>, Send]},
         {"a term with its version byte after the header", [<<131, $D, 0>>, term_to_binary({22, self(), self()})]},
         {"a fragment of an unknown message", [<<131, $F, 9:64, 1:64>>, Send]},
         {"a first fragment with half a control message", [<<131, $E, 9:64, 2:64, 0>>, binary:part(Send, 0, 10)]}],
    lists:foreach(fun({What, Packet}) -> garbage(What, Packet, ?HEADERS) end, HeaderCases),
    logger:set_primary_config(level, notice),
    {S0, _} = fake_node("dist_garbage_ok", ?HEADERS),
    %% A message in three fragments; the first holds the control message (OTP's nodes read it
    %% from there) and the start of the payload.
    Control = t2b_body({22, self(), self()}),
    <<A:10/binary, B:100/binary, C/binary>> = t2b_body({fragmented, binary:copy(<<"ab">>, 100)}),
    ok = gen_tcp:send(S0, [<<131, $E, 7:64, 3:64, 0>>, Control, A]),
    ok = gen_tcp:send(S0, [<<131, $F, 7:64, 2:64>>, B]),
    ok = gen_tcp:send(S0, [<<131, $F, 7:64, 1:64>>, C]),
    io:format("a message in fragments from a fake node: ~p~n",
              [receive {fragmented, Ab} -> byte_size(Ab) after 5000 -> timeout end]),
    gen_tcp:close(S0),
    {S, Fake} = fake_node("dist_garbage_ok", ?PLAIN),
    ok = gen_tcp:send(S, [$p, term_to_binary({2, '', whereis_pid()}), term_to_binary(from_the_fake_node)]),
    io:format("a good message from the same fake node: ~p~n",
              [receive from_the_fake_node -> received after 5000 -> timeout end]),
    io:format("fake node listed: ~p~n", [lists:member(Fake, nodes())]),
    gen_tcp:close(S),
    io:format("the real peer still answers: ~p~n", [rpc:call(N, erlang, node, []) =:= N]),
    e2e_dist:stop_peer(Peer).

whereis_pid() -> self().

%% A term's external format after a distribution header: without its version byte.
t2b_body(T) -> <<131, Body/binary>> = term_to_binary(T, [{minor_version, 2}]), Body.

garbage(What, Packet, Flags) ->
    {S, Fake} = fake_node("dist_garbage_fake", Flags),
    Up = lists:member(Fake, nodes()),
    ok = gen_tcp:send(S, Packet),
    Closed = drain(S),
    wait_until(fun() -> not lists:member(Fake, nodes()) end),
    io:format("~s: connected ~p, dropped ~p~n", [What, Up, Closed]).

%% Reads (and ignores) what the node sends until it closes the connection.
drain(S) ->
    case gen_tcp:recv(S, 0, 10000) of
        {ok, _} -> drain(S);
        {error, closed} -> true;
        {error, Other} -> Other
    end.

%% A node named Tag_OsPid_N@localhost made by hand: the handshake of OTP 23+ as the side that
%% connects (dist_util's send_name, recv_status, recv_challenge, send_challenge_reply,
%% recv_challenge_ack), then the socket in {packet, 4}, as a connection.
fake_node(Tag, Flags) ->
    Name = Tag ++ "_" ++ os:getpid() ++ "_" ++ integer_to_list(erlang:unique_integer([positive])),
    Node = list_to_atom(Name ++ "@localhost"),
    [MyName, Host] = string:split(atom_to_list(node()), "@"),
    {port, Port, _} = erl_epmd:port_please(MyName, Host),
    {ok, S} = gen_tcp:connect({127, 0, 0, 1}, Port, [binary, {packet, 2}, {active, false}]),
    NameBin = list_to_binary(Name ++ "@localhost"),
    ok = gen_tcp:send(S, <<$N, Flags:64, 1234:32, (byte_size(NameBin)):16, NameBin/binary>>),
    {ok, <<$s, "ok">>} = gen_tcp:recv(S, 0, 10000),
    {ok, <<$N, _TheirFlags:64, Challenge:32, _Creation:32, Len:16, _TheirName:Len/binary>>} = gen_tcp:recv(S, 0, 10000),
    MyChallenge = 987654321,
    Digest = erlang:md5([atom_to_list(?COOKIE) | integer_to_list(Challenge)]),
    ok = gen_tcp:send(S, <<$r, MyChallenge:32, Digest/binary>>),
    Expected = erlang:md5([atom_to_list(?COOKIE) | integer_to_list(MyChallenge)]),
    {ok, <<$a, Expected:16/binary>>} = gen_tcp:recv(S, 0, 10000),
    ok = inet:setopts(S, [{packet, 4}]),
    wait_until(fun() -> lists:member(Node, nodes()) end),
    {S, Node}.

wait_until(F) ->
    case F() of
        true -> ok;
        false -> timer:sleep(10), wait_until(F)
    end.
