%% tests/fault/fault_reload.erl — a module reloaded 20 times (two versions, alternately) while
%% 20 servers run it and it is traced: the servers' calls are traced (call, with return_trace
%% in a local match spec, and call_count), each reload happens while the servers wait in the
%% old code's receive, and old code is soft-purged once no server is in it.
%%
%% Exact checks: after a reload, a server's next request still runs the old version (it waits
%% in the old loop and work/1 is a local call) and the one after runs the new; every answer's
%% result is that version's work/1; the trace patterns, set on the code, neither carry over to
%% new code nor stay on code that becomes old (as in OTP): calls and returns are traced before
%% the first reload only, counted exactly; set again on the loaded code, they trace again.
%% Prints "all ok".
-module(fault_reload).
-export([main/0]).

-define(SERVERS, 20).
-define(RELOADS, 20).

main() ->
    {module, fault_reloadee} = code:ensure_loaded(fault_reloadee),
    Dir = filename:dirname(code:which(fault_reloadee)),
    {ok, V1} = file:read_file(filename:join(Dir, "fault_reloadee.beam")),
    {ok, V2} = file:read_file(filename:join([Dir, "v2", "fault_reloadee.beam"])),
    Tracer = spawn(fun() -> tracer(0, 0) end),
    1 = erlang:trace_pattern({fault_reloadee, work, 1}, [{'_', [], [{return_trace}]}], [local]),
    1 = erlang:trace_pattern({fault_reloadee, work, 1}, true, [call_count]),
    Servers = [spawn(fun() -> fault_reloadee:loop(0) end) || _ <- lists:seq(1, ?SERVERS)],
    [1 = erlang:trace(S, true, [call, {tracer, Tracer}]) || S <- Servers],
    %% One request each in the first version: traced and counted.
    check(first_version_answers, round(Servers, 1, 0) =:= ok),
    check(first_version_counted, erlang:trace_info({fault_reloadee, work, 1}, call_count) =:= {call_count, ?SERVERS}),
    Results = [reload(I, V1, V2, Servers) || I <- lists:seq(1, ?RELOADS)],
    check(old_then_new_code_after_each_reload, lists:all(fun(R) -> R =:= ok end, Results)),
    %% Only the first request per server was traced: code that becomes old loses its
    %% breakpoints (as in OTP), so the request served in it after the reload is not.
    check(traced_before_first_reload_only, counts(Tracer) =:= {?SERVERS, ?SERVERS}),
    check(new_code_not_counted, erlang:trace_info({fault_reloadee, work, 1}, call_count) =:= {call_count, false}),
    1 = erlang:trace_pattern({fault_reloadee, work, 1}, [{'_', [], [{return_trace}]}], [local]),
    N = 1 + 2 * ?RELOADS,
    check(traced_again_once_set, round(Servers, 1 + ?RELOADS rem 2, N) =:= ok andalso
                                 counts(Tracer) =:= {2 * ?SERVERS, 2 * ?SERVERS}),
    Stopped = [begin S ! {stop, self()}, receive {stopped, S, K} -> K after 10000 -> timeout end end || S <- Servers],
    check(every_request_served, Stopped =:= lists:duplicate(?SERVERS, N + 1)),
    erlang:trace_pattern({fault_reloadee, '_', '_'}, false, [local, call_count]),
    io:format("all ok~n").

%% Loads the other version while the servers wait in the old one: their next request runs the
%% old code, the one after the new; then the old code is purged (softly: no server is in it).
reload(I, V1, V2, Servers) ->
    {Bin, New, Old} = case I rem 2 of 1 -> {V2, 2, 1}; 0 -> {V1, 1, 2} end,
    {module, fault_reloadee} = code:load_binary(fault_reloadee, "fault_reloadee.beam", Bin),
    First = 1 + 2 * (I - 1),  % requests each server served before this reload
    R1 = round(Servers, Old, First),
    R2 = round(Servers, New, First + 1),
    Purged = code:soft_purge(fault_reloadee),
    case {R1, R2, Purged} of
        {ok, ok, true} -> ok;
        Other -> {reload, I, Other}
    end.

%% One request to every server, which has served [N] before: each must answer with version
%% [Version]'s work(N).
round(Servers, Version, N) ->
    [S ! {work, self()} || S <- Servers],
    Want = case Version of 1 -> N + 1; 2 -> N * 2 end,
    Answers = [receive {done, S, R, V} -> {R, V} after 10000 -> timeout end || S <- Servers],
    case lists:usort(Answers) of
        [{Want, Version}] -> ok;
        Other -> {round, Version, N, Other}
    end.

counts(Tracer) ->
    Tracer ! {counts, self()},
    receive {counts, C, R} -> {C, R} end.

tracer(Calls, Returns) ->
    receive
        {trace, _, call, {fault_reloadee, work, [_]}} -> tracer(Calls + 1, Returns);
        {trace, _, return_from, {fault_reloadee, work, 1}, _} -> tracer(Calls, Returns + 1);
        {counts, From} -> From ! {counts, Calls, Returns}, tracer(Calls, Returns);
        Other -> io:format("unexpected trace message ~p~n", [Other]), halt(1)
    end.

check(Name, true) -> io:format("~p: ok~n", [Name]);
check(Name, false) -> io:format("~p: FAILED~n", [Name]), halt(1).
