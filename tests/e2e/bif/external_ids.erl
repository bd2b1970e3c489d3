%% tests/e2e/bif/external_ids.erl — pids, ports and references of other nodes, as read from
%% the external term format (as OTP's test helpers erts_test_utils:mk_ext_pid/3 and friends
%% make them): printing, node/1, type tests, term order, phash/phash2, term_to_binary, sizes,
%% maps and ETS keys, garbage collection; and what a node that is not distributed does with
%% them (monitor and link fire noconnection, sends are lost, noconnect is answered).
%% The channel number in the printed form is the node name's atom index: the .filter hides it.
-module(external_ids).
-export([main/0]).
-compile(nowarn_deprecated_function).  % erlang:phash/2

-define(APA, "apa@legolas").

node_ext(Name) -> [100, 0, length(Name) | Name].

pid(Name, Number, Serial, Creation) ->
    binary_to_term(list_to_binary([131, $X, node_ext(Name), <<Number:32, Serial:32, Creation:32>>])).
old_pid(Name, Number, Serial, Creation) ->
    binary_to_term(list_to_binary([131, 103, node_ext(Name), <<Number:32, Serial:32, Creation:8>>])).
port(Name, Id, Creation) when Id > 16#ffffffff ->
    binary_to_term(list_to_binary([131, $x, node_ext(Name), <<Id:64, Creation:32>>]));
port(Name, Id, Creation) ->
    binary_to_term(list_to_binary([131, $Y, node_ext(Name), <<Id:32, Creation:32>>])).
ref(Name, Numbers, Creation) ->
    binary_to_term(list_to_binary([131, $Z, <<(length(Numbers)):16>>, node_ext(Name), <<Creation:32>>,
                                   [<<N:32>> || N <- Numbers]])).

