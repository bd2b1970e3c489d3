-module(ev_set_on_link).
-export([main/0, child/0]).
-import(e2e_trace, [collector/0, messages/1, worker/0, run/2, stop_wait/2, name/2]).

%% set_on_link / set_on_first_link with procs and send flags (OTP 25, legacy API).
%% - W traced [procs, send, set_on_link] by collector C. A child W creates with spawn_link
%%   inherits all of W's flags (set_on_link included) and tracer C; so does a grandchild
%%   spawn_linked by that child. A process that W links to with link/1, or one that links itself
%%   to W, does NOT inherit anything in OTP 25 (only W gets {link, P} / {getting_linked, Q}).
%% - Events: W gets spawn + link for spawn_link, the child gets spawned + getting_linked,
%%   unlink/getting_unlinked on unlink; untraced peers get nothing.
%% - set_on_first_link: the first spawn_link child inherits the flags without set_on_first_link
%%   and W loses set_on_first_link; the next spawn_link child gets nothing. link/1 and being
%%   linked do not consume set_on_first_link. With both set_on_link and set_on_first_link set,
%%   set_on_first_link wins: the spawn_link child gets neither of them, and W loses both.
%% - Changing flags of W without {tracer, C} would make the caller the tracer: badarg, so every
%%   trace/3 call here names C.

child() ->
    receive
        {spawn_link, From} -> From ! {child, self(), spawn_link(?MODULE, child, [])}, child();
        {link, P, From} -> link(P), From ! {linked, self()}, child();
        {unlink, P, From} -> unlink(P), From ! {unlinked, self()}, child();
        stop -> ok
    end.

main() ->
    C = collector(),
    W = worker(),
    P = spawn(?MODULE, child, []),
    Q = spawn(?MODULE, child, []),
    io:format("trace w: ~p~n", [erlang:trace(W, true, [procs, send, set_on_link, {tracer, C}])]),
    run(W, fun() -> link(P) end),
    K = run(W, fun() -> spawn_link(?MODULE, child, []) end),
    K ! {spawn_link, self()},
    G = receive {child, K, G0} -> G0 end,
    Q ! {link, W, self()},
    receive {linked, Q} -> ok end,
    run(W, fun() -> ok end),
    Names = [{C, c}, {W, w}, {P, p}, {Q, q}, {K, k}, {G, g}, {self(), main}],
    [flags(N, X, Names) || {X, N} <- Names, N =/= c, N =/= main],
    run(W, fun() -> unlink(P), unlink(Q), unlink(K) end),
    K ! {unlink, G, self()},
    receive {unlinked, K} -> ok end,
    stop_wait(K, stop), stop_wait(G, stop),
    events(C, Names),
    %% set_on_first_link
    io:format("set_on_link off: ~p~n", [erlang:trace(W, false, [set_on_link, {tracer, C}])]),
    io:format("set_on_first_link on: ~p~n", [erlang:trace(W, true, [set_on_first_link, {tracer, C}])]),
    flags(w, W, Names),
    K1 = run(W, fun() -> spawn_link(?MODULE, child, []) end),
    K2 = run(W, fun() -> spawn_link(?MODULE, child, []) end),
    Names1 = [{K1, k1}, {K2, k2} | Names],
    [flags(N, X, Names1) || N <- [w, k1, k2], {X, N1} <- Names1, N1 =:= N],
    io:format("set_on_first_link on: ~p~n", [erlang:trace(W, true, [set_on_first_link, {tracer, C}])]),
    P2 = spawn(?MODULE, child, []),
    run(W, fun() -> link(P2) end),
    Q ! {link, W, self()},
    receive {linked, Q} -> ok end,
    run(W, fun() -> ok end),
    Names2 = [{P2, p2} | Names1],
    [flags(N, X, Names2) || N <- [w, p2, q], {X, N1} <- Names2, N1 =:= N],
    K3 = run(W, fun() -> spawn_link(?MODULE, child, []) end),
    Names3 = [{K3, k3} | Names2],
    [flags(N, X, Names3) || N <- [w, k3], {X, N1} <- Names3, N1 =:= N],
    io:format("both on: ~p~n", [erlang:trace(W, true, [set_on_first_link, set_on_link, {tracer, C}])]),
    flags(w, W, Names3),
    K4 = run(W, fun() -> spawn_link(?MODULE, child, []) end),
    Names4 = [{K4, k4} | Names3],
    [flags(N, X, Names4) || N <- [w, k4], {X, N1} <- Names4, N1 =:= N],
    run(W, fun() -> [unlink(X) || X <- [K1, K2, K3, K4, P2, Q]], ok end),
    [stop_wait(X, stop) || X <- [K1, K2, K3, K4, P2]],
    events(C, Names4),
    io:format("untrace w: ~p~n", [erlang:trace(W, false, [procs, send, set_on_link, set_on_first_link])]),
    [stop_wait(X, stop) || X <- [W, P, Q, C]],
    ok.

flags(Name, P, Names) ->
    {flags, Fl} = erlang:trace_info(P, flags),
    {tracer, Tr} = erlang:trace_info(P, tracer),
    io:format("  ~p: flags ~p, tracer ~p~n", [Name, lists:sort(Fl), name(Tr, Names)]).

%% All trace messages C holds, grouped by tracee (no order between tracees).
events(C, Names) ->
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    Msgs = name(messages(C), Names),
    Tracees = lists:usort([element(2, X) || X <- Msgs]),
    [begin
         io:format("events of ~p:~n", [T]),
         [io:format("  ~w~n", [X]) || X <- Msgs, element(2, X) =:= T]
     end || T <- Tracees],
    ok.
