%% ttb across this node and a real erl peer: ttb:tracer/2 on both nodes (dbg's trace file
%% ports underneath), ttb:p/2 and ttb:tp/4, calls traced on both, then ttb:stop/1 fetching
%% the peer's log and formatting both with a handler.
-module(dist_ttb).
-export([main/0, work/1]).

main() ->
    ensure_ttb(),
    ok = e2e_dist:start("dist_ttb"),
    {_, N} = Peer = e2e_dist:peer("dist_ttb_peer"),
    Dir = filename:join("/tmp", "dist_ttb_" ++ os:getpid()),
    ok = file:make_dir(Dir),
    {ok, Cwd} = file:get_cwd(),
    ok = file:set_cwd(Dir),
    {ok, Nodes} = ttb:tracer([node(), N], [{file, "dist_ttb"}]),
    io:format("tracing on: ~p~n", [lists:sort([where(X) || X <- Nodes])]),
    {ok, _} = ttb:p(all, [call]),
    {ok, _} = ttb:tp(?MODULE, work, 1, []),
    [?MODULE:work(X) || X <- [1, 2, 3]],
    4 = erpc:call(N, ?MODULE, work, [4]),
    Self = self(),
    %% ttb's traces name the process as {Pid, InitialCall, Node}, with a timestamp.
    Handler = {fun(_Fd, {trace_ts, {_Pid, _Call, Node}, call, MFA, _Ts}, _Info, Acc) ->
                       Self ! {traced, where(Node), MFA}, Acc;
                  (_Fd, end_of_trace, _Info, Acc) -> Acc;
                  (_Fd, Other, _Info, Acc) -> Self ! {traced, other, Other}, Acc
               end, []},
    io:format("stop: ~p~n", [ttb:stop([{format, {handler, Handler}}])]),
    io:format("formatted:~n"),
    [io:format("  ~p~n", [T]) || T <- lists:sort(traced())],
    ok = file:set_cwd(Cwd),
    os:cmd("rm -rf " ++ Dir),
    e2e_dist:stop_peer(Peer).

work(N) -> N.

traced() ->
    receive {traced, Where, What} -> [{Where, What} | traced()] after 1000 -> [] end.

where(Node) when Node =:= node() -> here;
where(_) -> there.

%% ttb is OTP's observer application, which Debian's erlang-base lacks: compiled from
%% erlang-src's source when it is not on the code path.
ensure_ttb() ->
    case code:which(ttb) of
        non_existing ->
            [Src | _] = filelib:wildcard(filename:join(code:lib_dir(), "observer-*/src/ttb.erl")),
            {ok, ttb, Beam} = compile:file(Src, [binary, {i, filename:dirname(Src)}]),
            {module, ttb} = code:load_binary(ttb, Src, Beam),
            ok;
        _ -> ok
    end.