main() ->
    XPid = pid(?APA, 36, 0, 1),
    XPid5 = pid(?APA, 36, 5, 1),
    XPort = port(?APA, 24, 3),
    XWide = port(?APA, 16#100000018, 3),
    XRef = ref(?APA, [155, 0, 0], 2),
    XRefs = [ref(?APA, Ns, 2) || Ns <- [[], [1], [1, 2], [1, 2, 3, 4, 5]]],
    All = [XPid, XPid5, XPort, XWide, XRef | XRefs],
    io:format("printed: ~p~n", [hd(All)]),
    io:format("written: ~w~n", [All]),
    io:format("to_list: ~p~n", [[pid_to_list(XPid5), port_to_list(XWide), ref_to_list(XRef)]]),
    io:format("nodes: ~p~n", [[node(X) || X <- All]]),
    io:format("types: ~p~n", [[{is_pid(X), is_port(X), is_reference(X)} || X <- All]]),
    io:format("guards: ~p~n", [[kind(X) || X <- All]]),
    io:format("round trip: ~p~n", [[binary_to_term(term_to_binary(X)) =:= X || X <- All]]),
    io:format("encoded: ~w~n", [[term_to_binary(X) || X <- [XPid5, XPort, XWide, XRef, hd(XRefs)]]]),
    io:format("flat_size: ~p~n", [[erts_debug:flat_size(X) || X <- All]]),
    io:format("phash2: ~p~n", [[erlang:phash2(X) || X <- All]]),
    io:format("phash: ~p~n", [[erlang:phash(X, 1 bsl 32) || X <- All]]),
    io:format("same numbers as local: ~p~n",
              [[erlang:phash2(XPid) =:= erlang:phash2(c:pid(0, 36, 0)),
                erlang:phash2(XPort) =:= erlang:phash2(local_port(24))]]),
    %% Equality: the node and its creation count.
    io:format("equal: ~p~n", [[XPid =:= pid(?APA, 36, 0, 1), XPid == pid(?APA, 36, 0, 2),
                               XPid == pid("apa@legomas", 36, 0, 1), XPid == c:pid(0, 36, 0),
                               XRef =:= ref(?APA, [155, 0, 0], 2), XRef == ref(?APA, [155], 2)]]),
    %% Term order: pids by serial, number, node; ports and refs by node first.
    Mixed = [XPid5, c:pid(0, 36, 5), c:pid(0, 37, 0), c:pid(0, 9, 0), pid(?APA, 36, 5, 2),
             pid("bpa@legolas", 1, 0, 1), XPort, local_port(24), port("aaa@host", 25, 1),
             XRef, local_ref([155, 0, 0]), ref("zzz@host", [1], 1), ref(?APA, [1, 2, 3, 4, 5], 2)],
    io:format("sorted: ~w~n", [lists:sort(Mixed)]),
    %% This node's own, read back: nonode@nohost with creation 0 is local.
    io:format("local: ~w~n", [[pid("nonode@nohost", 2, 3, 0), is_pid(pid("nonode@nohost", 2, 3, 0)),
                               node(pid("nonode@nohost", 2, 3, 0)), pid("nonode@nohost", 2, 3, 0) =:= c:pid(0, 2, 3),
                               node(pid("nonode@nohost", 2, 3, 7)),
                               local_port(24), node(local_ref([1]))]]),
    io:format("bad: ~p~n", [[catch_badarg(F) || F <- [fun() -> pid("nonode@nohost", 32768, 0, 0) end,
                                                       fun() -> pid("nonode@nohost", 1, 8192, 0) end,
                                                       fun() -> old_pid(?APA, 1, 0, 4) end,
                                                       fun() -> ref(?APA, [1, 2, 3, 4, 5, 6], 1) end,
                                                       fun() -> ref("nonode@nohost", [1, 2, 3, 4], 0) end]]]),
    io:format("list_to_pid: ~p~n", [[catch_badarg(fun() -> list_to_pid(S) end)
                                     || S <- ["<1.2.3>", "<0.32768.0>", "<0.2.8192>", "<0.02.3>", "<0.2.3> ",
                                              "<0. 2.3>", "<0.-2.3>", "<0.2.3", "<0.2>"]]]),
    io:format("old formats: ~p~n", [[old_pid(?APA, 36, 0, 1) =:= XPid, pid_to_list(c:pid(0, 2, 3)),
                                     list_to_pid("<0.32767.8191>"), term_to_binary(c:pid(0, 2, 3))]]),
    %% As keys, in messages, in ETS, through a collection.
    M = maps:from_list([{X, N} || {X, N} <- lists:zip(All, lists:seq(1, length(All)))]),
    io:format("map: ~p~n", [[maps:get(X, M) || X <- All]]),
    T = ets:new(t, [set]),
    ets:insert(T, [{X, N} || {X, N} <- lists:zip(All, lists:seq(1, length(All)))]),
    ets:insert(T, {c:pid(0, 36, 0), local}),
    io:format("ets: ~p~n", [[ets:lookup_element(T, X, 2) || X <- All] ++ [ets:lookup_element(T, c:pid(0, 36, 0), 2)]]),
    Self = self(),
    spawn(fun() -> Self ! {back, All} end),
    Back = receive {back, B} -> B end,
    erlang:garbage_collect(),
    io:format("after gc: ~p~n", [Back =:= All andalso lists:sort(Back) =:= lists:sort(All)]),
    %% A node that is not distributed cannot reach another.
    io:format("is_process_alive: ~p~n", [catch_badarg(fun() -> is_process_alive(XPid) end)]),
    io:format("send: ~p~n", [[XPid ! hello, erlang:send(XPid, hi, [noconnect]), erlang:send({x, 'apa@legolas'}, hi, [noconnect]),
                              erlang:send(XPid, hi, []), exit(XPid, kill), unlink(XPid)]]),
    MRef = monitor(process, XPid),
    receive {'DOWN', MRef, process, XPid, R1} -> io:format("monitor: ~p~n", [R1]) end,
    io:format("monitor name: ~p~n", [catch_badarg(fun() -> monitor(process, {x, 'apa@legolas'}) end)]),
    %% A process of an earlier incarnation of this node (its name, another creation) is gone.
    Old = pid("nonode@nohost", 2, 3, 7),
    ORef = monitor(process, Old, [{tag, old}]),
    receive {old, ORef, process, Old, R4} -> io:format("monitor old incarnation: ~p ~p~n", [Old, R4]) end,
    io:format("link old incarnation: ~p~n", [catch link(Old)]),
    process_flag(trap_exit, true),
    true = link(Old),
    receive {'EXIT', Old, R5} -> io:format("link old incarnation, trapping: ~p~n", [R5]) end,
    true = link(XPid),
    receive {'EXIT', XPid, R3} -> io:format("link: ~p~n", [R3]) end,
    {links, Links} = process_info(self(), links),
    io:format("linked to it: ~p~n", [lists:member(XPid, Links)]),
    io:format("register: ~p~n", [catch_badarg(fun() -> register(x, XPid) end)]),
    ok.

kind(X) when is_pid(X) -> pid;
kind(X) when is_port(X) -> port;
kind(X) when is_reference(X) -> reference.

local_port(Id) -> port("nonode@nohost", Id, 0).
local_ref(Numbers) -> ref("nonode@nohost", Numbers, 0).

catch_badarg(F) ->
    try F() catch error:badarg -> badarg end.
