%% The distribution's BIFs given what they do not take, on a node that is not alive: OTP's
%% errors (badarg, notalive), and what is quietly lost (sends to other nodes, noconnect).
-module(dist_badargs).
-export([main/0]).

main() ->
    T = fun(F) -> try F() of R -> {ok, R} catch C:E -> {C, E} end end,
    Results = [
        T(fun() -> monitor_node(123, true) end),
        T(fun() -> monitor_node(foo@bar, maybe) end),
        T(fun() -> monitor_node(foo@bar, true) end),
        T(fun() -> monitor_node(node(), true) end),
        T(fun() -> monitor_node(node(), maybe) end),
        T(fun() -> erlang:monitor_node(foo@bar, true, [bad]) end),
        T(fun() -> nodes(bogus) end),
        T(fun() -> nodes([visible, bogus]) end),
        T(fun() -> nodes([this, known]) end),
        T(fun() -> nodes(visible, not_a_map) end),
        T(fun() -> erlang:setnode(foo, 1) end),
        T(fun() -> erlang:setnode('a@b', -1) end),
        T(fun() -> is_alive() end),
        T(fun() -> erlang:dist_get_stat(make_ref()) end),
        T(fun() -> is_reference(erlang:spawn_request(nonode_x@nohost_x, fun() -> ok end, [bad_option])) end),
        T(fun() -> {x, nonode_x@nohost_x} ! hi end),
        T(fun() -> erlang:send({x, nonode_x@nohost_x}, hi, [noconnect]) end),
        T(fun() -> monitor(process, {x, nonode_x@nohost_x}) end),
        T(fun() -> erlang:disconnect_node(nonode_x@nohost_x) end),
        T(fun() -> net_adm:ping(nonode_x@nohost_x) end)
    ],
    [io:format("~p~n", [R]) || R <- Results],
    io:format("messages: ~p~n", [[strip(M) || M <- flush()]]).

flush() -> receive M -> [M | flush()] after 200 -> [] end.

strip({spawn_reply, Ref, error, Why}) when is_reference(Ref) -> {spawn_reply, error, Why};
strip(M) -> M.
